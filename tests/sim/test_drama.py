"""Issue 25 item 12: catch-up and drama from the standings a game declares: lead changes, the side last at
mid-game that wins, attacks on the leader (SNK: a card on another's pile; HYB: Panic, Shark, the Kraken)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from divedeck.engine.declaration import Metrics
from divedeck.sim import SimulationSpec, simulate
from divedeck.sim import report as rp
from divedeck.sim.drama import DramaRecorder


@dataclass
class Hit:
    target: int


def recorder(teams: Any = None) -> DramaRecorder:
    metrics = Metrics(measure=lambda *_: {}, standing=lambda state: state["standing"],
                      attacked=lambda event: (event.target,) if isinstance(event, Hit) else (), teams=teams)
    return DramaRecorder(metrics, None, 3 if teams is None else 4)


def test_lead_changes_the_last_at_mid_game_and_attacks_on_the_leader_are_counted() -> None:
    drama = recorder()
    drama.start({"standing": (0, 0, 0)})
    for standing, events in (((1, 0, 0), [Hit(1)]), ((1, 2, 0), [Hit(0)]), ((1, 2, 0), [Hit(1)]),
                             ((3, 2, 0), [Hit(2)]), ((3, 2, 5), [])):
        drama.after({"standing": standing}, events)
    result = drama.result((2,))
    assert result["lead_changes"] == 3  # 0, then 1, then 0, then 2
    assert result["last_at_half_won"] == 1.0  # seat 2 was last at (1, 2, 0) and won
    # The first hit came with everyone level: no lead to hit, not counted; then seat 0 led, seat 1, seat 1.
    assert (result["attacks"], result["on_leader"]) == (3, 2)
    assert result["leaders_share"] == pytest.approx(1.0)


def test_a_team_game_follows_the_teams_not_the_seats() -> None:
    drama = recorder(teams=lambda config: ((0, 1), (2, 3)))
    drama.start({"standing": (0, 0, 0, 0)})
    drama.after({"standing": (2, 2, 0, 0)}, [])
    drama.after({"standing": (2, 2, 3, 3)}, [])
    assert drama.result((2, 3))["lead_changes"] == 1


@pytest.mark.parametrize("game", ["snorkeling", "hold-your-breath"])
def test_a_report_measures_catch_up_and_attacks(game: str) -> None:
    spec = SimulationSpec(game, ("medium",) * 4, {}, 1, measure=True)
    measured = rp.quantities(spec, simulate(spec, 12, workers=1))
    assert measured["lead_changes"].estimate()[0] > 0
    assert measured["attacks_on_leader"].trials > 0
    assert 0 < measured["attacks_on_leader.chance"].estimate()[0] < 1
