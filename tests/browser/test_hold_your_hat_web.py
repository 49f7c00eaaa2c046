"""Hold your Hat in a real browser: two teams of two each in their own browser (online), and one shared screen
(party mode), playing whole games through the page as people would.

Online, the players only look at their own page: the clue-giver reads the word off the screen and the test "says"
it to a teammate, who types it into the guess box (or, for the other team, into the THEFT box); in round 3 (mime)
the clue-giver confirms with Got it. No page but the clue-giver's may show the current word.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess

GAME_TIMEOUT = 150.0


def create_table(server: ServerProcess, options: dict[str, Any], seats: list[dict[str, Any]],
                 hotseat: bool = False) -> dict[str, Any]:
    body = json.dumps({"game": "hold-your-hat", "options": options, "seats": seats, "hotseat": hotseat}).encode()
    request = urllib.request.Request(f"{server.url}/api/tables", data=body,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        created: dict[str, Any] = json.load(response)
    return created


def game_over(page: Any) -> bool:
    return bool(page.locator("#gameover:visible").count())


def click_first(page: Any, selector: str) -> bool:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    found = page.locator(selector)
    if not found.count():
        return False
    try:
        found.first.click(timeout=1000)
    except PlaywrightTimeout:
        return False
    return True


def board_text(page: Any) -> str:
    return str(page.locator("#board").inner_text())


class Table:
    """Four pages, one per seat; seats 0 and 1 are team A, 2 and 3 team B."""

    def __init__(self, pages: list[Any], artifacts: Path) -> None:
        self.pages = pages
        self.artifacts = artifacts
        self.words_seen: list[str] = []
        self.thefts = 0
        self.raids = 0
        self.raided = 0
        self.shots: set[str] = set()

    def shot(self, name: str, page: Any) -> None:
        if name not in self.shots:
            self.shots.add(name)
            page.screenshot(path=str(self.artifacts / f"{name}.png"), full_page=True)

    def step(self) -> bool:
        """Do one useful thing somewhere; ``True`` if something was done."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        from playwright.sync_api import expect

        for seat, page in enumerate(self.pages):
            if game_over(page):
                continue
            if click_first(page, "#overlay-close:visible"):
                return True
            if click_first(page, '[data-action="start"]:enabled'):
                return True
            if click_first(page, '[data-action="end"]:enabled'):
                return True
            if click_first(page, '[data-action^="raid "]:enabled'):
                self.raids += 1
                return True
            word = page.locator(".hyh-word-text")
            if not word.count():
                continue
            try:
                text = str(word.first.get_attribute("data-word", timeout=1000))
            except PlaywrightTimeout:
                continue  # the word went away (won, or the timer ran out) between two looks

            self.check_no_leak(seat, text, first_time=text not in self.words_seen)
            if text not in self.words_seen:
                self.words_seen.append(text)
            round_3 = "Mime" in board_text(page)
            mate = self.pages[seat ^ 1]
            other = self.pages[2 if seat < 2 else 0]
            if not round_3 and other.locator("#hyh-theft").count() and self.thefts < 2:
                self.shot("theft-box", other)
                self.type_into(other, "#hyh-theft", text, '[data-act="theft"]')
                self.thefts += 1
                return True
            if not round_3 and other.locator("#hyh-guess").count() and self.raids and self.raided < 1:
                self.shot("raider", other)
                self.type_into(other, "#hyh-guess", text, '[data-act="guess"]')  # a raider is quicker
                self.raided += 1
                return True
            if round_3 or not mate.locator("#hyh-guess").count():
                self.shot("mime-clue-giver", page) if round_3 else None
                return click_first(page, '[data-act="send"][data-action^="got "]:enabled')
            self.shot("guesser", mate)
            self.shot("clue-giver", page)
            # The header speaks to each seat in the game's own words, never "<clue-giver> to play".
            for reader in (page, mate, other):
                expect(reader.locator("#turn")).not_to_have_text(re.compile(r"to play$"))
            self.type_into(mate, "#hyh-guess", "not it", '[data-act="guess"]')
            self.type_into(mate, "#hyh-guess", text.upper(), '[data-act="guess"]')
            return True
        return False

    def type_into(self, page: Any, box: str, text: str, button: str) -> None:
        """Type ``text`` and press the button (a round's summary dialog on that page is closed first)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        click_first(page, "#overlay-close:visible")
        try:
            page.locator(box).fill(text, timeout=1000)
            page.locator(button).first.click(timeout=1000)
        except PlaywrightTimeout:
            pass  # the page moved on (the word was won, the timer ran out): the next step looks again

    def check_no_leak(self, giver: int, word: str, first_time: bool) -> None:
        """HYH-R5: the current word is on the clue-giver's board only. (The same words come back every round, and a
        word won before is public in the won lists: the whole board is searched only the first time a word is up.)"""
        for seat, page in enumerate(self.pages):
            if seat == giver or page.locator(".hyh-word-text").count():  # (the next turn's clue-giver, already)
                continue
            won_now = [str(t) for t in page.locator(".hyh-chip").all_inner_texts()]
            if first_time and not any(word in chip for chip in won_now):
                # As a whole word: 'elf' may well be in the help text's "itself".
                shown = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", board_text(page))
                assert shown is None, f"seat {seat} sees the word {word!r}"


def open_seat(browser: Any, server: ServerProcess, table_id: str, seat: int, token: str) -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(f"{server.url}/table/{table_id}#seat={seat}&token={token}")
    page.wait_for_selector("#board .hyh-stage", timeout=15000)
    return page


def test_two_teams_of_two_play_online_each_in_their_own_browser(browser: Any, server: ServerProcess,
                                                                 artifacts: Path) -> None:
    options = {"deck_size": 3, "turn_seconds": 30, "color": "blue", "start_with_raid": True}
    created = create_table(server, options, [{"kind": "human", "name": name} for name in ("Ana", "Ben", "Cy", "Di")])
    table_id, tokens = created["table"]["id"], created["tokens"]
    pages = [open_seat(browser, server, table_id, seat, tokens[seat]) for seat in range(4)]
    table = Table(pages, artifacts)
    table.shot("start-seat0", pages[0])
    table.shot("start-seat2", pages[2])
    pages[3].set_viewport_size({"width": 360, "height": 740})  # one player on a phone
    deadline = time.monotonic() + GAME_TIMEOUT
    while not all(game_over(page) for page in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not table.step():
            pages[0].wait_for_timeout(80)
    for seat, page in enumerate(pages):
        page.screenshot(path=str(artifacts / f"over-seat{seat}.png"), full_page=True)
        assert "won" in page.locator("#gameover").inner_text().lower() or "share" in page.locator(
            "#gameover").inner_text().lower()
    assert len(table.words_seen) >= 3
    assert table.raids >= 1 and table.raided == 1  # RAID played before a turn, and a raider's guess
    assert "played RAID" in pages[1].locator("#log").inner_text() or table.raids
    log = pages[0].locator("#log").inner_text()
    assert "guessed" in log and "right!" in log
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}", timeout=10) as response:
        assert json.load(response)["table"]["status"] == "finished"


def test_party_mode_one_shared_screen_with_a_beep_when_time_runs_out(browser: Any, server: ServerProcess,
                                                                    artifacts: Path) -> None:
    options = {"party": True, "deck_size": 3, "turn_seconds": 3, "rounds": 3, "start_with_raid": True}
    created = create_table(server, options, [{"kind": "human", "name": name} for name in ("Ana", "Ben", "Cy", "Di")],
                           hotseat=True)
    table_id, tokens = created["table"]["id"], created["tokens"]
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/")
    stored = {str(seat): token for seat, token in enumerate(tokens)}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"divedeck.tokens.{table_id}", json.dumps(stored)])
    page.goto(f"{server.url}/table/{table_id}")
    page.wait_for_selector("#cover-ready:visible", timeout=15000)
    page.screenshot(path=str(artifacts / "cover.png"))
    assert page.locator(".hyh-word-text").count() == 0, "no word may show under the cover"
    page.wait_for_timeout(750)  # the cover ignores a press in its first moments
    page.locator("#cover-ready").click()
    page.wait_for_selector('[data-action="start"]', timeout=10000)
    page.screenshot(path=str(artifacts / "party-pre-turn.png"), full_page=True)
    # Team B calls RAID before team A's turn: the clue-giver, holding the screen, enters it.
    page.locator('[data-action="raid B"]').click()
    page.wait_for_selector('.hyh-team[data-team="B"] .badge-hit', timeout=5000)
    # The first turn: the team says nothing right, the timer runs out, the page beeps.
    page.locator('[data-action="start"]').click()
    page.wait_for_selector(".hyh-word-text", timeout=5000)
    assert page.locator('[data-action="got B"]').count() == 1  # the raiders' own Got it button
    page.screenshot(path=str(artifacts / "party-word.png"), full_page=True)
    wait_until(page, "document.querySelector('#board').dataset.beeps === '1'", timeout=15)
    # Then the screen goes round: each clue-giver starts the timer and confirms words with Got it.
    deadline = time.monotonic() + GAME_TIMEOUT
    confirmed = 0
    while not game_over(page):
        assert time.monotonic() < deadline, "the party game did not end in time"
        if page.locator("#cover-ready:visible").count():
            page.wait_for_timeout(750)  # the cover ignores a press in its first moments
            click_first(page, "#cover-ready:visible")
        elif any(click_first(page, selector) for selector in (
                "#overlay-close:visible", '[data-action^="raid "]:enabled', '[data-action="start"]:enabled',
                '[data-action="end"]:enabled')):
            continue
        elif click_first(page, '[data-act="send"][data-action^="got "]:enabled'):
            confirmed += 1
        else:
            page.wait_for_timeout(60)
    page.screenshot(path=str(artifacts / "party-over.png"), full_page=True)
    assert not errors, errors
    # Words are won by Got it presses (at least one a round; a slow machine can let the 3-second timer take some
    # turns without a word, and the RAID's own button takes others): the rounds and the game end are checked below.
    assert confirmed >= 3
    assert "round 3 over" in page.locator("#log").inner_text()
    assert "game over" in page.locator("#gameover").inner_text().lower()


def test_the_clue_giver_sees_the_guesses_beside_the_word_and_the_guesser_reads_no_or_close(
        browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """Issue 14: a live guess feed beside the word for the clue-giver; "no" or "close!" (the server's HYH-A28)
    beside the guess box; a refused clue kept in its box; and the turn's recap once it is over."""
    from playwright.sync_api import expect

    options = {"deck_size": 3, "turn_seconds": 12, "color": "blue"}
    created = create_table(server, options, [{"kind": "human", "name": name} for name in ("Ana", "Ben", "Cy", "Di")])
    table_id, tokens = created["table"]["id"], created["tokens"]
    giver = open_seat(browser, server, table_id, 0, tokens[0])
    giver.set_viewport_size({"width": 1366, "height": 800})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    guesser = phone.new_page()
    guesser.goto(f"{server.url}/table/{table_id}#seat=1&token={tokens[1]}")
    guesser.wait_for_selector("#board .hyh-stage", timeout=15000)
    others = [open_seat(browser, server, table_id, seat, tokens[seat]) for seat in (2, 3)]
    giver.locator('[data-action="start"]').click()
    word = str(giver.locator(".hyh-word-text").get_attribute("data-word", timeout=5000))
    expect(giver.locator(".hyh-feed")).to_contain_text("No guess yet")
    # The word itself as a clue is refused (HYH-R24): the text stays in the box to be fixed.
    giver.locator("#hyh-clue").fill(word)
    giver.locator('[data-act="clue"]').click()
    expect(giver.locator(".toast-error")).to_be_visible(timeout=5000)
    assert giver.locator("#hyh-clue").input_value() == word
    giver.locator("#hyh-clue").fill("qzx")
    giver.locator('[data-act="clue"]').click()
    expect(giver.locator("#hyh-clue")).to_have_value("", timeout=5000)  # taken: the log shows it
    # One letter off is close; the server says so, to the guessing team only.
    close = ("z" if word[0] != "z" else "q") + word[1:]
    guesser.locator("#hyh-guess").fill(close)
    guesser.locator('[data-act="guess"]').click()
    expect(guesser.locator(".hyh-feedback")).to_contain_text("close!", timeout=5000)
    expect(guesser.locator("#hyh-guess")).to_have_value("")
    guesser.wait_for_timeout(1100)  # a seat's guesses are a second apart (HYH-A26)
    guesser.locator("#hyh-guess").fill("zzzz qqqq")
    guesser.locator('[data-act="guess"]').click()
    expect(guesser.locator(".hyh-feedback")).to_contain_text("no", timeout=5000)
    feed = giver.locator(".hyh-feed-item")
    expect(feed).to_have_count(2, timeout=5000)
    assert "zzzz qqqq" in feed.nth(0).inner_text() and "Ben" in feed.nth(0).inner_text()  # newest first
    assert "close!" in feed.nth(1).inner_text()
    # Beside the word, on screen with it, at both sizes.
    word_box, feed_box = giver.locator(".hyh-word").bounding_box(), giver.locator(".hyh-feed").bounding_box()
    assert word_box and feed_box and feed_box["x"] > word_box["x"] + word_box["width"] - 1
    giver.screenshot(path=str(artifacts / "feed-clue-giver-desktop.png"))
    guesser.screenshot(path=str(artifacts / "feedback-guesser-phone.png"))
    giver.set_viewport_size({"width": 390, "height": 844})
    giver.screenshot(path=str(artifacts / "feed-clue-giver-phone.png"))
    guesser.set_viewport_size({"width": 1366, "height": 800})
    guesser.screenshot(path=str(artifacts / "feedback-guesser-desktop.png"))
    # The other team reads the wrong guesses, never "close!".
    assert "close!" not in others[0].locator("#log").inner_text()
    assert close in others[0].locator("#log").inner_text()
    guesser.wait_for_timeout(1100)
    guesser.locator("#hyh-guess").fill(word)
    guesser.locator('[data-act="guess"]').click()
    # The timer runs out; the next team's pre-turn shows what team A got.
    recap = others[0].locator(".hyh-recap")
    expect(recap).to_contain_text(re.compile(rf"Team A got [12]: {re.escape(word)}", re.IGNORECASE), timeout=25000)
    others[0].screenshot(path=str(artifacts / "recap-desktop.png"))
    expect(guesser.locator(".hyh-recap")).to_contain_text("got", timeout=5000)
    guesser.set_viewport_size({"width": 390, "height": 844})
    guesser.screenshot(path=str(artifacts / "recap-phone.png"))
