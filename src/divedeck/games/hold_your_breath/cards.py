"""Hold Your Breath!'s Dive Deck and Depth Board (HYB-C1, HYB-C2): loaded from a TOML file, validated, and turned
into lookup tables.

Inside the engine a card is its *face*, a small integer naming one card type (an Air 5 with the Draw icon, the
Shark, a Dolphin...): copies of a type are interchangeable, so the state holds small integers and conservation is a
count per face. Faces are numbered in a fixed order (Air, Swim, Shark, Kraken, Dolphin; then value; then icon), so
a hand kept sorted by face reads Air before Swim, low before high.

Labels (the notation's names for faces) come from the data: ``A5D`` is an Air 5 with the Draw icon, ``S10P`` a
Swim 10 with the Panic icon; ``SH``, ``KR`` and ``DO`` are the Shark, the Kraken and a Dolphin.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, TypeGuard

from ...engine.data import DataError, FieldPath, build_toml, read_data_text

# HYB-C1: the Dive Deck holds 68 cards, whatever their mix.
DECK_SIZE = 68
# HYB-R1, HYB-C3: four Pirate/Anchor token pairs, so at most four players.
MAX_PLAYERS = 4

KINDS = ("air", "swim", "shark", "kraken", "dolphin")
VALUE_KINDS = ("air", "swim")
ICONS = ("draw", "discard", "calm", "panic", "shark", "kraken")
ICON_LETTERS = {"draw": "D", "discard": "X", "calm": "C", "panic": "P", "shark": "H", "kraken": "K"}
SPECIAL_LABELS = {"shark": "SH", "kraken": "KR", "dolphin": "DO"}
DOLPHIN = "DO"

# What a card may be played as (HYB-R10..R13). The Kraken has two uses: the Shark-removing ``kraken`` and the
# mass discard ``mass``.
ACTION_VERBS = ("draw", "discard", "calm", "panic", "shark", "kraken", "mass")
_ICON_VERBS = {"draw": ("draw",), "discard": ("discard",), "calm": ("calm",), "panic": ("panic",),
               "shark": ("shark",), "kraken": ("kraken", "mass")}
_KIND_VERBS = {"shark": ("shark",), "kraken": ("kraken", "mass"),
               "dolphin": ("air", "swim", *ACTION_VERBS)}


@dataclass(frozen=True)
class CardTable:
    """Everything derived from one deck data file. Shared, never mutated, by every state that uses it."""

    max_depth: int
    step: int
    hindrance_penalty: int
    hand_size: int
    # Per face:
    face_label: tuple[str, ...]
    face_kind: tuple[str, ...]
    face_value: tuple[int, ...]  # 0 for cards without a printed value
    face_icon: tuple[str, ...]  # "" for cards without an icon
    face_name: tuple[str, ...]
    face_copies: tuple[int, ...]
    face_verbs: tuple[frozenset[str], ...]  # what the face may be played as
    face_actions: tuple[tuple[str, ...], ...]  # its verbs among ACTION_VERBS, in that order (legal actions' order)
    face_by_label: dict[str, int]
    # The values a Dolphin may be declared as when played for Air or Swim: every printed Air/Swim value.
    dolphin_values: tuple[int, ...]
    # Every card, as faces in face order: what the Descent shuffles (HYB-R2).
    deck: tuple[int, ...]

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    @property
    def max_players(self) -> int:
        return MAX_PLAYERS

    def label(self, face: int) -> str:
        return self.face_label[face]

    def info(self) -> list[dict[str, Any]]:
        """Each card type as plain data, for the front ends (they draw cards from it and never guess a deck)."""
        return [{"label": self.face_label[f], "kind": self.face_kind[f], "value": self.face_value[f] or None,
                 "icon": self.face_icon[f] or None, "name": self.face_name[f], "count": self.face_copies[f]}
                for f in range(len(self.face_label))]


WHAT = "deck data"


def _fail(source: str, message: str, *field: str | int) -> DataError:
    """A refusal naming the field at fault (``"cards", 2, "count"``: the third card row's count)."""
    path: FieldPath = field
    return DataError(WHAT, source, message, path)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _board_number(board: dict[str, Any], name: str, default: int, minimum: int, source: str) -> int:
    value = board.get(name, default)
    if not _whole(value) or value < minimum:
        raise _fail(source, f"[board] {name} must be a whole number of at least {minimum}, not {value!r}", "board",
                    name)
    return int(value)


def card_name(kind: str, value: int, icon: str) -> str:
    if kind in VALUE_KINDS:
        return f"{kind.capitalize()} {value} ({icon.capitalize()})"
    return kind.capitalize()


_KIND_OF_LETTER = {kind[0].upper(): kind for kind in VALUE_KINDS}
_ICON_OF_LETTER = {letter: icon for icon, letter in ICON_LETTERS.items()}
_KIND_OF_SPECIAL = {label: kind for kind, label in SPECIAL_LABELS.items()}


@cache
def label_card(label: str) -> tuple[str, int, str]:
    """The kind, value and icon a label names (labels are built from them, whatever the deck): ``A10P`` is
    ``("air", 10, "panic")``, ``SH`` is ``("shark", 0, "")``. For readers of a view, which names cards by label."""
    if label in _KIND_OF_SPECIAL:
        return _KIND_OF_SPECIAL[label], 0, ""
    return _KIND_OF_LETTER[label[0]], int(label[1:-1]), _ICON_OF_LETTER[label[-1]]


def label_name(label: str) -> str:
    """A card in words: ``A10P`` is "Air 10 (Panic)"."""
    return card_name(*label_card(label))


def _build(data: dict[str, Any], source: str) -> CardTable:
    board = data.get("board", {})
    if not isinstance(board, dict):
        raise _fail(source, "[board] must be a table", "board")
    step = _board_number(board, "step", 5, 1, source)
    max_depth = _board_number(board, "max_depth", 150, step, source)
    if max_depth % step:
        raise _fail(source, f"[board] max_depth {max_depth} is not a multiple of the step {step}", "board",
                    "max_depth")
    penalty = _board_number(board, "hindrance_penalty", 10, 0, source)
    hand_size = _board_number(board, "hand_size", 5, 1, source)
    rows = data.get("cards")
    if not isinstance(rows, list) or not rows:
        raise _fail(source, "needs a non-empty [[cards]] list", "cards")
    types: dict[tuple[str, int, str], int] = {}
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            raise _fail(source, f"card row {number} must be a table", "cards", number - 1)
        unknown = set(row) - {"kind", "value", "icon", "count"}
        if unknown:
            raise _fail(source, f"card row {number} has unknown field(s) {', '.join(sorted(unknown))}", "cards",
                        number - 1, sorted(unknown)[0])
        kind, count = row.get("kind"), row.get("count")
        if kind not in KINDS:
            raise _fail(source, f"card row {number}: unknown kind {kind!r}; the kinds are {', '.join(KINDS)}",
                        "cards", number - 1, "kind")
        if not _whole(count) or count < 0:
            raise _fail(source, f"card row {number} ({kind}): count must be a whole number of 0 or more, "
                                f"not {count!r}", "cards", number - 1, "count")
        if kind in VALUE_KINDS:
            value, icon = row.get("value"), row.get("icon")
            if not _whole(value) or value <= 0 or value % step:
                raise _fail(source, f"card row {number} ({kind}): value must be a positive multiple of the "
                                    f"board's step {step}, not {value!r}", "cards", number - 1, "value")
            if icon not in ICONS:
                raise _fail(source, f"card row {number} ({kind} {value}): unknown icon {icon!r}; the icons are "
                                    f"{', '.join(ICONS)}", "cards", number - 1, "icon")
            key = (kind, int(value), str(icon))
        else:
            if "value" in row or "icon" in row:
                raise _fail(source, f"card row {number}: a {kind} card has no value and no icon", "cards", number - 1,
                            "value" if "value" in row else "icon")
            key = (kind, 0, "")
        if key in types:
            raise _fail(source, f"card row {number} repeats the card type {card_name(*key)}; give one row per type",
                        "cards", number - 1)
        types[key] = int(count)
    total = sum(types.values())
    if total != DECK_SIZE:
        raise _fail(source, f"the Dive Deck must hold {DECK_SIZE} cards (HYB-C1); these rows give {total}")

    def order(key: tuple[str, int, str]) -> tuple[int, int, int]:
        kind, value, icon = key
        return KINDS.index(kind), value, ICONS.index(icon) if icon else -1

    keys = sorted(types, key=order)
    labels = tuple(f"{kind[0].upper()}{value}{ICON_LETTERS[icon]}" if kind in VALUE_KINDS else SPECIAL_LABELS[kind]
                   for kind, value, icon in keys)
    verbs = tuple(frozenset((kind, *_ICON_VERBS[icon]) if kind in VALUE_KINDS else _KIND_VERBS[kind])
                  for kind, _, icon in keys)
    copies = tuple(types[key] for key in keys)
    return CardTable(
        max_depth=max_depth, step=step, hindrance_penalty=penalty, hand_size=hand_size,
        face_label=labels,
        face_kind=tuple(kind for kind, _, _ in keys),
        face_value=tuple(value for _, value, _ in keys),
        face_icon=tuple(icon for _, _, icon in keys),
        face_name=tuple(card_name(*key) for key in keys),
        face_copies=copies,
        face_verbs=verbs,
        face_actions=tuple(tuple(verb for verb in ACTION_VERBS if verb in face_verbs) for face_verbs in verbs),
        face_by_label={label: face for face, label in enumerate(labels)},
        dolphin_values=tuple(sorted({value for kind, value, _ in keys if kind in VALUE_KINDS})),
        deck=tuple(face for face in range(len(keys)) for _ in range(copies[face])),
    )


@cache
def load_deck(path: str | None = None) -> CardTable:
    """The deck from ``path``, or the default data shipped with divedeck; a bad file raises ``ConfigError``."""
    text, source = read_data_text(__package__, "deck.toml", path, WHAT)
    return parse_deck(text, source)


def parse_deck(text: str, source: str) -> CardTable:
    """The deck in a data file's ``text``; ``source`` names it in messages. A bad file raises ``DataError``."""
    return build_toml(text, source, WHAT, _build)


def describe(table: CardTable) -> str:
    """What a deck holds, in one line (``divedeck data check``)."""
    return (f"{table.deck_size} cards of {len(table.face_label)} types; a board of {table.max_depth} ft in steps of "
            f"{table.step} ft; hands of {table.hand_size}; {table.hindrance_penalty} ft off for each hindrance")
