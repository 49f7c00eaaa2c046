"""Bermuda: a cooperative real-time game for 1-5 players (rules: docs/games/bermuda.md)."""

from .actions import HOLD, RELEASE, SORT, Action, Hold, Lay, Release, Signal, Sort, Tick, parse_action
from .bots import PRESETS, DiverBot, bot_factories
from .config import BermudaConfig
from .game import Bermuda
from .state import BermudaState

GAME = Bermuda()
# Timed bots (divedeck.bots.TimedBot), name -> factory(seed): presets and a grid of paces and breaths (bots.py).
BOTS = bot_factories()
# The grid is for `divedeck simulate`; people choosing a teammate are offered the presets and the levels.
UNLISTED_BOTS = frozenset(BOTS) - frozenset(PRESETS)
# The difficulty levels people pick (divedeck.bots.levels): a slow diver with a short breath, and the default one.
LEVELS = {"easy": "slow-diver", "medium": "diver"}

__all__ = [
    "BOTS", "GAME", "HOLD", "LEVELS", "RELEASE", "SORT", "UNLISTED_BOTS", "Action", "Bermuda", "BermudaConfig",
    "BermudaState", "DiverBot", "Hold", "Lay", "Release", "Signal", "Sort", "Tick", "parse_action",
]
