"""Bots by name. Game-agnostic bots are listed here; a game adds its own heuristics in its package's ``BOTS``.

The difficulty levels (``easy``, ``medium``, ``hard``: see ``levels.py``) come first, for people choosing a bot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.errors import ConfigError
from ..engine.registry import game_module, get_game
from .base import Bot, RandomBot
from .levels import DESCRIPTIONS, level_names, make_level

_GENERIC: dict[str, Callable[[int], Bot]] = {"random": RandomBot}


def _game_bots(game_name: str) -> dict[str, Callable[[int], Bot]]:
    bots: dict[str, Any] = getattr(game_module(game_name), "BOTS", {})
    return bots


def _game_levels(game_name: str) -> dict[str, str]:
    levels: dict[str, str] = getattr(game_module(game_name), "LEVELS", {})
    return levels


def _levels(game_name: str) -> list[str]:
    return level_names(get_game(game_name), _game_bots(game_name), _game_levels(game_name))


def bot_names(game_name: str) -> list[str]:
    """The bots offered to people (a game may accept more, for simulations: its ``UNLISTED_BOTS``)."""
    unlisted: frozenset[str] = getattr(game_module(game_name), "UNLISTED_BOTS", frozenset())
    return [*_levels(game_name), *_GENERIC, *(name for name in _game_bots(game_name) if name not in unlisted)]


def bot_descriptions(game_name: str) -> dict[str, str]:
    """A line per bot that has one (the levels), for the lobby's choices."""
    return {name: DESCRIPTIONS[name] for name in _levels(game_name)}


def make_bot(game_name: str, bot_name: str, seed: int = 0) -> Bot:
    """A new bot called ``bot_name`` for ``game_name``, seeded with ``seed``; unknown names raise ``ConfigError``."""
    factories = {**_GENERIC, **_game_bots(game_name)}
    factory = factories.get(bot_name)
    if factory is None:
        if bot_name in _levels(game_name):
            return make_level(get_game(game_name), bot_name, _game_bots(game_name), _game_levels(game_name), seed)
        raise ConfigError(f"unknown bot {bot_name!r} for {game_name}; the bots offered are: "
                          f"{', '.join(bot_names(game_name))}")
    return factory(seed)
