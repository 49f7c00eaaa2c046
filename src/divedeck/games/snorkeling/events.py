"""Snorkeling's events: one frozen record per kind of thing an action did (the log, the replay, the wire).

Cards are written as their labels (``Y3``). A private field maps each seat that may see it to what it is shown:
a drawn card and a dealt hand are known to their owner alone (SNK-R4). The frequent records (a play, a pass, a
draw) are built once per config (``context.py``) and handed out again and again, so they must stay immutable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from ...engine.events import Event
from ...engine.outcome import Termination

RoundEndReason = Literal["beach", "stall", "turn_cap"]


class SnorkelingTermination(Termination):
    TARGET_SCORE = ("target_score", "SNK-R15")  # a unique highest total at or above the target
    ROUND_CAP = ("round_cap", "SNK-A27")  # the last allowed round: the highest totals share the win


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_start"
    private_fields: ClassVar[tuple[str, ...]] = ("hand",)
    round: int
    starter: int
    center: str
    deck: int
    hand: Mapping[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class PlayedCenter(Event):
    kind: ClassVar[str] = "play_center"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class PlayedPile(Event):
    kind: ClassVar[str] = "play_pile"
    seat: int
    card: str
    target: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    kind: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class EndedTurn(Event):
    kind: ClassVar[str] = "end_turn"
    seat: int


@dataclass(frozen=True, slots=True)
class Drew(Event):
    kind: ClassVar[str] = "draw"
    private_fields: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Mapping[int, str]


@dataclass(frozen=True, slots=True)
class CouldNotDraw(Event):
    kind: ClassVar[str] = "no_draw"
    seat: int


@dataclass(frozen=True, slots=True)
class Refilled(Event):
    kind: ClassVar[str] = "refill"
    deck: int


@dataclass(frozen=True, slots=True)
class Retrieved(Event):
    kind: ClassVar[str] = "retrieve"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """SNK-R14: each seat gains its pile's top value; ``tops`` are those top cards (``None``: the Lanternfish) and
    ``beached`` the seat whose pile received the Beach that ended the round (SNK-R10), if one did."""

    kind: ClassVar[str] = "round_end"
    round: int
    reason: RoundEndReason
    gains: tuple[int, ...]
    totals: tuple[int, ...]
    tops: tuple[str | None, ...]
    beached: int | None


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    reason: SnorkelingTermination
