"""Bots by name. Game-agnostic bots are listed here; a game adds its own heuristics in its package's ``BOTS``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.errors import ConfigError
from ..engine.registry import game_module
from .base import Bot, RandomBot

_GENERIC: dict[str, Callable[[int], Bot]] = {"random": RandomBot}


def _game_bots(game_name: str) -> dict[str, Callable[[int], Bot]]:
    bots: dict[str, Any] = getattr(game_module(game_name), "BOTS", {})
    return bots


def bot_names(game_name: str) -> list[str]:
    return [*_GENERIC, *_game_bots(game_name)]


def make_bot(game_name: str, bot_name: str, seed: int = 0) -> Bot:
    """A new bot called ``bot_name`` for ``game_name``, seeded with ``seed``; unknown names raise ``ConfigError``."""
    factories = {**_GENERIC, **_game_bots(game_name)}
    factory = factories.get(bot_name)
    if factory is None:
        raise ConfigError(f"unknown bot {bot_name!r} for {game_name}; the bots are: {', '.join(factories)}")
    return factory(seed)
