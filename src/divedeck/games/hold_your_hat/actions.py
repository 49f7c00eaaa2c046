"""Hold your Hat's actions and their notation.

Teams are letters (``A`` is team 0), seats are numbers. Every action may end with ``@<ms>``, the time it takes place
(HYH-R6): legal actions are listed without it, and whoever applies one stamps it (``Game.at``). An action without a
time takes place at the state's current time.

| notation               | who                        | action                                                     |
|------------------------|----------------------------|------------------------------------------------------------|
| ``start``              | clue-giver                 | turn the sand timer: the first word is drawn (HYH-R12)     |
| ``binoculars``         | active team                | play BINOCULARS: the clue-giver sees the top cards (HYH-R11)|
| ``order 3,1,2,5,4``    | clue-giver                 | the peeked cards' new order, top first, by old position     |
| ``raid B``             | team B                     | play RAID before team A's turn (HYH-R10)                   |
| ``guess "sea horse"``  | a guesser                  | a typed guess (HYH-R20, HYH-R27 auto)                      |
| ``got A``              | clue-giver                 | team A said the entry: a correct guess (HYH-R27)           |
| ``theft B "anchor"``   | team B                     | play THEFT with a typed guess (HYH-R21)                    |
| ``theft B ok``         | clue-giver                 | team B's spoken THEFT was right (``miss``: wrong) (HYH-R27)|
| ``skip``               | active team                | play SKIP (HYH-R22)                                        |
| ``foul``               | clue-giver                 | a clue broke the rules: the word is set aside (HYH-R23)    |
| ``clue "many words"``  | clue-giver                 | a typed clue, checked against HYH-R24                      |
| ``extra``              | active team                | play EXTRA TIME after the timer ran out (HYH-R30)          |
| ``end``                | active team                | decline EXTRA TIME: the turn ends (HYH-R32)                |
| ``tick``               | the clock (seat -1)        | time passes: deadlines up to then fire (HYH-R6)            |

``guess ?`` and ``theft B ?`` are the blank forms of the typed actions: ``legal_actions`` lists them to say that a
seat may type a guess now (free text cannot be enumerated). Applied as they are, they are a guess that says nothing,
which is never right (a blank THEFT is a wrong THEFT).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, replace

from ...engine.errors import MalformedInput

TEAM_LETTERS = "ABCDEF"
PLAIN = ("start", "binoculars", "skip", "foul", "extra", "end", "tick")
VERBS = (*PLAIN, "order", "raid", "guess", "got", "theft", "clue")
MAX_GUESS = 80
MAX_CLUE = 140
MAX_TIME = 1 << 62
OK, MISS = "ok", "miss"

_TIME = re.compile(r"\s@(\d{1,19})$")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Act:
    verb: str
    team: int | None = None  # raid, got, theft
    text: str | None = None  # guess, theft, clue: None is the blank form ``?``
    verdict: str | None = None  # theft judged by the clue-giver: ok | miss
    order: tuple[int, ...] = ()  # order: old positions (1 = the top card), new top first
    t: int | None = None

    def stamped(self, t: int) -> Act:
        return replace(self, t=t)

    def __str__(self) -> str:
        return format_action(self)


def team_letter(team: int) -> str:
    return TEAM_LETTERS[team] if 0 <= team < len(TEAM_LETTERS) else f"#{team}"


def _quote(text: str | None) -> str:
    return "?" if text is None else json.dumps(text, ensure_ascii=False)


def format_action(action: Act) -> str:
    verb = action.verb
    if verb in PLAIN:
        body = verb
    elif verb == "order":
        body = "order " + ",".join(map(str, action.order))
    elif verb in ("raid", "got"):
        body = f"{verb} {team_letter(action.team or 0)}"
    elif verb == "guess" or verb == "clue":
        body = f"{verb} {_quote(action.text)}"
    else:  # theft
        tail = action.verdict if action.verdict is not None else _quote(action.text)
        body = f"theft {team_letter(action.team or 0)} {tail}"
    return body if action.t is None else f"{body} @{action.t}"


def clean_text(text: str, limit: int, what: str) -> str:
    """Typed text as the game keeps it: spaces collapsed; refused if empty, too long or with control characters."""
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in text):
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


def parse_action(text: str) -> Act:
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
    verb = verb.lower()
    rest = rest.strip()
    if verb in PLAIN and not rest:
        return Act(verb, t=t)
    if verb == "order" and rest and re.fullmatch(r"\d(,\d){0,9}", rest):
        return Act("order", order=tuple(int(p) for p in rest.split(",")), t=t)
    if verb in ("raid", "got") and rest and " " not in rest:
        return Act(verb, team=_team(rest, text), t=t)
    if verb == "guess" and rest:
        return Act("guess", text=_typed(rest, text, MAX_GUESS, "guess"), t=t)
    if verb == "clue" and rest and rest != "?":
        return Act("clue", text=_typed(rest, text, MAX_CLUE, "clue"), t=t)
    if verb == "theft" and rest:
        team_word, _, tail = rest.partition(" ")
        tail = tail.strip()
        team = _team(team_word, text)
        if tail.lower() in (OK, MISS):
            return Act("theft", team=team, verdict=tail.lower(), t=t)
        if tail:
            return Act("theft", team=team, text=_typed(tail, text, MAX_GUESS, "guess"), t=t)
    raise MalformedInput(f"not a Hold your Hat action: {text!r} (write start, got A, guess \"word\", skip, foul, "
                         "raid B, theft B \"word\", extra, end ...; see the notation in the docs)")
