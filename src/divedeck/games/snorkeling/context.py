"""What every state of one configuration shares: the config, its card table and its interned actions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from .actions import PlayCenter, PlayPile
from .cards import CardTable
from .config import SnorkelingConfig
from .events import CouldNotDraw, Drew, EndedTurn, Passed, PlayedCenter, PlayedPile


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
    face_by_label: dict[str, int]
    num_values: int
    lanternfish_value: int
    # The frequent events, built once (they are immutable): indexed by seat, then face, then target seat.
    pass_events: tuple[Passed, ...]
    end_turn_events: tuple[EndedTurn, ...]
    no_draw_events: tuple[CouldNotDraw, ...]
    draw_events: tuple[tuple[Drew, ...], ...]
    center_events: tuple[tuple[PlayedCenter, ...], ...]
    pile_events: tuple[tuple[tuple[PlayedPile, ...], ...], ...]


@cache
def context_for(config: SnorkelingConfig) -> Context:
    table = config.table
    faces = range(len(table.face_label))
    seats = range(config.num_players)
    label = table.face_label
    return Context(
        config=config,
        table=table,
        center_actions=tuple(PlayCenter(table.face_label[f]) for f in faces),
        pile_actions=tuple(tuple(PlayPile(table.face_label[f], t) for t in range(config.num_players))
                           for f in faces),
        face_color=table.face_color,
        face_value=table.face_value,
        face_label=table.face_label,
        face_by_label=table.face_by_label,
        num_values=table.num_values,
        lanternfish_value=table.lanternfish_value,
        pass_events=tuple(Passed(s) for s in seats),
        end_turn_events=tuple(EndedTurn(s) for s in seats),
        no_draw_events=tuple(CouldNotDraw(s) for s in seats),
        draw_events=tuple(tuple(Drew(s, MappingProxyType({s: label[f]})) for f in faces) for s in seats),
        center_events=tuple(tuple(PlayedCenter(s, label[f]) for f in faces) for s in seats),
        pile_events=tuple(tuple(tuple(PlayedPile(s, label[f], t) for t in seats) for f in faces) for s in seats),
    )
