"""Hold your Hat's word cards (HYH-C1, HYH-C2, HYH-C5): loaded from a data file, validated, turned into a table.

Two formats are read:

- **TOML** (the shipped deck, ``data/words.toml``)::

      format = "divedeck-words"
      version = 1
      language = "en"

      [[card]]
      id = "W001"
      red = "treasure map"
      orange = "anchor"
      yellow = "sandcastle"
      green = "lighthouse"
      blue = "jellyfish"
      purple = "compass"
      alternates = { jellyfish = ["jelly fish"] }

  The hat (2-point) entry of a card is fixed by its number (W001-W025 red, W026-W050 orange, W051-W075 yellow,
  W076-W099 green, W100-W123 blue, W124-W147 purple); a card may name it instead with ``hat = "blue"``.
  ``alternates`` maps an entry (by its colour or its text) to other accepted spellings.

- **Plain text** (any other file name, for lists people write themselves): one card per line, six entries in the
  colour order red | orange | yellow | green | blue | purple, the hat entry marked with a ``*``; alternate spellings
  follow an entry after ``/``; blank lines and lines starting with ``#`` are skipped::

      treasure map* | anchor | sandcastle | lighthouse | jellyfish/jelly fish | compass

Either way every card has six entries, exactly one of them a hat entry of 2 to 4 words, the others of 1 or 2 words,
and all entries of the deck are distinct after normalization (HYH-R27). A file breaking a rule is refused with a
``ConfigError`` naming the file, the line and the card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...engine.data import DataError, FieldPath, read_data_text, toml_data
from .judging import entry_keys

COLORS = ("red", "orange", "yellow", "green", "blue", "purple")
FORMAT = "divedeck-words"
VERSION = 1
# The shipped composition's hat colour by card number (HYH-C5): cards up to each bound have that colour's hat.
HAT_BOUNDS = ((25, "red"), (50, "orange"), (75, "yellow"), (99, "green"), (123, "blue"), (147, "purple"))
MAX_ENTRY_LENGTH = 60
WHAT = "word list"


@dataclass(frozen=True)
class Entry:
    text: str
    hat: bool
    alternates: tuple[str, ...] = ()

    @property
    def points(self) -> int:
        return 2 if self.hat else 1


@dataclass(frozen=True)
class WordCard:
    id: str
    entries: tuple[Entry, ...]  # one per colour, in COLORS order


@dataclass(frozen=True)
class WordTable:
    """Every card of one word file. Shared, never mutated, by every state that uses it."""

    cards: tuple[WordCard, ...]
    language: str
    source: str

    def index(self, card_id: str) -> int:
        """The card's position in the table (states hold positions), or -1."""
        return self._by_id().get(card_id, -1)

    def _by_id(self) -> dict[str, int]:
        found: dict[str, int] | None = getattr(self, "_ids", None)
        if found is None:
            found = {card.id: i for i, card in enumerate(self.cards)}
            object.__setattr__(self, "_ids", found)
        return found

    def __len__(self) -> int:
        return len(self.cards)


def hat_color(number: int) -> str:
    """The colour of card ``number``'s hat entry in the shipped composition (HYH-C5)."""
    for bound, color in HAT_BOUNDS:
        if number <= bound:
            return color
    return COLORS[(number - 1) % len(COLORS)]  # beyond 147 (a longer custom list): round robin


class _Problems:
    """Names where a problem is: the file, and the line of a card when it is known."""

    def __init__(self, source: str, lines: dict[int, int]) -> None:
        self.source = source
        self.lines = lines

    def fail(self, message: str, card: int | None = None, card_id: str | None = None,
             key: str | None = None) -> DataError:
        """A refusal; ``key`` is the card's field at fault (a colour, ``id``, ``hat``, ``alternates``), or with
        no card a top-level key."""
        where = ""
        if card_id:
            where = f" (card {card_id})"
        elif card is not None:
            where = f" (card {card + 1})"
        field: FieldPath = ("card", card) if card is not None else ()
        if key is not None:
            field = (*field, key)
        return DataError(WHAT, self.source, message, field,
                         self.lines.get(card) if card is not None else None, where)


def _count_words(text: str) -> int:
    return len(text.split())


def _check_entry(problems: _Problems, text: Any, color: str, hat: bool, index: int, card_id: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise problems.fail(f"the {color} entry must be non-empty text, not {text!r}", index, card_id, color)
    text = " ".join(text.split())
    if len(text) > MAX_ENTRY_LENGTH:
        raise problems.fail(f"the {color} entry is longer than {MAX_ENTRY_LENGTH} characters", index, card_id,
                            color)
    if not entry_keys(text):
        raise problems.fail(f"the {color} entry {text!r} has no letters or digits", index, card_id, color)
    words = _count_words(text)
    if hat and not 2 <= words <= 4:
        raise problems.fail(f"the hat entry ({color}) {text!r} must have 2 to 4 words (HYH-C5), not {words}",
                            index, card_id, color)
    if not hat and words > 2:
        raise problems.fail(f"the {color} entry {text!r} must have 1 or 2 words (HYH-C5), not {words}",
                            index, card_id, color)
    return text


def _check_alternates(problems: _Problems, raw: Any, index: int, card_id: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(a, str) and a.strip() for a in raw):
        raise problems.fail("alternates must be lists of non-empty text", index, card_id, "alternates")
    return [" ".join(a.split()) for a in raw]


def _build(cards: list[WordCard], language: str, source: str, problems: _Problems) -> WordTable:
    if not cards:
        raise problems.fail("has no cards")
    seen: dict[str, tuple[int, int, str]] = {}
    for index, card in enumerate(cards):
        for position, entry in enumerate(card.entries):
            for key in entry_keys(entry.text):
                if key in seen and seen[key][:2] != (index, position):
                    other_index, _, other = seen[key]
                    raise problems.fail(f"{entry.text!r} is the same as {other!r} of card "
                                        f"{cards[other_index].id} after normalization (HYH-C5, HYH-R27)",
                                        index, card.id, COLORS[position])
                seen[key] = (index, position, entry.text)
    return WordTable(tuple(cards), language, source)


# -- TOML ----------------------------------------------------------------------------------------------------------

_CARD_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*card[ \t]*\]\]", re.MULTILINE)


def _card_lines(text: str) -> dict[int, int]:
    """The line number of each ``[[card]]`` header, by card index."""
    return {i: text.count("\n", 0, m.start()) + 1 for i, m in enumerate(_CARD_HEADER.finditer(text))}


def parse_toml(text: str, source: str) -> WordTable:
    problems = _Problems(source, _card_lines(text))
    data = toml_data(text, source, WHAT)
    if data.get("format") != FORMAT:
        raise problems.fail(f'needs format = "{FORMAT}" at the top', key="format")
    if data.get("version") != VERSION:
        raise problems.fail(f"has version {data.get('version')!r}; this divedeck reads version {VERSION}",
                            key="version")
    language = data.get("language", "en")
    if not isinstance(language, str) or not language:
        raise problems.fail("language must be text, like \"en\"", key="language")
    raw_cards = data.get("card")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise problems.fail("needs [[card]] tables", key="card")
    cards = []
    known = {"id", "hat", "alternates", *COLORS}
    for index, raw in enumerate(raw_cards):
        if not isinstance(raw, dict):
            raise problems.fail("each card must be a table", index)
        card_id = raw.get("id")
        expected = f"W{index + 1:03d}"
        if card_id != expected:
            raise problems.fail(f"card ids must run W001, W002, ... in order: expected {expected}, found "
                                f"{card_id!r}", index, key="id")
        unknown = sorted(set(raw) - known)
        if unknown:
            raise problems.fail(f"unknown key {unknown[0]!r}; a card has id, {', '.join(COLORS)}, and optionally "
                                "hat and alternates", index, card_id, unknown[0])
        hat = raw.get("hat", hat_color(index + 1))
        if hat not in COLORS:
            raise problems.fail(f"hat must be one of {', '.join(COLORS)}, not {hat!r}", index, card_id, "hat")
        texts = [_check_entry(problems, raw.get(color), color, color == hat, index, card_id) for color in COLORS]
        alternates: dict[int, list[str]] = {}
        raw_alternates = raw.get("alternates", {})
        if not isinstance(raw_alternates, dict):
            raise problems.fail("alternates must be a table: { entry = [\"other spelling\", ...] }", index, card_id,
                                "alternates")
        for key, values in raw_alternates.items():
            position = COLORS.index(key) if key in COLORS else next(
                (i for i, t in enumerate(texts) if entry_keys(t) & entry_keys(key)), -1)
            if position < 0:
                raise problems.fail(f"alternates name {key!r}, which is neither a colour nor an entry of this card",
                                    index, card_id, "alternates")
            alternates[position] = _check_alternates(problems, values, index, card_id)
        entries = tuple(Entry(texts[i], COLORS[i] == hat, tuple(alternates.get(i, ()))) for i in range(len(COLORS)))
        cards.append(WordCard(card_id, entries))
    return _build(cards, language, source, problems)


# -- plain text ----------------------------------------------------------------------------------------------------


def parse_text(text: str, source: str) -> WordTable:
    lines: dict[int, int] = {}
    rows: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        lines[len(rows)] = number
        rows.append(stripped)
    problems = _Problems(source, lines)
    cards = []
    for index, row in enumerate(rows):
        card_id = f"W{index + 1:03d}"
        parts = [part.strip() for part in row.split("|")]
        if len(parts) != len(COLORS):
            raise problems.fail(f"a line needs {len(COLORS)} entries separated by '|' ({' | '.join(COLORS)}), "
                                f"found {len(parts)}", index, card_id)
        hats = [i for i, part in enumerate(parts) if part.startswith("*") or part.endswith("*")]
        if len(hats) != 1:
            raise problems.fail(f"exactly one entry must be marked as the hat entry with '*', found {len(hats)}",
                                index, card_id)
        entries = []
        for i, part in enumerate(parts):
            main, *alternates = [piece.strip().strip("*").strip() for piece in part.strip("*").split("/")]
            text = _check_entry(problems, main, COLORS[i], i == hats[0], index, card_id)
            entries.append(Entry(text, i == hats[0], tuple(_check_alternates(problems, alternates, index, card_id))
                                 if alternates else ()))
        cards.append(WordCard(card_id, tuple(entries)))
    return _build(cards, "en", source, problems)


# -- loading -------------------------------------------------------------------------------------------------------


def parse_words(text: str, source: str, *, toml: bool) -> WordTable:
    return parse_toml(text, source) if toml else parse_text(text, source)


def parse_file(text: str, source: str) -> WordTable:
    """A word list's ``text`` in the format its name says (``.toml``: TOML, else plain text)."""
    return parse_words(text, source, toml=source.lower().endswith(".toml"))


def describe(table: WordTable) -> str:
    """What a word list holds, in one line (``divedeck data check``)."""
    return f"{len(table)} cards of {len(COLORS)} entries ({len(table) * len(COLORS)} words), language {table.language}"


@cache
def load_words(path: str | None = None) -> WordTable:
    """The word table from ``path`` (``.toml``: the TOML format, otherwise plain text), or the shipped deck."""
    text, source = read_data_text(__package__ or "", "words.toml", path, WHAT)
    return parse_words(text, source, toml=path is None or str(path).lower().endswith(".toml"))
