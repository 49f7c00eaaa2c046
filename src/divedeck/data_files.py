"""The data files designers edit (a deck, a treasure table, a word list), for `divedeck data show` and `check`.

Each game declares its kinds of data file (``Game.data_files``: the option naming one, the shipped default, its
parser and a one-line summary); nothing here names a game. ``check`` reads a file as the game would and says
where it is wrong: the parser's own line for a TOML syntax error; for a broken rule, the field the game names and
the line of that key, found by scanning the text for its table and key (``engine.data.locate``), or of its table
when the key is missing. Like the games' loaders it stops at the first problem.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .engine.data import DataError, field_text, locate, read_data_text, toml_data
from .engine.declaration import DataFile
from .engine.errors import ConfigError
from .engine.registry import game_names, get_game


@dataclass(frozen=True)
class Problem:
    """What is wrong with a data file: where (line, field: either may be unknown) and why."""

    path: str
    line: int | None
    field: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.field + ': ' if self.field else ''}{self.reason}"


class InvalidDataFile(ConfigError):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


@dataclass(frozen=True)
class Checked:
    game: str
    kind: DataFile
    table: Any

    @property
    def summary(self) -> str:
        return self.kind.summary(self.table)


def kinds(game: str) -> tuple[DataFile, ...]:
    found = get_game(game).data_files
    if not found:
        raise ConfigError(f"{get_game(game).title} reads no data file")
    return found


def kind_of(game: str, option: str | None = None) -> DataFile:
    """The game's data file named by ``option`` (default: its only one)."""
    found = kinds(game)
    if option is None:
        if len(found) > 1:
            raise ConfigError(f"{game} reads several data files: name one with --option "
                              f"({', '.join(kind.option for kind in found)})")
        return found[0]
    for kind in found:
        if kind.option == option:
            return kind
    raise ConfigError(f"{game} has no data file option {option!r}; it has {', '.join(k.option for k in found)}")


def shipped_text(game: str, option: str | None = None) -> str:
    """The default data file shipped with divedeck, as it is written (with its comments)."""
    kind = kind_of(game, option)
    return resources.files(kind.package).joinpath(f"data/{kind.default}").read_text(encoding="utf-8")


def guess(path: Path, text: str) -> tuple[str, DataFile]:
    """The game and kind of data file ``text`` is, from its top-level TOML keys (or, for a file not named
    ``.toml``, the one kind read as plain text)."""
    every = [(name, kind) for name in game_names() for kind in get_game(name).data_files]
    if not str(path).lower().endswith(".toml"):
        plain = [(name, kind) for name, kind in every if kind.text_format]
        if len(plain) == 1:
            return plain[0]
        raise ConfigError(f"{path}: not a .toml file; say which game reads it with --game")
    try:
        keys = set(tomllib.loads(text))
    except tomllib.TOMLDecodeError:
        try:
            toml_data(text, str(path), "data file")
        except DataError as error:  # a syntax error is one whatever the game
            raise InvalidDataFile(Problem(str(path), error.line, "", error.reason)) from None
        raise
    scored = sorted(((len(keys & kind.keys), name, kind) for name, kind in every), key=lambda s: -s[0])
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        shown = ", ".join(sorted(keys)) or "none"
        raise ConfigError(f"{path}: cannot tell which game's data file this is (its top-level keys: {shown}); "
                          f"say it with --game ({', '.join(game_names())})")
    return scored[0][1], scored[0][2]


def check(path: Path, game: str | None = None, option: str | None = None) -> Checked:
    """Read ``path`` as the game's data file; ``InvalidDataFile`` says what is wrong, where."""
    text, source = read_data_text("", "", str(path), "data file")
    name, kind = (game, kind_of(game, option)) if game is not None else guess(path, text)
    try:
        table = kind.parse(text, source)
    except DataError as error:
        line, field = error.line, ""
        if str(path).lower().endswith(".toml"):  # a plain-text word list has lines, not fields
            field = field_text(error.field)
            line = (locate(text, error.field) if error.field else None) or line
        reason = error.reason if not error.where else f"{error.where.strip(' ()')}: {error.reason}"
        raise InvalidDataFile(Problem(source, line, field, reason)) from None
    except ConfigError as error:  # a game whose check gives no field
        raise InvalidDataFile(Problem(source, None, "", str(error))) from None
    return Checked(name, kind, table)
