"""The game-agnostic engine contract: games, errors, events, outcomes, seeded RNG, registry, matches."""

from .errors import ConfigError, DivedeckError, IllegalAction, MalformedInput, SaveError, UnknownGame
from .events import Event
from .game import CLOCK, Game
from .match import Match
from .outcome import Outcome
from .registry import game_names, get_game
from .rng import SeededRng

__all__ = [
    "CLOCK", "ConfigError", "DivedeckError", "Event", "Game", "IllegalAction", "MalformedInput", "Match", "Outcome",
    "SaveError", "SeededRng", "UnknownGame", "game_names", "get_game",
]
