"""Games by name, so callers say ``"snorkeling"`` and never import a game package directly."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGame
from .game import Game

# name -> module that defines GAME; imported on first use so loading one game never pays for the others.
_MODULES = {
    "snorkeling": "divedeck.games.snorkeling",
    "hold-your-breath": "divedeck.games.hold_your_breath",
    "bermuda": "divedeck.games.bermuda",
    "hold-your-hat": "divedeck.games.hold_your_hat",
}
_loaded: dict[str, Game[Any, Any]] = {}


def game_names() -> list[str]:
    return list(_MODULES)


def game_module(name: str) -> Any:
    """The module that registers game ``name`` (it defines ``GAME`` and may list its own ``BOTS``)."""
    get_game(name)
    return importlib.import_module(_MODULES[name])


def get_game(name: str) -> Game[Any, Any]:
    """The game registered as ``name``; raises ``UnknownGame`` listing the known names."""
    if name not in _loaded:
        module_name = _MODULES.get(name)
        if module_name is None:
            raise UnknownGame(f"unknown game {name!r}; the games are: {', '.join(_MODULES)}")
        _loaded[name] = importlib.import_module(module_name).GAME
    return _loaded[name]
