"""Hold your Hat, a whole three-round game online (issue 19, "Done when"): two people, one per team, each with a
word bot teammate, each in their own browser (Ana at a desktop, Bo on a phone), against each other.

The people act through their page only. As clue-giver a person presses Start, reads the word off their own card
and types a clue a person would think of: ``PERSON_CLUES`` is written by hand for every entry of the shipped deck's
blue colour (not taken from the association data): a description in round 1, one word in round 2, and pictures in
round 3 (mime), which is what a person at an online table can type there (HYH-R24: a typed round 3 clue is emoji
only). As a guesser a person reads the clues and types a guess a moment later: the right word comes from the
server's stored log (replayed), as a person who heard the clue would say it, sometimes after a wrong guess. At each
of their guessing turns the test checks the page holds no word card and does not show the word.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from divedeck.engine.match import Match
from divedeck.games.hold_your_hat.actions import Clue
from divedeck.games.hold_your_hat.events import WordWon
from tests.browser.test_hold_your_hat_bots import BOT, COLOR, token
from tests.browser.test_hold_your_hat_party_mixed import DEVICES
from tests.browser.test_hold_your_hat_web import click_first, create_table, game_over
from tests.live_server import ServerProcess

GAME_TIMEOUT = 150.0
GUESS_PACE = 1.05  # a seat's typed guesses are a second apart (HYH-A26)
WRONG = ("no idea", "banana", "castle")  # what a person tries first when unsure

# What a person would type for each blue entry, by round: written for this test, not from the association data
# (round 1 a description, round 2 one word, round 3 pictures and gestures only).
PERSON_CLUES = {
    "jellyfish": ("see-through sea blob that stings swimmers", "sting", "🌊 🫧 ⚡"),
    "ferry": ("big boat that carries cars across the water", "boat", "🚢 🚗 🌊"),
    "kebab": ("meat on a stick grilled, or in pitta bread", "skewer", "🍖 🔥 🥙"),
    "breeze": ("a light cool wind on a summer day", "wind", "🌬️ 🍃"),
    "eraser": ("rubber you use to rub out pencil marks", "rubber", "✏️ 🧽 ❌"),
    "ostrich": ("huge bird that can't fly, runs fast, head in the sand", "bird", "🐦 🏃 🏜️"),
    "ketchup": ("red tomato sauce for chips", "sauce", "🍅 🍟 🧴"),
    "mattress": ("the soft part of the bed you lie on", "bed", "🛏️ 😴"),
    "pancake": ("flat breakfast you flip in a pan with syrup", "flip", "🥞 🍳 🔄"),
    "bracelet": ("jewellery you wear round your wrist", "wrist", "💍 ✋ ✨"),
    "javelin": ("long spear athletes throw as far as they can", "spear", "🏃 🎯 💨"),
    "swimming": ("moving through the water in a pool", "pool", "🏊 🌊"),
    "badminton": ("racket game with a shuttlecock over a net", "shuttlecock", "🏸 🥅"),
    "curry": ("spicy indian dish with rice", "spicy", "🍛 🌶️ 🔥"),
    "circus": ("big top tent with clowns and acrobats", "clown", "🎪 🤡 🤹"),
    "ravioli": ("little pasta pillows stuffed with filling", "pasta", "🇮🇹 🥟 🍝"),
    "pond": ("small lake in a garden with ducks and frogs", "ducks", "🦆 🐸 💧"),
    "tent": ("you sleep in it when camping", "camping", "🏕️ ⛺ 🌙"),
    "fountain": ("water shooting up in a square, throw a coin in", "coin", "⛲ 💧 🪙"),
    "statue": ("figure made of stone or bronze in a park", "sculpture", "🗿 🧍 🏛️"),
    "rolling pin": ("wooden roller for flattening dough", "dough", "🥖 🍪 🫓"),
    "wardrobe": ("big cupboard where you hang your clothes", "closet", "🚪 👗 👔"),
    "parachute": ("you jump out of a plane and it opens", "skydiving", "✈️ 🪂 ⬇️"),
    "fold": ("bend paper over in half", "crease", "📄 ↩️"),
    "robot": ("metal machine man", "android", "🤖 ⚙️"),
    "trumpet": ("brass instrument you blow into, jazz", "brass", "🎺 🎶"),
    "noodles": ("long strings you slurp with chopsticks", "ramen", "🍜 🥢"),
    "frost": ("white ice on the grass on a cold morning", "icy", "❄️ 🌿 🥶"),
    "elf": ("santa's little helper with pointy ears", "santa", "🧝 🎄 🎁"),
    "braid": ("hair woven in three strands", "plait", "💇 🪢"),
    "pirate": ("sailor with an eye patch, a parrot and treasure", "treasure", "🏴‍☠️ 🦜 💰"),
    "judo": ("japanese martial art where you throw people", "karate", "🥋 🤼"),
    "umbrella": ("keeps you dry in the rain", "rain", "☔ 🌧️"),
    "hanger": ("hook for putting a shirt in the wardrobe", "coat", "👔 🪝"),
    "stir": ("move the spoon round in the soup", "spoon", "🥄 🍲 🔄"),
    "sandwich": ("two slices of bread with filling", "bread", "🍞 🧀 🍞"),
    "bush": ("small tree, a shrub in the garden", "shrub", "🌳 🌿"),
    "hippo": ("huge grey african animal that lives in rivers", "river", "🦛 💧"),
    "teacher": ("person at the front of the class at school", "school", "🏫 👩‍🏫 📚"),
    "snore": ("noise you make when sleeping loudly", "sleeping", "😴 💤 🔊"),
    "giraffe": ("tallest animal with a very long neck", "neck", "🦒 🌳"),
    "turtle": ("slow animal with a shell", "shell", "🐢 🐌"),
    "ankle": ("joint between your foot and your leg", "foot", "🦶 🦵"),
    "mechanic": ("fixes cars in a garage", "garage", "🔧 🚗"),
    "supermarket": ("big shop where you buy food with a trolley", "shop", "🛒 🏪 🍎"),
    "king": ("wears a crown and rules the country", "queen", "👑 🏰"),
    "planet": ("mars, earth or jupiter, goes round the sun", "mars", "🪐 🌍 ☀️"),
    "caramel": ("sticky brown sweet made of burnt sugar", "toffee", "🍬 🍯"),
    "tower": ("very tall building like in pisa or eiffel", "tall", "🗼 🏰"),
    "moth": ("night butterfly that flies at the lamp", "lamp", "🦋 🌙 💡"),
    "forklift": ("truck that lifts pallets in a warehouse", "warehouse", "🚜 📦 ⬆️"),
    "shark": ("big fish with sharp teeth, jaws", "jaws", "🦈 🦷"),
    "honey": ("sweet gold stuff bees make", "bees", "🍯 🐝"),
    "hamburger": ("beef patty in a bun with cheese", "mcdonalds", "🍔 🍟"),
    "ballerina": ("dancer in a tutu on tiptoe", "tutu", "🩰 💃"),
    "xylophone": ("you hit wooden bars with little hammers for notes", "mallets", "🎶 🔨 🎵"),
    "kite": ("flies on a string on a windy day", "string", "🪁 🌬️"),
    "trampoline": ("you bounce up and down on it in the garden", "bounce", "🤸 ⬆️ ⬇️"),
    "pillow": ("soft thing under your head in bed", "cushion", "🛏️ 😴 ☁️"),
    "violin": ("string instrument under the chin with a bow", "fiddle", "🎻 🎶"),
    "chin": ("bottom of your face under the mouth", "jaw", "🙂 👇"),
    "hailstone": ("little ball of ice falling from a storm", "ice", "🌨️ 🧊 ⬇️"),
    "gingerbread": ("spiced biscuit man at christmas", "biscuit", "🍪 🧑 🎄"),
    "lemon": ("sour yellow fruit", "sour", "🍋 😖"),
    "seal": ("animal with flippers that barks and balances balls", "flippers", "🦭 🐟"),
    "baseball": ("american game with a bat and a glove", "bat", "⚾ 🧢"),
    "carpenter": ("works with wood and makes tables", "wood", "🪚 🪵 🔨"),
    "acrobat": ("does flips and somersaults in the circus", "tumbler", "🤸 🎪"),
    "flood": ("too much water covering the streets", "water", "🌊 🏠 🌧️"),
    "sardine": ("small silver fish packed in a tin", "tin", "🐟 🥫"),
    "saw": ("tool with teeth to cut wood", "cut", "🪚 🪵"),
    "hospital": ("where doctors and nurses look after sick people", "doctors", "🏥 🚑 🤒"),
    "puppy": ("baby dog", "dog", "🐶 🍼"),
    "microscope": ("lets you see tiny cells in a lab", "lab", "🔬 🦠"),
    "daisy": ("little white flower with a yellow middle", "flower", "🌼 🌸"),
    "theater": ("where you watch a play on a stage", "play", "🎭 🎟️"),
    "alien": ("little green man from outer space", "martian", "👽 🛸"),
    "firefighter": ("puts out fires with a hose", "hose", "🚒 🔥 💦"),
    "park": ("green place in town with swings and trees", "swings", "🌳 🛝"),
    "glacier": ("huge river of ice in the mountains", "ice", "🧊 🏔️"),
    "shout": ("speak really loudly, yell", "yell", "🗣️ 📢"),
    "crown": ("gold thing the king wears on his head", "king", "👑 💎"),
    "waddle": ("walk like a penguin or a duck", "penguin", "🐧 🦆 🚶"),
    "peach": ("soft fuzzy orange fruit with a stone", "fruit", "🍑 🌳"),
    "butterfly": ("colourful insect with big wings, was a caterpillar", "wings", "🦋 🌸"),
    "wallet": ("where you keep your money and cards", "money", "👛 💳 💵"),
    "scratch": ("rub an itch with your nails", "itch", "💅 😣"),
    "tape measure": ("roll out strip to see how long something is", "ruler", "📏 📐"),
    "salmon": ("pink fish that swims up rivers", "fish", "🐟 🏞️ ⬆️"),
    "vacation": ("time off work at the beach", "trip", "🏖️ ✈️ 🧳"),
    "river": ("water flowing to the sea, the nile", "stream", "🏞️ 💧 🌊"),
    "doll": ("toy girl you dress up", "toy", "🪆 👧"),
    "cage": ("bird or hamster lives behind bars in it", "bars", "🐦 🔒"),
    "skirt": ("girls wear it round the waist instead of trousers", "dress", "👗 👧"),
    "gasp": ("quick breath in when you are shocked", "shocked", "😮 😱"),
    "pencil": ("you write with it and sharpen it", "write", "✏️ 📝"),
    "sailor": ("works on a ship at sea", "navy", "⚓ 🚢 👨"),
    "ladybug": ("little red beetle with black spots", "beetle", "🐞 🔴"),
    "cricket": ("english bat and ball game, or an insect that chirps", "wicket", "🏏 🦗"),
    "busy as a bee": ("working hard all day like a honey insect", "hardworking", "🐝 💼 🏃"),
    "full moon": ("round bright thing in the night sky, werewolves", "werewolf", "🌕 🐺"),
    "show and tell": ("bring a toy to school to present to the class", "present", "🧸 🏫 🗣️"),
    "man overboard": ("someone fell off the ship into the sea", "fell", "🚢 🧍 🌊"),
    "stage fright": ("nervous before going on to perform", "nervous", "🎭 😰"),
    "desert island": ("alone on a tiny beach with one palm tree", "castaway", "🏝️ 🌴"),
    "corn on the cob": ("yellow vegetable you hold and eat with butter", "maize", "🌽 🧈"),
    "alarm clock": ("wakes you up in the morning ringing", "wakeup", "⏰ 🛏️ 🔔"),
    "hermit crab": ("sea creature that lives in a borrowed shell", "shell", "🦀 🐚"),
    "once upon a time": ("how fairy tales begin", "fairytale", "📖 🏰 👸"),
    "picnic basket": ("what you carry food in for eating on the grass", "hamper", "🧺 🥪 🌳"),
    "surprise party": ("everyone hides and jumps out for a birthday", "birthday", "🎉 😲 🎂"),
    "wrap a present": ("put paper and ribbon round a gift", "gift", "🎁 🎀"),
    "egg and spoon race": ("school sports day, run balancing breakfast on cutlery", "balance", "🥚 🥄 🏃"),
    "hole in one": ("golf ball goes straight in with the first shot", "golf", "⛳ 🏌️"),
    "hot chocolate": ("warm cocoa drink with marshmallows", "cocoa", "☕ 🍫"),
    "rock paper scissors": ("game with your hand: stone, sheet, cut", "roshambo", "✊ ✋ ✌️"),
    "fruit salad": ("bowl of chopped apples, grapes and banana", "dessert", "🍎 🍌 🥣"),
    "wave goodbye": ("move your hand as someone leaves", "bye", "👋 🚶"),
    "class clown": ("the kid who makes everyone laugh at school", "joker", "🤡 🏫"),
    "sleep like a log": ("snooze deeply all night as a tree trunk", "deeply", "😴 🪵"),
    "take a selfie": ("photo of yourself with your phone", "photo", "🤳 📸"),
    "make a wish": ("blow out the candles and hope", "candles", "🎂 🕯️ 🌠"),
    "belly flop": ("landing flat on your tummy in the pool", "splash", "🏊 💥 💦"),
    "hamster": ("small pet that runs on a wheel", "wheel", "🐹 🎡"),
    "tambourine": ("round instrument you shake with jingles", "jingle", "🥁 🔔"),
    "caterpillar": ("crawly grub that turns into a butterfly", "grub", "🐛 🦋"),
    "harbor": ("where boats are tied up safely by the town", "port", "⚓ 🚤 🏘️"),
    "leash": ("lead you put on a dog to walk it", "lead", "🐕 🦮"),
    "rice": ("small white grains you eat with curry", "grains", "🍚 🥢"),
    "faint": ("pass out and fall to the floor", "passout", "😵 ⬇️"),
    "soccer": ("eleven players kick it into the net", "goal", "⚽ 🥅"),
    "whisper": ("speak very softly into someone's ear", "quiet", "🤫 👂"),
    "llama": ("woolly animal from peru that spits", "alpaca", "🦙 🏔️"),
    "croissant": ("french flaky pastry for breakfast", "pastry", "🥐 ☕"),
    "camera": ("takes pictures", "photos", "📷 📸"),
    "hammer": ("tool to hit nails", "nails", "🔨 🪛"),
    "wipe": ("clean the table with a cloth", "cloth", "🧽 🧻"),
    "hop": ("jump on one leg like a bunny", "bunny", "🐰 🦵"),
    "scorpion": ("desert bug with a stinging tail", "desert", "🦂 🏜️"),
    "zipper": ("closes your jacket, goes up and down", "fastener", "🧥 ⬆️ ⬇️"),
    "calculator": ("machine that does sums for you", "sums", "🧮 ➕ ➗"),
    "flour": ("white powder for baking bread", "baking", "🌾 🥖"),
    "fridge": ("keeps your food cold in the kitchen", "cold", "🧊 🥛"),
    "avocado": ("green fruit for guacamole with a big stone", "guacamole", "🥑 🌮"),
    "costume": ("what you dress up in for halloween", "fancydress", "🎃 👻 👗"),
    "apricot": ("small orange fruit like a little peach", "fruit", "🍑 🟠"),
    "nachos": ("mexican corn chips with melted cheese", "tortilla", "🌮 🧀 🌶️"),
}


def fallback(word: str, round_number: int) -> str:
    """A person's second clue when the first did not work (rounds 1 and 3; round 2 has one clue a card): the
    word's shape, or a shrug."""
    if round_number == 3:
        return "🤔 👉 ❓"
    return f"{len(word.replace(' ', ''))} letters" + (f", {len(word.split())} words" if " " in word else "")


def stored_game(server: ServerProcess, table_id: str) -> tuple[Match, list[tuple[int, int, int]], dict[int, list[str]]]:
    """The game as the server stored it, its log replayed (as the server does to load a table); for each word won,
    (round, clue-giver's seat, winning team); and the typed clues each seat gave."""
    stored = server.stored(table_id)
    match = Match.start(stored.game, stored.options, stored.seed)
    won: list[tuple[int, int, int]] = []
    clues: dict[int, list[str]] = {}
    for seat, notation, _ in stored.actions[:len(stored.actions) - stored.undone]:
        giver, action = match.state.clue_giver(), match.game.parse_action(notation)
        if isinstance(action, Clue):
            clues.setdefault(seat, []).append(action.text)
        for event in match.act(seat, action):
            if isinstance(event, WordWon):
                won.append((event.round, giver, event.team))
    return match, won, clues


def round_of(page: Any) -> int:
    """The round, as the page's header says it ("Round 2 of 3: One word")."""
    found = re.search(r"Round (\d) of \d", str(page.locator("#board").inner_text()))
    assert found is not None
    return int(found.group(1))


class Person:
    """One person at their own browser: gives clues when they hold the word, guesses when a teammate clues."""

    def __init__(self, name: str, page: Any, server: ServerProcess, table_id: str, artifacts: Path) -> None:
        self.name, self.page, self.server, self.table_id, self.artifacts = name, page, server, table_id, artifacts
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)
        self.clued: dict[tuple[int, str], tuple[int, float]] = {}  # (round, word) -> (clues typed, when)
        self.heard: dict[tuple[str, int], float] = {}  # (word, clues given) -> when first read
        self.last_guess = 0.0
        self.wrong = 0
        self.extra_time = 0
        self.guessed: list[str] = []
        self.clues_typed: list[str] = []
        self.shots: set[str] = set()

    def shot(self, name: str) -> None:
        if name not in self.shots:
            self.shots.add(name)
            self.page.screenshot(path=str(self.artifacts / f"{self.name.lower()}-{name}.png"))

    def step(self) -> bool:
        page = self.page
        if game_over(page):
            return False
        if click_first(page, "#overlay-close:visible") or click_first(page, '[data-action="start"]:enabled'):
            return True
        if click_first(page, '[data-action="extra"]:enabled'):  # time is up and the team holds EXTRA TIME
            self.extra_time += 1
            return True
        if click_first(page, '[data-action="end"]:enabled'):
            return True
        if page.locator("#hyh-clue").count() and page.locator(".hyh-word-text").count():
            return self.give_clue()
        if page.locator("#hyh-guess").count():
            return self.guess()
        return False

    def give_clue(self) -> bool:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        page = self.page
        try:
            word = str(page.locator(".hyh-word-text").first.get_attribute("data-word", timeout=500))
            number = round_of(page)
        except PlaywrightTimeout:
            return False  # the word was won or the time ran out between two looks
        typed, when = self.clued.get((number, word), (0, 0.0))
        if typed >= (1 if number == 2 else 2) or (typed and time.monotonic() - when < 6):
            return False  # one clue a card in round 2 (HYH-A21); else a second try after a while
        self.shot(f"round{number}-clue-giver")
        clue = PERSON_CLUES[word][number - 1] if not typed else fallback(word, number)
        self.clued[(number, word)] = (typed + 1, time.monotonic())
        try:
            page.locator("#hyh-clue").fill(clue, timeout=500)
            page.locator('[data-act="clue"]').click(timeout=500)
        except PlaywrightTimeout:
            return False
        self.clues_typed.append(clue)
        return True

    def guess(self) -> bool:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        page = self.page
        shown = [str(text) for text in page.locator(".hyh-clues li").all_inner_texts()]
        if not shown:
            return False
        match, _, _ = stored_game(self.server, self.table_id)
        state = match.state
        if state.current < 0 or not state.clues or shown[-1] != f"“{state.clues[-1]}”":
            return False  # the page and the server's log are not at the same clue (yet)
        word = state.entry(state.current)[0]
        self.check_no_word(word)
        now = time.monotonic()
        seen = self.heard.setdefault((word, len(state.clues)), now)
        if seen == now:
            self.shot(f"round{state.round}-guesser")  # the clue just read, before anyone guessed it
        if now - seen < 0.6 or now - self.last_guess < GUESS_PACE or word in self.guessed[-1:]:
            return False  # reading the clue; a second between two guesses; said it already
        # Now and then a person is unsure and tries something else first.
        unsure = len(self.guessed) % 3 == 1 and self.wrong < len(self.guessed)
        text = WRONG[self.wrong % len(WRONG)] if unsure else word
        try:
            page.locator("#hyh-guess").fill(text, timeout=500)
            page.locator('[data-act="guess"]').click(timeout=500)
        except PlaywrightTimeout:
            return False  # the word was won or the time ran out between two looks
        self.last_guess = time.monotonic()
        if unsure:
            self.wrong += 1
        else:
            self.guessed.append(word)
        return True

    def check_no_word(self, word: str) -> None:
        """HYH-R5: a guesser's page holds no word card and does not show the word (aside from the won cards, as a
        word won in an earlier round is public, and the feedback on the person's own right guess)."""
        assert not self.page.locator(".hyh-word-text").count(), f"{self.name} sees a word card while guessing"
        shown = str(self.page.evaluate("""() => {
            const board = document.querySelector('#board').cloneNode(true);
            board.querySelectorAll('.hyh-chip, .hyh-feedback').forEach((chip) => chip.remove());
            return board.textContent;
        }"""))
        found = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", shown, re.IGNORECASE)
        assert found is None, f"{self.name} sees the word {word!r} while guessing: {shown[found.start() - 150:][:300]}"


def test_two_people_and_word_bots_play_a_whole_three_round_game_online(
        browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """Team A: Ana (desktop) and a bot; team B: Bo (phone) and a bot. The clue-giver changes every turn (the
    default rotation), so each person gives clues to their bot one turn and guesses its clues the next; 6 words,
    9-second turns. Played until the game is over; a person takes EXTRA TIME when the team holds it."""
    options = {"deck_size": 6, "turn_seconds": 9, "color": COLOR}
    created = create_table(server, options, [{"kind": "human", "name": "Ana"}, BOT,
                                             {"kind": "human", "name": "Bo"}, BOT])
    table_id = created["table"]["id"]
    people = []
    for name, seat, device in (("Ana", 0, "desktop"), ("Bo", 2, "phone")):
        page = browser.new_context(**DEVICES[device]).new_page()
        person = Person(name, page, server, table_id, artifacts)
        page.goto(f"{server.url}/table/{table_id}#seat={seat}&token={token(created, seat)}")
        page.wait_for_selector("#board .hyh-stage", timeout=15000)
        people.append(person)
    for old in artifacts.glob("*.png"):
        old.unlink()  # this test's screenshots of an earlier run: each run takes its own
    deadline = time.monotonic() + GAME_TIMEOUT
    while not all(game_over(person.page) for person in people):
        assert time.monotonic() < deadline, people[0].page.locator("#log").inner_text()
        if not any([person.step() for person in people]):
            people[0].page.wait_for_timeout(60)
    for person in people:
        person.page.screenshot(path=str(artifacts / f"{person.name.lower()}-over.png"), full_page=True)
        assert "game over" in person.page.locator("#gameover").inner_text().lower()
    match, won, clues = stored_game(server, table_id)
    assert match.state.phase == "over", match.state.phase
    assert [len(team) for team in match.state.scores] == [3, 3], match.state.scores  # three rounds recorded
    assert {number for number, _, _ in won} == {1, 2, 3}, won
    assert {team for _, _, team in won} == {0, 1}, won  # words won by both teams
    # The people's typed clues won words: at least one of Ana's (seat 0) or Bo's (seat 2), guessed by their bot.
    assert any(giver in (0, 2) and team == giver // 2 for _, giver, team in won), won
    for seat, person in ((0, people[0]), (2, people[1])):
        assert person.clues_typed and person.guessed, (person.name, person.clues_typed, person.guessed)
        # The hand-written clues pass the game's clue check: all taken (one may have met the end of the timer).
        assert len(clues.get(seat, [])) >= len(person.clues_typed) - 1, (person.clues_typed, clues.get(seat))
        assert not person.errors, (person.name, person.errors)
    for person in people:
        person.page.context.close()


def test_the_hand_written_clues_cover_the_blue_words_and_pass_the_clue_check() -> None:
    """Every blue entry of the shipped deck has a person's clue for each round, and the game's clue judge (HYH-R24)
    takes each of them, the fallbacks too."""
    from divedeck.games.hold_your_hat.judging import clue_problem
    from divedeck.games.hold_your_hat.words import COLORS, load_words

    blue = [card.entries[COLORS.index(COLOR)] for card in load_words(None).cards]
    assert sorted(PERSON_CLUES) == sorted(entry.text for entry in blue)
    for entry in blue:
        for number, clue in enumerate(PERSON_CLUES[entry.text], start=1):
            assert clue_problem(clue, entry.text, entry.alternates, number) is None, (entry.text, clue)
        for number in (1, 3):
            assert clue_problem(fallback(entry.text, number), entry.text, entry.alternates, number) is None
