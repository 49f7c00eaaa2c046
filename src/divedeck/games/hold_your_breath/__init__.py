"""Hold Your Breath!: a two-round diving race for 2-4 players (rules: docs/games/hold-your-breath.md)."""

from .actions import (
    END,
    KEEP,
    Action,
    Air,
    Calm,
    Discard,
    Draw,
    Drop,
    EndPlay,
    Gasp,
    Keep,
    Kraken,
    Lose,
    Mass,
    Panic,
    Play,
    Shark,
    Swim,
    parse_action,
)
from .bots import GreedyBot
from .config import HoldYourBreathConfig
from .events import HoldYourBreathTermination
from .game import HoldYourBreath
from .state import HoldYourBreathState

GAME = HoldYourBreath()

__all__ = [
    "END", "GAME", "KEEP", "Action", "Air", "Calm", "Discard", "Draw", "Drop", "EndPlay", "Gasp", "GreedyBot",
    "HoldYourBreath", "HoldYourBreathConfig", "HoldYourBreathState", "HoldYourBreathTermination", "Keep", "Kraken",
    "Lose", "Mass", "Panic", "Play", "Shark", "Swim", "parse_action",
]
