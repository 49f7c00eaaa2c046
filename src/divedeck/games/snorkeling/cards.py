"""Snorkeling's card data (SNK-C1..C4): loaded from a TOML file, validated, and turned into lookup tables.

Inside the engine a card is its *face*, a small integer for its colour and value (colour * number of values +
value): the copies of a face are interchangeable, so nothing in the rules or the views needs to tell them apart,
and a state made of small integers is fast to copy and compare.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ...engine.data import DataError, FieldPath, build_toml, read_data_text


@dataclass(frozen=True)
class Color:
    name: str
    letter: str
    symbol: str


@dataclass(frozen=True)
class CardTable:
    """Everything derived from one card data file. Shared, never mutated, by every state that uses it."""

    colors: tuple[Color, ...]
    value_names: tuple[str, ...]
    copies: tuple[int, ...]
    lanternfish_name: str
    max_players: int
    hand_size: int
    # Per face:
    face_label: tuple[str, ...]
    face_color: tuple[int, ...]
    face_value: tuple[int, ...]
    face_copies: tuple[int, ...]
    face_by_label: dict[str, int]
    # Every reef card, as faces in face order: what each round gathers and shuffles (SNK-R3.1).
    deck: tuple[int, ...]

    @property
    def num_values(self) -> int:
        return len(self.value_names)

    @property
    def lanternfish_value(self) -> int:
        """One above the highest reef value (SNK-C1: 5)."""
        return len(self.value_names)

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    def label(self, face: int) -> str:
        return self.face_label[face]

    def name(self, label: str) -> str:
        """A card in player words: ``yellow 3 (Turtle)``."""
        face = self.face_by_label[label]
        value = self.face_value[face]
        return f"{self.colors[self.face_color[face]].name} {value} ({self.value_names[value]})"


WHAT = "card data"


def _fail(source: str, message: str, *field: str | int) -> DataError:
    """A refusal naming the field at fault (``"values", 2, "copies"``: the third value's copies)."""
    path: FieldPath = field
    return DataError(WHAT, source, message, path)


def _build(data: dict[str, Any], source: str) -> CardTable:
    colors_raw, values_raw = data.get("colors"), data.get("values")
    lantern = data.get("lanternfish")
    if not isinstance(colors_raw, list) or not colors_raw:
        raise _fail(source, "needs a non-empty [[colors]] list", "colors")
    if not isinstance(values_raw, list) or len(values_raw) < 2:
        raise _fail(source, "needs a [[values]] list with at least two values", "values")
    if not isinstance(lantern, dict):
        raise _fail(source, "needs a [lanternfish] table", "lanternfish")
    colors = []
    for i, raw in enumerate(colors_raw):
        if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) for k in ("name", "letter")):
            raise _fail(source, f"colour {i + 1} needs a text name and letter", "colors", i,
                        "name" if isinstance(raw, dict) and not isinstance(raw.get("name"), str) else "letter")
        letter = raw["letter"]
        if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
            raise _fail(source, f"colour {raw['name']!r}: the letter must be one capital letter, not {letter!r}",
                        "colors", i, "letter")
        colors.append(Color(raw["name"], letter, str(raw.get("symbol", letter))))
    for i, color in enumerate(colors):
        for key in ("letter", "name"):
            if [getattr(other, key) for other in colors[:i]].count(getattr(color, key)):
                raise _fail(source, "colour names and letters must be unique", "colors", i, key)
    value_names, copies = [], []
    for i, raw in enumerate(values_raw):
        if not isinstance(raw, dict) or raw.get("value") != i:
            raise _fail(source, f"values must run 0, 1, 2 ... in order; entry {i + 1} is not value {i}", "values", i,
                        "value")
        count = raw.get("copies")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise _fail(source, f"value {i}: copies must be a whole number of 0 or more, not {count!r}", "values", i,
                        "copies")
        value_names.append(str(raw.get("name", i)))
        copies.append(count)
    max_players = lantern.get("count")
    if isinstance(max_players, bool) or not isinstance(max_players, int) or max_players < 2:
        raise _fail(source, f"lanternfish count must be at least 2 (it is the maximum player count), "
                            f"not {max_players!r}", "lanternfish", "count")
    hand_size = data.get("hand_size", 5)
    if isinstance(hand_size, bool) or not isinstance(hand_size, int) or hand_size < 1:
        raise _fail(source, f"hand_size must be a positive whole number, not {hand_size!r}", "hand_size")

    n_values = len(value_names)
    faces = range(len(colors) * n_values)
    labels = tuple(f"{c.letter}{v}" for c in colors for v in range(n_values))
    face_copies = tuple(copies[f % n_values] for f in faces)
    table = CardTable(
        colors=tuple(colors), value_names=tuple(value_names), copies=tuple(copies),
        lanternfish_name=str(lantern.get("name", "Lanternfish")), max_players=max_players, hand_size=hand_size,
        face_label=labels, face_color=tuple(f // n_values for f in faces),
        face_value=tuple(f % n_values for f in faces), face_copies=face_copies,
        face_by_label={label: face for face, label in enumerate(labels)},
        deck=tuple(f for f in faces for _ in range(face_copies[f])),
    )
    if table.deck_size < max_players * hand_size + 1:
        raise _fail(source, f"{table.deck_size} cards cannot deal {hand_size} each to {max_players} players "
                            "and turn up a centre card")
    return table


@cache
def load_cards(path: str | None = None) -> CardTable:
    """The card table from ``path``, or the default data shipped with divedeck."""
    text, source = read_data_text(__package__, "cards.toml", path, WHAT)
    return parse_cards(text, source)


def parse_cards(text: str, source: str) -> CardTable:
    """The card table in a data file's ``text``; ``source`` names it in messages. ``DataError`` if invalid."""
    return build_toml(text, source, WHAT, _build)


def describe(table: CardTable) -> str:
    """What a card file holds, in one line (``divedeck data check``)."""
    return (f"{table.deck_size} reef cards: {len(table.colors)} colours x {table.num_values} values "
            f"({'/'.join(map(str, table.copies))} copies); {table.max_players} lanternfish (up to "
            f"{table.max_players} players); hands of {table.hand_size}")
