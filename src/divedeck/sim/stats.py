"""Summaries of simulated games: win shares with intervals, a test of seat advantage, game length, scores; and the
small statistics the designer's reports use (intervals, tests, the Holm correction), in plain Python.

A shared win counts ``1/k`` to each of its ``k`` winners, so the seats' win shares add up to the games won (100%
when every game has a winner); a cooperative game (``Metrics.cooperative``) has one team row instead of one
identical row per seat.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from ..engine.registry import get_game
from .runner import GameResult, SimulationSpec

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int | float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest near 0 and 1, unlike the normal approximation. ``successes``
    may hold shares of wins (a shared win)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p)) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal-approximation 95% interval (the runs here are hundreds of games or more)."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def normal_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def welch_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p-value of a difference of means (Welch's z: large samples, unequal variances)."""
    if len(a) < 2 or len(b) < 2:
        return 1.0
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    diff = statistics.fmean(a) - statistics.fmean(b)
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return normal_two_sided(diff / se)


def proportions_p(s1: float, n1: float, s2: float, n2: float) -> float:
    """Two-sided p-value of a difference of two proportions (pooled z-test)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (s1 + s2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    diff = s1 / n1 - s2 / n2
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return normal_two_sided(diff / se)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` for their number (family-wise error), in their order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def _upper_gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) (series below a + 1, continued fraction above)."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def chi_square_p(statistic: float, df: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``df`` degrees of freedom."""
    return _upper_gamma_q(df / 2, statistic / 2)


def binomial_two_sided(k: int, n: int, p: float = 0.5) -> float:
    """The exact two-sided binomial test: the chance of an outcome no likelier than ``k`` of ``n``."""
    if n == 0:
        return 1.0

    def log_pmf(i: int) -> float:
        return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p)
                + (n - i) * math.log1p(-p))

    observed = log_pmf(k)
    total = sum(math.exp(log_pmf(i)) for i in range(n + 1) if log_pmf(i) <= observed + 1e-9)
    return min(1.0, total)


def seat_advantage_test(sole_wins: Sequence[int]) -> dict[str, Any]:
    """Is any seat favoured? The games with one winner, their wins per seat against equal shares: an exact binomial
    test for two seats, Pearson's chi-square for more."""
    n = sum(sole_wins)
    seats = len(sole_wins)
    if seats == 2:
        return {"test": "exact binomial (seat 0 against 1/2)", "games": n,
                "p_value": binomial_two_sided(sole_wins[0], n)}
    expected = n / seats if seats else 0
    statistic = sum((w - expected) ** 2 / expected for w in sole_wins) if expected else 0.0
    return {"test": f"chi-square against equal shares ({seats - 1} degrees of freedom)", "games": n,
            "statistic": statistic, "p_value": chi_square_p(statistic, seats - 1) if expected else 1.0}


def distribution(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}
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




def _rate(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "win_rate": wins / games if games else 0.0, "ci95_low": low,
            "ci95_high": high}


def win_shares(result: GameResult, seats: int) -> list[float]:
    """Each seat's share of the win: ``1/k`` to each of ``k`` winners, 0 to the others."""
    shares = [0.0] * seats
    for seat in result.winners:
        shares[seat] += 1 / len(result.winners)
    return shares


def is_cooperative(game_name: str) -> bool:
    metrics = get_game(game_name).metrics
    return metrics is not None and metrics.cooperative


def summarize(spec: SimulationSpec, results: Sequence[GameResult]) -> dict[str, Any]:
    """Everything ``divedeck simulate`` prints, as plain JSON-safe data."""
    games = len(results)
    seats = len(spec.bots)
    shares = [win_shares(r, seats) for r in results]
    shared = sum(1 for r in results if len(r.winners) > 1)
    notes: list[str] = []
    cooperative = is_cooperative(spec.game)
    summary: dict[str, Any] = {
        "game": spec.game,
        "games": games,
        "seed": spec.seed,
        "options": spec.options,
        "bots": list(spec.bots),
        "rotate": spec.rotate,
        "cooperative": cooperative,
    }
    if cooperative:
        won = sum(1 for r in results if r.winners)
        summary["seats"] = [{"seat": "team", "bot": ",".join(spec.bots), **_rate(won, games),
                             "score": distribution([r.scores[0] for r in results])}]
        notes.append("A cooperative game: every seat shares the team's result, shown as one team row.")
    else:
        seat_rows = []
        for seat in range(seats):
            wins = sum(share[seat] for share in shares)
            row: dict[str, Any] = {"seat": seat, **_rate(wins, games),
                                   "shared": sum(1 for r in results if len(r.winners) > 1 and seat in r.winners),
                                   "score": distribution([r.scores[seat] for r in results])}
            if not spec.rotate:
                row["bot"] = spec.bots[seat]
            seat_rows.append(row)
        summary["seats"] = seat_rows
        from .sides import side_shares, side_summary, sides_of  # sides.py builds on this module's tests

        sides = sides_of(spec.game, spec.options, seats)
        if sides.teams:  # a team's seats win together: a shared victory is one that several teams share
            shared = sum(1 for r in results if sum(1 for share in side_shares(r, sides) if share) > 1)
        summary["shared_games"] = shared
        if shared:
            what = "teams" if sides.teams else "winners"
            notes.append(f"{shared} of {games} games had several {what}: a shared win counts 1/k to each of its k "
                         f"{what}, so the win rates add up to the games won.")
        if sides.teams:  # a team game is judged per team: no seat ever wins alone
            summary["teams"] = side_summary(results, sides)
        elif seats > 1:
            sole = [sum(1 for r in results if r.winners == (seat,)) for seat in range(seats)]
            summary["seat_test"] = seat_advantage_test(sole)
    summary["length"] = {"decisions": distribution([r.decisions for r in results])}
    for key in ("rounds", "turns", "seconds"):
        values = [r.details[key] for r in results if key in r.details]
        if len(values) == games and games:
            summary["length"][key] = distribution(values)
    if spec.rotate and not cooperative:
        balanced = games % seats == 0
        summary["seat_balanced"] = balanced
        if not balanced:
            notes.append(f"Per bot is not seat-balanced: {games} games do not split evenly over {seats} seats "
                         f"(some bots sat in the early seats once more); use a multiple of {seats} games.")
        bot_rows = []
        for name in dict.fromkeys(spec.bots):
            plays = [(i, seat) for i, r in enumerate(results) for seat, bot in enumerate(r.seating) if bot == name]
            wins = sum(shares[i][seat] for i, seat in plays)
            bot_rows.append({"bot": name, **_rate(wins, len(plays)),
                             "score": distribution([results[i].scores[seat] for i, seat in plays])})
        summary["bots_summary"] = bot_rows
    summary["notes"] = notes
    return summary
