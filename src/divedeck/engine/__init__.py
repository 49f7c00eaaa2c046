"""The game-agnostic engine contract: games, errors, events, outcomes, seeded RNG, registry, matches."""

from .decision import Bot, Decision, TimedBot
from .declaration import BotEntry, Cutoff, Frontend, Levels
from .errors import ConfigError, DivedeckError, IllegalAction, MalformedInput, SaveError, UnknownGame
from .events import Event, LooseEvent
from .game import CLOCK, Game
from .match import Match
from .outcome import Outcome
from .registry import game_names, get_game
from .rng import SeededRng

__all__ = [
    "CLOCK", "Bot", "BotEntry", "ConfigError", "Cutoff", "Decision", "DivedeckError", "Event", "Frontend", "Game",
    "Levels", "LooseEvent", "TimedBot", "IllegalAction", "MalformedInput", "Match", "Outcome",
    "SaveError", "SeededRng", "UnknownGame", "game_names", "get_game",
]
