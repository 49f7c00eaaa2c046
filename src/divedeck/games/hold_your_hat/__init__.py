"""Hold your Hat: a real-time team word-guessing game over three rounds (rules: docs/games/hold-your-hat.md)."""

from .actions import Action, format_action, parse_action
from .bots import StandInBot, TeamBot
from .config import HoldYourHatConfig
from .game import HoldYourHat
from .rules import HatTermination
from .state import HoldYourHatState

GAME = HoldYourHat()

__all__ = [
    "GAME", "Action", "HatTermination", "HoldYourHat", "HoldYourHatConfig", "HoldYourHatState", "StandInBot",
    "TeamBot", "format_action", "parse_action",
]
