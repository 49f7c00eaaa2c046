"""Bots: agents that choose actions from a seat's view, for any game, through the engine contract only."""

from .base import Bot, Decision, TimedBot, decide
from .registry import accepted_bot_names, bot_descriptions, bot_names, check_bot_players, make_bot

__all__ = ["Bot", "Decision", "TimedBot", "accepted_bot_names", "bot_descriptions", "bot_names", "check_bot_players",
           "decide", "make_bot"]
