"""What several commands take and check alike: seats, game options, output files, delays, --json and --csv."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from platformdirs import user_data_path

from ..bots import accepted_bot_names, bot_names, check_bot_players
from ..engine.errors import ConfigError
from ..engine.registry import game_names, get_game
from .app import err

HUMAN = {"you", "human"}

OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as name=value; repeat for several (see 'divedeck games')."),
]
GameName = Annotated[str, typer.Argument(help="The game: " + ", ".join(game_names()) + ".")]


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ConfigError(f"--option needs name=value, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def resolve_seats(game_name: str, seats_text: str | None, options: dict[str, Any], default_seat: str,
                  first_seat: str | None = None, simulation: bool = False) -> list[str]:
    """The seat list, and the player count in ``options`` made consistent with it."""
    game = get_game(game_name)
    if seats_text:
        seats = [s.strip().lower() for s in seats_text.split(",") if s.strip()]
        seated = game.with_players(options, len(seats))
        for name, value in options.items():
            if name in seated and str(seated[name]) != str(value):
                raise ConfigError(f"--seats names {len(seats)} seats but {name}={value}")
        options.update(seated)
    else:
        seats = [default_seat] * game.num_players(game.make_config(options))
        if first_seat is not None:
            seats[0] = first_seat
    game.make_config(options)  # reports a bad option or player count before anything starts
    check_seat_names(game_name, seats, simulation)
    return seats


def saves_folder() -> Path:
    """Where a game stopped without ``--save`` is kept, to be carried on with ``--load``."""
    return user_data_path("divedeck", appauthor=False) / "saved"


def check_output_file(path: Path, flag: str) -> None:
    """Refuse a file that cannot be written before a game or a long run starts, not after it."""
    if path.is_dir():
        raise ConfigError(f"{flag} {path}: that is a folder; name a file in it")
    if not path.parent.is_dir():
        raise ConfigError(f"{flag} {path}: there is no folder {path.parent}")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ConfigError(f"{flag} {path}: you may not write there")


MAX_DELAY = 60.0


def check_delay(delay: float | None) -> float | None:
    if delay is not None and not 0 <= delay <= MAX_DELAY:  # nan fails both comparisons, so it is refused too
        raise typer.BadParameter(f"a number of seconds from 0 to {MAX_DELAY:g}, not {delay}")
    return delay


def check_seat_names(game_name: str, seats: list[str], simulation: bool = False) -> None:
    """Every seat a person or a bot the game offers (with ``simulation``, also the bots it keeps for simulating)."""
    known_bots = accepted_bot_names(game_name) if simulation else bot_names(game_name)
    for seat in seats:
        if seat not in HUMAN and seat not in known_bots:
            offered = ", ".join(bot_names(game_name))
            raise ConfigError(f"unknown seat {seat!r}: use 'you' for a person or a bot: {offered}")
    check_bot_players(game_name, [seat for seat in seats if seat not in HUMAN], len(seats))


# -- the output flags every command that produces results takes -------------------------------------------------------

JsonOutput = Annotated[str | None, typer.Option(
    "--json", metavar="[FILE]", help="The results as JSON, to FILE ('-' or no FILE: printed instead of tables).")]
CsvOutput = Annotated[str | None, typer.Option(
    "--csv", metavar="[FILE]", help="The results as CSV (one row per game, variant or candidate), to FILE "
                                    "('-' or no FILE: printed).")]


class Outputs:
    """Where ``--json`` and ``--csv`` go: a file, checked before the run starts, or standard output (``-``)."""

    def __init__(self, json_to: str | None, csv_to: str | None, defaults: dict[str, Path] | None = None) -> None:
        self.targets: dict[str, str | Path] = {}
        for flag, given in (("--json", json_to), ("--csv", csv_to)):
            target: str | Path | None = given if given == "-" else Path(given) if given else None
            if target is None and defaults and flag in defaults:
                target = defaults[flag]
            if target is not None:
                self.targets[flag] = target
        if list(self.targets.values()).count("-") > 1:
            raise ConfigError("--json and --csv cannot both print: give one of them a FILE")
        for flag, target in self.targets.items():
            if isinstance(target, Path):
                check_output_file(target, flag)

    @property
    def printing(self) -> bool:
        """Something goes to standard output, so the tables do not."""
        return "-" in self.targets.values()

    def wants(self, flag: str) -> bool:
        return flag in self.targets

    def write(self, flag: str, text: str) -> None:
        target = self.targets.get(flag)
        if target is None:
            return
        if target == "-":
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            Path(target).write_text(text, encoding="utf-8")
            err.print(f"{flag[2:].upper()} written to {target}", markup=False)


def bot_seats(game: str, seats: str | None, options: dict[str, Any], default_bot: str | None = None) -> list[str]:
    # A real-time game's default team is its medium level (its own timed bot): random cannot time a held breath.
    default = default_bot or ("medium" if get_game(game).realtime else "random")
    seat_list = resolve_seats(game, seats, options, default, simulation=True)
    for name in seat_list:
        if name in HUMAN:
            raise ConfigError("simulations play bots only: name a bot for every seat")
    return seat_list
