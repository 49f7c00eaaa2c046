"""Hold Your Breath!: a two-round diving race for 2-4 players (rules: docs/games/hold-your-breath.md)."""

from .actions import END, KEEP, Action, Drop, EndPlay, Gasp, Keep, Lose, Play, parse_action
from .bots import GreedyBot
from .config import HoldYourBreathConfig
from .game import HoldYourBreath
from .state import HoldYourBreathState

GAME = HoldYourBreath()

__all__ = [
    "END", "GAME", "KEEP", "Action", "Drop", "EndPlay", "Gasp", "GreedyBot", "HoldYourBreath",
    "HoldYourBreathConfig", "HoldYourBreathState", "Keep", "Lose", "Play", "parse_action",
]
