"""A run's finished games in a file, written as they arrive, so that a stopped run carries on where it stopped.

The file is JSON lines: a header, then for each run (a ``SimulationSpec``: game, bots, options, seed, rotation)
one line naming it, then one line per finished game. A run is known by a key made of its spec with the options
as the game reads them and the SHA-256 of every data file an option names, so an edited deck is a different run.
One file may hold several runs (a sweep's variants); games of other runs are kept as they are.

Games are seeded by index, so the games a checkpoint holds are exactly the games an uninterrupted run would have
played: a resumed run gives the same results. A last line cut short (the process was killed while writing it) is
ignored.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import IO, Any

from .. import __version__
from ..engine.config import config_to_options
from ..engine.errors import ConfigError
from ..engine.registry import get_game
from .runner import GameResult, SimulationSpec

FORMAT = "divedeck-checkpoint"
VERSION = 1
_TUPLE = "__tuple__"


def _encode(value: Any) -> Any:
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {_TUPLE}:
            return tuple(_decode(v) for v in value[_TUPLE])
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def encode_result(result: GameResult) -> dict[str, Any]:
    return {f.name: _encode(getattr(result, f.name)) for f in dataclasses.fields(result)}


def decode_result(data: dict[str, Any]) -> GameResult:
    return GameResult(**{name: _decode(value) for name, value in data.items()})


def spec_identity(spec: SimulationSpec) -> dict[str, Any]:
    """What makes a run's games what they are: the spec, its options as the game reads them, its data files."""
    game = get_game(spec.game)
    config = game.make_config(spec.options)
    files: dict[str, str | None] = {}
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        if field.metadata.get("file") and value is not None:
            try:
                files[field.name] = hashlib.sha256(Path(value).read_bytes()).hexdigest()
            except OSError:
                files[field.name] = None
    identity = {"game": spec.game, "bots": list(spec.bots), "options": config_to_options(config), "seed": spec.seed,
                "rotate": spec.rotate, "files": files}
    if spec.barred is not None:  # only then: the keys of runs without it stay what they were
        identity["barred"] = {"seats": list(spec.barred[0]), "kind": spec.barred[1]}
    return identity


def spec_key(spec: SimulationSpec) -> str:
    text = json.dumps(spec_identity(spec), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Checkpoint:
    """The finished games of the runs written to ``path``; ``keep=False`` removes the file after a run that
    ended normally (a checkpoint nobody asked for, kept only to resume an interrupted run)."""

    def __init__(self, path: Path, keep: bool = True) -> None:
        self.path = Path(path)
        self.keep = keep
        self._games: dict[str, dict[int, GameResult]] = {}
        self._named: set[str] = set()
        self._file: IO[str] | None = None
        self._valid: str | None = None  # the file's text up to a damaged last line, to cut it back to
        if self.path.exists():
            self._read()

    @property
    def games(self) -> int:
        """Finished games held, of every run."""
        return sum(len(games) for games in self._games.values())

    def _read(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(f"--resume {self.path}: cannot read it ({error})") from None
        if not lines:
            return
        try:
            header = json.loads(lines[0])
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ConfigError(f"--resume {self.path}: not a divedeck checkpoint (give a new file name to start one)")
        if header.get("version") != VERSION or header.get("divedeck") != __version__:
            raise ConfigError(f"--resume {self.path}: written by divedeck {header.get('divedeck')}, this is "
                              f"{__version__}; its games may differ from this version's: start a new checkpoint")
        for number, line in enumerate(lines[1:], 2):
            try:
                entry = json.loads(line)
                key = entry["run"]
                if "spec" in entry:
                    self._named.add(key)
                    self._games.setdefault(key, {})
                else:
                    result = decode_result(entry["game"])
                    self._games.setdefault(key, {})[result.index] = result
            except (ValueError, KeyError, TypeError):
                if number == len(lines):  # cut short by a kill while it was written
                    self._valid = "".join(kept + "\n" for kept in lines[:-1])
                    break
                raise ConfigError(f"--resume {self.path}: line {number} is damaged") from None

    def finished(self, spec: SimulationSpec) -> dict[int, GameResult]:
        """The games of ``spec``'s run already played, by index."""
        return dict(self._games.get(spec_key(spec), {}))

    def record(self, spec: SimulationSpec, results: list[GameResult]) -> None:
        """Append finished games (written through to the file at once)."""
        key = spec_key(spec)
        handle = self._open()
        lines = []
        if key not in self._named:
            self._named.add(key)
            lines.append(json.dumps({"run": key, "spec": spec_identity(spec)}, sort_keys=True, default=str))
        games = self._games.setdefault(key, {})
        for result in results:
            games[result.index] = result
            lines.append(json.dumps({"run": key, "game": encode_result(result)}))
        handle.write("".join(line + "\n" for line in lines))
        handle.flush()

    def _open(self) -> IO[str]:
        if self._file is None:
            if self._valid is not None:
                self.path.write_text(self._valid, encoding="utf-8")
                self._valid = None
            text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (kept open for the whole run)
            if text and not text.endswith("\n"):
                self._file.write("\n")
            if not text:
                self._file.write(json.dumps({"format": FORMAT, "version": VERSION, "divedeck": __version__}) + "\n")
        return self._file

    def close(self, finished: bool) -> None:
        """Close the file; remove it if it was not asked for and the run ``finished``."""
        if self._file is not None:
            self._file.close()
            self._file = None
        if finished and not self.keep:
            self.path.unlink(missing_ok=True)
