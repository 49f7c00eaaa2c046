"""`divedeck games` and `divedeck play`: the games on offer, and a game in the terminal."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..bots import bot_names, make_bot
from ..engine.declaration import Frontend
from ..engine.errors import ConfigError
from ..engine.match import Match
from ..engine.registry import game_names, get_game
from ..tui import Seat, TerminalSession
from . import arguments
from .app import app, out
from .arguments import (
    HUMAN,
    GameName,
    OptionList,
    check_delay,
    check_output_file,
    check_seat_names,
    parse_options,
    resolve_seats,
)


@app.command("games")
def list_games() -> None:
    """List the games with their options and bots."""
    for name in game_names():
        game = get_game(name)
        out.print(f"[bold]{name}[/bold]  {game.title}    bots: {', '.join(bot_names(name))}")
        table = Table(box=None, show_header=True, pad_edge=False)
        for column in ("option", "default", "values", "what"):
            table.add_column(column)
        for option in game.options():
            values = " | ".join(map(str, option.get("choices", []))) or option["type"]
            table.add_row(option["name"], str(option["default"]), values, option["help"])
        out.print(table)


@app.command()
def play(
    game: GameName,
    seats: Annotated[str | None, typer.Option(help="Who sits where, e.g. you,greedy,greedy,random. "
                                                   "'you' is a person at this terminal (several take turns).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffles (default: a new random one).")] = None,
    option: OptionList = None,
    watch: Annotated[bool, typer.Option(help="Bots only: watch them play, move by move.")] = False,
    delay: Annotated[float | None, typer.Option(help="Seconds before each bot move, 0 to 60 "
                                                     "(default 0.6 when watching, else 0.3).",
                                                callback=check_delay)] = None,
    save: Annotated[Path | None, typer.Option(help="Save the game to this file after every move (without it, a "
                                                   "game you stop is saved in your data folder).")] = None,
    load: Annotated[Path | None, typer.Option(help="Continue a saved game, with its seats (and keep saving to "
                                                   "it).")] = None,
    solo: Annotated[bool, typer.Option(help="A real-time game alone, at this terminal's keys.")] = False,
) -> None:
    """Play a game in the terminal against bots (or watch bots play)."""
    declared = get_game(game)
    if save is not None:
        check_output_file(save, "--save")
    if Frontend.TERMINAL not in declared.frontends:
        raise ConfigError(f"{declared.title} is not played in the terminal: play it in the browser (divedeck serve)")
    if declared.realtime:  # real time has no turns: the real-time loop (tui/realtime.py)
        if not solo or load is not None or seats is not None or watch:
            raise ConfigError(f"{game} is real-time: play it alone with --solo (and --seed, --option, --save), "
                              "or with others in the browser (divedeck serve)")
        from ..tui.realtime import play_solo

        if not play_solo(game, parse_options(option), secrets.randbelow(1 << 31) if seed is None else seed, out,
                         save):
            raise typer.Exit(1)
        return
    if solo:
        raise ConfigError(f"--solo is for real-time games: {declared.title} is played with --seats")
    if load is not None:
        if seed is not None or option:
            raise ConfigError("--load plays the saved game's own deal and options: leave out --seed and --option")
        match = Match.load(load)
        if match.game.name != game:
            raise ConfigError(f"{load} is a saved game of {match.game.name}, not {game}")
        if seats is not None:
            seat_list = [s.strip().lower() for s in seats.split(",")]
        elif match.seats is not None:
            seat_list = match.seats
        else:  # a save from before seats were recorded (version 1)
            seat_list = ["you"] + ["greedy"] * (match.game.num_players(match.config) - 1)
        if len(seat_list) != match.game.num_players(match.config):
            raise ConfigError(f"the saved game has {match.game.num_players(match.config)} seats; "
                              f"--seats names {len(seat_list)}")
        save = save or load
        opening: list[Any] = []
        out.print(f"Continuing {load}: {len(match.actions)} moves so far, seats {','.join(seat_list)}.")
    else:
        options = parse_options(option)
        seat_list = resolve_seats(game, seats, options, "greedy", None if watch else "you")
        seed = secrets.randbelow(1 << 31) if seed is None else seed
        match = Match.start(game, options, seed)
        opening = match.opening
        out.print(f"{match.game.title}, seed {seed} (play the same deal again with --seed {seed}).")
    check_seat_names(game, seat_list)
    humans = [i for i, name in enumerate(seat_list) if name in HUMAN]
    if watch and humans:
        raise ConfigError("--watch is for bots only: leave 'you' out of --seats")
    if not watch and not humans:
        raise ConfigError("no seat is yours: put 'you' in --seats, or add --watch to watch bots")
    seat_objects = []
    for index, name in enumerate(seat_list):
        if name in HUMAN:
            label = "you" if len(humans) == 1 else f"player {humans.index(index) + 1}"
            seat_objects.append(Seat(label))
        else:
            seat_objects.append(Seat(f"{name} {index + 1}", make_bot(game, name, match.seed * 31 + index)))
    match.seats = seat_list
    kept = save or arguments.saves_folder() / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}-seed{match.seed}.json"
    session = TerminalSession(match, seat_objects, out, delay=(0.6 if watch else 0.3) if delay is None else delay,
                              save_path=kept, opening=opening, save_every_move=save is not None)
    if not session.run():
        if session.saved:
            out.print(f"Carry on with: divedeck play {game} --load {kept}{' --watch' if watch else ''}")
        raise typer.Exit(1)
