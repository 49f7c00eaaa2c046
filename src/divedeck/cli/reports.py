"""The designer's commands: `divedeck report`, `sweep` and `tune`, each an HTML page with its JSON and CSV."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..engine.errors import ConfigError
from ..sim import SimulationSpec, simulate
from .app import app, err, out
from .arguments import (
    CsvOutput,
    GameName,
    JsonOutput,
    OptionList,
    Outputs,
    bot_seats,
    check_output_file,
    parse_options,
)
from .session import RayOption, simulation_run

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
    return html_file, outputs, options, bot_seats(game, seats, options, "medium")


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
    from ..sim import report
    from ..sim.impact import card_impact
    from ..sim.ladder import skill_ladder
    from ..sim.symmetry import symmetry_check

    html_file, outputs, options, seat_list = _report_setup(game, "report", out_file, as_json, as_csv, option, seats)
    spec = SimulationSpec(game, tuple(seat_list), options, seed, rotate, measure=True)
    same = seat_list[0] if len(set(seat_list)) == 1 else bot_seats(game, None, options, "medium")[0]
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
    from ..sim.ladder import LEVELS, ladder_levels

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
    from ..sim.impact import verdict
    from ..sim.report import impact_rows, quantity_text, win_text

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
    from ..sim import report, sweep

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
    from ..sim import report, sweep, tune

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
