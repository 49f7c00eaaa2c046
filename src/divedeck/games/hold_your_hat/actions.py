"""Hold your Hat's actions and their notation: one frozen record per kind of action.

Teams are letters (``A`` is team 0), seats are numbers. Every action may end with ``@<ms>``, the time it takes place
(HYH-R6): legal actions are listed without it, and whoever applies one stamps it (``Game.at``). An action without a
time takes place at the state's current time.

| notation               | record        | who                 | action                                              |
|------------------------|---------------|---------------------|-----------------------------------------------------|
| ``start``              | Start         | clue-giver          | turn the sand timer: the first word is drawn (R12)  |
| ``binoculars``         | Binoculars    | active team         | the clue-giver sees the top cards (HYH-R11)         |
| ``order 3,1,2,5,4``    | Order         | clue-giver          | the peeked cards' new order, top first, by old place|
| ``raid B``             | Raid          | team B              | play RAID before team A's turn (HYH-R10)            |
| ``guess "sea horse"``  | Guess         | a guesser           | a typed guess (HYH-R20, HYH-R27 auto)               |
| ``got A``              | Got           | clue-giver          | team A said the entry: a correct guess (HYH-R27)    |
| ``theft B "anchor"``   | Theft         | team B              | play THEFT with a typed guess (HYH-R21)             |
| ``theft B ok``         | TheftVerdict  | clue-giver          | team B's spoken THEFT was right (``miss``: wrong)   |
| ``skip``               | Skip          | active team         | play SKIP (HYH-R22)                                 |
| ``foul``               | Foul          | clue-giver          | a clue broke the rules: the word is set aside (R23) |
| ``clue "many words"``  | Clue          | clue-giver          | a typed clue, checked against HYH-R24               |
| ``extra``              | ExtraTime     | active team         | play EXTRA TIME after the timer ran out (HYH-R30)   |
| ``end``                | EndTurn       | active team         | decline EXTRA TIME: the turn ends (HYH-R32)         |
| ``tick``               | Tick          | the clock (seat -1) | time passes: deadlines up to then fire (HYH-R6)     |

``guess ?`` and ``theft B ?`` are the blank forms of the typed actions: ``legal_actions`` lists them to say that a
seat may type a guess now (free text cannot be enumerated, so typed actions are ``free_text`` and stay outside the
move table). Applied as they are, they are a guess that says nothing, which is never right (a blank THEFT is a
wrong THEFT).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import ClassVar

from ...engine.errors import MalformedInput
from ...engine.hidden import Hidden

TEAM_LETTERS = "ABCDEF"
MAX_GUESS = 80
MAX_CLUE = 140
MAX_TIME = 1 << 62
OK, MISS = "ok", "miss"

_TIME = re.compile(r"\s@(\d{1,19})$")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every Hold your Hat action: ``t`` is the time it takes place (ms), ``None`` while unstamped."""

    t: int | None = field(default=None, kw_only=True)
    free_text: ClassVar[bool] = False

    def stamped(self, t: int) -> Action:
        return replace(self, t=t)

    def body(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return format_action(self)


@dataclass(frozen=True, slots=True)
class Start(Action):
    def body(self) -> str:
        return "start"


@dataclass(frozen=True, slots=True)
class Binoculars(Action):
    def body(self) -> str:
        return "binoculars"


@dataclass(frozen=True, slots=True)
class Order(Action):
    order: tuple[int, ...]  # old positions (1 = the top card), new top first

    def body(self) -> str:
        return "order " + ",".join(map(str, self.order))


@dataclass(frozen=True, slots=True)
class Raid(Action):
    team: int

    def body(self) -> str:
        return f"raid {team_letter(self.team)}"


@dataclass(frozen=True, slots=True)
class Guess(Action):
    text: str | None = None  # None is the blank form ``?``
    free_text: ClassVar[bool] = True
    # It may be the current word (HYH-R5): the others read it once judged, in the events (HYH-R28).
    private_fields: ClassVar[tuple[str, ...]] = ("text",)

    def body(self) -> str:
        return f"guess {_quote(self.text)}"


@dataclass(frozen=True, slots=True)
class Got(Action):
    team: int

    def body(self) -> str:
        return f"got {team_letter(self.team)}"


@dataclass(frozen=True, slots=True)
class Theft(Action):
    team: int
    text: str | None = None  # None is the blank form ``?``
    free_text: ClassVar[bool] = True
    # It may be the current word (HYH-R5): the others read it once judged, in the events (HYH-R28).
    private_fields: ClassVar[tuple[str, ...]] = ("text",)

    def body(self) -> str:
        return f"theft {team_letter(self.team)} {_quote(self.text)}"


@dataclass(frozen=True, slots=True)
class TheftVerdict(Action):
    team: int
    right: bool

    def body(self) -> str:
        return f"theft {team_letter(self.team)} {OK if self.right else MISS}"


@dataclass(frozen=True, slots=True)
class Skip(Action):
    def body(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Foul(Action):
    def body(self) -> str:
        return "foul"


@dataclass(frozen=True, slots=True)
class Clue(Action):
    text: str
    free_text: ClassVar[bool] = True

    def body(self) -> str:
        return f"clue {_quote(self.text)}"


@dataclass(frozen=True, slots=True)
class ExtraTime(Action):
    def body(self) -> str:
        return "extra"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    def body(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Tick(Action):
    def body(self) -> str:
        return "tick"


_PLAIN: dict[str, type[Action]] = {"start": Start, "binoculars": Binoculars, "skip": Skip, "foul": Foul,
                                   "extra": ExtraTime, "end": EndTurn, "tick": Tick}


def team_letter(team: int) -> str:
    return TEAM_LETTERS[team] if 0 <= team < len(TEAM_LETTERS) else f"#{team}"


def _quote(text: str | None) -> str:
    """A typed text as JSON; the blank form, and a text another seat may not read (``HIDDEN``), as ``?``."""
    return "?" if text is None or isinstance(text, Hidden) else json.dumps(text, ensure_ascii=False)


def format_action(action: Action) -> str:
    body = action.body()
    return body if action.t is None else f"{body} @{action.t}"


EMOJI_BLOCKS = range(0x1F000, 0x1FB00)  # the pictographs' blocks, where new emoji keep being added


def _emoji_part(text: str, index: int) -> bool:
    """The character at ``index`` is part of a picture although its category says control: a zero-width joiner
    joining two pictures into one (👩‍🏫, 🏴‍☠️; neither neighbour a letter, a digit or a space: between letters it
    could hide an entry from the clue check), or an emoji newer than this Python's Unicode data (🩷, 🪏)."""
    char = text[index]
    if ord(char) in EMOJI_BLOCKS:
        return unicodedata.category(char) == "Cn"
    if char != "\u200d" or not 0 < index < len(text) - 1:
        return False
    return all(not c.isspace() and unicodedata.category(c)[0] not in "LN" for c in (text[index - 1], text[index + 1]))


def clean_text(text: str, limit: int, what: str) -> str:
    """Typed text as the game keeps it: spaces collapsed; refused if empty, too long or with control characters
    (pictures aside: the mime round's emoji, ``_emoji_part``)."""
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") and not _emoji_part(text, i)
           for i, c in enumerate(text)):
        raise MalformedInput(f"a {what} may not contain control characters")
    cleaned = " ".join(text.split())
    if not cleaned:
        raise MalformedInput(f"a {what} needs some text")
    if len(cleaned) > limit:
        raise MalformedInput(f"a {what} is at most {limit} characters")
    return cleaned


def _team(word: str, text: str) -> int:
    if len(word) == 1 and word.upper() in TEAM_LETTERS:
        return TEAM_LETTERS.index(word.upper())
    raise MalformedInput(f"not a team in {text!r}: {word!r} (teams are letters A to F)")


def _typed(rest: str, text: str, limit: int, what: str) -> str | None:
    """The quoted text that is all of ``rest``, or ``None`` for the blank form ``?``."""
    if rest == "?":
        return None
    if not rest.startswith('"'):
        raise MalformedInput(f'the {what} must be quoted, like {what} "sea horse", in {text!r}')
    try:
        value, end = _DECODER.raw_decode(rest)
    except ValueError:
        raise MalformedInput(f"the {what} in {text!r} is not a complete quoted text") from None
    if end != len(rest) or not isinstance(value, str):
        raise MalformedInput(f"unexpected text after the quoted {what} in {text!r}")
    return clean_text(value, limit, what)


def _body(verb: str, rest: str, text: str) -> Action | None:
    if verb in _PLAIN and not rest:
        return _PLAIN[verb]()
    if not rest:
        return None
    if verb == "order" and re.fullmatch(r"\d(,\d){0,9}", rest):
        return Order(tuple(int(p) for p in rest.split(",")))
    if verb == "raid" and " " not in rest:
        return Raid(_team(rest, text))
    if verb == "got" and " " not in rest:
        return Got(_team(rest, text))
    if verb == "guess":
        return Guess(_typed(rest, text, MAX_GUESS, "guess"))
    if verb == "clue" and rest != "?":
        typed = _typed(rest, text, MAX_CLUE, "clue")
        assert typed is not None
        return Clue(typed)
    if verb == "theft":
        team_word, _, tail = rest.partition(" ")
        tail = tail.strip()
        team = _team(team_word, text)
        if tail.lower() in (OK, MISS):
            return TheftVerdict(team, tail.lower() == OK)
        if tail:
            return Theft(team, _typed(tail, text, MAX_GUESS, "guess"))
    return None


def parse_action(text: str) -> Action:
    """Parse the notation above; whitespace and letter case of the words are forgiven."""
    if not isinstance(text, str):
        raise MalformedInput(f"an action is text, not {type(text).__name__}")
    body = text.strip()
    t: int | None = None
    stamp = _TIME.search(body)
    if stamp is not None:
        t = int(stamp.group(1))
        if t > MAX_TIME:
            raise MalformedInput(f"the time in {text!r} is too large")
        body = body[:stamp.start()].rstrip()
    verb, _, rest = body.partition(" ")
    action = _body(verb.lower(), rest.strip(), text)
    if action is None:
        raise MalformedInput(f"not a Hold your Hat action: {text!r} (write start, got A, guess \"word\", skip, foul, "
                             "raid B, theft B \"word\", extra, end ...; see the notation in the docs)")
    return action if t is None else action.stamped(t)
