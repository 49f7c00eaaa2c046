"""Engine speed benchmark: Snorkeling through the full contract against two anchors, interleaved.

Three contenders play uniformly random games in one process:

* ``snorkeling``: through the registry and the ``Game`` contract, the way every caller uses it
  (``actors`` / ``legal_actions`` / ``apply`` / ``outcome``; legal actions enumerated at every decision);
* ``crazy_eights``: OpenSpiel's C++ game driven step by step from Python through ``pyspiel``;
* ``uno``: RLCard's pure-Python Uno game loop (``UnoGame``).

The anchors live in ``anchors.py``; they need the optional ``bench`` dependency group, and a missing
one is skipped with a message while Snorkeling still runs. The machine this runs on is a noisy VM,
so the work is cut into rounds: each round runs a chunk of every contender (sized to take about the
same time), rotating the order, and the report gives the median over rounds. Ratios are the median
of the per-round ratios, so each ratio compares measurements taken seconds apart.

    uv sync --group bench && uv run python benchmarks/bench_engine.py [--seconds 60] [--json out.json]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import anchors
from anchors import AnchorResult, AnchorUnavailable

from divedeck.engine import get_game

SNORKELING, OPENSPIEL, RLCARD = "snorkeling", "crazy_eights", "uno"

# Targets from the issue: Snorkeling's decisions/s relative to each anchor (at least), and its clone
# cost relative to OpenSpiel's ``state.clone()`` (at most).
DECISIONS_VS_OPENSPIEL = 1.0
DECISIONS_VS_RLCARD = 4.0
CLONE_VS_OPENSPIEL = 2.0


# --- Snorkeling through the contract -------------------------------------------------------------


def snorkeling_playouts(games: int, seed: int, players: int) -> AnchorResult:
    """Play ``games`` uniformly random games of Snorkeling through the registry and the contract.

    Only the playout loop is timed (``game.new`` included: the deal is part of playing a game);
    each ``apply`` is one decision.
    """
    game = get_game("snorkeling")
    config = game.make_config({"num_players": players})
    rng = random.Random(seed)
    seeds = [rng.getrandbits(63) for _ in range(games)]
    choice = rng.choice
    decisions = 0
    start = time.perf_counter()
    for game_seed in seeds:
        state = game.new(config, game_seed)
        while game.outcome(state) is None:
            for seat in game.actors(state):
                game.apply(state, seat, choice(game.legal_actions(state, seat)))
                decisions += 1
    seconds = time.perf_counter() - start
    return AnchorResult(decisions=decisions, games=games, seconds=seconds)


def snorkeling_midgame_states(samples: int, seed: int, players: int) -> list[Any]:
    """Decision states from the middle half of random games, collected like the anchors' states."""
    game = get_game("snorkeling")
    config = game.make_config({"num_players": players})
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < samples:
        state = game.new(config, rng.getrandbits(63))
        trail = []
        while game.outcome(state) is None:
            for seat in game.actors(state):
                trail.append(state.clone())
                game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        start = len(trail) // 4
        states.extend(trail[start : max(start + 1, 3 * len(trail) // 4)])
    return states[:samples]


def snorkeling_clone_seconds_on(states: list[Any]) -> float:
    start = time.perf_counter()
    for state in states:
        state.clone()
    return (time.perf_counter() - start) / len(states)


def snorkeling_legal_seconds_on(states: list[Any]) -> float:
    game = get_game("snorkeling")
    start = time.perf_counter()
    for state in states:
        game.legal_actions(state, state.active)
    return (time.perf_counter() - start) / len(states)


# --- contenders and their measurements ------------------------------------------------------------


@dataclass
class Contender:
    """One engine: how to play a chunk of games, and per-call timings on pre-collected states."""

    name: str
    label: str
    players: str
    playouts: Callable[[int, int], AnchorResult]
    collect: Callable[[int, int], list[Any]]
    clone: Callable[[list[Any]], float] | None
    legal: Callable[[list[Any]], float]
    samples: int
    states: list[Any] = field(default_factory=list)
    games_per_second: float = 0.0  # running estimate, used to size the next chunk
    results: list[AnchorResult] = field(default_factory=list)
    clone_seconds: list[float] = field(default_factory=list)
    legal_seconds: list[float] = field(default_factory=list)


def make_contenders(players: int, samples: int) -> list[Contender]:
    """Every contender whose library is installed; a missing anchor is reported and skipped."""
    contenders = [
        Contender(
            SNORKELING, "Snorkeling (divedeck, contract)", str(players),
            lambda games, seed: snorkeling_playouts(games, seed, players),
            lambda count, seed: snorkeling_midgame_states(count, seed, players),
            snorkeling_clone_seconds_on, snorkeling_legal_seconds_on, samples,
        ),
    ]
    try:
        anchors.openspiel_playouts(games=1, seed=0)  # raises AnchorUnavailable without pyspiel
        import pyspiel

        c8_players = pyspiel.load_game("crazy_eights").num_players()
        contenders.append(Contender(
            OPENSPIEL, "OpenSpiel crazy_eights (pyspiel)", f"{c8_players} (OpenSpiel default)",
            anchors.openspiel_playouts, anchors.openspiel_midgame_states,
            anchors.openspiel_clone_seconds_on, anchors.openspiel_legal_seconds_on, samples,
        ))
    except AnchorUnavailable as exc:
        print(f"OpenSpiel (pyspiel) is not installed, skipping crazy_eights; {exc}")
    try:
        anchors.rlcard_playouts(games=1, seed=0)
        contenders.append(Contender(
            RLCARD, "RLCard Uno (UnoGame loop)", "2 (UnoGame default)",
            anchors.rlcard_playouts, anchors.rlcard_midgame_games,
            None, anchors.rlcard_legal_seconds_on, max(50, samples // 4),
        ))
    except AnchorUnavailable as exc:
        print(f"RLCard is not installed, skipping Uno; {exc}")
    return contenders


def calibrate(contender: Contender, seed: int, seconds: float) -> None:
    """Warm up and estimate games/s: double the games until a run takes ``seconds``."""
    games = 1
    while True:
        gc.collect()
        result = contender.playouts(games, seed)
        if result.seconds >= seconds:
            break
        games *= 2
    contender.games_per_second = result.games_per_second


def run_chunk(contender: Contender, seconds: float, seed: int) -> None:
    """One round's work for ``contender``: a playout chunk of about ``seconds``, then the per-call timings."""
    games = max(1, round(seconds * contender.games_per_second))
    gc.collect()
    result = contender.playouts(games, seed)
    contender.results.append(result)
    # Size the next chunk from the median of the last few rates: one odd chunk does not skew it,
    # and it follows the machine when it slows down or speeds up for a while.
    contender.games_per_second = statistics.median(r.games_per_second for r in contender.results[-5:])
    if contender.clone is not None:
        gc.collect()
        contender.clone_seconds.append(contender.clone(contender.states))
    gc.collect()
    contender.legal_seconds.append(contender.legal(contender.states))


def benchmark(contenders: list[Contender], budget: float, rounds: int, seed: int) -> float:
    """Set up, then run ``rounds`` interleaved rounds filling what is left of ``budget``; return wall time."""
    began = time.perf_counter()
    master = random.Random(seed)
    for contender in contenders:
        contender.states = contender.collect(contender.samples, master.getrandbits(32))
        calibrate(contender, master.getrandbits(32), seconds=min(0.5, budget / 100))
    # The collected states live for the whole run; freezing them keeps the collector from walking
    # them again and again during everyone's playouts.
    gc.collect()
    gc.freeze()
    overhead = 0.0  # per round: collections and per-call timings, learnt from the previous round
    for index in range(rounds):
        # Spread what is left of the budget over the rounds left, so a machine that slows down
        # mid-run shortens the chunks instead of overrunning the budget.
        left = budget - (time.perf_counter() - began)
        chunk = max(0.05, (left / (rounds - index) - overhead) / len(contenders))
        round_began = time.perf_counter()
        shift = index % len(contenders)
        for contender in contenders[shift:] + contenders[:shift]:
            run_chunk(contender, chunk, master.getrandbits(32))
        playing = sum(c.results[-1].seconds for c in contenders)
        overhead = time.perf_counter() - round_began - playing
        print(f"\r  round {index + 1}/{rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    gc.unfreeze()
    return time.perf_counter() - began


# --- report ----------------------------------------------------------------------------------------


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarize(contender: Contender) -> dict[str, Any]:
    results = contender.results
    total_games = sum(r.games for r in results)
    summary = {
        "label": contender.label,
        "players": contender.players,
        "rounds": len(results),
        "games": total_games,
        "decisions": sum(r.decisions for r in results),
        "decisions_per_game": sum(r.decisions for r in results) / total_games,
        "decisions_per_second": spread([r.decisions_per_second for r in results]),
        "games_per_second": spread([r.games_per_second for r in results]),
        "clone_us": spread([s * 1e6 for s in contender.clone_seconds]) if contender.clone_seconds else None,
        "legal_us": spread([s * 1e6 for s in contender.legal_seconds]),
        "cost_samples": len(contender.states),
    }
    if any(r.chance_steps for r in results):
        summary["chance_steps_per_game"] = sum(r.chance_steps for r in results) / total_games
    return summary


def ratio(numerators: list[float], denominators: list[float], target: str | None = None,
          ok: Callable[[float], bool] | None = None) -> dict[str, Any]:
    """The median (and range) of per-round ratios: each compares two measurements from the same round.

    With a ``target``, ``ok`` says whether the median meets it (PASS/MISS in the report).
    """
    found: dict[str, Any] = spread([a / b for a, b in zip(numerators, denominators, strict=True)])
    found["target"] = target
    found["ok"] = None if ok is None else ok(found["median"])
    return found


def ratios(by_name: dict[str, Contender]) -> dict[str, dict[str, Any]]:
    """Snorkeling against each installed anchor, with PASS/MISS where the issue sets a target."""
    snk = by_name[SNORKELING]
    found: dict[str, dict[str, Any]] = {}
    for name, target in ((OPENSPIEL, DECISIONS_VS_OPENSPIEL), (RLCARD, DECISIONS_VS_RLCARD)):
        if name in by_name:
            other = by_name[name].results
            found[f"decisions/s snorkeling / {name}"] = ratio(
                [r.decisions_per_second for r in snk.results], [r.decisions_per_second for r in other],
                f">= {target:.1f}x", lambda median, target=target: median >= target)
            found[f"games/s snorkeling / {name}"] = ratio(
                [r.games_per_second for r in snk.results], [r.games_per_second for r in other])
    if OPENSPIEL in by_name:
        found["clone() cost snorkeling / crazy_eights"] = ratio(
            snk.clone_seconds, by_name[OPENSPIEL].clone_seconds,
            f"<= {CLONE_VS_OPENSPIEL:.1f}x", lambda median: median <= CLONE_VS_OPENSPIEL)
    for name in (OPENSPIEL, RLCARD):
        if name in by_name:
            found[f"legal_actions() cost snorkeling / {name}"] = ratio(snk.legal_seconds,
                                                                        by_name[name].legal_seconds)
    return found


def version(*names: str) -> str:
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "not installed"


def source_revision() -> str:
    """The git commit, and when ``src/`` has uncommitted changes a hash of the code actually measured."""
    root = Path(__file__).resolve().parent.parent
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=root, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    if not dirty:
        return rev
    digest = hashlib.sha1()
    for path in sorted((root / "src" / "divedeck").rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{rev} + uncommitted changes to src/ (tree sha1 {digest.hexdigest()[:10]})"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def environment() -> dict[str, str]:
    return {
        "date": datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "cpu": f"{cpu_model()} ({os.cpu_count()} logical CPUs)",
        "divedeck": f"{version('divedeck')} @ {source_revision()}",
        "open-spiel": version("open_spiel", "open-spiel"),
        "rlcard": version("rlcard"),
        "numpy": version("numpy"),
    }


def fmt_spread(values: dict[str, float] | None, fmt: str, unit: str = "") -> str:
    if values is None:
        return "n/a"
    return f"{values['median']:{fmt}}{unit} ({values['min']:{fmt}}–{values['max']:{fmt}})"


def print_report(env: dict[str, str], summaries: dict[str, dict[str, Any]], found: dict[str, Any],
                 meta: dict[str, Any]) -> None:
    print()
    for key, value in env.items():
        print(f"{key + ':':<12} {value}")
    print(f"{'run:':<12} {meta['rounds']} interleaved rounds, {meta['wall_seconds']:.0f} s wall, "
          f"seed {meta['seed']}")
    print()
    print("Median over rounds (min–max in brackets); per-call costs on mid-game decision states.")
    print()
    print("| engine | players | decisions/s | games/s | decisions/game | clone() µs | legal_actions() µs |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for summary in summaries.values():
        print(
            f"| {summary['label']} | {summary['players']} "
            f"| {fmt_spread(summary['decisions_per_second'], ',.0f')} "
            f"| {fmt_spread(summary['games_per_second'], ',.1f')} "
            f"| {summary['decisions_per_game']:.1f} "
            f"| {fmt_spread(summary['clone_us'], '.2f')} "
            f"| {fmt_spread(summary['legal_us'], '.2f')} |"
        )
    if OPENSPIEL in summaries:
        print(f"\ncrazy_eights also plays {summaries[OPENSPIEL]['chance_steps_per_game']:.1f} chance steps "
              "per game (deal, draws): timed, but not counted as decisions.")
    if not found:
        print("\nNo anchors installed, so no ratios (uv sync --group bench).")
        return
    print()
    print("Ratios: median of per-round ratios (min–max in brackets).")
    print()
    print("| ratio | measured | target | result |")
    print("|---|--:|--:|---|")
    for name, value in found.items():
        result = "" if value["ok"] is None else ("PASS" if value["ok"] else "MISS")
        print(f"| {name} | {fmt_spread(value, '.2f', 'x')} | {value['target'] or '—'} | {result} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="total time budget (default 60)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="interleaving rounds (default: one per ~4 s of budget, 5 to 60)")
    parser.add_argument("--players", type=int, default=4,
                        help="Snorkeling players (default 4; crazy_eights uses its default 5, Uno 2)")
    parser.add_argument("--samples", type=int, default=2000,
                        help="mid-game states for the clone/legal_actions timings (Uno: a quarter)")
    parser.add_argument("--seed", type=int, default=2024, help="master seed (default 2024)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON to FILE")
    parser.add_argument("--quick", action="store_true", help="smoke run: 6 s, 3 rounds, few samples")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.rounds, args.samples = 6.0, 3, 200
    rounds = args.rounds or min(60, max(5, round(args.seconds / 4)))

    env = environment()  # at the start: the date of the run and the code this process imported
    contenders = make_contenders(args.players, args.samples)
    print("players: " + ", ".join(f"{c.name} {c.players}" for c in contenders))
    print(f"budget {args.seconds:.0f} s in {rounds} rounds ...", file=sys.stderr)
    wall = benchmark(contenders, args.seconds, rounds, args.seed)

    by_name = {c.name: c for c in contenders}
    summaries = {c.name: summarize(c) for c in contenders}
    found = ratios(by_name)
    meta = {"rounds": rounds, "wall_seconds": wall, "seed": args.seed, "budget_seconds": args.seconds}
    print_report(env, summaries, found, meta)
    if args.json:
        per_round = {
            c.name: {
                "decisions_per_second": [r.decisions_per_second for r in c.results],
                "games_per_second": [r.games_per_second for r in c.results],
                "clone_us": [s * 1e6 for s in c.clone_seconds],
                "legal_us": [s * 1e6 for s in c.legal_seconds],
            }
            for c in contenders
        }
        payload = {"environment": env, "run": meta, "contenders": summaries, "ratios": found,
                   "per_round": per_round}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
