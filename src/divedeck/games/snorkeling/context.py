"""What every state of one configuration shares: the config, its card table and its interned actions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .actions import PlayCenter, PlayPile
from .cards import CardTable
from .config import SnorkelingConfig


@dataclass(frozen=True, eq=False)
class Context:
    config: SnorkelingConfig
    table: CardTable
    # One action object per face (and per target seat), so enumerating legal actions allocates none.
    center_actions: tuple[PlayCenter, ...]
    pile_actions: tuple[tuple[PlayPile, ...], ...]
    # Copies of the table's and config's most used fields: the rules read them at every decision.
    face_color: tuple[int, ...]
    face_value: tuple[int, ...]
    face_label: tuple[str, ...]
    num_values: int
    lanternfish_value: int


@cache
def context_for(config: SnorkelingConfig) -> Context:
    table = config.table
    faces = range(len(table.face_label))
    return Context(
        config=config,
        table=table,
        center_actions=tuple(PlayCenter(table.face_label[f]) for f in faces),
        pile_actions=tuple(tuple(PlayPile(table.face_label[f], t) for t in range(config.num_players))
                           for f in faces),
        face_color=table.face_color,
        face_value=table.face_value,
        face_label=table.face_label,
        num_values=table.num_values,
        lanternfish_value=table.lanternfish_value,
    )
