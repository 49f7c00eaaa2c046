"""Options the way people type them, and back: one form for every command that prints or records a run's options
(``num_players=3 expert_diving=true``, JSON with the values the game reads: 3, true)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..engine.registry import get_game


def typed_value(value: Any) -> Any:
    """A config value as JSON (a path option keeps only what the person typed)."""
    if isinstance(value, tuple):
        return list(value)
    return value


def option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return str(value)


def options_text(options: dict[str, Any]) -> str:
    """Options the way they are typed: ``num_players=3 expert_diving=true`` (``default`` for none)."""
    return " ".join(f"{name}={option_text(value)}" for name, value in options.items()) or "default"


def typed_options(game_name: str, options: dict[str, Any]) -> dict[str, Any]:
    """The given options with the values the game reads from them (``"3"`` -> 3, ``"true"`` -> true)."""
    config = get_game(game_name).make_config(options)
    return {name: typed_value(getattr(config, name)) for name in options}


def full_config(game_name: str, options: dict[str, Any]) -> dict[str, Any]:
    config = get_game(game_name).make_config(options)
    return {f.name: typed_value(getattr(config, f.name)) for f in dataclasses.fields(config)}
