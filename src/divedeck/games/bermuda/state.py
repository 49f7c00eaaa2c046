"""Bermuda's state: scalars and tuples, so a clone copies a few references and shares every container."""

from __future__ import annotations

from ...engine.rng import SeededRng
from .cards import TreasureTable
from .config import BermudaConfig

# Phases (BRM state machine). RESOLVE happens inside ``apply`` the moment a dive ends (BRM-R21/R22), so a caller
# only ever sees players preparing, players diving, or a finished game.
PREPARE = "prepare"
DIVE = "dive"
GAME_OVER = "over"
PHASES = (PREPARE, DIVE, GAME_OVER)

# How a dive ended (BRM-R13), kept for the round result: a player breathed, the time limit, or no card was left.
END_RELEASE = "release"
END_TIME = "time"
END_EMPTY = "empty"
# A layout of the chained single-breath challenge closed because every column was deep enough (BRM-V3).
END_FULL = "full"
END_REASONS = (END_RELEASE, END_TIME, END_EMPTY, END_FULL)

NONE = -1  # an absent time or seat

Cards = tuple[int, ...]


class BermudaState:
    """Everything about a game of Bermuda at one moment.

    Diver cards are values 1-9 (hands keep deal order, BRM-R3.3; columns list their cards top to bottom, the last
    card laid last). Treasures are indices into the treasure table; the treasure deck's top is its last entry.
    ``now`` is the time of the last input (BRM-R5): the engine's only notion of time.
    """

    __slots__ = (
        "config", "table", "rng", "phase", "round", "now", "holding", "dive_at", "t0",
        "hands", "columns", "layout", "revealed", "deck", "won", "keeper", "aside", "signals",
        "last", "last_end", "dives", "found", "layouts",
    )

    config: BermudaConfig
    table: TreasureTable
    rng: SeededRng
    phase: str
    round: int  # the round being played, from 1
    now: int  # the last input's time (ms)
    holding: int  # bit set of the seats holding their breath (BRM-R10)
    dive_at: int  # when the countdown ends and the dive starts (NONE: no countdown running)
    t0: int  # when the dive started (NONE outside a dive)
    hands: tuple[Cards, ...]
    columns: tuple[Cards, ...]  # one per treasure of the layout
    layout: Cards  # the treasures of this round's (or layout's) columns
    revealed: bool  # are the layout's treasures face up (BRM-V1: not before the dive)
    deck: Cards  # the treasure deck, top last
    won: Cards  # the players' won pile (BRM-R22)
    keeper: Cards  # the Keeper's pile; the lost pile in the single-breath challenge (BRM-V3)
    aside: Cards  # Diver cards not dealt this round (BRM-R3.2), and all of them once the game is over
    signals: tuple[int, ...]  # the column each seat last pointed at this dive (BRM-R14), NONE if none
    last: tuple[tuple[int, Cards], ...]  # the last resolved layout: (treasure, column cards) per column
    last_end: tuple[str, int, int] | None  # how it ended: (reason, seat that released or NONE, time)
    dives: int  # single-breath challenge: successful dives (BRM-V3)
    found: int  # single-breath challenge: treasures won, counted apart from the piles (BRM-V3)
    layouts: int  # single-breath challenge: layouts resolved on this breath

    @property
    def num_players(self) -> int:
        return len(self.hands)

    def clone(self) -> BermudaState:
        copy = _new(BermudaState)
        for name in self.__slots__:
            setattr(copy, name, getattr(self, name))
        return copy

    def copy_from(self, other: BermudaState) -> None:
        """Become ``other`` (a clone that went ahead): how ``apply`` commits work done on a copy."""
        for name in self.__slots__:
            setattr(self, name, getattr(other, name))

    def is_holding(self, seat: int) -> bool:
        return bool(self.holding >> seat & 1)

    def everyone_holds(self) -> bool:
        return self.holding == (1 << len(self.hands)) - 1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BermudaState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        from .notation import format_state

        return f"<BermudaState {format_state(self)}>"


_new = object.__new__


def replaced(items: tuple[Cards, ...], index: int, value: Cards) -> tuple[Cards, ...]:
    """``items`` with entry ``index`` replaced."""
    return items[:index] + (value,) + items[index + 1:]
