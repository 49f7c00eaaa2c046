"""What a designer's report measures in a game of Bermuda (``divedeck report bermuda``): treasures won against
the Keeper's protection, by round and by depth, and the team's win rate by how fast it lays and how long it holds
its breath."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.declaration import Metric, MetricKind, Metrics, Pace
from .events import DiveStarted, Laid, LayoutEnded, RoundEnded


def measure(state: Any, outcome: Any, events: Sequence[Any]) -> dict[str, Any]:
    won_by_round: dict[str, int] = {}
    protection_by_round: dict[str, int] = {}
    by_depth: dict[str, list[int]] = {}
    dives: list[float] = []
    gaps: list[float] = []
    last_lay: dict[int, int] = {}
    started: int | None = None
    won = protection = 0
    for event in events:
        kind = type(event)
        if kind is Laid:
            if event.seat in last_lay:
                gaps.append((event.t - last_lay[event.seat]) / 1000)
            last_lay[event.seat] = event.t
        elif kind is DiveStarted:
            started = event.t
            last_lay.clear()
        elif kind is RoundEnded or kind is LayoutEnded:
            if started is not None:
                dives.append((event.t - started) / 1000)
                started = None
            for column in event.columns:
                tally = by_depth.setdefault(str(column["depth"]), [0, 0])
                tally[0] += column["won"]
                tally[1] += 1
            if kind is RoundEnded:  # its totals are the game's so far: this round's part is the difference
                won_by_round[str(event.round)] = event.won - won
                protection_by_round[str(event.round)] = event.protection - protection
                won, protection = event.won, event.protection
    treasures = outcome.details.get("treasures", 0)
    return {
        "treasures": treasures,
        "protection": outcome.details.get("protection", 0),
        "margin": treasures - outcome.details.get("protection", 0),
        "won_by_round": won_by_round,
        "protection_by_round": protection_by_round,
        "won_by_depth": by_depth,
        "breath_s": sum(dives) / len(dives) if dives else 0.0,
        "lay_gap_s": sum(gaps) / len(gaps) if gaps else 0.0,
    }


METRICS = Metrics(
    measure=measure,
    declared=(
        Metric("treasures", "treasures won (W)", unit="treasures"),
        Metric("protection", "the Keeper's protection (P)", unit="treasures"),
        Metric("margin", "treasures won minus protection (the team wins at 0 or more)", unit="treasures"),
        Metric("won_by_round", "treasures won by round", MetricKind.GROUPED, "treasures", figure="by_round"),
        Metric("protection_by_round", "protection by round", MetricKind.GROUPED, "treasures", figure="by_round"),
        Metric("won_by_depth", "share of columns won by the treasure's depth", MetricKind.GROUPED_RATE),
        Metric("breath_s", "breath length: the mean dive, in seconds", unit="s", win_by=True),
        Metric("lay_gap_s", "pace: seconds between a diver's lays in a dive", unit="s", win_by=True),
    ),
    # Real time: the simulated clock runs at the bots' human pace; a round's reveal and count take about 20 s.
    pace=Pace(round=20.0, game=60.0),
    cooperative=True,
)
