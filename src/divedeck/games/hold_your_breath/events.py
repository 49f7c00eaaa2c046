"""Hold Your Breath!'s event records and the ways a game ends.

Cards are labels. A private field holds ``{seat: value}`` for the one seat that may see it: a hand dealt or
refilled, a drawn card, a face-down Panic laid from the hand, a card set aside for the Kraken.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ...engine.events import Event
from ...engine.outcome import Termination


class HoldYourBreathTermination(Termination):
    """How a game ends: the deepest diver surfaces (at once), or the Ascent's deck runs out and the surfaced divers
    or the total distances decide."""

    DEEPEST_SURFACED = ("deepest_surfaced", "HYB-R22")
    SURFACED_FIRST = ("surfaced_first", "HYB-R41")
    DISTANCE = ("distance", "HYB-R41")


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    kind: ClassVar[str] = "deal"
    private_fields: ClassVar[tuple[str, ...]] = ("hand",)
    round: str
    first: int
    deck: int
    hand_sizes: tuple[int, ...]
    hand: Mapping[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class _CardForValue(Event):
    seat: int
    card: str
    value: int


@dataclass(frozen=True, slots=True)
class Breathed(_CardForValue):
    kind: ClassVar[str] = "air"


@dataclass(frozen=True, slots=True)
class Swam(_CardForValue):
    kind: ClassVar[str] = "swim"


@dataclass(frozen=True, slots=True)
class _CardOnSeat(Event):
    seat: int
    card: str
    target: int


@dataclass(frozen=True, slots=True)
class DrewCard(Event):
    """A Draw icon played; ``drew`` is false when the Dive Deck was empty (HYB-A27)."""

    kind: ClassVar[str] = "draw"
    private_fields: ClassVar[tuple[str, ...]] = ("drawn",)
    seat: int
    card: str
    drew: bool
    deck: int
    drawn: Mapping[int, str]


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    kind: ClassVar[str] = "discard"
    seat: int
    card: str
    target: int
    lost: str


@dataclass(frozen=True, slots=True)
class Calmed(Event):
    """``target`` is the seat that got a calmed Shark, ``None`` when the hindrance went to the Discard Pile."""

    kind: ClassVar[str] = "calm"
    seat: int
    card: str
    item: int
    hindrance: str
    removed: str
    target: int | None


@dataclass(frozen=True, slots=True)
class Panicked(_CardOnSeat):
    kind: ClassVar[str] = "panic"


@dataclass(frozen=True, slots=True)
class SharkSet(_CardOnSeat):
    kind: ClassVar[str] = "shark"


@dataclass(frozen=True, slots=True)
class SharkChased(Event):
    kind: ClassVar[str] = "kraken"
    seat: int
    card: str
    target: int
    removed: str


@dataclass(frozen=True, slots=True)
class KrakenStruck(Event):
    """The mass discard: ``victims`` are the players holding a full hand (HYB-A19)."""

    kind: ClassVar[str] = "mass"
    seat: int
    card: str
    victims: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SetAside(Event):
    kind: ClassVar[str] = "lose"
    private_fields: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Mapping[int, str]


@dataclass(frozen=True, slots=True)
class KrakenDiscards(Event):
    kind: ClassVar[str] = "kraken_discards"
    losses: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class PlayEnded(Event):
    kind: ClassVar[str] = "end_play"
    seat: int
    air: int
    swim: int
    move: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "move"
    seat: int
    round: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Surfaced(Event):
    kind: ClassVar[str] = "surface"
    seat: int
    order: int


@dataclass(frozen=True, slots=True)
class Gasped(Event):
    """The breath penalty laid face down: from the hand (its owner sees ``card``) or ``blind`` from the deck's top
    (nobody does)."""

    kind: ClassVar[str] = "gasp"
    private_fields: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    blind: bool
    card: Mapping[int, str]


@dataclass(frozen=True, slots=True)
class Dropped(Event):
    kind: ClassVar[str] = "drop"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class Replenished(Event):
    kind: ClassVar[str] = "replenish"
    private_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    drew: int
    deck: int
    cards: Mapping[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class FinalTurns(Event):
    kind: ClassVar[str] = "final_turns"
    seat: int
    round: str


@dataclass(frozen=True, slots=True)
class DescentEnded(Event):
    kind: ClassVar[str] = "descent_end"
    anchors: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AscentStarted(Event):
    """``tied``: the seats at the shallowest anchor, among whom the tie-break chose ``first`` (HYB-R32)."""

    kind: ClassVar[str] = "ascent_start"
    first: int
    tied: tuple[int, ...]
    deck: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winners: tuple[int, ...]
    by: HoldYourBreathTermination
    rule: str
    distances: tuple[int, ...]
    anchors: tuple[int, ...]
    surfaced: tuple[int, ...]
