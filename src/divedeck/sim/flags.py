"""A report's red flags and its headline numbers: what a designer must see before any figure.

Red flags: games that stall or hit a cap (the groups a game's metric declares as such, ``Metric.stalls``), a win
rate near 0% or 100%, a seat or team winning more than chance allows where the bots cannot explain it (the same bot
in every seat, or the bots rotated), a failed symmetry check, and the starting side's own edge when it is beyond
chance. Each is one sentence with its numbers.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from ..engine.declaration import MetricKind, Metrics
from .runner import GameResult, SimulationSpec
from .symmetry import ALPHA

NEAR_CERTAIN = 0.95  # a side that wins more often than this (or less than 1 - this, for one team) is flagged


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def stall_flags(metrics: Metrics, results: Sequence[GameResult], minutes: Sequence[float]) -> list[str]:
    """Games with a stall or a cap, by the game's declared metrics: how many, and how long they last."""
    flags = []
    for metric in metrics.declared:
        if metric.kind is not MetricKind.GROUPED or not metric.stalls:
            continue
        hit = [any((r.details.get("metrics", {}).get(metric.name) or {}).get(g, 0) for g in metric.stalls)
               for r in results]
        count = sum(hit)
        if not count:
            continue
        with_stall = [m for m, h in zip(minutes, hit, strict=True) if h]
        rest = [m for m, h in zip(minutes, hit, strict=True) if not h]
        lasting = (f"those games last {statistics.fmean(with_stall):.1f} estimated minutes on average"
                   + (f", the others {statistics.fmean(rest):.1f}" if rest else ""))
        flags.append(f"{_pct(count / len(results))} of games ({count} of {len(results)}) had "
                     f"{' or '.join(metric.stalls)} (in \u201c{metric.label}\u201d): a stall or a cap, not the end "
                     f"the rules intend; {lasting}. How games end counts only the rule that decided the game.")
    return flags


def _same_bots(spec: SimulationSpec) -> bool:
    return len(set(spec.bots)) == 1 or spec.rotate


def win_flags(spec: SimulationSpec, summary: dict[str, Any], cooperative: bool) -> list[str]:
    """A win rate near 0% or 100%, and a side winning more than chance allows with bots that cannot explain it."""
    flags = []
    if cooperative:
        row = summary["seats"][0]
        if not 1 - NEAR_CERTAIN <= row["win_rate"] <= NEAR_CERTAIN:
            flags.append(f"The team wins {_pct(row['win_rate'])} of games ({_pct(row['ci95_low'])}-"
                         f"{_pct(row['ci95_high'])}): nearly {'every' if row['win_rate'] > 0.5 else 'no'} game.")
        return flags
    teams = summary.get("teams")
    rows = teams["rows"] if teams else [{**row, "side": f"seat {row['seat']}"} for row in summary["seats"]]
    for row in rows:
        if row["win_rate"] >= NEAR_CERTAIN:
            bot = f" ({row['bot']})" if "bot" in row and not _same_bots(spec) else ""
            flags.append(f"{row['side']}{bot} wins {_pct(row['win_rate'])} of games ({_pct(row['ci95_low'])}-"
                         f"{_pct(row['ci95_high'])}).")
    test = teams["test"] if teams else summary.get("seat_test")
    if test and _same_bots(spec) and test["p_value"] < ALPHA:
        word = "team" if teams else "seat"
        best = max(rows, key=lambda row: row["win_rate"])
        how = "the bots rotated" if spec.rotate else "the same bot in every seat"
        flags.append(f"A {word} advantage beyond chance with {how}: {best['side']} wins {_pct(best['win_rate'])} "
                     f"({test['test']}, p = {test['p_value']:.3g}). Who starts is fixed by the options: the "
                     "symmetry check tells the rules' edge for the starter from a bias of the bots or the simulator.")
    return flags


def symmetry_flags(check: dict[str, Any] | None) -> list[str]:
    if not check or not check.get("applies"):
        return []
    flags = []
    if not check["fair"]:
        flags.append(f"Symmetry check failed: {check['verdict']}.")
    starter = check.get("starter")
    if starter and starter["order_test"]["p_value"] < ALPHA:
        places = ", ".join(f"{100 * share:.1f}%" for share in starter["by_place"])
        flags.append(f"The turn order matters: win share by place after the starter, the starter first: {places} "
                     f"(p = {starter['order_test']['p_value']:.3g}; the rules' edge, not the bots').")
    if starter and starter["p_value"] < ALPHA:
        flags.append(f"Who starts matters: the starting {check['word']} wins {starter['value']:+.1f} points more than "
                     f"an equal share ({starter['ci95_low']:+.1f} to {starter['ci95_high']:+.1f}; p = "
                     f"{starter['p_value']:.3g}).")
    return flags


def ladder_flags(ladder: dict[str, Any] | None) -> list[str]:
    """A game where the better bots do no better: skill not shown (a finding a designer wants)."""
    gap = (ladder or {}).get("gap")
    if gap is None or gap["ci95_low"] > 0:
        return []
    levels = ladder["levels"] if ladder else []
    return [f"No skill shown: {levels[-1]} does no better than {levels[0]} (skill gap {gap['value']:+.1f} points, "
            f"{gap['ci95_low']:+.1f} to {gap['ci95_high']:+.1f})."]


def headline(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The five numbers a designer looks at first: who wins (the spread of win shares), the first side's edge,
    how long a game takes, how often the usual ending decides it, and how close games are."""
    from .report import quantity_text  # the report's one way to write a quantity

    by_name = {q["name"]: q for q in report["quantities"]}
    summary = report["summary"]
    out: list[tuple[str, str]] = []
    teams = summary.get("teams")
    if summary.get("cooperative"):
        row = summary["seats"][0]
        out.append(("the team's win rate", f"{_pct(row['win_rate'])} ({_pct(row['ci95_low'])}-"
                                           f"{_pct(row['ci95_high'])})"))
    else:
        rows = teams["rows"] if teams else summary["seats"]
        names = [row["side"] for row in teams["rows"]] if teams else [f"seat {row['seat']}" for row in rows]
        shares = ", ".join(f"{name} {_pct(row['win_rate'])}" for name, row in zip(names, rows, strict=True))
        out.append(("win share by team" if teams else "win share by seat", shares))
    for name in ("first_team_advantage", "first_seat_advantage"):
        if name in by_name:
            out.append((by_name[name]["label"], f"{quantity_text(by_name[name])} points"))
    out.append(("estimated minutes per game", quantity_text(by_name["minutes"])))
    endings = [q for q in report["quantities"] if q["name"].startswith("ending=")]
    if endings:
        top = max(endings, key=lambda q: q["value"])
        out.append((f"games ending {top['name'].partition('=')[2]}", quantity_text(top)))
    if "margin" in by_name:
        out.append((by_name["margin"]["label"], quantity_text(by_name["margin"])))
    elif "decisions" in by_name:
        out.append(("decisions per game", quantity_text(by_name["decisions"])))
    gap = report.get("ladder", {}).get("gap")
    out = out[:5]
    if gap is not None:
        out.append(("skill gap (the strongest level against the weakest)",
                    f"{gap['value']:+.1f} ({gap['ci95_low']:+.1f} to {gap['ci95_high']:+.1f}) points"))
    return out
