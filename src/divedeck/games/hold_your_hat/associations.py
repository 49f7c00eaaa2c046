"""What a player knows about the deck's entries, written down for the bots: association data beside a word list.

A word list ``words.toml`` may have a file ``<name>.associations.toml`` beside it (the shipped deck's is
``data/associations.toml``), keyed by entry text; each entry it covers has, for each round::

    format = "divedeck-associations"
    version = 1

    [entry]
    "treasure map" = { describe = "old pirate paper where X marks the buried gold", clues = ["pirate", "buried"],
                       mime = "🏴‍☠️ 📜 ❌ 💰" }

- ``describe`` (round 1): a description of at least ``MIN_DESCRIBE_WORDS`` words;
- ``clues`` (round 2, and more round 1 hints): at least ``MIN_CLUES`` single words;
- ``mime`` (round 3): at least ``MIN_MIME`` pictures (emoji, symbols) separated by spaces, no letter or digit.

Everything is checked with the game's own clue judge (HYH-R24, ``judging.clue_problem``) against the entry and its
alternate spellings, as a person's typed clue would be; a file that breaks a rule, or names an entry the word list
does not have, is refused with a ``ConfigError``. A word list without such a file still loads: it simply has no
associations, and the word bots say they cannot give clues for it. Entries a file leaves out are not covered: a bot
clue-giver passes them (``Associations.covers``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ...engine.data import read_data_text
from ...engine.errors import ConfigError
from .judging import clue_problem, normalize, words
from .words import WordTable, load_words

FORMAT = "divedeck-associations"
VERSION = 1
MIN_DESCRIBE_WORDS = 3
MIN_CLUES = 2
MIN_MIME = 2
SUFFIX = ".associations.toml"


@dataclass(frozen=True)
class Association:
    describe: str
    clues: tuple[str, ...]
    mime: tuple[str, ...]


@dataclass(frozen=True)
class Associations:
    """The associations of one word table's entries, by normalized entry text."""

    entries: dict[str, Association]
    source: str | None  # None: the word list has no association file

    def get(self, entry: str) -> Association | None:
        return self.entries.get(normalize(entry))

    def covers(self, entry: str) -> bool:
        return normalize(entry) in self.entries

    def __len__(self) -> int:
        return len(self.entries)


NONE = Associations({}, None)


def associations_path(cards: str | None) -> str | None:
    """The association file beside the word list ``cards`` (``None``: the shipped deck's)."""
    if cards is None:
        return None
    path = Path(cards)
    return str(path.with_name(path.name.rsplit(".", 1)[0] + SUFFIX))


def parse_associations(text: str, source: str, table: WordTable) -> Associations:
    def fail(message: str) -> ConfigError:
        return ConfigError(f"associations {source}: {message}")

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise fail(f"is not valid TOML ({error})") from None
    if data.get("format") != FORMAT:
        raise fail(f'needs format = "{FORMAT}" at the top')
    if data.get("version") != VERSION:
        raise fail(f"has version {data.get('version')!r}; this divedeck reads version {VERSION}")
    raw = data.get("entry")
    if not isinstance(raw, dict):
        raise fail("needs an [entry] table")
    known = {normalize(entry.text): entry for card in table.cards for entry in card.entries}
    found: dict[str, Association] = {}
    for name, fields in raw.items():
        key = normalize(name)
        entry = known.get(key)
        if entry is None:
            raise fail(f"{name!r} is not an entry of the word list")
        if not isinstance(fields, dict) or set(fields) != {"describe", "clues", "mime"}:
            raise fail(f"{name!r} needs exactly describe, clues and mime")
        describe, clues, mime = fields["describe"], fields["clues"], fields["mime"]
        if not isinstance(describe, str) or len(words(describe)) < MIN_DESCRIBE_WORDS:
            raise fail(f"{name!r}: describe must be a text of at least {MIN_DESCRIBE_WORDS} words")
        if (not isinstance(clues, list) or len(clues) < MIN_CLUES
                or not all(isinstance(c, str) and len(c.split()) == 1 for c in clues)):
            raise fail(f"{name!r}: clues must be a list of at least {MIN_CLUES} single words")
        if not isinstance(mime, str) or len(mime.split()) < MIN_MIME:
            raise fail(f"{name!r}: mime must be at least {MIN_MIME} pictures separated by spaces")
        for clue, round_number in ((describe, 1), *((c, 2) for c in clues), (mime, 3)):
            problem = clue_problem(clue, entry.text, entry.alternates, round_number)
            if problem:
                raise fail(f"{name!r}: the round {round_number} clue {clue!r} breaks HYH-R24: {problem}")
        found[key] = Association(" ".join(describe.split()), tuple(clues), tuple(mime.split()))
    return Associations(found, source)


@cache
def load_associations(cards: str | None = None) -> Associations:
    """The associations of the word list ``cards`` (``None``: the shipped deck), or ``NONE`` if it has none."""
    table = load_words(cards)
    path = associations_path(cards)
    if path is not None and not Path(path).is_file():
        return NONE
    text, source = read_data_text(__package__ or "", "associations.toml", path, "associations")
    return parse_associations(text, source, table)
