"""Bermuda's actions and their notation. Every action may carry the time it happens, in ms (BRM-R5).

| notation            | action                                                                   |
|---------------------|--------------------------------------------------------------------------|
| ``hold @100``       | take a deep breath and hold it (BRM-R10)                                 |
| ``release @30000``  | breathe: before the dive it cancels the hold; during it, ends the round  |
| ``sort @200``       | sort your hand from low to high, when sorting is allowed (BRM-R3.4)      |
| ``lay 7 c3 @12500`` | lay a Diver card of value 7 under the treasure of column 3 (BRM-R12)     |
| ``signal c2 @9000`` | point at column 2: a gesture, with no effect on the rules (BRM-R14)      |
| ``tick @31000``     | the caller's clock: lets deadlines up to that time pass (BRM-R5)         |

``legal_actions`` lists actions without a time (``lay 7 c3``); the caller stamps the one it takes with
``Game.at(action, t)``. An action without a time happens at the time of the last input (it cannot move the clock).
Columns are numbered from 1, like the rulebook's. The seven copies of a value are interchangeable: ``lay 7`` lays
the first 7 in the hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...engine.errors import MalformedInput


def _at(t: int | None) -> str:
    return "" if t is None else f" @{t}"


@dataclass(frozen=True, slots=True)
class Hold:
    t: int | None = None

    def __str__(self) -> str:
        return "hold" + _at(self.t)


@dataclass(frozen=True, slots=True)
class Release:
    t: int | None = None

    def __str__(self) -> str:
        return "release" + _at(self.t)


@dataclass(frozen=True, slots=True)
class Sort:
    t: int | None = None

    def __str__(self) -> str:
        return "sort" + _at(self.t)


@dataclass(frozen=True, slots=True)
class Lay:
    card: int  # a value, 1-9
    column: int  # from 1
    t: int | None = None

    def __str__(self) -> str:
        return f"lay {self.card} c{self.column}" + _at(self.t)


@dataclass(frozen=True, slots=True)
class Signal:
    column: int  # from 1: the column pointed at
    t: int | None = None

    def __str__(self) -> str:
        return f"signal c{self.column}" + _at(self.t)


@dataclass(frozen=True, slots=True)
class Tick:
    t: int

    def __str__(self) -> str:
        return f"tick @{self.t}"


Action = Hold | Release | Sort | Lay | Signal | Tick

HOLD = Hold()
RELEASE = Release()
SORT = Sort()


def stamped(action: Action, t: int) -> Action:
    """``action`` taking place at ``t`` ms."""
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise MalformedInput(f"a time is a whole number of milliseconds from 0, not {t!r}")
    return replace(action, t=t)


_TIME = re.compile(r"^@(\d{1,18})$")
_COLUMN = re.compile(r"^c([1-9]\d{0,2})$")
_EXAMPLES = "hold @100, release @30000, sort, 'lay 7 c3 @12500', 'signal c2', 'tick @31000'"


def parse_action(text: str) -> Action:
    """Parse the notation above; whitespace and letter case are forgiven, anything else is ``MalformedInput``."""
    if not isinstance(text, str):
        raise MalformedInput(f"an action is text, not {type(text).__name__}")
    words = text.strip().lower().split()
    t: int | None = None
    if words and words[-1].startswith("@"):
        match = _TIME.match(words.pop())
        if not match:
            raise MalformedInput(f"not a time in {text!r}: write @ and whole milliseconds, like @12500")
        t = int(match.group(1))
    if len(words) == 1 and words[0] in ("hold", "release", "sort"):
        return Hold(t) if words[0] == "hold" else Release(t) if words[0] == "release" else Sort(t)
    if len(words) == 1 and words[0] == "tick":
        if t is None:
            raise MalformedInput("a tick needs its time, like 'tick @31000'")
        return Tick(t)
    if len(words) == 3 and words[0] == "lay":
        if len(words[1]) != 1 or words[1] not in "123456789":
            raise MalformedInput(f"not a Diver card in {text!r}: {words[1]!r} (a Diver card is a value from 1 to 9)")
        return Lay(int(words[1]), _column(words[2], text), t)
    if len(words) == 2 and words[0] == "signal":
        return Signal(_column(words[1], text), t)
    raise MalformedInput(f"not a Bermuda action: {text!r} (write {_EXAMPLES})")


def _column(word: str, text: str) -> int:
    match = _COLUMN.match(word)
    if not match:
        raise MalformedInput(f"not a column in {text!r}: {word!r} (columns are c1, c2, ...)")
    return int(match.group(1))
