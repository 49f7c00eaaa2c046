"""A game in progress with its action log: the unit that is saved, restored and replayed.

``seed + options + action log`` is the whole truth of a game: replaying the log from the seed rebuilds the state
exactly, so a save file is that log (plus a digest of the state it leads to, to catch tampering or a rules change)
and who sat where, so a resumed game seats the same people and bots.

Version 2 added ``seats``; a version 1 file still loads, with its seats unknown (``None``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import config_to_options
from .errors import ConfigError, DivedeckError, SaveError
from .events import Event
from .game import Game
from .registry import get_game
from .rng import check_seed

SAVE_FORMAT = "divedeck-game"
SAVE_VERSION = 2
READABLE_VERSIONS = (1, 2)


@dataclass
class Match:
    """A game, its config and seed, the current state, and every action applied so far."""

    game: Game[Any, Any]
    config: Any
    seed: int
    state: Any
    actions: list[tuple[int, Any]] = field(default_factory=list)
    opening: list[Event] = field(default_factory=list)  # the setup's events (the first deal)
    # Who sits where, as the caller names them (``you``, a bot's name); ``None`` when not known (an old save).
    seats: list[str] | None = None

    @classmethod
    def start(cls, game: Game[Any, Any] | str, options: dict[str, Any] | None = None, seed: int = 0) -> Match:
        game = get_game(game) if isinstance(game, str) else game
        config = game.make_config(options)
        try:
            seed = check_seed(seed)
        except ValueError as error:
            raise ConfigError(str(error)) from None
        state, opening = game.new_with_events(config, seed)
        return cls(game, config, seed, state, opening=opening)

    def act(self, seat: int, action: Any) -> list[Event]:
        """Apply ``action`` for ``seat`` (an action value or its notation) and log it if it was accepted."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        events = self.game.apply(self.state, seat, action)
        self.actions.append((seat, action))
        return events

    def replayed(self) -> Match:
        """This match rebuilt from its seed and log: the moves that were finished, whatever an interruption in
        the middle of one left in ``state``."""
        match = Match.start(self.game, config_to_options(self.config), self.seed)
        match.replay([[seat, self.game.format_action(action)] for seat, action in self.actions])
        match.seats = self.seats
        return match

    @property
    def over(self) -> bool:
        return self.game.outcome(self.state) is not None

    def digest(self) -> str:
        return hashlib.sha256(self.game.state_notation(self.state).encode()).hexdigest()

    # -- saving ----------------------------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.name,
            "options": config_to_options(self.config),
            "seed": self.seed,
            "seats": self.seats,
            "actions": [[seat, self.game.format_action(action)] for seat, action in self.actions],
            "digest": self.digest(),
        }

    def save(self, path: str | Path) -> None:
        """Write the record atomically, so a crash mid-write never leaves a half file in place of a good one."""
        path = Path(path)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(self.to_record(), indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)

    @classmethod
    def from_record(cls, record: Any) -> Match:
        """Rebuild a match by replaying a record; any inconsistency raises ``SaveError`` saying what."""
        if not isinstance(record, dict) or record.get("format") != SAVE_FORMAT:
            raise SaveError("not a divedeck saved game (the 'format' field is missing or wrong)")
        version = record.get("version")
        if type(version) is not int or version not in READABLE_VERSIONS:
            raise SaveError(f"saved game version {version!r} is not supported "
                            f"(this divedeck reads versions {', '.join(map(str, READABLE_VERSIONS))})")
        options, seed, actions = record.get("options", {}), record.get("seed"), record.get("actions")
        if not isinstance(options, dict) or not isinstance(actions, list):
            raise SaveError("saved game is corrupted: 'options' must be an object and 'actions' a list")
        try:
            match = cls.start(str(record.get("game")), options, seed)  # type: ignore[arg-type]
        except ConfigError as error:
            raise SaveError(f"saved game cannot be set up: {error}") from None
        match.seats = match._read_seats(record.get("seats"))
        match.replay(actions)
        digest = record.get("digest")
        if digest is not None and digest != match.digest():
            raise SaveError("saved game is corrupted: its actions do not lead to the state it recorded")
        return match

    def _read_seats(self, seats: Any) -> list[str] | None:
        if seats is None:
            return None
        count = self.game.num_players(self.config)
        if not isinstance(seats, list) or len(seats) != count or not all(isinstance(s, str) for s in seats):
            raise SaveError(f"saved game is corrupted: 'seats' must list {count} names")
        return seats

    def replay(self, actions: Iterable[Any]) -> None:
        for index, entry in enumerate(actions):
            if (not isinstance(entry, list | tuple) or len(entry) != 2 or not isinstance(entry[0], int)
                    or not isinstance(entry[1], str)):
                raise SaveError(f"saved game is corrupted: action {index} is not a [seat, notation] pair")
            try:
                self.act(entry[0], entry[1])
            except DivedeckError as error:
                raise SaveError(f"saved game is corrupted: action {index} ({entry[1]!r} by seat {entry[0]}) "
                                f"cannot be replayed: {error}") from None

    @classmethod
    def load(cls, path: str | Path) -> Match:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise SaveError(f"cannot read saved game {path}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise SaveError(f"{path} is not a divedeck saved game (not UTF-8 text)") from None
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise SaveError(f"{path} is not a divedeck saved game: invalid JSON at line {error.lineno}") from None
        return cls.from_record(record)

