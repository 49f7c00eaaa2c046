"""Simulated Bermuda games give exactly the recorded results (``bermuda_reference.json``, written by
``bermuda_reference.py``): the same outcomes, action counts and simulated lengths through the simulator, and the
same action logs, refused plans included, through the real-time driver fed the events as the simulator feeds it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from divedeck.sim.runner import SimulationSpec, simulate

from .bermuda_reference import FIXTURE, GAMES, action_log_digest, record

REFERENCE: list[dict[str, Any]] = json.loads(FIXTURE.read_text())
IDS = [f"{len(case['bots'])}p-seed{case['seed']}" for case in REFERENCE]


@pytest.mark.parametrize("case", REFERENCE, ids=IDS)
def test_the_same_seed_gives_the_recorded_outcomes_action_counts_and_logs(case: dict[str, Any]) -> None:
    assert record(case) == case["games"]


def test_the_recorded_logs_are_the_driver_loops_own() -> None:
    """The reference replays the simulator's loop (``play_realtime``): its action counts are the simulator's."""
    case = REFERENCE[0]
    for index, game in enumerate(case["games"]):
        assert action_log_digest(case, index)[0] == game["log"]
    results = simulate(SimulationSpec("bermuda", tuple(case["bots"]), case["options"], case["seed"]), GAMES, workers=1)
    assert [result.decisions for result in results] == [game["actions"] for game in case["games"]]


def test_two_workers_give_the_recorded_results() -> None:
    case = REFERENCE[0]
    spec = SimulationSpec("bermuda", tuple(case["bots"]), case["options"], case["seed"])
    results = simulate(spec, GAMES, workers=2)
    assert [(list(r.winners), r.decisions, r.details) for r in results] == [
        (game["winners"], game["actions"], game["details"]) for game in case["games"]]
