"""The ``divedeck`` command: play in the terminal, simulate many games, replay a saved game, list the games."""

from __future__ import annotations

import ipaddress
import json
import os
import re
import secrets
import shlex
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from platformdirs import user_data_path
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from typer.core import TyperGroup

from . import __version__
from .bots import accepted_bot_names, bot_names, check_bot_players, make_bot
from .engine.config import config_to_options
from .engine.declaration import Frontend
from .engine.errors import ConfigError, DivedeckError
from .engine.match import Match
from .engine.registry import game_names, get_game
from .server.settings import ServerSettings
from .sim import Interrupted, SimulationSpec, simulate, summarize
from .sim.options import options_text
from .sim.runner import Session, runs
from .tui import Seat, TerminalSession

OUTPUT_FLAGS = ("--json", "--csv")


def with_output_values(args: list[str]) -> list[str]:
    """``--json`` and ``--csv`` take an optional file: given alone (last, or before another option) they mean
    ``-``, standard output."""
    out_args: list[str] = []
    for index, arg in enumerate(args):
        out_args.append(arg)
        if arg in OUTPUT_FLAGS:
            following = args[index + 1] if index + 1 < len(args) else None
            if following is None or (following.startswith("-") and following != "-"):
                out_args.append("-")
    return out_args


class DivedeckGroup(TyperGroup):
    """The command group, reading ``--json``/``--csv`` without a file as standard output."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        return super().make_context(info_name, with_output_values(list(args)), parent, **extra)


app = typer.Typer(
    cls=DivedeckGroup,
    help="divedeck: four small underwater card games, to play, simulate and study.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)

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


# --- running simulations: the flags and the helper every simulating command shares ---------------------------------

RayOption = Annotated[str | None, typer.Option(
    "--ray", metavar="auto|ADDRESS",
    help="Play the games on a Ray cluster (the ray extra): 'auto' for the cluster this machine is in (or a Ray of "
         "its own here), or the cluster's address. Same seed, same results as on local processes.")]
ResumeOption = Annotated[Path | None, typer.Option(
    "--resume", metavar="FILE",
    help="Keep every finished game in FILE as it arrives; run again with the same FILE to carry on a stopped run "
         "(the same results as a run never stopped).")]


def runs_folder() -> Path:
    """Where a run's finished games are kept while it runs, when no --resume file was named."""
    return user_data_path("divedeck", appauthor=False) / "runs"


def resume_command(checkpoint: Path) -> str:
    """This command line again, with ``--resume checkpoint`` (in place of any --resume it had)."""
    words, skip = [], False
    for word in sys.argv[1:]:
        if skip:
            skip = False
        elif word == "--resume":
            skip = True
        elif not word.startswith("--resume="):
            words.append(word)
    return shlex.join(["divedeck", *words, "--resume", str(checkpoint)])


@contextmanager
def simulation_run(command: str, workers: int | None = None, ray: str | None = None,
                   resume: Path | None = None, beside: Path | None = None) -> Iterator[Session]:
    """Around a command's simulations: every ``simulate`` call inside the block plays on local processes
    (``workers``) or on Ray (``ray``), keeps its finished games in the ``resume`` file (or else in ``beside``, the
    file next to the command's output, or else in a file of the data folder: either removed when the block ends
    normally), and shows a progress bar with its ETA on stderr (not when stderr is not a terminal; one bar for the
    whole command when it sets ``session.planned``). A Ctrl-C or SIGTERM, in a ``simulate`` call or between two,
    ends the workers within a second, says how many games are kept where and the command that carries on, and
    exits 130 (143 for SIGTERM)."""
    from .sim.checkpoint import Checkpoint

    if ray is not None and workers is not None:
        raise ConfigError("--workers is for local processes: with --ray the games go to the cluster's CPUs")
    implicit = resume is None and beside is not None and beside.exists()
    if implicit:
        resume = beside  # the checkpoint of a stopped run of this output: carry on from it (same results)
    if resume is not None:
        if resume.exists():
            checkpoint = Checkpoint(resume, keep=not implicit)
            err.print(f"resuming from {resume}: {checkpoint.games} finished games in it", markup=False,
                      soft_wrap=True)
        else:
            check_output_file(resume, "--resume")
            checkpoint = Checkpoint(resume)
    elif beside is not None:
        check_output_file(beside, "--resume")
        checkpoint = Checkpoint(beside, keep=False)
    else:
        checkpoint = None
        folder = runs_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if os.access(folder, os.W_OK):
                name = f"{command}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.jsonl"
                checkpoint = Checkpoint(folder / name, keep=False)
        except OSError:
            pass  # no data folder to write in: the run goes on without a checkpoint
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("ETA"), TimeRemainingColumn(), console=err, transient=True,
                  disable=not err.is_terminal) as bar:
        sessions: list[Session] = []
        whole: list[Any] = []  # the one task of a command that planned its games

        def track(spec: SimulationSpec, games: int) -> Any:
            planned = sessions[0].planned if sessions else None
            if planned is not None:
                if not whole:
                    whole.append(bar.add_task(f"{command} {spec.game}", total=planned))
                task = whole[0]
            else:
                task = bar.add_task(f"simulating {spec.game}", total=games)

            def advance(done: int) -> None:
                bar.advance(task, done)
                if bar.tasks[bar.task_ids.index(task)].finished:
                    bar.update(task, visible=False)
            return advance

        try:
            with runs(workers, ray, checkpoint, track) as session:
                sessions.append(session)
                yield session
        except Interrupted as stop:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # a Ctrl-C from here on ends the process at once
            bar.stop()
            what = "terminated" if stop.signal_name == "SIGTERM" else "stopped"
            count = f"{stop.finished} games" if stop.games is None else f"{stop.finished} of {stop.games} games"
            if stop.checkpoint is not None and stop.checkpoint.exists():
                err.print(f"{what}: {count} finished; every finished game is kept in {stop.checkpoint}; carry on "
                          f"with: {resume_command(stop.checkpoint)}", markup=False, soft_wrap=True)
            else:
                err.print(f"{what}: {count} finished", markup=False, soft_wrap=True)
            raise typer.Exit(stop.exit_code) from None


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
        from .tui.realtime import play_solo

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
    kept = save or saves_folder() / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}-seed{match.seed}.json"
    session = TerminalSession(match, seat_objects, out, delay=(0.6 if watch else 0.3) if delay is None else delay,
                              save_path=kept, opening=opening, save_every_move=save is not None)
    if not session.run():
        if session.saved:
            out.print(f"Carry on with: divedeck play {game} --load {kept}{' --watch' if watch else ''}")
        raise typer.Exit(1)


def _show_version(value: bool) -> None:
    if value:
        out.print(f"divedeck {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[bool, typer.Option("--version", help="Print divedeck's version and stop.", is_eager=True,
                                          callback=_show_version)] = False,
) -> None:
    """divedeck: four small underwater card games, to play, simulate and study."""


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


def _progress(label: str) -> Progress:
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                    transient=True, disable=not err.is_terminal)


def _bot_seats(game: str, seats: str | None, options: dict[str, Any], default_bot: str | None = None) -> list[str]:
    # A real-time game's default team is its medium level (its own timed bot): random cannot time a held breath.
    default = default_bot or ("medium" if get_game(game).realtime else "random")
    seat_list = resolve_seats(game, seats, options, default, simulation=True)
    for name in seat_list:
        if name in HUMAN:
            raise ConfigError("simulations play bots only: name a bot for every seat")
    return seat_list


@app.command("simulate")
def simulate_command(
    game: GameName,
    games: Annotated[int, typer.Option(help="Number of games.", min=1)] = 1000,
    seats: Annotated[str | None, typer.Option(help="A bot per seat, e.g. greedy,random,random,random "
                                                   "(default: the game's medium level in every seat, as report, "
                                                   "sweep and tune).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole run: same seed, same results.")] = 0,
    workers: Annotated[int | None, typer.Option(help="Processes to use (default: every core).", min=1)] = None,
    rotate: Annotated[bool, typer.Option(help="Move the bots one seat along each game; also report per bot.")]
    = False,
    option: OptionList = None,
    as_json: JsonOutput = None,
    as_csv: CsvOutput = None,
    ray: RayOption = None,
    resume: ResumeOption = None,
) -> None:
    """Simulate many games between bots: win rate per seat, game length and score distribution."""
    from .sim.options import typed_options
    from .sim.report import per_game_csv

    outputs = Outputs(as_json, as_csv)
    options = parse_options(option)
    seat_list = _bot_seats(game, seats, options, "medium")
    spec = SimulationSpec(game, tuple(seat_list), typed_options(game, options), seed, rotate,
                          measure=outputs.wants("--csv"))
    with simulation_run("simulate", workers, ray, resume):
        results = simulate(spec, games)
    summary = summarize(spec, results)
    outputs.write("--json", json.dumps(summary, indent=2) + "\n")
    outputs.write("--csv", per_game_csv(spec, results))
    if not outputs.printing:
        _print_summary(summary)


def _rate_text(row: dict[str, Any]) -> str:
    return f"{row['win_rate']:.1%} ({100 * row['ci95_low']:.1f}-{row['ci95_high']:.1%})"


def _print_summary(summary: dict[str, Any]) -> None:
    out.print(f"[bold]{summary['game']}[/bold]: {summary['games']} games, seed {summary['seed']}, "
              f"options {options_text(summary['options'])}{', bots rotated' if summary['rotate'] else ''}")
    cooperative = summary.get("cooperative", False)
    table = Table(title="The team (cooperative: one result for every seat)" if cooperative else "Per seat",
                  title_justify="left")
    for column in ("seat", "bot", "win share (95% CI)", "score mean ± sd", "min / median / max"):
        table.add_column(column, justify="right")
    for row in summary["seats"]:
        score = row["score"]
        bot = row.get("bot", "rotating")
        if cooperative and len(set(bot.split(","))) == 1:
            bot = f"{bot.split(',')[0]} x{len(bot.split(','))}"
        table.add_row(str(row["seat"]), bot, _rate_text(row),
                      f"{score['mean']:.2f} ± {score['sd']:.2f}",
                      f"{score['min']:g} / {score['median']:g} / {score['max']:g}")
    out.print(table)
    test = summary.get("seat_test")
    if test:
        out.print(f"Seat advantage: {test['test']}, {test['games']} games with one winner: p = {test['p_value']:.3g}")
    teams = summary.get("teams")
    if teams:
        per_team = Table(title="Per team", title_justify="left")
        for column in ("team", "seats", "win share (95% CI)"):
            per_team.add_column(column, justify="right")
        for row in teams["rows"]:
            per_team.add_row(row["side"], " ".join(map(str, row["seats"])), _rate_text(row))
        out.print(per_team)
        test, first = teams["test"], teams["first_advantage"]
        out.print(f"Team advantage: {test['test']}, {test['games']} games one team won alone: "
                  f"p = {test['p_value']:.3g}; the first team's advantage {first['value']:+.1f} points "
                  f"({first['ci95_low']:+.1f} to {first['ci95_high']:+.1f})")
    if "bots_summary" in summary:
        balanced = summary.get("seat_balanced", True)
        title = "Per bot (seat-balanced)" if balanced else "Per bot (rotated, NOT seat-balanced: see the note)"
        bots = Table(title=title, title_justify="left")
        for column in ("bot", "seats played", "win rate (95% CI)", "score mean ± sd"):
            bots.add_column(column, justify="right")
        for row in summary["bots_summary"]:
            bots.add_row(row["bot"], str(row["games"]), _rate_text(row),
                         f"{row['score']['mean']:.2f} ± {row['score']['sd']:.2f}")
        out.print(bots)
    for note in summary.get("notes", []):
        out.print(f"Note: {note}", markup=False)
    length = Table(title="Game length", title_justify="left")
    for column in ("per game", "mean", "sd", "min", "median", "max"):
        length.add_column(column, justify="right")
    for key, dist in summary["length"].items():
        length.add_row(key, f"{dist['mean']:.1f}", f"{dist['sd']:.1f}", f"{dist['min']:g}", f"{dist['median']:g}",
                       f"{dist['max']:g}")
    out.print(length)


@app.command("tournament")
def tournament_command(
    game: GameName,
    bots: Annotated[str, typer.Option(help="The bots to rate, e.g. easy,medium,hard (at least two).")],
    games: Annotated[int, typer.Option(help="Games to play, rounded up so every lineup plays every seat.", min=1)]
    = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole tournament: same seed, same games.")] = 0,
    workers: Annotated[int | None, typer.Option(help="Processes to use (default: every core).", min=1)] = None,
    option: OptionList = None,
    as_json: JsonOutput = None,
    as_csv: CsvOutput = None,
) -> None:
    """Rate bots: seat-rotated games in parallel, openskill ratings, head-to-head win rates, decision times."""
    import csv
    import io

    from .sim import tournament
    from .sim.options import typed_options

    outputs = Outputs(as_json, as_csv)
    options = parse_options(option)
    spec = tournament.make_spec(game, bots.split(","), typed_options(game, options), seed)
    total = tournament.games_to_play(spec, games)
    started = time.perf_counter()
    with _progress("playing") as progress:
        task = progress.add_task("games", total=total)
        results = tournament.run(spec, games, workers, lambda done: progress.advance(task, done))
    summary = tournament.summarize(spec, results, workers, time.perf_counter() - started)
    if not outputs.printing:
        tournament.print_summary(summary, out)
    rows = tournament.results_json(results)
    outputs.write("--json", json.dumps({**summary, "results": rows}, indent=2) + "\n")
    if outputs.wants("--csv"):
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        keys = list(rows[0]) if rows else []
        writer.writerow(keys)
        for row in rows:
            writer.writerow([" ".join(map(str, v)) if isinstance(v, list | tuple) else v for v in row.values()])
        outputs.write("--csv", buffer.getvalue())


# -- designer reports: report, sweep, tune ----------------------------------------------------------------------------

VaryList = Annotated[list[str], typer.Option(
    "--vary", help="KEY=V1,V2,... or KEY=LOW..HIGH: a game option, or a data field the game declares (e.g. "
                   "deck.panic); repeat for several (their cross product).")]
OutFile = Annotated[Path | None, typer.Option("--out", help="The HTML report (default: GAME-COMMAND.html here); "
                                                            "its JSON and CSV go beside it unless --json/--csv "
                                                            "say otherwise.")]
ReportSeats = Annotated[str | None, typer.Option(help="A bot per seat (default: the game's medium level in every "
                                                      "seat).")]
Seed = Annotated[int, typer.Option(help="Seed of the whole run: same seed, same report, byte for byte.")]
Workers = Annotated[int | None, typer.Option(help="Processes to use (default: every core).", min=1)]


def _report_outputs(game: str, kind: str, out_file: Path | None, as_json: str | None,
                    as_csv: str | None) -> tuple[Path, Outputs]:
    html_file = out_file or Path(f"{game}-{kind}.html")
    check_output_file(html_file, "--out")
    outputs = Outputs(as_json, as_csv, {"--json": html_file.with_suffix(".json"),
                                        "--csv": html_file.with_suffix(".csv")})
    return html_file, outputs


def _report_setup(game: str, kind: str, out_file: Path | None, as_json: str | None, as_csv: str | None,
                  option: list[str] | None, seats: str | None) -> tuple[Path, Outputs, dict[str, Any], list[str]]:
    """What report, sweep and tune begin with: the output files (checked), the options and the seats."""
    html_file, outputs = _report_outputs(game, kind, out_file, as_json, as_csv)
    options = parse_options(option)
    return html_file, outputs, options, _bot_seats(game, seats, options, "medium")


def _write_html(html_file: Path, text: str) -> None:
    html_file.write_text(text, encoding="utf-8")
    err.print(f"Report written to {html_file} (open it in a browser)", markup=False)


def _data_folder(html_file: Path) -> Path:
    return html_file.with_name(html_file.stem + "-data")


def _checkpoint_beside(html_file: Path) -> Path:
    """Where a report, a sweep or a tuning keeps its finished games while it runs, without --resume: beside its
    report."""
    return html_file.with_name(html_file.stem + ".checkpoint.jsonl")


ReportResume = Annotated[Path | None, typer.Option(
    "--resume", metavar="FILE",
    help="Keep every finished game in FILE (default: REPORT.checkpoint.jsonl beside the report, removed when the "
         "run ends); run again with the same FILE to carry on a stopped run, with the same report as a run never "
         "stopped.")]


ReportRotate = Annotated[bool, typer.Option(help="Move the bots one seat along each game.")]


@app.command("report")
def report_command(
    game: GameName,
    games: Annotated[int, typer.Option(help="Number of games.", min=1)] = 2000,
    seats: ReportSeats = None,
    seed: Seed = 0,
    workers: Workers = None,
    rotate: ReportRotate = False,
    option: OptionList = None,
    out_file: OutFile = None,
    as_json: JsonOutput = None,
    as_csv: CsvOutput = None,
    ray: RayOption = None,
    resume: ReportResume = None,
    symmetry: Annotated[int | None, typer.Option(
        "--symmetry", metavar="GAMES",
        help="Also play GAMES games of one bot in every seat (the seats' bot if they are all the same, else the "
             "game's medium level) with who starts rotated: a seat or team favoured beyond chance is a red flag; "
             "0 skips it (default: 200, or --games if fewer).", min=0)] = None,
    ladder: Annotated[int, typer.Option(
        "--ladder", metavar="GAMES",
        help="Also play the skill ladder: GAMES games for each ordered pair of --ladder-levels (one side of the "
             "first level against the second everywhere else, moved over every side); 0 skips it.", min=0)] = 0,
    ladder_levels: Annotated[str | None, typer.Option(
        "--ladder-levels", help="The levels of the ladder, weakest first (default: random,easy,medium,hard, those "
                                "the game has; hard searches and is slow).")] = None,
    impact: Annotated[int, typer.Option(
        "--impact", metavar="DEALS",
        help="Also measure each card or action kind's impact: DEALS deals played once per kind and side with that "
             "side's bots barred from the kind, against the same deals unbarred. Costly: kinds x sides x DEALS "
             "games (Snorkeling, 4 seats: 40 x DEALS; Hold Your Breath!, 4 seats: 40 x DEALS; Hold your Hat: 10 x "
             "DEALS); 0 skips it.", min=0)] = 0,
) -> None:
    """A designer's balance report: one HTML page of plots (red flags first, seat or team advantage, length,
    scores, the game's own metrics), the same figures as JSON and one CSV row per game; the red flags and the
    headline numbers are printed at the end."""
    from .sim import report
    from .sim.impact import card_impact
    from .sim.ladder import skill_ladder
    from .sim.symmetry import symmetry_check

    html_file, outputs, options, seat_list = _report_setup(game, "report", out_file, as_json, as_csv, option, seats)
    spec = SimulationSpec(game, tuple(seat_list), options, seed, rotate, measure=True)
    same = seat_list[0] if len(set(seat_list)) == 1 else _bot_seats(game, None, options, "medium")[0]
    if symmetry is None:
        symmetry = min(games, 200)
    levels = ladder_of(game, ladder_levels) if ladder else []
    with simulation_run("report", workers, ray, resume, _checkpoint_beside(html_file)):
        results = simulate(spec, games)
        check = symmetry_check(game, options, same, symmetry, seed) if symmetry else None
        skill = skill_ladder(game, options, levels, ladder, seed) if ladder else None
        impacts = card_impact(game, options, seat_list, impact, seed) if impact else None
    built = report.build(spec, results, options, seats_text=",".join(seat_list), symmetry=check, ladder=skill,
                         impact=impacts)
    _write_html(html_file, report.render_html(built))
    outputs.write("--json", report.to_json(built))
    outputs.write("--csv", report.per_game_csv(spec, results))
    if not outputs.printing:
        _print_report_summary(built)


def ladder_of(game: str, text: str | None) -> list[str]:
    """The ladder's levels: those named (each checked), or every level the game has."""
    from .sim.ladder import LEVELS, ladder_levels

    wanted = [name.strip() for name in text.split(",")] if text else list(LEVELS)
    levels = ladder_levels(game, wanted)
    missing = [name for name in wanted if name not in levels]
    if text and missing:
        raise ConfigError(f"--ladder-levels: {', '.join(missing)} cannot play {game} in a simulation (its levels: "
                          f"{', '.join(ladder_levels(game))})")
    if len(levels) < 2:
        raise ConfigError("--ladder-levels needs two levels at least")
    return levels


def _print_report_summary(built: dict[str, Any]) -> None:
    """The end of a report's terminal output: its headline numbers, then its red flags."""
    glance = Table(title=f"{built['title']}: {built['games']} games at a glance", title_justify="left")
    glance.add_column("")
    glance.add_column("value (95% CI)", justify="right")
    for name, value in built["headline"]:
        glance.add_row(name, value)
    out.print(glance)
    _print_impact(built)
    if built["red_flags"]:
        out.print("[bold red]Red flags[/bold red]")
        for flag in built["red_flags"]:
            out.print(f"- {flag}", markup=False, soft_wrap=True)
    else:
        out.print("No red flags.")


def _print_impact(built: dict[str, Any]) -> None:
    """Card and action impact: how often each kind is played, its players' win share, its change when barred."""
    from .sim.impact import verdict
    from .sim.report import impact_rows, quantity_text, win_text

    rows = impact_rows(built)
    if not rows:
        return
    impact = built.get("impact") or {}
    measured = bool(impact.get("applies"))
    word = impact.get("word", "seat")
    shown = Table(title="Card and action impact" + (f" ({impact['deals']} deals, each {word} barred in turn)"
                                                     if measured else " (--impact DEALS: the change when barred)"),
                  title_justify="left")
    shown.add_column("kind")
    shown.add_column("plays/player/game", justify="right")
    shown.add_column("players' win share", justify="right")
    if measured:
        shown.add_column(f"barred {word}: change (points)", justify="right")
        shown.add_column("reading")
    for row in rows:
        cells = [row["kind"], quantity_text(row["plays"]) if row["plays"] else "0",
                 win_text(built, row)]
        barred = row["barred"]
        if measured and barred:
            cells += [f"{barred['change']:+.1f} ({barred['ci95_low']:+.1f} to {barred['ci95_high']:+.1f})",
                      verdict(barred, word)]
        elif measured:
            cells += ["", ""]
        shown.add_row(*cells)
    out.print(shown)


@app.command("sweep")
def sweep_command(
    game: GameName,
    vary: VaryList,
    games: Annotated[int, typer.Option(help="Games per variant.", min=1)] = 2000,
    seats: ReportSeats = None,
    seed: Seed = 0,
    workers: Workers = None,
    rotate: ReportRotate = False,
    option: OptionList = None,
    out_file: OutFile = None,
    as_json: JsonOutput = None,
    as_csv: CsvOutput = None,
    ray: RayOption = None,
    resume: ReportResume = None,
) -> None:
    """Run every combination of the --vary values and compare them in one report (intervals; differences from
    the first variant marked after a Holm correction)."""
    from .sim import report, sweep

    html_file, outputs, options, seat_list = _report_setup(game, "sweep", out_file, as_json, as_csv, option, seats)
    varies = [sweep.parse_vary(v) for v in vary]
    sweep.check_keys(game, varies, options)
    grid = sweep.variant_grid(varies)
    data_dir = _data_folder(html_file)
    checked = sweep.check_variants(game, options, grid, len(seat_list), data_dir)
    with simulation_run("sweep", workers, ray, resume, _checkpoint_beside(html_file)) as session:
        session.planned = games * len(grid)
        runs = sweep.run_variants(game, seat_list, options, grid, checked, games, seed, rotate, workers)
    built = sweep.build(runs, options, ",".join(seat_list), vary, games, seed,
                        data_dir.name if data_dir.exists() else None)
    _write_html(html_file, sweep.render_html(built))
    outputs.write("--json", report.to_json(built))
    outputs.write("--csv", sweep.per_variant_csv(built))


@app.command("tune")
def tune_command(
    game: GameName,
    vary: VaryList,
    target: Annotated[list[str], typer.Option(
        help="NAME=VALUE or NAME=LOW..HIGH: any quantity the game's report lists (its last table) to aim at, "
             "e.g. first_seat_advantage=-2..2, minutes=10..15, ending=distance=0.1..0.2, played.panic=2..3; "
             "repeat for several.")],
    games: Annotated[int, typer.Option(help="Games per candidate in the first round (doubled each round).", min=10)]
    = 200,
    budget: Annotated[int, typer.Option(help="Games to play at most, over every round.", min=10)] = 20000,
    points: Annotated[int, typer.Option(help="Values tried in each LOW..HIGH range (evenly spread).", min=2)] = 5,
    search: Annotated[str, typer.Option(
        help="halving: every candidate, successive halving; ntbea: the N-Tuple Bandit Evolutionary Algorithm over "
             "several parameters at once, --games games an evaluation (try 20 to 50).")] = "halving",
    seats: ReportSeats = None,
    seed: Seed = 0,
    workers: Workers = None,
    rotate: ReportRotate = False,
    option: OptionList = None,
    out_file: OutFile = None,
    as_json: JsonOutput = None,
    as_csv: CsvOutput = None,
    ray: RayOption = None,
    resume: ReportResume = None,
) -> None:
    """Search the --vary space for variants that meet the --target values: successive halving spends the games
    where the candidates' intervals still overlap; the best come first in the report."""
    from .sim import report, sweep, tune

    html_file, outputs, options, seat_list = _report_setup(game, "tune", out_file, as_json, as_csv, option, seats)
    varies = [sweep.parse_vary(v) for v in vary]
    targets = [tune.parse_target(t) for t in target]
    sweep.check_keys(game, varies, options)
    grid = sweep.variant_grid(varies, points)
    checked = sweep.check_variants(game, options, grid, len(seat_list), _data_folder(html_file))
    if search not in ("halving", "ntbea"):
        raise ConfigError(f"--search is halving or ntbea, not {search!r}")
    candidates = tune.candidates_for(grid, checked)
    run = tune.ntbea_search if search == "ntbea" else tune.successive_halving
    with simulation_run("tune", workers, ray, resume, _checkpoint_beside(html_file)):
        evaluations = run(game, seat_list, candidates, targets, seed, games, budget, rotate, workers,
                          log=lambda line: err.print(line, markup=False, soft_wrap=True))
    built = tune.build(game, seat_list, options, ",".join(seat_list), vary, targets, evaluations, seed, games,
                       budget, points, search)
    _write_html(html_file, tune.render_html(built))
    outputs.write("--json", report.to_json(built))
    outputs.write("--csv", tune.per_candidate_csv(built))
    if not outputs.printing:
        for line in tune.best_lines(built):
            out.print(line, markup=False, soft_wrap=True)
        for e in evaluations[:5]:
            values = ", ".join(f"{q['name']} {report.quantity_text(q)}" for q in e["quantities"])
            out.print(f"{'meets' if e['meets'] else 'misses'}  {e['variant']}: {values} ({e['games']} games)",
                      markup=False)


data_app = typer.Typer(help="Show and check the data files a designer edits: decks, treasures, word lists.",
                       no_args_is_help=True)
app.add_typer(data_app, name="data")


@data_app.command("show")
def data_show(
    game: GameName,
    option: Annotated[str | None, typer.Option("--option", help="The data file's option, for a game with several "
                                                                "(default: its only one).")] = None,
) -> None:
    """Print the game's default data file, with comments on every field: save it, edit it, check it, play it."""
    from . import data_files

    kind = data_files.kind_of(game, option)
    sys.stdout.write(data_files.shipped_text(game, option))
    sys.stdout.flush()
    if sys.stdout.isatty():
        err.print(f"(save it with: divedeck data show {game} > my-{kind.default}; check it with: divedeck data check "
                  f"my-{kind.default}; play with it: -o {kind.option}=my-{kind.default})", markup=False, soft_wrap=True)


@data_app.command("check")
def data_check(
    file: Annotated[Path, typer.Argument(help="The data file to check.")],
    game: Annotated[str | None, typer.Option(help="The game that reads it (default: told from the file's keys).")]
    = None,
    option: Annotated[str | None, typer.Option("--option", help="The data file's option, for a game with "
                                                                "several.")] = None,
) -> None:
    """Check a data file as the game reads it: 'ok' and what it holds, or the line, the field and what is wrong."""
    from . import data_files

    try:
        checked = data_files.check(file, game, option)
    except data_files.InvalidDataFile as error:
        err.print(f"error: {error}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    out.print(f"ok: {checked.kind.what} {file} for {checked.game}: {checked.summary}. Play with it: "
              f"-o {checked.kind.option}={file}", markup=False)


@app.command()
def replay(
    game_file: Annotated[str, typer.Argument(metavar="FILE_OR_TABLE",
                                             help="A saved game (from 'divedeck play --save'), or the id of a table "
                                                  "played on the server.")],
    seat: Annotated[int | None, typer.Option(help="Show the log as this seat saw it (its own cards shown); "
                                                  "default: as a spectator.")] = None,
    db: Annotated[str | None, typer.Option(help="The server's database, for a table id (default: the one "
                                                "'divedeck serve' uses).")] = None,
) -> None:
    """Show the log of a saved game or of a table played on the server, move by move."""
    recorded = _load_for_replay(game_file, db)
    game = recorded.game
    if seat is not None and not 0 <= seat < game.num_players(recorded.config):
        raise ConfigError(f"there is no seat {seat} in this game")
    match = Match.start(game, config_to_options(recorded.config), recorded.seed)
    out.print(f"[bold]{game.title}[/bold], seed {match.seed}, {len(recorded.actions)} moves"
              f"{f', as seen by seat {seat}' if seat is not None else ', as seen by a spectator'}")
    # Every text goes through what ``seat`` may read: a face-down card is named to its owner alone.
    for event in match.opening:
        out.print("    " + game.format_event(event, seat, None), markup=False)
    for number, (actor, action) in enumerate(recorded.actions, 1):
        out.print(f"{number:>4}. seat {actor}: {game.public_action(action, seat, actor)}", markup=False)
        for event in match.act(actor, action):
            out.print("      " + game.format_event(event, seat, None), markup=False)
    outcome = game.outcome(match.state)
    if outcome is None:
        out.print("(the game is not finished)")
    else:
        out.print(f"Winner: {', '.join(f'seat {w}' for w in outcome.winners)}; "
                  f"scores {' '.join(f'{s:g}' for s in outcome.scores)}")


def _load_for_replay(name: str, db: str | None) -> Match:
    path = Path(name)
    if path.exists() or name.endswith(".json"):
        return Match.load(path)
    from sqlalchemy.engine import make_url

    from .server.settings import default_database_path
    from .server.storage import Storage

    url = make_url(db or f"sqlite:///{default_database_path()}")
    # Opening an SQLite database that is not there would create it: a mistyped name must create nothing.
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).is_file():
        raise ConfigError(f"{name} is neither a saved game file nor a table: there is no file {name}, "
                          f"and no database at {url.database}")
    storage = Storage(url.render_as_string(hide_password=False))
    try:
        stored = storage.load(name)
    finally:
        storage.close()
    if stored is None:
        raise ConfigError(f"{name} is neither a saved game file nor a table in the server's database")
    match = Match.start(stored.game, stored.options, stored.seed)
    match.replay([[seat, action] for seat, action, _ in stored.actions])
    return match


def _proxy_address(value: str) -> str:
    try:
        return str(ipaddress.ip_network(value.strip(), strict=False))
    except ValueError:
        raise ConfigError(f"--trusted-proxy {value!r} is not an IP address or network") from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 to let other machines in).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(help="Database URL (default: an SQLite file in your data folder; "
                                                "postgresql+psycopg://user:pass@host/db for PostgreSQL).")] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before it moves.")] = 0.8,
    grace: Annotated[float, typer.Option(help="Seconds a player may be away before a bot plays for them.")] = 60.0,
    move_clock_second_ms: Annotated[int, typer.Option(
        min=1, help="Milliseconds a second of a table's clock per move lasts (to try the clocks out faster).")] = 1000,
    allow_files: Annotated[bool, typer.Option(
        help="Let tables use data files on this machine (a custom deck, a word list: -o cards=FILE). Only for a "
             "server you run for people you trust: it lets them make the server read its files.")] = False,
    allowed_host: Annotated[list[str] | None, typer.Option(
        help="A host name people reach this server by, besides localhost and --host (repeat for several; '*' "
             "for any). Requests naming another host are refused.")] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        help="The address (or network, e.g. 10.0.0.0/8) of a reverse proxy in front of this server whose "
             "X-Forwarded-For it believes (repeat for several). Without it nobody's is: a client is the address "
             "it connects from.")] = None,
    max_open_tables: Annotated[int, typer.Option(min=1, help="Unfinished tables the server holds at most.")] = (
        ServerSettings.max_open_tables),
    tables_per_minute: Annotated[float, typer.Option(min=0.01, help="New tables one address may create a "
                                                                    "minute.")] = ServerSettings.tables_per_minute,
    open_tables_per_address: Annotated[int, typer.Option(min=1, help="Unfinished tables one address may have "
                                                                     "created.")] = (
        ServerSettings.open_tables_per_address),
    unclaimed_expiry: Annotated[float, typer.Option(min=1, help="Seconds until a table none of its players has "
                                                                "opened is closed.")] = (
        ServerSettings.unclaimed_table_expiry),
    messages_per_second: Annotated[float, typer.Option(min=1, help="Messages a second one socket may send.")] = (
        ServerSettings.messages_per_second),
    seat_messages_per_second: Annotated[float, typer.Option(min=1, help="Messages a second all the sockets of "
                                                                        "one seat may send.")] = (
        ServerSettings.seat_messages_per_second),
    address_messages_per_second: Annotated[float, typer.Option(min=1, help="Messages a second all the sockets "
                                                                           "of one address may send.")] = (
        ServerSettings.address_messages_per_second),
    flood_allowance: Annotated[int, typer.Option(min=1, help="Messages over its rate a socket may send before it "
                                                             "is disconnected.")] = ServerSettings.flood_allowance,
    sockets_per_address: Annotated[int, typer.Option(min=1, help="Websockets one address may hold open.")] = (
        ServerSettings.sockets_per_address),
    sockets_per_table: Annotated[int, typer.Option(min=1, help="Websockets one table may have open (seats and "
                                                               "spectators).")] = ServerSettings.sockets_per_table,
    replays_per_minute: Annotated[float, typer.Option(min=0.01, help="Finished games' replays one address may "
                                                                     "ask for a minute.")] = (
        ServerSettings.replays_per_minute),
    header_timeout: Annotated[float, typer.Option(min=0.1, help="Seconds an HTTP client has to send a request's "
                                                                "headers.")] = ServerSettings.header_timeout,
    keep_alive: Annotated[int, typer.Option(min=1, help="Seconds an idle HTTP connection is kept open.")] = (
        ServerSettings.keep_alive),
    bot_workers: Annotated[int | None, typer.Option(
        min=0, help="Processes the hard bots think in (default: one per core but one; 0: in the server itself, "
                    "which slows every table while a bot thinks).")] = None,
    processes: Annotated[int, typer.Option(
        min=1, help="Server processes on this machine, sharing the port (more than 1 needs a PostgreSQL --db).")] = 1,
    lease_seconds: Annotated[float, typer.Option(
        min=0.5, help="With PostgreSQL: seconds after which a silent process counts as dead and the others take "
                      "its tables over.")] = ServerSettings.lease_seconds,
    bus: Annotated[str | None, typer.Option(
        help="With PostgreSQL: the Redis or Valkey URL (redis://host:6379/0) the server processes pass sockets "
             "through, so that any process takes any client (needed behind a load balancer).")] = None,
    table_prefix: Annotated[str, typer.Option(
        help="Behind HAProxy with deploy/haproxy.cfg: this server's name there (one, two, three...). The tables it "
             "makes get ids that start with it, and the balancer sends their sockets here.")] = "",
) -> None:
    """Run the web server: open the address it prints in a browser to start a table."""
    from sqlalchemy.engine import make_url

    from .server.serving import serve as run_server
    from .server.settings import default_database_url

    if processes > 1 and (db is None or make_url(db).get_backend_name() == "sqlite"):
        raise ConfigError("--processes above 1 needs a database server all of them share: "
                          "--db postgresql://user:password@host/dbname (SQLite serves one process)")
    if processes > 1 and bus is None:
        raise ConfigError("--processes above 1 needs --bus redis://host:6379/0 (Redis or Valkey): the processes "
                          "pass each other the sockets of the tables they own")
    if table_prefix and not re.fullmatch(r"[a-z0-9]{1,12}", table_prefix):
        raise ConfigError("--table-prefix is 1 to 12 lowercase letters and digits (the server's name in the balancer)")
    if bus is not None and (db is None or make_url(db).get_backend_name() == "sqlite"):
        raise ConfigError("--bus joins processes that share a PostgreSQL --db; with SQLite there is one process")
    settings = ServerSettings(
        database_url=db or default_database_url(), bot_delay=bot_delay, grace_period=grace,
        move_clock_second_ms=move_clock_second_ms,
        allow_file_options=allow_files, host=host, allowed_hosts=tuple(allowed_host or ()),
        trusted_proxies=tuple(_proxy_address(value) for value in trusted_proxy or ()),
        max_open_tables=max_open_tables, tables_per_minute=tables_per_minute,
        open_tables_per_address=open_tables_per_address, unclaimed_table_expiry=unclaimed_expiry,
        messages_per_second=messages_per_second, seat_messages_per_second=seat_messages_per_second,
        address_messages_per_second=address_messages_per_second, flood_allowance=flood_allowance,
        sockets_per_address=sockets_per_address, sockets_per_table=sockets_per_table,
        replays_per_minute=replays_per_minute,
        header_timeout=header_timeout, keep_alive=keep_alive, bot_workers=bot_workers, lease_seconds=lease_seconds,
        bus_url=bus, table_prefix=table_prefix)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    out.print(f"divedeck is running: open http://{shown}:{port}/ in your browser (Ctrl+C stops it).")
    shown_db = make_url(settings.database_url).render_as_string(hide_password=True)
    out.print(f"Games are saved in {shown_db}", style="dim")
    run_server(settings, port, processes)


def main() -> None:
    try:
        app()
    except DivedeckError as error:
        err.print(f"error: {error}", markup=False, highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        err.print("stopped")
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
