"""Reading a game's TOML data: the default file shipped in its package, or a file a designer names.

One loader for every game, so each gets the same limits and errors: a named file must be a regular file of at most
``MAX_DATA_BYTES`` (a special file such as ``/dev/zero`` is never read), and what went wrong is said in one line
without telling more about the machine than the path the caller gave.
"""

from __future__ import annotations

import stat
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import ConfigError

MAX_DATA_BYTES = 2_000_000


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
    try:
        return tomllib.loads(text), source
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{what} {source} is not valid TOML ({error})") from None
