"""Hold your Hat's bots: ``team`` and ``standin`` stand for *teams*, not wits; ``WordBot`` (below) gives clues and
guesses from the association data.

Both read only their seat's view and the legal actions, and are ``TimedBot``s: ``plan`` says what to do after how
long (the server asks again whenever the table changes); ``choose`` is for callers without a clock.

- ``team``: a model of a team of average players, for simulations and for filling a table. As clue-giver it starts
  the timer after a moment, then its team "guesses" each word after a random time (longer for hat phrases, which it
  sometimes skips with a SKIP card); it raids when it holds a RAID, plays BINOCULARS and EXTRA TIME when it can.
- ``standin``: plays a seat whose person has left, doing no more than the game needs to go on: it starts the timer
  when it is the clue-giver, claims nothing (its teammates may still type guesses), and ends the turn without
  EXTRA TIME.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ...engine.decision import Decision
from . import judging
from .actions import Action, Binoculars, Clue, EndTurn, ExtraTime, Foul, Got, Guess, Order, Raid, Skip, Start, Theft
from .associations import Association, Associations, load_associations
from .judging import SMALL_WORDS
from .rules import GUESS_PACE_MS, typed_guesses
from .words import COLORS, WordTable

A = TypeVar("A", bound=Action)


def _find(legal: Sequence[Action], kind: type[A], team: int | None = None) -> A | None:
    for action in legal:
        if isinstance(action, kind) and (team is None or getattr(action, "team", None) == team):
            return action
    return None


def _first_of(legal: Sequence[Action], kinds: tuple[type[Action], ...]) -> Action | None:
    for kind in kinds:
        found = _find(legal, kind)
        if found is not None:
            return found
    return None


def _keep_order(view: Any) -> Order:
    """The BINOCULARS cards put back as they were."""
    return Order(tuple(range(1, len(view.get("peek", [])) + 1)))


class TeamBot:
    name = "team"
    mean_ms = 9000  # a 1-point word is guessed after this long on average; a hat phrase after 1.6 times as long

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def plan(self, decision: Decision) -> tuple[int, Action] | None:
        legal = decision.legal
        view = decision.view
        seat = decision.seat
        if not legal:
            return None
        clue_giver = view.get("clue_giver") == seat
        own = view.get("team")
        if view["phase"] == "pre":
            if clue_giver and _find(legal, Order) is not None:
                return 800, _keep_order(view)
            raid = _find(legal, Raid, own)
            if raid is not None:
                return self._pause(600), raid
            if clue_giver:
                binoculars = _find(legal, Binoculars)
                if binoculars is not None:
                    return self._pause(500), binoculars
                start = _find(legal, Start)
                if start is not None:
                    return self._pause(1500), start
            return None
        if view["phase"] == "decision":
            if not clue_giver:
                return None
            extra = _find(legal, ExtraTime)
            return self._pause(800), extra or EndTurn()
        if clue_giver:
            word = view.get("word") or {}
            skip = _find(legal, Skip)
            if skip is not None and word.get("points", 1) > 1 and self.rng.random() < 0.5:
                return self._pause(2500), skip
            got = _find(legal, Got, view.get("active_team"))
            if got is not None:
                mean = self.mean_ms * (1.6 if word.get("points", 1) > 1 else 1.0)
                return int(self.rng.expovariate(1 / mean)), got
        return None

    def choose(self, decision: Decision) -> Action:
        """Without a clock: the team's word is guessed three times out of four, otherwise it is passed (a foul)."""
        legal = list(decision.legal)
        planned = self.plan(decision)
        if planned is not None and planned[1] in legal:
            action = planned[1]
            if isinstance(action, Got) and self.rng.random() < 0.25:
                return _find(legal, Foul) or action
            return action
        return _first_of(legal, (Start, EndTurn, Guess, Foul)) or legal[0]

    def _pause(self, ms: int) -> int:
        return int(ms * self.rng.uniform(0.6, 1.4))


class StandInBot:
    name = "standin"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def plan(self, decision: Decision) -> tuple[int, Action] | None:
        view = decision.view
        if view.get("clue_giver") != decision.seat:
            return None
        found = _first_of(decision.legal, (Order, Start, EndTurn))
        if found is None:
            return None
        return 3000, _keep_order(view) if isinstance(found, Order) else found

    def choose(self, decision: Decision) -> Action:
        planned = self.plan(decision)
        if planned is not None:
            return planned[1]
        return _first_of(decision.legal, (EndTurn, Guess, Foul)) or decision.legal[0]


# -- word bots: clue-givers and guessers from the association data ---------------------------------------------------

# Words of a description that tell a guesser nothing.
_FILLER = frozenset(SMALL_WORDS | {
    "is", "it", "its", "that", "you", "your", "who", "which", "where", "what", "when", "are", "be", "has", "have",
    "very", "one", "some", "like", "all", "can", "so", "their", "them", "they", "this", "there", "do", "lots",
    "something", "someone", "person", "thing", "much", "many", "every", "about", "after", "before", "not", "no"})


@dataclass(frozen=True)
class WordLevel:
    """How well and how fast a word bot plays: ``know`` is the share of an entry's associations its guesser
    recalls, ``noise`` blurs its judgement; times are milliseconds."""

    name: str
    know: float
    noise: float
    read_ms: int  # before the first clue of a word, and before the first guess at a clue
    type_ms: int  # per character typed
    between_ms: int  # between two clues (round 1 and 3), and between two guesses at least
    give_up_ms: int  # after the last clue it has, before it passes the word
    tries: int  # guesses per clue at most
    # Special cards (docs/bots.md): SKIP a word whose rating (``rate``) is below ``skip_below`` (0: never, only
    # when it has nothing more to say); RAID when the chance its guesser rates (``raid_chance``) is at least
    # ``raid_at`` (0: whenever it holds one); THEFT when its best candidate is ``theft_margin`` times the next.
    skip_below: float = 0.0
    raid_at: float = 0.0
    theft_margin: float = 3.0


WORD_LEVELS = {
    "easy": WordLevel("easy", know=0.55, noise=0.9, read_ms=2500, type_ms=140, between_ms=2600, give_up_ms=9000,
                      tries=2, skip_below=0.0, raid_at=0.0, theft_margin=1.1),
    "medium": WordLevel("medium", know=0.75, noise=0.5, read_ms=1600, type_ms=95, between_ms=1700, give_up_ms=8000,
                        tries=3, skip_below=0.45, raid_at=0.3, theft_margin=2.0),
    "hard": WordLevel("hard", know=0.92, noise=0.25, read_ms=1000, type_ms=55, between_ms=1150, give_up_ms=6000,
                      tries=4, skip_below=0.6, raid_at=0.5, theft_margin=3.0),
}
RAID_WORDS = 5  # words left in the deck from which a raid is worth all its guesser knows


def _tokens(text: str) -> set[str]:
    """What a clue says, as a guesser reads it: the stems of its telling words, and its pictures."""
    found = {judging.stem(w) for w in judging.words(text) if w not in _FILLER}
    found.update(piece for piece in text.split() if not judging.words(piece))
    return found


class Knowledge:
    """What a word bot knows of a word table: for each entry (in one colour) its association tokens, and how telling
    each token is over the whole vocabulary (not only the words in play). A guesser recalls each token it hears with
    its level's chance, afresh each time it thinks (``scores``), as a person may think of a link one turn and not
    the next."""

    def __init__(self, table: WordTable, associations: Associations, color: int) -> None:
        self.entries = [card.entries[color] for card in table.cards]
        self.associations = associations
        self.holders: dict[str, list[int]] = defaultdict(list)  # token -> the entries it belongs to
        for index, entry in enumerate(self.entries):
            found = associations.get(entry.text)
            tokens: set[str] = set()
            if found is not None:
                for part in (found.describe, *found.clues, *found.mime):
                    tokens |= _tokens(part)
            for token in sorted(tokens):
                self.holders[token].append(index)
        self.weight = {t: math.log((1 + len(self.entries)) / len(held)) for t, held in self.holders.items()}

    def scores(self, clues: Sequence[str], excluded: set[str], rng: random.Random | None = None,
               know: float = 1.0) -> list[tuple[float, str]]:
        """The entries the clues bring to mind, with how strongly (a sum of the recalled tokens' weights)."""
        said: set[str] = set()
        for clue in clues:
            said |= _tokens(clue)
        totals: dict[int, float] = defaultdict(float)
        for token in sorted(said):
            for index in self.holders.get(token, ()):
                if rng is None or rng.random() < know:
                    totals[index] += self.weight[token]
        return [(score, self.entries[index].text) for index, score in sorted(totals.items())
                if self.entries[index].text not in excluded]

    def rate(self, entry: str, clues: Sequence[str]) -> float:
        """How surely ``clues`` lead a guesser who knows every link to ``entry`` rather than to another entry: the
        entry's score over its own and the best other's (1.0: nothing else comes to mind; 0.5: a tie)."""
        totals = {text: score for score, text in self.scores(clues, set())}
        own = totals.pop(entry, 0.0)
        best = max(totals.values(), default=0.0)
        return own / (own + best) if own + best > 0 else 0.0

    def telling(self, words_: Sequence[str]) -> list[str]:
        """``words_`` most telling first (the rarest in the whole vocabulary first), ties kept in order."""
        def rarity(word: str) -> float:
            return -sum(self.weight.get(t, math.log(1 + len(self.entries))) for t in _tokens(word))
        return sorted(words_, key=rarity)


def _knowledge_source(decision: Decision) -> tuple[WordTable, Associations, bool]:
    """The word table, its associations and whether guesses are spoken only (``clue_giver`` judging online; a party
    table takes typed guesses too, HYH-A29): public, the box's contents and the table's options. A sampled state is
    asked only for its config, never for a word (its words are drawn at random)."""
    context = decision.determinize(random.Random(0)).context
    return context.config.table, load_associations(context.config.cards), not typed_guesses(context)


class WordBot:
    """A player who gives clues and guesses from the association data, at a human pace (see docs/bots.md).

    As clue-giver it types the entry's description (round 1, then its clue words one by one), its most telling
    clue word (round 2) or its pictures (round 3), and passes a word it has no more to say about (SKIP on a hat
    phrase when it holds one, else a foul: the word is set aside). An entry without associations it cannot clue:
    it passes it at once. As guesser it reads only the clues in its view and guesses the entries of the whole
    vocabulary that fit them best, a few a clue, no faster than HYH-A26 allows. Its special cards follow its level
    (``WordLevel``): SKIP at once on a word it rates hard (``rate``), RAID when its guesser rates its chance well
    (``raid_chance``), BINOCULARS and EXTRA TIME as ``team``; on another team's turn, holding a THEFT, it steals a
    word when the clues point at one entry clearly enough for its level. At a party table (one shared screen) it
    types clues and guesses as online (HYH-A29), whoever its teammates are. At an online table where guesses are
    spoken only (``clue_giver`` judging) it types its clues all the same and, as clue-giver, confirms the words its
    guessers would say (``_heard``); a guesser there says nothing (it cannot speak: its clue-giver speaks for it)."""

    def __init__(self, seed: int = 0, level: str = "medium") -> None:
        self.level = WORD_LEVELS[level]
        self.name = "words" if level == "medium" else f"words-{level}"
        self.seed = seed
        self.rng = random.Random(seed)
        self.team = TeamBot(seed)
        self.knowledge: dict[int, Knowledge] = {}
        self.source: tuple[WordTable, Associations, bool] | None = None
        self.tried: dict[tuple[Any, ...], set[str]] = {}
        self.pending: tuple[tuple[Any, ...], int, Action] | None = None
        self.clue_at: dict[tuple[Any, ...], int] = {}  # when each word's current clue was seen first
        self.last_guess = -(10 ** 9)
        self.spoken: dict[tuple[Any, ...], list[str]] = {}  # party: the guesses said for its team at each clue

    def cannot_clue(self, decision: Decision) -> list[str]:
        """The entries of this table (in the view's colour) it cannot give clues for: those without associations."""
        table, associations, _ = self._source(decision)
        color = COLORS.index(decision.view["color"])
        return [card.entries[color].text for card in table.cards if not associations.covers(card.entries[color].text)]

    def _source(self, decision: Decision) -> tuple[WordTable, Associations, bool]:
        if self.source is None:
            self.source = _knowledge_source(decision)
        return self.source

    def _knowledge(self, decision: Decision) -> Knowledge:
        color = COLORS.index(decision.view["color"])
        if color not in self.knowledge:
            table, associations, _ = self._source(decision)
            self.knowledge[color] = Knowledge(table, associations, color)
        return self.knowledge[color]

    def _pause(self, ms: int) -> int:
        return max(1, int(ms * self.rng.uniform(0.75, 1.25)))

    def plan(self, decision: Decision) -> tuple[int, Action] | None:
        view, legal = decision.view, decision.legal
        if not legal:
            return None
        if view["phase"] == "pre":
            return self.team.plan(self._raid_sense(decision))
        if view["phase"] not in ("main", "extra"):
            return self.team.plan(decision)
        spoken = self._source(decision)[2]
        if spoken and view.get("clue_giver") != decision.seat:
            return None  # guesses are spoken here: the clue-giver confirms them (``_heard``)
        now = decision.now if decision.now is not None else view["now"]
        key = _word_key(view)
        if self.pending is not None:
            pending_key, at, action = self.pending
            if pending_key == key and at > now:
                return at - now, action
            self.pending = None
            if pending_key == key and isinstance(action, (Guess, Theft)) and action.text:
                self.tried.setdefault(key, set()).add(action.text)
                self.last_guess = at
        if view.get("clue_giver") == decision.seat:
            planned = self._give(decision, key, now)
            if spoken:
                planned = _sooner(planned, self._heard(decision, key, now))
        else:
            planned = self._guess(decision, key, now)
        if planned is not None:
            self.pending = (key, now + planned[0], planned[1])
        return planned

    # -- giving clues --------------------------------------------------------------------------------------------
    def _give(self, decision: Decision, key: tuple[Any, ...], now: int) -> tuple[int, Action] | None:
        view, legal = decision.view, decision.legal
        word = view.get("word")
        if word is None:
            return None
        given = len(view.get("clues", []))
        script = self.clues_for(decision, word["text"])
        if not script:
            return self._pass(legal, self._pause(self.level.read_ms), word)
        skip = _find(legal, Skip)
        if given == 0 and skip is not None and self.rate(decision, word["text"], script) < self.level.skip_below:
            return self._pause(self.level.read_ms), skip  # a word its guessers would hardly find: SKIP at once
        # A typed clue passes the same check at every table, a shared screen too (HYH-A29); in round 2 one per word
        # card (HYH-A21): the view says when (``clue_allowed``).
        allowed = view.get("clue_allowed")
        if allowed and given < len(script):
            text = script[given]
            wait = self.level.read_ms if given == 0 else self.level.between_ms * 3
            return self._pause(wait + self.level.type_ms * len(text)), Clue(text)
        return self._pass(legal, self._pause(self.level.give_up_ms), word)

    def clues_for(self, decision: Decision, entry: str) -> list[str]:
        """The clues it would give for ``entry`` this round, in order (none: it passes the word at once)."""
        found = self._source(decision)[1].get(entry)
        return [] if found is None else self._script(decision, found)

    def _script(self, decision: Decision, found: Association) -> list[str]:
        return clue_script(found, decision.view["round"], self._knowledge(decision).telling)

    def rate(self, decision: Decision, entry: str, script: Sequence[str]) -> float:
        """How surely the clues it would give for ``entry`` this round lead to it (``Knowledge.rate``)."""
        return self._knowledge(decision).rate(entry, script)

    def raid_chance(self, decision: Decision) -> float:
        """How well its guesser rates its chance in another team's turn: its level's recall, scaled by the words
        left to share (a raid on the last word or two is mostly wasted); none where guesses are spoken only (a bot
        guesser cannot speak, so a raid there wins nothing; a party table takes typed guesses, HYH-A29)."""
        if self._source(decision)[2]:
            return 0.0
        return self.level.know * min(1.0, decision.view.get("deck_size", 0) / RAID_WORDS)

    def _raid_sense(self, decision: Decision) -> Decision:
        """``decision`` without its RAID when the level would not raid now (``easy`` raids whenever it can)."""
        if not self.level.raid_at or not any(isinstance(action, Raid) for action in decision.legal):
            return decision
        if self.raid_chance(decision) >= self.level.raid_at:
            return decision
        return replace(decision, legal=[action for action in decision.legal if not isinstance(action, Raid)])

    def _pass(self, legal: Sequence[Action], delay: int, word: dict[str, Any]) -> tuple[int, Action] | None:
        skip = _find(legal, Skip)
        if skip is not None and word.get("points", 1) > 1:
            return delay, skip
        foul = _find(legal, Foul)
        return (delay, foul) if foul is not None else None

    def _heard(self, decision: Decision, key: tuple[Any, ...], now: int) -> tuple[int, Action] | None:
        """At a table where guesses are spoken only (``clue_giver`` judging, not party): the clue-giver confirms the
        word its guessers say. They are bots too, who cannot speak, so it says their guesses for them: the guesses
        its level's guesser would make from the clues given (``_candidates``, which never sees the word), a few a
        clue at the guesser's pace; when one of them is the word, it confirms it (``got``) at the moment it would
        have been said."""
        view, legal = decision.view, decision.legal
        word, clues = view.get("word"), view.get("clues", [])
        got = _find(legal, Got, view.get("active_team"))
        if word is None or not clues or view.get("claim") or got is None:
            return None
        said: set[str] = set()
        for count in range(1, len(clues)):
            said.update(self.spoken.get((*key, count), ()))
        clue_key = (*key, len(clues))
        first_seen = self.clue_at.setdefault(clue_key, now)
        if clue_key not in self.spoken:
            self.spoken[clue_key] = self._candidates(decision, key, clues, said | _won(view))[:self.level.tries]
        pace = max(GUESS_PACE_MS + 50, self.level.between_ms)
        for index, text in enumerate(self.spoken[clue_key]):
            if judging.guess_matches(text, word["text"], ()):
                think = self.level.read_ms + self.level.type_ms * len(text)
                return max(1, first_seen + think + index * pace - now), got
        return None

    def _candidates(self, decision: Decision, key: tuple[Any, ...], clues: Sequence[str],
                    excluded: set[str]) -> list[str]:
        """The entries the clues bring to mind at this level, the likeliest first (blurred by the level's noise)."""
        rng = random.Random(hash((self.seed, key, len(clues), len(excluded))) & 0xFFFFFFFF)
        scored = [(score * math.exp(rng.gauss(0, self.level.noise)), text)
                  for score, text in self._knowledge(decision).scores(clues, excluded, rng, self.level.know)]
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [text for _, text in scored]

    # -- guessing ------------------------------------------------------------------------------------------------
    def _guess(self, decision: Decision, key: tuple[Any, ...], now: int) -> tuple[int, Action] | None:
        view, legal = decision.view, decision.legal
        clues = view.get("clues", [])
        theft = None if _find(legal, Guess) is not None else _find(legal, Theft, view.get("team"))
        if not clues or view.get("claim") or (_find(legal, Guess) is None and theft is None):
            return None
        clue_key = (*key, len(clues))
        first_seen = self.clue_at.setdefault(clue_key, now)
        tried = self.tried.setdefault(key, set())
        tried_at_clue = self.tried.setdefault(clue_key, set())
        if len(tried_at_clue) >= self.level.tries:
            return None
        excluded = tried | {won["word"] for team in view["teams"] for won in team["won"]}
        knowledge = self._knowledge(decision)
        rng = random.Random(hash((self.seed, key, len(clues), len(tried))) & 0xFFFFFFFF)
        scored = [(score * math.exp(rng.gauss(0, self.level.noise)), text)
                  for score, text in knowledge.scores(clues, excluded, rng, self.level.know)]
        if not scored:
            return None
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        text = scored[0][1]
        sure = len(scored) == 1 or scored[0][0] > 1.5 * scored[1][0]
        if theft is not None:  # another team's word: THEFT only when the clues point at one entry clearly
            if tried or len(scored) > 1 and scored[0][0] < self.level.theft_margin * scored[1][0]:
                return None
            tried_at_clue.add(text)
            return self._pause(self.level.read_ms * 2 + self.level.type_ms * len(text)), Theft(theft.team, text)
        # Varied like every other pause: two guessers of one level who hear a clue together would otherwise answer
        # in the same millisecond, every time, and a raid's race would go to whoever the scheduler asks first.
        think = self._pause(self.level.read_ms * (1 if sure else 2) + self.level.type_ms * len(text))
        at = max(first_seen + think, self.last_guess + max(GUESS_PACE_MS + 50, self.level.between_ms), now + 1)
        tried_at_clue.add(text)
        return int(at - now), Guess(text)

    def choose(self, decision: Decision) -> Action:
        planned = self.plan(decision)
        if planned is not None and (planned[1] in decision.legal or planned[1].free_text):
            return planned[1]
        return self.team.choose(decision)


def clue_script(found: Association, round_number: int,
                telling: Callable[[Sequence[str]], list[str]] = list) -> list[str]:
    """The clues a word bot types for an entry in round ``round_number``, in order: the description and then the
    clue words one by one (round 1), the clue word that best tells the entry from the others (round 2: ``telling``
    sorts them), the pictures together and then one by one (round 3)."""
    if round_number == 1:
        return [found.describe, *found.clues]
    if round_number == 2:
        return telling(found.clues)[:1]
    return [" ".join(found.mime), *found.mime]


def _won(view: Any) -> set[str]:
    """The words won this round (public): no guesser names them again."""
    return {won["word"] for team in view["teams"] for won in team["won"]}


def _sooner(first: tuple[int, Action] | None, second: tuple[int, Action] | None) -> tuple[int, Action] | None:
    """Whichever of two planned actions comes first."""
    if first is None or second is not None and second[0] < first[0]:
        return second
    return first


def _word_key(view: Any) -> tuple[Any, ...]:
    """What tells one current word from the next without knowing it: the turn, and how the piles stand."""
    won = sum(len(team["won"]) for team in view["teams"])
    return (view["round"], view["turns"], view["deck_size"], view["extra_count"], view["set_aside_count"], won)


def word_bot(level: str) -> Any:
    """A factory of word bots at ``level`` (``factory(seed)``)."""
    def make(seed: int = 0) -> WordBot:
        return WordBot(seed, level)
    return make
