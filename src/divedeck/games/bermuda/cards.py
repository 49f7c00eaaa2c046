"""Bermuda's cards: the fixed Diver deck (BRM-C2) and the Treasure cards, loaded from a validated data file (BRM-C3).

Inside the engine a Diver card is its value, 1 to 9: the seven copies of a value are interchangeable, so nothing in
the rules needs to tell them apart (conservation is a count per value). A Treasure card is its index in the data
file's order; its id (``T05``), name, depth and protection points come from the table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...engine.data import DataError, FieldPath, build_toml, read_data_text

# BRM-C2: 63 Diver cards, values 1-9, seven copies each; BRM-R1/R3: twelve to each player.
VALUES = tuple(range(1, 10))
COPIES = 7
HAND_SIZE = 12
DIVER_DECK = tuple(value for value in VALUES for _ in range(COPIES))
MAX_PLAYERS = len(DIVER_DECK) // HAND_SIZE  # 5

_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")


def adjacent(a: int, b: int) -> bool:
    """BRM-R20: values one apart, with 9 and 1 next to each other (the values form a cycle 1-2-...-9-1)."""
    return abs(a - b) == 1 or {a, b} == {1, 9}


# The values that may follow each value in a column (BRM-R20), and every value for an empty column (BRM-A2).
NEIGHBOURS: dict[int, tuple[int, ...]] = {a: tuple(b for b in VALUES if adjacent(a, b)) for a in VALUES}


@dataclass(frozen=True)
class Treasure:
    id: str
    name: str
    depth: int
    protection: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "depth": self.depth, "protection": self.protection}


@dataclass(frozen=True)
class TreasureTable:
    """Every Treasure card of one data file, in file order. Shared, never mutated, by every state that uses it."""

    treasures: tuple[Treasure, ...]
    ids: tuple[str, ...]
    by_id: dict[str, int]
    source: str

    @property
    def min_players(self) -> int:
        """One player is solo play (BRM-R1, BRM-A9)."""
        return 1

    @property
    def max_players(self) -> int:
        """The most players the Diver deck can deal twelve cards to (BRM-R1): 5."""
        return MAX_PLAYERS

    def __len__(self) -> int:
        return len(self.treasures)


WHAT = "treasure data"


def _fail(source: str, message: str, *field: str | int) -> DataError:
    """A refusal naming the field at fault (``"treasure", 4, "depth"``: the fifth treasure's depth)."""
    path: FieldPath = field
    return DataError(WHAT, source, message, path)


def _whole(raw: dict[str, Any], key: str, low: int, high: int, where: str, source: str, index: int) -> int:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(source, f"{where}: {key} must be a whole number from {low} to {high}, not {value!r}",
                    "treasure", index, key)
    return value


def _build(data: dict[str, Any], source: str) -> TreasureTable:
    rows = data.get("treasure")
    if not isinstance(rows, list) or not rows:
        raise _fail(source, "needs a non-empty list of [[treasure]] tables", "treasure")
    unknown = set(data) - {"treasure"}
    if unknown:
        raise _fail(source, f"unknown top-level key {sorted(unknown)[0]!r} (only [[treasure]] tables belong here)",
                    sorted(unknown)[0])
    treasures = []
    for number, raw in enumerate(rows, 1):
        where = f"treasure {number}"
        if not isinstance(raw, dict):
            raise _fail(source, f"{where} is not a table", "treasure", number - 1)
        extra = set(raw) - {"id", "name", "depth", "protection"}
        if extra:
            raise _fail(source, f"{where}: unknown key {sorted(extra)[0]!r} (keys: id, name, depth, protection)",
                        "treasure", number - 1, sorted(extra)[0])
        ident = raw.get("id")
        if not isinstance(ident, str) or not _ID.match(ident):
            raise _fail(source, f"{where}: id must be a short word of letters and digits starting with a letter "
                                f"(like T05), not {ident!r}", "treasure", number - 1, "id")
        where = f"treasure {ident}"
        name = raw.get("name", ident)
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise _fail(source, f"{where}: name must be text of 1 to 40 characters, not {name!r}", "treasure",
                        number - 1, "name")
        depth = _whole(raw, "depth", 1, len(DIVER_DECK), where, source, number - 1)
        protection = _whole(raw, "protection", 0, 99, where, source, number - 1)
        treasures.append(Treasure(ident, name.strip(), depth, protection))
    ids = [t.id for t in treasures]
    if len({i.upper() for i in ids}) != len(ids):
        duplicate = next(i for i in ids if [j.upper() for j in ids].count(i.upper()) > 1)
        again = [i for i, j in enumerate(ids) if j.upper() == duplicate.upper()][1]
        raise _fail(source, f"treasure id {duplicate!r} appears more than once", "treasure", again, "id")
    return TreasureTable(tuple(treasures), tuple(ids), {t.upper(): i for i, t in enumerate(ids)}, source)


@cache
def load_treasures(path: str | None = None) -> TreasureTable:
    """The treasure table from ``path``, or the default data shipped with divedeck; ``ConfigError`` if invalid."""
    text, source = read_data_text(__package__, "treasures.toml", path, WHAT)
    return parse_treasures(text, source)


def parse_treasures(text: str, source: str) -> TreasureTable:
    """The treasure table in a data file's ``text``; ``source`` names it in messages. ``DataError`` if invalid."""
    return build_toml(text, source, WHAT, _build)


def describe(table: TreasureTable) -> str:
    """What a treasure table holds, in one line (``divedeck data check``)."""
    depths = [t.depth for t in table.treasures]
    return (f"{len(table)} treasures, depths {min(depths)}-{max(depths)}, "
            f"{sum(t.protection for t in table.treasures)} protection points in all")
