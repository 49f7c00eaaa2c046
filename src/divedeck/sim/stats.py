"""Summaries of simulated games: win rates with intervals, game length, score distribution."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from .runner import GameResult, SimulationSpec

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest near 0 and 1, unlike the normal approximation. ``successes``
    may hold half wins (ties)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p)) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _distribution(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else ordered * 3
    return {
        "mean": statistics.fmean(ordered),
        "sd": statistics.pstdev(ordered),
        "min": ordered[0],
        "p25": quartiles[0],
        "median": quartiles[1],
        "p75": quartiles[2],
        "max": ordered[-1],
    }


def _rate(wins: int, games: int) -> dict[str, float]:
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "win_rate": wins / games if games else 0.0, "ci95_low": low,
            "ci95_high": high}


def summarize(spec: SimulationSpec, results: Sequence[GameResult]) -> dict[str, Any]:
    """Everything ``divedeck simulate`` prints, as plain JSON-safe data."""
    games = len(results)
    seats = len(spec.bots)
    seat_rows = []
    for seat in range(seats):
        wins = sum(1 for r in results if seat in r.winners)
        row: dict[str, Any] = {"seat": seat, **_rate(wins, games),
                               "score": _distribution([r.scores[seat] for r in results])}
        if not spec.rotate:
            row["bot"] = spec.bots[seat]
        seat_rows.append(row)
    summary: dict[str, Any] = {
        "game": spec.game,
        "games": games,
        "seed": spec.seed,
        "options": spec.options,
        "bots": list(spec.bots),
        "rotate": spec.rotate,
        "seats": seat_rows,
        "length": {"decisions": _distribution([r.decisions for r in results])},
    }
    for key in ("rounds", "turns"):
        values = [r.details[key] for r in results if key in r.details]
        if len(values) == games and games:
            summary["length"][key] = _distribution(values)
    if spec.rotate:
        bot_rows = []
        for name in dict.fromkeys(spec.bots):
            plays = [(r, seat) for r in results for seat, bot in enumerate(r.seating) if bot == name]
            wins = sum(1 for r, seat in plays if seat in r.winners)
            bot_rows.append({"bot": name, **_rate(wins, len(plays)),
                             "score": _distribution([r.scores[seat] for r, seat in plays])})
        summary["bots_summary"] = bot_rows
    return summary
