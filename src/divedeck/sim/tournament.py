"""Tournaments: bots play seat-rotated matches over local processes, and are rated.

Every lineup of bots (each combination of as many bots as there are seats; with fewer bots than seats, the bots
repeated round the table) plays every rotation of its seating on the same deal, so no bot gains from a seat or a
lucky deal. A *round* is one game of every lineup in every rotation; the number of games is rounded up to whole
rounds. Game seeds come from the tournament's seed and the game's index, as in ``runner``: the same command
gives the same games whatever the number of workers. Games are played on the simulator's game loop
(``runner.play_bots``), so a real-time game runs on its simulated clock like any simulation.

Results: each bot's openskill rating (Plackett-Luce, updated game by game in index order) with its 95% interval,
each pair's head-to-head win rate with its Wilson interval (a game counts for the pair when both played in it; a
bot's result is its best seat's; a tie is half a win), and each bot's decision times (p50 and p95 of its decisions
that had a choice: forced moves are not timed) and, for searching bots, iterations per second.
"""

from __future__ import annotations

import itertools
import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from openskill.models import PlackettLuce

from ..bots import check_bot_players, make_bot
from ..engine.decision import Decision
from ..engine.errors import ConfigError
from ..engine.registry import get_game
from .options import options_text
from .runner import game_seed, play_numbered
from .stats import Z95, wilson_interval


@dataclass(frozen=True)
class TournamentSpec:
    game: str
    bots: tuple[str, ...]  # distinct bot names
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    players: int = 2

    def lineups(self) -> list[tuple[str, ...]]:
        """The bots at the table, before rotation: every combination of ``players`` bots, or all of them repeated."""
        if len(self.bots) >= self.players:
            return list(itertools.combinations(self.bots, self.players))
        return [tuple(self.bots[i % len(self.bots)] for i in range(self.players))]

    def round_size(self) -> int:
        return len(self.lineups()) * self.players

    def seating(self, index: int) -> tuple[tuple[str, ...], int]:
        """Who sits where in game ``index``, and the index of its deal (shared by the rotations of a lineup)."""
        lineups = self.lineups()
        block, slot = divmod(index, self.round_size())
        lineup, shift = divmod(slot, self.players)
        bots = lineups[lineup]
        return bots[shift:] + bots[:shift], block * len(lineups) + lineup


@dataclass
class MatchResult:
    index: int
    seating: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    decisions: int
    # per seat: seconds of each decision that had a choice; searched iterations and their seconds; how searches
    # stopped ("iterations", "time", "early").
    times: list[list[float]]
    iterations: list[int]
    search_seconds: list[float]
    stops: list[dict[str, int]]


class Stopwatch:
    """Stands in for a bot at the table and times each of its decisions that had a choice (a forced move is not
    timed), with its searches' iterations and how they stopped."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []
        self.iterations = 0
        self.search_seconds = 0.0
        self.stops: dict[str, int] = {}
        if callable(getattr(bot, "plan", None)):
            self.plan = partial(self._timed, bot.plan)
        else:
            self.choose = partial(self._timed, bot.choose)

    def _timed(self, decide: Callable[[Decision], Any], decision: Decision) -> Any:
        started = time.perf_counter()
        answer = decide(decision)
        elapsed = time.perf_counter() - started
        if len(decision.legal) > 1:
            self.times.append(elapsed)
            last = getattr(self.bot, "last", None)
            if last is not None and last.stopped in ("iterations", "time", "early"):
                self.iterations += last.iterations
                self.search_seconds += last.seconds
                self.stops[last.stopped] = self.stops.get(last.stopped, 0) + 1
        return answer


def play_match(spec: TournamentSpec, index: int) -> MatchResult:
    """Play game ``index`` of the tournament on the simulator's game loop, timing every decision."""
    seating, deal = spec.seating(index)
    seed = game_seed(spec.seed, deal)
    bots = [Stopwatch(make_bot(spec.game, name, game_seed(seed, 1000 + index * 16 + seat)))
            for seat, name in enumerate(seating)]
    outcome, decisions, _ = play_numbered(spec.game, spec.options, seed, bots, index)
    return MatchResult(index, seating, outcome.winners, outcome.scores, decisions, [b.times for b in bots],
                       [b.iterations for b in bots], [b.search_seconds for b in bots], [b.stops for b in bots])


def _play_many(spec: TournamentSpec, indices: Sequence[int]) -> list[MatchResult]:
    return [play_match(spec, index) for index in indices]


def make_spec(game_name: str, bots: Sequence[str], options: dict[str, Any], seed: int = 0) -> TournamentSpec:
    """A checked spec: the game, its options and the bots exist, and there are at least two distinct bots."""
    game = get_game(game_name)
    config = game.make_config(options)
    names = tuple(dict.fromkeys(b.strip() for b in bots if b.strip()))
    if len(names) < 2:
        raise ConfigError("a tournament needs at least two different bots, e.g. --bots easy,medium,hard")
    for name in names:
        make_bot(game_name, name, 0)  # an unknown name fails here, with the list of bots
    players = game.num_players(config)
    if players < 2:
        raise ConfigError(f"a tournament seats bots against each other: {game.title} with these options has one "
                          "seat (give it more players with -o)")
    check_bot_players(game_name, names, players)
    return TournamentSpec(game_name, names, dict(options), seed, players)


def games_to_play(spec: TournamentSpec, games: int) -> int:
    """``games`` rounded up to whole rounds (every lineup in every seat)."""
    size = spec.round_size()
    return max(1, math.ceil(games / size)) * size


def run(spec: TournamentSpec, games: int, workers: int | None = None,
        progress: Callable[[int], None] | None = None) -> list[MatchResult]:
    """Play the tournament's games (``games`` rounded up to whole rounds) on ``workers`` processes (default: every
    core; 1 plays here). Results come back in game order."""
    total = games_to_play(spec, games)
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        results = []
        for index in range(total):
            results.append(play_match(spec, index))
            if progress:
                progress(1)
        return results
    results = []
    # Small chunks: a game between searching bots takes a while, and the bar should move.
    chunk = max(1, min(10, total // (workers * 16)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[list[MatchResult]]] = {
            pool.submit(_play_many, spec, range(start, min(start + chunk, total))) for start in range(0, total, chunk)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                part = future.result()
                results.extend(part)
                if progress:
                    progress(len(part))
    results.sort(key=lambda r: r.index)
    return results


# -- ratings and summaries ---------------------------------------------------------------------------------------


def best_places(result: MatchResult) -> dict[str, int]:
    """Each bot's place in a game: 0 if one of its seats won, else 1 (its best seat counts)."""
    places: dict[str, int] = {}
    for seat, name in enumerate(result.seating):
        place = 0 if seat in result.winners else 1
        places[name] = min(place, places.get(name, place))
    return places


def rate(bots: Sequence[str], results: Sequence[MatchResult]) -> dict[str, Any]:
    """openskill Plackett-Luce ratings, one team per bot, updated game by game in index order."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in bots}
    for result in results:
        places = best_places(result)
        names = list(places)
        if len(names) < 2:
            continue
        updated = model.rate([[ratings[name]] for name in names], ranks=[places[name] for name in names])
        for name, (rating,) in zip(names, updated, strict=True):
            ratings[name] = rating
    return {name: {"mu": r.mu, "sigma": r.sigma, "ci95_low": r.mu - Z95 * r.sigma,
                   "ci95_high": r.mu + Z95 * r.sigma, "ordinal": r.ordinal()} for name, r in ratings.items()}


def pairwise(bots: Sequence[str], results: Sequence[MatchResult]) -> list[dict[str, Any]]:
    rows = []
    for bot, other in itertools.permutations(bots, 2):
        games = wins = ties = 0
        for result in results:
            places = best_places(result)
            if bot in places and other in places:
                games += 1
                wins += places[bot] < places[other]
                ties += places[bot] == places[other]
        score = wins + ties / 2
        low, high = wilson_interval(score, games)
        rows.append({"bot": bot, "opponent": other, "games": games, "wins": wins, "ties": ties,
                     "win_rate": score / games if games else 0.0, "ci95_low": low, "ci95_high": high})
    return rows


def _percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile by the nearest-rank method (a measured value, not an interpolation)."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def timing(bots: Sequence[str], results: Sequence[MatchResult]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name in bots:
        times = sorted(t for r in results for seat, bot in enumerate(r.seating) if bot == name for t in r.times[seat])
        iterations = sum(r.iterations[seat] for r in results for seat, bot in enumerate(r.seating) if bot == name)
        seconds = sum(r.search_seconds[seat] for r in results for seat, bot in enumerate(r.seating) if bot == name)
        stops: dict[str, int] = {}
        for r in results:
            for seat, bot in enumerate(r.seating):
                if bot == name:
                    for how, count in r.stops[seat].items():
                        stops[how] = stops.get(how, 0) + count
        row: dict[str, Any] = {"decisions": len(times)}
        if times:
            row.update({"p50_ms": 1000 * _percentile(times, 0.5), "p95_ms": 1000 * _percentile(times, 0.95),
                        "mean_ms": 1000 * statistics.fmean(times), "max_ms": 1000 * times[-1]})
        if stops:
            searches = sum(stops.values())
            row.update({"searches": searches, "iterations_per_second": iterations / seconds if seconds else 0.0,
                        "iterations_per_search": iterations / searches, "stopped": stops})
        found[name] = row
    return found


def summarize(spec: TournamentSpec, results: Sequence[MatchResult], workers: int | None = None,
              wall_seconds: float | None = None) -> dict[str, Any]:
    """Everything ``divedeck tournament`` prints, as JSON-safe data."""
    overall = []
    for name in spec.bots:
        plays = [r for r in results if name in r.seating]
        wins = sum(1 for r in plays if best_places(r)[name] == 0)
        low, high = wilson_interval(wins, len(plays))
        overall.append({"bot": name, "games": len(plays), "wins": wins,
                        "win_rate": wins / len(plays) if plays else 0.0, "ci95_low": low, "ci95_high": high})
    return {
        "game": spec.game,
        "options": spec.options,
        "players": spec.players,
        "bots": list(spec.bots),
        "seed": spec.seed,
        "games": len(results),
        "lineups": [list(lineup) for lineup in spec.lineups()],
        "ratings": rate(spec.bots, results),
        "overall": overall,
        "pairwise": pairwise(spec.bots, results),
        "timing": timing(spec.bots, results),
        "run": {"workers": workers or os.cpu_count() or 1, "wall_seconds": wall_seconds,
                "cpus": os.cpu_count(), "python": platform.python_version(), "machine": platform.machine()},
    }


def results_json(results: Sequence[MatchResult]) -> list[dict[str, Any]]:
    """The games themselves (without the per-decision times), for a JSON file."""
    return [{key: value for key, value in asdict(r).items() if key != "times"} for r in results]


# -- printing -----------------------------------------------------------------------------------------------------


def print_summary(summary: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    def rate_text(row: dict[str, Any]) -> str:
        return f"{row['win_rate']:.1%} ({100 * row['ci95_low']:.1f}-{row['ci95_high']:.1%})"

    console.print(f"[bold]{summary['game']}[/bold]: {summary['games']} games, {summary['players']} players, "
                  f"seed {summary['seed']}, options {options_text(summary['options'])}")
    ratings = Table(title="Ratings (openskill Plackett-Luce)", title_justify="left")
    for column in ("bot", "mu", "95% interval", "sigma", "ordinal", "games", "win rate (95% CI)"):
        ratings.add_column(column, justify="right")
    overall = {row["bot"]: row for row in summary["overall"]}
    for name, r in sorted(summary["ratings"].items(), key=lambda item: -item[1]["mu"]):
        ratings.add_row(name, f"{r['mu']:.2f}", f"{r['ci95_low']:.2f} – {r['ci95_high']:.2f}", f"{r['sigma']:.2f}",
                        f"{r['ordinal']:.2f}", str(overall[name]["games"]), rate_text(overall[name]))
    console.print(ratings)
    pairs = Table(title="Head to head: the row bot's win rate against the column bot (95% Wilson interval)",
                  title_justify="left")
    pairs.add_column("bot")
    for name in summary["bots"]:
        pairs.add_column(name, justify="right")
    by_pair = {(row["bot"], row["opponent"]): row for row in summary["pairwise"]}
    for name in summary["bots"]:
        cells = []
        for other in summary["bots"]:
            row = by_pair.get((name, other))
            cells.append("—" if row is None or not row["games"] else f"{rate_text(row)} n={row['games']}")
        pairs.add_row(name, *cells)
    console.print(pairs)
    times = Table(title="Decision time (decisions with a choice)", title_justify="left")
    for column in ("bot", "decisions", "p50 ms", "p95 ms", "max ms", "iterations/s", "iterations/search",
                   "searches stopped by"):
        times.add_column(column, justify="right")
    for name in summary["bots"]:
        t = summary["timing"][name]
        if not t["decisions"]:
            times.add_row(name, "0", "", "", "", "", "", "")
            continue
        search = "iterations_per_second" in t
        stops = ", ".join(f"{how} {count}" for how, count in sorted(t["stopped"].items())) if search else ""
        times.add_row(name, str(t["decisions"]), f"{t['p50_ms']:.2f}", f"{t['p95_ms']:.2f}", f"{t['max_ms']:.1f}",
                      f"{t['iterations_per_second']:,.0f}" if search else "",
                      f"{t['iterations_per_search']:.0f}" if search else "", stops)
    console.print(times)
