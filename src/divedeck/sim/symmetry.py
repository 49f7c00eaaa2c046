"""The symmetry check: identical bots in every seat, who starts rotated over the sides, many games. Where the
rules give no seat or team an edge, none may win more than chance allows; the edge the rules do give (who starts)
is measured on its own, as the starting side's share minus 1/sides.

Every side starts the same number of games, from the same game seeds (so each deal is played once per starter:
the starter's advantage is measured on the same deals). A game that declares no starting option
(``Metrics.starter_option``) is checked with its default start, and the result says so.
"""

from __future__ import annotations

from typing import Any

from ..engine.registry import get_game
from .runner import GameResult, SimulationSpec, simulate
from .sides import advantage_test, mean_p, side_shares, side_summary, sides_of
from .stats import mean_interval

ALPHA = 0.01  # a red flag, not a verdict: a designer looks when a run this size would show it by chance 1 in 100


def symmetry_check(game_name: str, options: dict[str, Any], bot: str, games: int, seed: int = 0,
                   workers: int | None = None) -> dict[str, Any]:
    """Play about ``games`` games of ``bot`` in every seat with the start rotated; JSON-safe results."""
    game = get_game(game_name)
    bots = (bot,) * game.num_players(game.make_config(options))
    metrics = game.metrics
    sides = sides_of(game_name, options, len(bots))
    count = len(sides.seats)
    out: dict[str, Any] = {"bot": bot, "asked": games, "seed": seed, "seats": len(bots), "word": sides.word,
                           "sides": list(sides.names)}
    if count < 2:
        out.update(games=0, applies=False,
                   verdict="a cooperative game: every seat shares one result, so no seat can be favoured")
        return out
    starter = metrics.starter_option if metrics is not None else None
    starts = list(range(count)) if starter else [None]
    per_start = max(1, games // len(starts))
    played: list[tuple[int | None, GameResult]] = []
    for start in starts:
        run_options: dict[str, Any] = dict(options)
        if start is not None and starter is not None:
            run_options[starter] = start
        spec = SimulationSpec(game_name, tuple(bots), run_options, seed)
        played += [(start, r) for r in simulate(spec, per_start, workers)]
    results = [r for _, r in played]
    summary = side_summary(results, sides)
    out.update(games=len(results), applies=True, starter_option=starter, rows=summary["rows"],
               position_test=summary["test"])
    if starter is not None:
        gains = [100 * (side_shares(r, sides)[start] - 1 / count) for start, r in played if start is not None]
        mean, low, high = mean_interval(gains)
        sole = [0] * count
        for start, r in played:
            shares = side_shares(r, sides)
            if 1.0 in shares:
                sole[(shares.index(1.0) - (start or 0)) % count] += 1  # counted from the starter round
        by_place = [0.0] * count
        for start, r in played:
            for side, share in enumerate(side_shares(r, sides)):
                by_place[(side - (start or 0)) % count] += share / len(played)
        out["starter"] = {"value": mean, "ci95_low": low, "ci95_high": high, "p_value": mean_p(gains),
                          "by_place": by_place, "order_test": advantage_test(sole, "place", "0")}
    p = out["position_test"]["p_value"]
    fair = p >= ALPHA
    out["fair"] = fair
    out["verdict"] = (f"no {sides.word} wins more than chance allows (p = {p:.3g})" if fair else
                      f"a {sides.word} wins more than chance allows with identical bots (p = {p:.3g}): the bots, the "
                      "simulator or the rules favour it")
    return out


def symmetry_lines(check: dict[str, Any]) -> list[str]:
    """The check in a few sentences, for a page or a terminal."""
    if not check.get("applies"):
        return [f"Symmetry check: {check['verdict']}."]
    rows = ", ".join(f"{row['side']} {100 * row['win_rate']:.1f}%" for row in check["rows"])
    lines = [f"Symmetry check ({check['games']} games, {check['bot']} in every seat"
             + (f", {check['starter_option']} rotated" if check.get("starter_option") else ", the default start")
             + f"): {rows}; {check['verdict']}."]
    starter = check.get("starter")
    if starter:
        lines.append(f"The starting {check['word']}'s advantage (its share minus 1/{len(check['rows'])}): "
                     f"{starter['value']:+.1f} points ({starter['ci95_low']:+.1f} to {starter['ci95_high']:+.1f}, "
                     f"p = {starter['p_value']:.3g}): the rules' own edge for who starts.")
        places = ", ".join(f"{100 * share:.1f}%" for share in starter["by_place"])
        lines.append(f"Win share by place in the turn order, the starter first: {places} (equal shares: p = "
                     f"{starter['order_test']['p_value']:.3g}).")
    return lines
