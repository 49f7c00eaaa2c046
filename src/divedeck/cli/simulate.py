"""`divedeck simulate` and `divedeck tournament`: many games between bots, and the bots rated."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer
from rich.table import Table

from ..sim import SimulationSpec, simulate, summarize
from ..sim.options import options_text
from .app import app, out
from .arguments import CsvOutput, GameName, JsonOutput, OptionList, Outputs, bot_seats, parse_options
from .session import RayOption, ResumeOption, progress_bar, simulation_run


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
    from ..sim.options import typed_options
    from ..sim.report import per_game_csv

    outputs = Outputs(as_json, as_csv)
    options = parse_options(option)
    seat_list = bot_seats(game, seats, options, "medium")
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

    from ..sim import tournament
    from ..sim.options import typed_options

    outputs = Outputs(as_json, as_csv)
    options = parse_options(option)
    spec = tournament.make_spec(game, bots.split(","), typed_options(game, options), seed)
    total = tournament.games_to_play(spec, games)
    started = time.perf_counter()
    with progress_bar("playing") as progress:
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
