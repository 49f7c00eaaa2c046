"""The skill ladder: how much skill a game rewards. For every ordered pair of levels (random, easy, medium, hard: those
the game has), one side plays the first level and every other side the second, the first level's side moved over
every side in turn (seats, or teams in a team game); the matrix holds the first level's win share. The one number
is the skill gap: the strongest level's share against a table of the weakest, minus an equal share, in points. A
gap near 0 is a finding too: the game does not reward what the bots do better.

A cooperative game has no opponents among its seats: its ladder is the team's win rate at each level.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bots import accepted_bot_names
from ..engine.registry import get_game
from .runner import GameResult, SimulationSpec, simulate
from .sides import side_shares, sides_of
from .stats import wilson_interval

LEVELS = ("random", "easy", "medium", "hard")


def ladder_levels(game_name: str, wanted: Sequence[str] = LEVELS) -> list[str]:
    """The levels of ``wanted`` this game can play in a simulation (a real-time game has no ``random``: it cannot
    time a held breath or a guess)."""
    game = get_game(game_name)
    accepted = set(accepted_bot_names(game_name))
    return [level for level in wanted if level in accepted and not (level == "random" and game.realtime)]


def _rate(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "share": wins / games if games else 0.0, "ci95_low": low,
            "ci95_high": high}


def skill_ladder(game_name: str, options: dict[str, Any], levels: Sequence[str], games: int, seed: int = 0,
                 workers: int | None = None) -> dict[str, Any]:
    """About ``games`` games per ordered pair of ``levels`` (per level for a cooperative game); JSON-safe."""
    game = get_game(game_name)
    seats = game.num_players(game.make_config(options))
    sides = sides_of(game_name, options, seats)
    out: dict[str, Any] = {"levels": list(levels), "games_per_pair": games, "seed": seed, "word": sides.word}
    if len(sides.seats) < 2:  # cooperative: one row, the team's win rate at each level
        rows = []
        for level in levels:
            results = simulate(SimulationSpec(game_name, (level,) * seats, options, seed), games, workers)
            rows.append({"level": level, **_rate(sum(1 for r in results if r.winners), len(results))})
        out.update(cooperative=True, rows=rows)
        low, high = rows[0], rows[-1]
        out["gap"] = _gap(high["share"] - low["share"], high, low)
        return out
    count = len(sides.seats)
    per_side = max(1, games // count)
    matrix: list[list[dict[str, Any] | None]] = []
    for first in levels:
        row: list[dict[str, Any] | None] = []
        for second in levels:
            if first == second:
                row.append(None)
                continue
            wins = 0.0
            played: list[GameResult] = []
            for side, members in enumerate(sides.seats):
                bots = tuple(first if seat in members else second for seat in range(seats))
                results = simulate(SimulationSpec(game_name, bots, options, seed), per_side, workers)
                wins += sum(side_shares(r, sides)[side] for r in results)
                played += results
            row.append(_rate(wins, len(played)))
        matrix.append(row)
    out.update(cooperative=False, equal_share=1 / count, matrix=matrix)
    top = matrix[-1][0]
    if top is not None:
        out["gap"] = _gap(top["share"] - 1 / count, top, None, 1 / count)
    return out


def _gap(value: float, high: dict[str, Any], low: dict[str, Any] | None, equal: float = 0.0) -> dict[str, Any]:
    """The gap in points with a conservative interval (the two rates' intervals, or one against a constant)."""
    if low is None:
        return {"value": 100 * value, "ci95_low": 100 * (high["ci95_low"] - equal),
                "ci95_high": 100 * (high["ci95_high"] - equal)}
    return {"value": 100 * value, "ci95_low": 100 * (high["ci95_low"] - low["ci95_high"]),
            "ci95_high": 100 * (high["ci95_high"] - low["ci95_low"])}


def ladder_lines(ladder: dict[str, Any]) -> list[str]:
    """The skill gap in one sentence, for a page or a terminal."""
    levels = ladder["levels"]
    gap = ladder.get("gap")
    if gap is None:
        return []
    if ladder["cooperative"]:
        what = f"the team's win rate at {levels[-1]} minus at {levels[0]}"
    else:
        what = (f"one {ladder['word']} of {levels[-1]} against {levels[0]} everywhere else: its win share minus an "
                "equal share")
    verdict = ("skill is rewarded" if gap["ci95_low"] > 0 else
               "no skill shown: the game may not reward what the better bots do" if gap["ci95_high"] >= 0 else
               "the weaker level does better")
    return [f"Skill gap ({what}): {gap['value']:+.1f} points ({gap['ci95_low']:+.1f} to {gap['ci95_high']:+.1f}): "
            f"{verdict}."]
