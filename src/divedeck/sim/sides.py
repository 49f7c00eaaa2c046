"""The sides of a game, and whether one of them wins more than chance allows: its seats, or its teams in a team
game (the game declares them, ``Metrics.teams``), or one team for a cooperative game.

A side's share of a game is ``1/k`` when ``k`` sides share the win (a team wins when any of its seats does), so the
shares add up to the games won. The side-advantage test is over the games one side won alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.registry import get_game
from .runner import GameResult
from .stats import binomial_two_sided, chi_square_p, mean_interval, normal_two_sided, wilson_interval


@dataclass(frozen=True)
class Sides:
    """Each side's name and seats; ``teams`` when the game declares teams."""

    names: tuple[str, ...]
    seats: tuple[tuple[int, ...], ...]
    teams: bool = False

    @property
    def word(self) -> str:
        return "team" if self.teams else "seat"


def team_letter(index: int) -> str:
    return chr(ord("A") + index)


def sides_of(game_name: str, options: dict[str, Any], seats: int) -> Sides:
    """The sides a report compares: the game's teams when it declares them (``Metrics.teams``), else its seats."""
    game = get_game(game_name)
    metrics = game.metrics
    if metrics is not None and metrics.cooperative:
        return Sides(("the team",), (tuple(range(seats)),), teams=True)
    if metrics is not None and metrics.teams is not None:
        members = metrics.teams(game.make_config(options))
        return Sides(tuple(f"team {team_letter(i)}" for i in range(len(members))), tuple(members), teams=True)
    return Sides(tuple(f"seat {seat}" for seat in range(seats)), tuple((seat,) for seat in range(seats)))


def side_shares(result: GameResult, sides: Sides) -> list[float]:
    """Each side's share of the win in one game: ``1/k`` to each of the ``k`` sides that won, 0 to the others."""
    won = [i for i, members in enumerate(sides.seats) if any(seat in result.winners for seat in members)]
    shares = [0.0] * len(sides.seats)
    for i in won:
        shares[i] = 1 / len(won)
    return shares


def advantage_test(sole_wins: Sequence[int], word: str = "seat", first: str = "0") -> dict[str, Any]:
    """Is any side favoured? The games one side won alone, their wins per side against equal shares: an exact
    binomial test for two sides, Pearson's chi-square for more."""
    n = sum(sole_wins)
    count = len(sole_wins)
    if count == 2:
        return {"test": f"exact binomial ({word} {first} against 1/2)", "games": n,
                "p_value": binomial_two_sided(sole_wins[0], n)}
    expected = n / count if count else 0
    statistic = sum((w - expected) ** 2 / expected for w in sole_wins) if expected else 0.0
    return {"test": f"chi-square against equal shares ({count - 1} degrees of freedom)", "games": n,
            "statistic": statistic, "p_value": chi_square_p(statistic, count - 1) if expected else 1.0}


def side_summary(results: Sequence[GameResult], sides: Sides) -> dict[str, Any]:
    """Per side: its win share with a 95% interval; the side-advantage test; the first side's advantage (its
    share minus 1/sides, in points) with its interval."""
    count = len(sides.seats)
    games = len(results)
    shares = [side_shares(r, sides) for r in results]
    rows = []
    for i, name in enumerate(sides.names):
        wins = sum(share[i] for share in shares)
        low, high = wilson_interval(wins, games)
        rows.append({"side": name, "seats": list(sides.seats[i]), "wins": wins, "games": games,
                     "win_rate": wins / games if games else 0.0, "ci95_low": low, "ci95_high": high})
    out: dict[str, Any] = {"word": sides.word, "teams": sides.teams, "rows": rows}
    if count > 1:
        sole = [sum(1 for share in shares if share[i] == 1.0) for i in range(count)]
        first = sides.names[0].split()[-1]
        out["test"] = advantage_test(sole, sides.word, first)
        mean, low, high = mean_interval([100 * (share[0] - 1 / count) for share in shares])
        out["first_advantage"] = {"value": mean, "ci95_low": low, "ci95_high": high}
    return out


def mean_p(values: Sequence[float]) -> float:
    """Two-sided p-value of a mean of ``values`` being 0 (a normal test: runs of many games)."""
    if len(values) < 2:
        return 1.0
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    return normal_two_sided(mean / (sd / math.sqrt(len(values))))
