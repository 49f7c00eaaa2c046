"""The ``divedeck`` command: play in the terminal, simulate many games, replay a saved game, list the games.

One module per command or family of commands; importing them registers them on ``app``, in the order ``--help``
lists them."""

from __future__ import annotations

# Imported for their commands, in the order --help lists them (not sorted: the order is the point).
# ruff: noqa: I001
from . import play, simulate, reports, replay, serve, data  # noqa: F401
from .app import app, main
from .session import simulation_run

__all__ = ["app", "main", "simulation_run"]
