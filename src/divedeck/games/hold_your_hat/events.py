"""Hold your Hat's event records: one frozen record per kind of event, private fields named in ``private_fields``.

Teams and seats are numbers. What the clue-giver alone sees (the word, the BINOCULARS cards) and a typed guess that
is right (it is the word) are private fields ``{seat: value}``; a wrong guess is public (``said``), as is a clue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from ...engine.events import Event


@dataclass(frozen=True, slots=True)
class GameStart(Event):
    kind: ClassVar[str] = "game_start"
    teams: tuple[tuple[int, ...], ...]
    color: str
    rounds: int
    words: int
    held: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundStart(Event):
    kind: ClassVar[str] = "round_start"
    round: int
    type: str
    team: int
    deck: int


@dataclass(frozen=True, slots=True)
class TurnStart(Event):
    kind: ClassVar[str] = "turn_start"
    team: int
    clue_giver: int
    round: int


@dataclass(frozen=True, slots=True)
class TimerStarted(Event):
    kind: ClassVar[str] = "timer"
    team: int
    seat: int
    t: int
    until: int


@dataclass(frozen=True, slots=True)
class NewWord(Event):
    kind: ClassVar[str] = "word"
    private_fields: ClassVar[tuple[str, ...]] = ("word", "points", "words")
    team: int
    deck: int
    word: Mapping[int, str]
    points: Mapping[int, int]
    words: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class BinocularsPlayed(Event):
    kind: ClassVar[str] = "binoculars"
    private_fields: ClassVar[tuple[str, ...]] = ("cards",)
    team: int
    seat: int
    count: int
    cards: Mapping[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Reordered(Event):
    kind: ClassVar[str] = "order"
    team: int
    seat: int
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RaidPlayed(Event):
    kind: ClassVar[str] = "raid"
    team: int
    seat: int


@dataclass(frozen=True, slots=True)
class _Typed(Event):
    """A typed guess: ``result`` is blank, wrong, right or ignored (the team already claims the word); ``said`` is a
    wrong guess, which everyone may read, ``text`` a right or ignored one, for its author and the clue-giver.
    ``close`` marks a wrong guess one letter away from the word (HYH-A28), for the guessing team and the
    clue-giver: the clue-giver's "close!", which the other teams do not hear."""

    private_fields: ClassVar[tuple[str, ...]] = ("text", "close")
    team: int
    seat: int
    t: int
    result: str
    said: str | None
    text: Mapping[int, str]
    close: Mapping[int, bool] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Guessed(_Typed):
    kind: ClassVar[str] = "guess"


@dataclass(frozen=True, slots=True)
class Confirmed(Event):
    kind: ClassVar[str] = "got"
    team: int
    seat: int
    t: int


@dataclass(frozen=True, slots=True)
class TheftPlayed(_Typed):
    """A THEFT, typed or (``result`` right or wrong without a text) judged by the clue-giver."""

    kind: ClassVar[str] = "theft"


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    kind: ClassVar[str] = "claim"
    team: int
    t: int
    opened: bool
    until: int


@dataclass(frozen=True, slots=True)
class WordWon(Event):
    kind: ClassVar[str] = "won"
    team: int
    word: str
    points: int
    claimed_by: tuple[int, ...]
    round: int


@dataclass(frozen=True, slots=True)
class _SetAside(Event):
    """The current word set aside: what it was reaches the clue-giver alone."""

    private_fields: ClassVar[tuple[str, ...]] = ("word", "points")
    team: int
    seat: int
    word: Mapping[int, str]
    points: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class SkipPlayed(_SetAside):
    kind: ClassVar[str] = "skip"


@dataclass(frozen=True, slots=True)
class Fouled(_SetAside):
    kind: ClassVar[str] = "foul"


@dataclass(frozen=True, slots=True)
class ClueGiven(Event):
    kind: ClassVar[str] = "clue"
    team: int
    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class TimeUp(Event):
    kind: ClassVar[str] = "timeout"
    team: int
    t: int


@dataclass(frozen=True, slots=True)
class ExtraTimeOffered(Event):
    kind: ClassVar[str] = "extra_time_offer"
    team: int


@dataclass(frozen=True, slots=True)
class ExtraTimePlayed(Event):
    kind: ClassVar[str] = "extra_time"
    team: int
    seat: int
    words: int
    t: int
    until: int


@dataclass(frozen=True, slots=True)
class Declined(Event):
    kind: ClassVar[str] = "decline"
    team: int
    seat: int


@dataclass(frozen=True, slots=True)
class TurnEnd(Event):
    """``reason``: timeout, no_words (nothing left to explain this turn) or round_complete."""

    kind: ClassVar[str] = "turn_end"
    team: int
    reason: str
    returned: int


@dataclass(frozen=True, slots=True)
class SpecialReshuffle(Event):
    kind: ClassVar[str] = "special_reshuffle"
    deck: int


@dataclass(frozen=True, slots=True)
class SpecialDraw(Event):
    kind: ClassVar[str] = "special_draw"
    team: int
    card: str


@dataclass(frozen=True, slots=True)
class NoSpecial(Event):
    kind: ClassVar[str] = "no_special"
    team: int


@dataclass(frozen=True, slots=True)
class RoundEnd(Event):
    kind: ClassVar[str] = "round_end"
    round: int
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winners: tuple[int, ...]
    totals: tuple[int, ...]
