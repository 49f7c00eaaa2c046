"""Bots: agents that choose actions from a seat's view, for any game, through the engine contract only."""

from .base import Bot, Decision, TimedBot, decide
from .registry import accepted_bot_names, bot_descriptions, bot_names, make_bot

__all__ = ["Bot", "Decision", "TimedBot", "accepted_bot_names", "bot_descriptions", "bot_names", "decide", "make_bot"]
