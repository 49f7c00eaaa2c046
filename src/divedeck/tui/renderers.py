"""Per-game pictures of a view for the terminal (each takes a seat's view, never the state), and the keys of the
real-time games it plays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..engine.game import Game
from .bermuda import BermudaKeys, render_bermuda
from .hold_your_breath import describe_hold_your_breath_action, render_hold_your_breath
from .snorkeling import describe_snorkeling_action, render_snorkeling

Renderer = Callable[[dict[str, Any], list[str]], RenderableType]

_RENDERERS: dict[str, Renderer] = {"snorkeling": render_snorkeling}
_DESCRIBERS: dict[str, Callable[[str, list[str]], str]] = {"snorkeling": describe_snorkeling_action}
_RENDERERS["hold-your-breath"] = render_hold_your_breath
_DESCRIBERS["hold-your-breath"] = describe_hold_your_breath_action
_RENDERERS["bermuda"] = render_bermuda
# The keys of each real-time game the terminal plays: a factory taking the person's seat.
_REALTIME_KEYS: dict[str, Callable[[int], Any]] = {"bermuda": BermudaKeys}


def realtime_keys(game: Game[Any, Any], seat: int) -> Any:
    """The key bindings of ``game`` for the real-time loop (``realtime.KeyPlay``), or ``None`` if it has none."""
    factory = _REALTIME_KEYS.get(game.name)
    return None if factory is None else factory(seat)


def describe_action(game_name: str, notation: str, seat_names: list[str]) -> str:
    """A few words saying what a move does, beside its notation in the list of moves."""
    describer = _DESCRIBERS.get(game_name)
    return describer(notation, seat_names) if describer else ""


def render(game_name: str, view: dict[str, Any], seat_names: list[str]) -> RenderableType:
    renderer = _RENDERERS.get(game_name)
    if renderer is None:  # a game without a picture yet still shows its view, readably
        table = Table(show_header=False, box=None)
        for key, value in view.items():
            table.add_row(Text(str(key), style="bold"), Text(str(value)))
        return Group(table)
    return renderer(view, seat_names)
