"""Bermuda's state: scalars and tuples, so a clone copies a few references and shares every container."""

from __future__ import annotations

from ...engine.rng import SeededRng
from ...engine.state import GameStateBase
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


class BermudaState(GameStateBase):
    """Everything about a game of Bermuda at one moment; each field is the notation's field of the same name.

    Diver cards are values 1-9 (hands keep deal order, BRM-R3.3; columns list their cards top to bottom, the last
    card laid last). Treasures are indices into the treasure table; the treasure deck's top is its last entry.
    ``now`` is the time of the last input (BRM-R5): the engine's only notion of time.
    """

    game_name = "bermuda"
    __slots__ = (
        "config", "table", "rng", "phase", "round", "now", "hold", "dive_at", "t0",
        "hands", "columns", "layout", "shown", "deck", "won", "keeper", "aside", "signals",
        "last", "end", "dives", "found", "layouts",
    )

    config: BermudaConfig
    table: TreasureTable
    rng: SeededRng
    phase: str
    round: int  # the round being played, from 1
    now: int  # the last input's time (ms)
    hold: int  # bit set of the seats holding their breath (BRM-R10)
    dive_at: int  # when the countdown ends and the dive starts (NONE: no countdown running)
    t0: int  # when the dive started (NONE outside a dive)
    hands: tuple[Cards, ...]
    columns: tuple[Cards, ...]  # one per treasure of the layout
    layout: Cards  # the treasures of this round's (or layout's) columns
    shown: bool  # are the layout's treasures face up (BRM-V1: not before the dive)
    deck: Cards  # the treasure deck, top last
    won: Cards  # the players' won pile (BRM-R22)
    keeper: Cards  # the Keeper's pile; the lost pile in the single-breath challenge (BRM-V3)
    aside: Cards  # Diver cards not dealt this round (BRM-R3.2), and all of them once the game is over
    signals: tuple[int, ...]  # the column each seat last pointed at this dive (BRM-R14), NONE if none
    last: tuple[tuple[int, Cards], ...]  # the last resolved layout: (treasure, column cards) per column
    end: tuple[str, int, int] | None  # how it ended: (reason, seat that released or NONE, time)
    dives: int  # single-breath challenge: successful dives (BRM-V3)
    found: int  # single-breath challenge: treasures won, counted apart from the piles (BRM-V3)
    layouts: int  # single-breath challenge: layouts resolved on this breath

    @property
    def num_players(self) -> int:
        return len(self.hands)

    def is_holding(self, seat: int) -> bool:
        return bool(self.hold >> seat & 1)

    def everyone_holds(self) -> bool:
        return self.hold == (1 << len(self.hands)) - 1
