"""Reading a game's TOML data: the default file shipped in its package, or a file a designer names.

One loader for every game, so each gets the same limits and errors: a named file must be a regular file of at most
``MAX_DATA_BYTES`` (a special file such as ``/dev/zero`` is never read), and what went wrong is said in one line
without telling more about the machine than the path the caller gave.
"""

from __future__ import annotations

import re
import stat
import tomllib
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from .errors import ConfigError

MAX_DATA_BYTES = 2_000_000
T = TypeVar("T")


def read_data_text(package: str, default_name: str, path: str | None, what: str) -> tuple[str, str]:
    """The text of ``path`` (or of ``data/<default_name>`` in ``package``) and a name for it in messages."""
    if path is None:
        return resources.files(package).joinpath(f"data/{default_name}").read_text(encoding="utf-8"), \
            f"default {default_name}"
    # Missing, not a regular file, unreadable, too large, not UTF-8: one message, so that someone naming paths
    # from the lobby of a server run with --allow-files cannot tell which of its files exist.
    refusal = ConfigError(f"cannot read {what} {path}: no readable UTF-8 file of at most "
                          f"{MAX_DATA_BYTES // 1_000_000} MB there")
    try:
        info = Path(path).stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_DATA_BYTES:
            raise refusal
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_DATA_BYTES + 1)
    except (OSError, UnicodeDecodeError, ValueError):
        raise refusal from None
    if len(text) > MAX_DATA_BYTES:
        raise refusal
    return text, str(path)


@cache
def load_toml(package: str, default_name: str, path: str | None, what: str) -> tuple[dict[str, Any], str]:
    """The parsed TOML of ``path`` (or the package's default file) and its name for messages; cached, since
    configs name the same file again and again. Raises ``ConfigError`` naming the file."""
    text, source = read_data_text(package, default_name, path, what)
    return toml_data(text, source, what), source


# --- where in a data file: line numbers for designers -------------------------------------------------------------

# A field of a data file: table and key names, and the 0-based index of an array-of-tables entry, e.g.
# ("cards", 2, "count") for the ``count`` of the third ``[[cards]]``; () for the file as a whole.
FieldPath = tuple[str | int, ...]


def field_text(field: FieldPath) -> str:
    """``cards[3].count`` (entries counted from 1, as a person counts them)."""
    text = ""
    for part in field:
        text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


class DataError(ConfigError):
    """A data file that breaks a rule: ``reason``, the ``field`` at fault and, when known, its ``line``.

    Its text is ``<what> <source>[ line N]<where>: <reason>``; ``where`` is any further place the game names (a
    card)."""

    def __init__(self, what: str, source: str, reason: str, field: FieldPath = (), line: int | None = None,
                 where: str = "") -> None:
        self.what, self.source, self.reason, self.where = what, source, reason, where
        self.field, self.line = field, line
        super().__init__(f"{what} {source}{f' line {line}' if line else ''}{where}: {reason}")

    def at(self, line: int | None) -> DataError:
        return DataError(self.what, self.source, self.reason, self.field, line, self.where)


_HEADER = re.compile(r"^[ \t]*(\[\[?)[ \t]*([^\]#]+?)[ \t]*\]\]?")
_KEY = re.compile(r"""^[ \t]*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*[=.]""")


def locate(text: str, field: FieldPath) -> int | None:
    """The line (from 1) of ``field`` in a TOML ``text``: the line of its key, or, when the key is missing, of
    the table that should hold it; None for the file as a whole or a table that is not there.

    A plain scan, not a parser: it reads table headers (``[name]``, ``[[name]]``, counting the entries of an
    array of tables) and ``key =`` lines, skipping multi-line strings; a key inside an inline table or an array
    is found at the line where its outer key starts."""
    if not field:
        return None
    # Which table holds the field: an array-of-tables entry (name, index), a table (name), or the top level.
    if len(field) >= 2 and isinstance(field[1], int):
        table, index, key = str(field[0]), field[1], next((p for p in field[2:] if isinstance(p, str)), None)
    elif len(field) >= 2:
        table, index, key = str(field[0]), None, str(field[1])
    else:
        table, index, key = None, None, str(field[0])
    current: tuple[str | None, int | None] = (None, None)
    counts: dict[str, int] = {}
    table_line: int | None = None
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if in_string is not None:
            if in_string in line:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header:
            name = header.group(2).strip().strip('"\'')
            if header.group(1) == "[[":
                counts[name] = counts.get(name, -1) + 1
                current = (name, counts[name])
            else:
                current = (name, None)
            if current == (table, index) and table is not None:
                table_line = number
                if key is None:
                    return number
            continue
        found = _KEY.match(line)
        if found:
            for quote in ('"""', "'''"):
                if line.count(quote) == 1:
                    in_string = quote
            name = next(group for group in found.groups() if group is not None)
            if current == (table, index) and name == key:
                return number
            if table is not None and current == (None, None) and name == table and index is None:
                table_line = table_line or number  # an inline table or dotted keys at the top: `board = {...}`
    return table_line


_SYNTAX_LINE = re.compile(r"at line (\d+), column (\d+)")


def toml_data(text: str, source: str, what: str) -> dict[str, Any]:
    """``text`` parsed as TOML; a syntax error is a ``DataError`` with the parser's line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        line = getattr(error, "lineno", None)
        where = _SYNTAX_LINE.search(message)
        if line is None and where:
            line = int(where.group(1))
        reason = _SYNTAX_LINE.sub("", message).replace("()", "").strip().rstrip(" (") or message
        raise DataError(what, source, f"not valid TOML: {reason}", (), line) from None


def build_toml(text: str, source: str, what: str, build: Callable[[dict[str, Any], str], T]) -> T:
    """``build(data, source)`` of the TOML ``text``, its errors given the line of the field they name."""
    data = toml_data(text, source, what)
    try:
        return build(data, source)
    except DataError as error:
        if error.line is None and error.field:
            raise error.at(locate(text, error.field)) from None
        raise
