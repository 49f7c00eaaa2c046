"""Snorkeling: a turn-based shedding game for 2-6 players (rules: docs/games/snorkeling.md)."""

from .actions import END_TURN, PASS, Action, EndTurn, Pass, PlayCenter, PlayPile, parse_action
from .bots import GreedyBot
from .config import SnorkelingConfig
from .game import Snorkeling
from .state import SnorkelingState

GAME = Snorkeling()

__all__ = [
    "END_TURN", "GAME", "PASS", "Action", "EndTurn", "GreedyBot", "Pass", "PlayCenter", "PlayPile",
    "Snorkeling", "SnorkelingConfig", "SnorkelingState", "parse_action",
]
