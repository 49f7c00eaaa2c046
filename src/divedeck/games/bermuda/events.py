"""Bermuda's events: one frozen record per kind of thing that happens, read by attribute.

Treasures appear by id (for programs) and by name (for the log, which never shows an id). A hand is private: each
seat is shown its own (``hand`` holds ``{seat: cards}``). A column's result is a ``ColumnResult`` mapping, so the
JSON a seat receives is derived from the record as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, TypedDict

from ...engine.events import Event


class ColumnResult(TypedDict):
    """One judged column (BRM-R21): its treasure, its cards first laid first, and why it failed if it did."""

    treasure: str  # the treasure's id
    name: str  # the treasure's name
    depth: int
    cards: list[int]
    won: bool
    reasons: list[str]  # bad_step, empty, too_short, too_long
    bad_steps: list[int]  # positions (from 1) of the cards not adjacent to the card above them


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """BRM-R3: the round's treasures are laid out (``None`` while face down, BRM-V1) and hands dealt."""

    kind: ClassVar[str] = "round_start"
    private_fields: ClassVar[tuple[str, ...]] = ("hand",)
    round: int
    columns: int
    treasures: tuple[str, ...] | None
    names: tuple[str, ...] | None
    deck: int
    hand: Mapping[int, list[int]]


@dataclass(frozen=True, slots=True)
class Held(Event):
    """BRM-R10: a seat takes a deep breath and holds it."""

    kind: ClassVar[str] = "hold"
    seat: int
    t: int


@dataclass(frozen=True, slots=True)
class CountdownStarted(Event):
    """BRM-R11: everyone holds; the dive starts at ``until``."""

    kind: ClassVar[str] = "countdown"
    t: int
    until: int


@dataclass(frozen=True, slots=True)
class Released(Event):
    """BRM-R10, BRM-R13.1: a seat breathes; before the dive that only takes its hold back (``cancelled``: it
    stopped a running count)."""

    kind: ClassVar[str] = "release"
    seat: int
    t: int
    cancelled: bool


@dataclass(frozen=True, slots=True)
class DiveStarted(Event):
    """BRM-R11: the dive starts at ``t``; ``revealed`` when face-down treasures were turned over now (BRM-V1)."""

    kind: ClassVar[str] = "dive_start"
    t: int
    treasures: tuple[str, ...]
    names: tuple[str, ...]
    revealed: bool
    until: int | None  # the dive's time limit (BRM-R13.2), if any


@dataclass(frozen=True, slots=True)
class Sorted(Event):
    """BRM-R3.4: a seat sorted its hand (the sorted hand is its own to see)."""

    kind: ClassVar[str] = "sort"
    private_fields: ClassVar[tuple[str, ...]] = ("hand",)
    seat: int
    hand: Mapping[int, list[int]]


@dataclass(frozen=True, slots=True)
class Laid(Event):
    """BRM-R12: a Diver card went under a column (its treasure's name), which is now ``length`` cards long."""

    kind: ClassVar[str] = "lay"
    seat: int
    card: int
    column: int
    treasure: str
    t: int
    length: int


@dataclass(frozen=True, slots=True)
class Signalled(Event):
    """BRM-R14: a seat points at a column (its treasure's name)."""

    kind: ClassVar[str] = "signal"
    seat: int
    column: int
    treasure: str
    t: int


@dataclass(frozen=True, slots=True)
class TimeUp(Event):
    """BRM-R13.2: the dive's time limit passed."""

    kind: ClassVar[str] = "time_up"
    t: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """BRM-R13, BRM-R21, BRM-R22: the dive ended (``reason``: release, time, empty; ``seat``: who breathed, or
    -1) and every column was judged; ``won`` and ``protection`` are W and P so far (BRM-R30)."""

    kind: ClassVar[str] = "round_end"
    round: int
    reason: str
    seat: int
    t: int
    columns: tuple[ColumnResult, ...]
    won: int
    protection: int


@dataclass(frozen=True, slots=True)
class LayoutEnded(Event):
    """BRM-V3 chained: a layout was judged (``reason`` full or empty: the next follows; release or time: the breath
    is over); ``dive`` when every column won."""

    kind: ClassVar[str] = "layout_end"
    layout: int
    reason: str
    seat: int
    t: int
    columns: tuple[ColumnResult, ...]
    dive: bool
    dives: int
    found: int


@dataclass(frozen=True, slots=True)
class LayoutStarted(Event):
    """BRM-V3 chained: the next layout, on the same breath, with new hands."""

    kind: ClassVar[str] = "layout_start"
    private_fields: ClassVar[tuple[str, ...]] = ("hand",)
    layout: int
    t: int
    treasures: tuple[str, ...]
    names: tuple[str, ...]
    deck: int
    hand: Mapping[int, list[int]]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """BRM-R30 (W against P, ``verdict`` players or keeper) or BRM-V3 (``challenge``: only counts)."""

    kind: ClassVar[str] = "game_over"
    termination: str
    treasures: int
    protection: int | None = None
    verdict: str | None = None
    challenge: str | None = None
    dives: int | None = None
    layouts: int | None = None
