"""Simulation speed benchmark: games/s of every game on 1 and 2 worker processes, Bermuda against the code before
the speed work, and Hold Your Breath!'s random playout against OpenSpiel's crazy_eights, in one run.

Three parts, each cut into interleaved rounds so that the shared VM's slow moments hit every contender alike, and
reported as medians over rounds (ratios: the median of the per-round ratios):

* ``simulate``: ``divedeck.sim.simulate`` for each game with its usual bots (Snorkeling and Hold Your Breath! with
  4 greedy bots, Bermuda with 4 divers, Hold your Hat with its team bots), on 1 and on 2 workers; the speed-up is
  the 2-worker rate over the 1-worker rate of the same round.
* ``bermuda-before``: the same Bermuda simulation with the source of ``--baseline`` (a git revision, by default the
  commit before the speed work) against this tree's, each in a fresh process on 1 worker, alternating.
* ``playout``: Hold Your Breath! random games through the contract (``game.new``, then ``game.random_playout``: the
  game's own loop), the engine's generic loop (``Game.random_playout`` itself: ``actors``, ``legal_actions``,
  ``apply``, the loop the fast one must match), and OpenSpiel's crazy_eights (``benchmarks/anchors.py``), per
  decision.

    uv sync --group bench && uv run python benchmarks/bench_simulate.py [--seconds 100] [--json out.json]

A fourth part, on its own with ``--ray``: the Ray backend on a local cluster (``ray.init(num_cpus=2)``, started by
the benchmark) against local processes (2 workers), the same Snorkeling run of random bots (``--ray-games``, 20,000
by default) on each, alternating, with a check that both give the same results.

    uv run python benchmarks/bench_simulate.py --ray [--ray-games 20000] [--ray-rounds 2] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anchors
from anchors import AnchorUnavailable
from bench_engine import environment, spread

from divedeck.engine import get_game
from divedeck.engine.game import Game
from divedeck.sim.runner import SimulationSpec, simulate

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "a549862"  # the last commit before the simulation speed work (issue 17, item 7)
HYB = "hold-your-breath"

# Targets from issue 17 ("Numbers").
SPEEDUP_ON_2 = 1.8
PLAYOUT_VS_CRAZY_EIGHTS = 0.6
BERMUDA_VS_BEFORE = 10.0


def seatings() -> dict[str, tuple[str, ...]]:
    """Each game's usual simulation: its default table, every seat the bot people meet at the medium level."""
    found = {}
    for name, bot in (("snorkeling", "greedy"), (HYB, "greedy"), ("bermuda", "diver"), ("hold-your-hat", None)):
        game = get_game(name)
        found[name] = (bot or game.levels.medium,) * game.default_players()
    return found


# --- part 1: simulate on 1 and 2 workers ----------------------------------------------------------------------------


@dataclass
class Simulated:
    game: str
    bots: tuple[str, ...]
    rate: dict[int, float] = field(default_factory=dict)  # games/s by workers, the running estimate
    rounds: dict[int, list[float]] = field(default_factory=lambda: {1: [], 2: []})
    cpu: dict[int, list[float]] = field(default_factory=lambda: {1: [], 2: []})  # CPU seconds per game, all processes

    def run(self, workers: int, seconds: float, seed: int) -> None:
        games = max(4 * workers, round(seconds * self.rate.get(workers, self.rate.get(1, 10.0))))
        spec = SimulationSpec(self.game, self.bots, {}, seed)
        began, cpu = time.perf_counter(), _cpu()
        simulate(spec, games, workers=workers)  # returns once the pool's processes have ended: their CPU is counted
        rate = games / (time.perf_counter() - began)
        self.cpu[workers].append((_cpu() - cpu) / games)
        self.rounds[workers].append(rate)
        self.rate[workers] = statistics.median(self.rounds[workers][-3:])


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


# --- part 2: Bermuda before and after, each in its own process ----------------------------------------------------

_CHILD = """
import sys, time
from divedeck.sim.runner import SimulationSpec, simulate
games, seed = int(sys.argv[1]), int(sys.argv[2])
spec = SimulationSpec("bermuda", ("diver",) * 4, {}, seed)
began, cpu = time.perf_counter(), time.process_time()
simulate(spec, games, workers=1)
print(games / (time.perf_counter() - began), games / (time.process_time() - cpu))
"""


def export_source(revision: str, into: Path) -> Path:
    """The ``src`` tree of ``revision``, written under ``into``; returns the directory to put on ``sys.path``."""
    archive = into / "src.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), revision, "src"], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def bermuda_in_process(source: Path, games: int, seed: int) -> tuple[float, float]:
    """games/s (wall, and per CPU second of the child) of ``games`` Bermuda games with the code under ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    out = subprocess.run([sys.executable, "-c", _CHILD, str(games), str(seed)], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


# --- part 3: Hold Your Breath! random playouts against crazy_eights ------------------------------------------------


def hyb_playouts(games: int, seed: int, generic: bool = False) -> tuple[int, float]:
    """Decisions and seconds of ``games`` random games played from the deal by ``random_playout``."""
    game = get_game(HYB)
    config = game.make_config({})
    rng = random.Random(seed)
    seeds = [rng.getrandbits(63) for _ in range(games)]
    playout: Callable[..., int] = (lambda *args: Game.random_playout(game, *args)) if generic else game.random_playout
    decisions = 0
    began = time.perf_counter()
    for game_seed in seeds:
        decisions += playout(game.new(config, game_seed), rng.random, 1 << 62)
    return decisions, time.perf_counter() - began


@dataclass
class Playout:
    name: str
    play: Callable[[int, int], tuple[int, float]]
    games_per_second: float = 0.0
    rates: list[float] = field(default_factory=list)  # decisions/s per round

    def run(self, seconds: float, seed: int) -> None:
        games = max(1, round(seconds * self.games_per_second)) if self.games_per_second else 20
        decisions, took = self.play(games, seed)
        self.rates.append(decisions / took)
        self.games_per_second = games / took


def playout_contenders() -> list[Playout]:
    contenders = [Playout("hyb-fast", hyb_playouts),
                  Playout("hyb-generic", lambda games, seed: hyb_playouts(games, seed, generic=True))]
    try:
        anchors.openspiel_playouts(games=1, seed=0)

        def crazy_eights(games: int, seed: int) -> tuple[int, float]:
            result = anchors.openspiel_playouts(games, seed)
            return result.decisions, result.seconds

        contenders.append(Playout("crazy_eights", crazy_eights))
    except AnchorUnavailable as exc:
        print(f"OpenSpiel is not installed, no playout ratio; {exc}", file=sys.stderr)
    return contenders


# --- part 4: Ray on a local cluster against local processes -------------------------------------------------------

RAY_WITHIN = 0.15  # issue 17: the Ray backend within 15% of local processes


def ray_against_local(games: int, rounds: int, seed: int) -> dict[str, Any]:
    """games/s of one Snorkeling run of random bots on 2 local processes and on a local Ray cluster of 2 CPUs."""
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")  # read when Ray is imported: see backends.py
    import ray

    from divedeck.sim.backends import LocalProcesses, RayCluster

    began = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter() - began
    try:
        cluster = RayCluster("auto")
        spec = SimulationSpec("snorkeling", ("random",) * 4, {}, seed)
        simulate(spec, 40, backend=cluster)  # the Ray workers import divedeck once
        rates: dict[str, list[float]] = {"local": [], "ray": []}
        same = True
        for index in range(rounds):
            print(f"\r  ray round {index + 1}/{rounds}", end="", file=sys.stderr, flush=True)
            found = {}
            for name in (("local", "ray"), ("ray", "local"))[index % 2]:
                backend = cluster if name == "ray" else LocalProcesses(2)
                took = time.perf_counter()
                found[name] = simulate(spec, games, backend=backend)
                rates[name].append(games / (time.perf_counter() - took))
                if name == "local":
                    backend.close()
            same = same and found["local"] == found["ray"]
        print(file=sys.stderr)
    finally:
        ray.shutdown()
    return {"games": games, "bots": list(spec.bots), "ray_start_seconds": started, "identical_results": same,
            "local": spread(rates["local"]), "ray": spread(rates["ray"]),
            "ray_over_local": spread([r / loc for r, loc in zip(rates["ray"], rates["local"], strict=True)])}


def print_ray(report: dict[str, Any]) -> None:
    env = report["environment"]
    for key, value in env.items():
        shown = ", ".join(f"{v:.2f}" for v in value) if isinstance(value, tuple) else value
        print(f"{key + ':':<22} {shown}")
    row = report["ray"]
    print(f"\nSnorkeling, 4 x random, {row['games']:,} games a run; Ray's local node started in "
          f"{row['ray_start_seconds']:.1f} s (not counted); identical results: {row['identical_results']}")
    print("\n| backend | games/s |\n|---|--:|")
    print(f"| local processes, 2 workers | {fmt(row['local'], ',.1f')} |")
    print(f"| Ray, local cluster of 2 CPUs | {fmt(row['ray'], ',.1f')} |")
    ratio = row["ray_over_local"]
    verdict_text = "**PASS**" if ratio["median"] >= 1 - RAY_WITHIN else "**MISS**"
    print(f"\n| ratio | measured | target | result |\n|---|--:|--:|---|\n| Ray / local processes | "
          f"{fmt(ratio, '.2f', 'x')} | ≥ {1 - RAY_WITHIN:.2f}x | {verdict_text} |")


# --- the run ----------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=100.0, help="total time budget (default 100)")
    parser.add_argument("--rounds", type=int, default=4, help="interleaved rounds (default 4)")
    parser.add_argument("--baseline", default=BASELINE, help=f"git revision to compare Bermuda with ({BASELINE})")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON to FILE")
    parser.add_argument("--quick", action="store_true", help="smoke run: 15 s, 2 rounds")
    parser.add_argument("--ray", action="store_true", help="only the Ray part: Ray on a local cluster against "
                                                           "local processes")
    parser.add_argument("--ray-games", type=int, default=20_000, help="games in each run of the Ray part")
    parser.add_argument("--ray-rounds", type=int, default=2, help="rounds of the Ray part (each runs both)")
    parser.add_argument("--long", type=int, metavar="GAMES", help="only the speed-up on long runs: GAMES a run, "
                                                                   "1 and 2 workers alternating (with --game)")
    parser.add_argument("--game", choices=sorted(seatings()), default="bermuda", help="the game of --long")
    args = parser.parse_args(argv)
    if args.long:
        print_long(args.game, long_speedups(args.game, args.long, args.rounds, args.seed))
        return 0
    if args.ray:
        env, load_before = environment(), os.getloadavg()
        report = {"ray": ray_against_local(args.ray_games, args.ray_rounds, args.seed)}
        report["environment"] = {**env, "load average before": load_before, "load average after": os.getloadavg()}
        print_ray(report)
        if args.json:
            args.json.write_text(json.dumps(report, indent=2) + "\n")
        return 0
    if args.quick:
        args.seconds, args.rounds = 15.0, 2
    env = environment()
    load_before = os.getloadavg()
    master = random.Random(args.seed)
    simulated = [Simulated(name, bots) for name, bots in seatings().items()]
    playouts = playout_contenders()
    # The budget per round: simulate gets half (each game on 1 and on 2 workers), Bermuda before/after a quarter,
    # the playouts a quarter.
    per_round = args.seconds / args.rounds
    sim_chunk = per_round / 2 / (2 * len(simulated))
    playout_chunk = per_round / 4 / len(playouts)
    before: list[tuple[float, float]] = []
    after: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as temp:
        old_source = export_source(args.baseline, Path(temp))
        new_source = ROOT / "src"
        for contender in simulated:  # warm up, and a first estimate of each rate
            contender.rate[1] = 4 / max(1e-3, _timed(lambda c=contender: simulate(
                SimulationSpec(c.game, c.bots, {}, 0), 4, workers=1)))
        for contender in playouts:
            contender.run(0.2, 0)
            contender.rates.clear()
        old_rate = 20.0
        for index in range(args.rounds):
            print(f"\r  round {index + 1}/{args.rounds}", end="", file=sys.stderr, flush=True)
            shift = index % 2
            for contender in simulated:
                for workers in ((1, 2), (2, 1))[shift]:
                    contender.run(workers, sim_chunk, master.getrandbits(32))
            seed = master.getrandbits(32)
            games = max(8, round(per_round / 8 * old_rate))
            pair = [(before, old_source), (after, new_source)]
            for results, source in pair[shift:] + pair[:shift]:
                results.append(bermuda_in_process(source, games, seed))
            old_rate = before[-1][0]
            for contender in playouts[shift:] + playouts[:shift]:
                contender.run(playout_chunk, master.getrandbits(32))
    print(file=sys.stderr)
    load_after = os.getloadavg()
    report = summarize(simulated, before, after, playouts)
    report["environment"] = {**env, "load average before": load_before, "load average after": load_after,
                             "baseline": args.baseline}
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


def long_speedups(game: str, games: int, rounds: int, seed: int) -> dict[int, list[float]]:
    """games/s of ``games``-game runs of ``game`` on 1 and on 2 workers, alternating which goes first: a designer's
    run is long, so the pool's start and its last chunk weigh less than in the time-sized rounds above."""
    spec = SimulationSpec(game, seatings()[game], {}, seed)
    simulate(spec, 20, workers=1)  # warm up
    rates: dict[int, list[float]] = {1: [], 2: []}
    for index in range(rounds):
        for workers in ((1, 2), (2, 1))[index % 2]:
            rates[workers].append(games / _timed(lambda w=workers: simulate(spec, games, workers=w)))
    return rates


def print_long(game: str, rates: dict[int, list[float]]) -> None:
    ratios = [two / one for one, two in zip(rates[1], rates[2], strict=True)]
    print(f"| {game}, runs of equal games | games/s, 1 worker | games/s, 2 workers | speed-up on 2 |")
    print("|---|--:|--:|--:|")
    print(f"| per round | {', '.join(f'{r:.1f}' for r in rates[1])} | {', '.join(f'{r:.1f}' for r in rates[2])} "
          f"| {', '.join(f'{r:.2f}x' for r in ratios)} |")
    print(f"| median | {statistics.median(rates[1]):.1f} | {statistics.median(rates[2]):.1f} "
          f"| **{statistics.median(ratios):.2f}x** |")
    print(f"\nload average: {os.getloadavg()}")


def _timed(work: Callable[[], Any]) -> float:
    began = time.perf_counter()
    work()
    return time.perf_counter() - began


def summarize(simulated: list[Simulated], before: list[tuple[float, float]], after: list[tuple[float, float]],
              playouts: list[Playout]) -> dict[str, Any]:
    games = {}
    for contender in simulated:
        one, two = contender.rounds[1], contender.rounds[2]
        games[contender.game] = {"bots": list(contender.bots), "workers_1": spread(one), "workers_2": spread(two),
                                 "speedup": spread([b / a for a, b in zip(one, two, strict=True)]),
                                 "cpu_per_game_2_over_1": spread([b / a for a, b in zip(
                                     contender.cpu[1], contender.cpu[2], strict=True)])}
    by_name = {contender.name: contender.rates for contender in playouts}
    found: dict[str, Any] = {
        "games": games,
        "bermuda_before": {"wall": spread([b[0] for b in before]), "cpu": spread([b[1] for b in before])},
        "bermuda_after": {"wall": spread([a[0] for a in after]), "cpu": spread([a[1] for a in after])},
        "bermuda_ratio": spread([a[0] / b[0] for a, b in zip(after, before, strict=True)]),
        "bermuda_ratio_cpu": spread([a[1] / b[1] for a, b in zip(after, before, strict=True)]),
        "playout": {name: spread(rates) for name, rates in by_name.items()},
        "playout_fast_over_generic": spread([a / b for a, b in zip(by_name["hyb-fast"], by_name["hyb-generic"],
                                                                   strict=True)]),
    }
    if "crazy_eights" in by_name:
        for name in ("hyb-fast", "hyb-generic"):
            found[f"{name}_over_crazy_eights"] = spread([a / b for a, b in zip(by_name[name], by_name["crazy_eights"],
                                                                               strict=True)])
    return found


def fmt(values: dict[str, float], form: str, unit: str = "") -> str:
    return f"{values['median']:{form}}{unit} ({values['min']:{form}}–{values['max']:{form}})"


def verdict(value: float, target: float) -> str:
    return "**PASS**" if value >= target else "**MISS**"


def print_report(report: dict[str, Any]) -> None:
    env = report["environment"]
    print()
    for key, value in env.items():
        shown = ", ".join(f"{v:.2f}" for v in value) if isinstance(value, tuple) else value
        print(f"{key + ':':<22} {shown}")
    print("\n| game | bots | games/s, 1 worker | games/s, 2 workers | speed-up on 2 | CPU per game, 2 workers / 1 |")
    print("|---|---|--:|--:|--:|--:|")
    for name, row in report["games"].items():
        bots = ", ".join(sorted(set(row["bots"])))
        print(f"| {name} | {len(row['bots'])} × {bots} | {fmt(row['workers_1'], ',.1f')} "
              f"| {fmt(row['workers_2'], ',.1f')} | {fmt(row['speedup'], '.2f', 'x')} "
              f"| {fmt(row['cpu_per_game_2_over_1'], '.2f', 'x')} |")
    print("\n| Bermuda, 4 divers, 1 worker | games/s (wall) | games per CPU second |")
    print("|---|--:|--:|")
    for label, key in ((f"before ({env['baseline']})", "bermuda_before"), ("this tree", "bermuda_after")):
        print(f"| {label} | {fmt(report[key]['wall'], ',.1f')} | {fmt(report[key]['cpu'], ',.1f')} |")
    print("\n| Hold Your Breath! 4p random playout | decisions/s |")
    print("|---|--:|")
    labels = {"hyb-fast": "through the contract (`game.random_playout`, the game's own loop)",
              "hyb-generic": "the generic loop (`Game.random_playout`: actors, legal_actions, apply)",
              "crazy_eights": "OpenSpiel crazy_eights 5p (pyspiel)"}
    for name, values in report["playout"].items():
        print(f"| {labels[name]} | {fmt(values, ',.0f')} |")
    print("\n| ratio | measured | target | result |")
    print("|---|--:|--:|---|")
    for name, row in report["games"].items():
        print(f"| {name}: games/s on 2 workers / 1 | {fmt(row['speedup'], '.2f', 'x')} | ≥ {SPEEDUP_ON_2}x "
              f"| {verdict(row['speedup']['median'], SPEEDUP_ON_2)} |")
    for key, what in (("bermuda_ratio", "wall"), ("bermuda_ratio_cpu", "per CPU second")):
        print(f"| Bermuda simulate, this tree / before ({what}) | {fmt(report[key], '.2f', 'x')} "
              f"| ≥ {BERMUDA_VS_BEFORE:.0f}x | {verdict(report[key]['median'], BERMUDA_VS_BEFORE)} |")
    if "hyb-fast_over_crazy_eights" in report:
        row = report["hyb-fast_over_crazy_eights"]
        print(f"| Hold Your Breath! playout through the contract / crazy_eights, per decision "
              f"| {fmt(row, '.2f', 'x')} | ≥ {PLAYOUT_VS_CRAZY_EIGHTS}x "
              f"| {verdict(row['median'], PLAYOUT_VS_CRAZY_EIGHTS)} |")
        row = report["hyb-generic_over_crazy_eights"]
        print(f"| Hold Your Breath! generic loop / crazy_eights (before) | {fmt(row, '.2f', 'x')} | — | |")
    print(f"| Hold Your Breath! own loop / generic loop | {fmt(report['playout_fast_over_generic'], '.2f', 'x')} "
          "| — | |")


if __name__ == "__main__":
    sys.exit(main())
