"""Bots: agents that choose actions from a seat's view, for any game, through the engine contract only."""

from .base import Bot, Decision, TimedBot, decide
from .registry import bot_names, make_bot

__all__ = ["Bot", "Decision", "TimedBot", "bot_names", "decide", "make_bot"]
