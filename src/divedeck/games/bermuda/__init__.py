"""Bermuda: a cooperative real-time game for 1-5 players (rules: docs/games/bermuda.md)."""

from .actions import HOLD, RELEASE, SORT, Action, Hold, Lay, Release, Signal, Sort, Tick, parse_action
from .bots import DiverBot
from .config import BermudaConfig
from .game import Bermuda
from .state import BermudaState

GAME = Bermuda()

__all__ = [
    "GAME", "HOLD", "RELEASE", "SORT", "Action", "Bermuda", "BermudaConfig",
    "BermudaState", "DiverBot", "Hold", "Lay", "Release", "Signal", "Sort", "Tick", "parse_action",
]
