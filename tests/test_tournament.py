"""divedeck tournament: seat-rotated lineups, ratings, head-to-head rates, timings, JSON, end to end on tiny runs."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from typer.testing import CliRunner

from divedeck import cli
from divedeck.bots import levels as levels_module
from divedeck.engine import ConfigError
from divedeck.sim import tournament
from divedeck.sim.stats import wilson_interval


def test_every_bot_plays_every_seat_equally_and_rotations_share_a_deal() -> None:
    spec = tournament.make_spec("snorkeling", ["easy", "medium", "random"], {"num_players": 2}, seed=3)
    assert spec.players == 2 and spec.round_size() == 6
    seats: Counter[tuple[str, int]] = Counter()
    deals: dict[int, set[tuple[str, ...]]] = {}
    for index in range(12):
        seating, deal = spec.seating(index)
        for seat, name in enumerate(seating):
            seats[name, seat] += 1
        deals.setdefault(deal, set()).add(tuple(sorted(seating)))
    assert set(seats.values()) == {4}  # 3 bots x 2 seats, 4 games each in 2 rounds
    assert all(len(lineups) == 1 for lineups in deals.values()) and len(deals) == 6
    four = tournament.make_spec("snorkeling", ["easy", "medium"], {}, seed=0)
    assert four.players == 4 and four.lineups() == [("easy", "medium", "easy", "medium")]
    assert tournament.games_to_play(four, 5) == 8


def test_a_tournament_needs_two_known_bots() -> None:
    with pytest.raises(ConfigError, match="two different bots"):
        tournament.make_spec("snorkeling", ["easy", "easy"], {})
    with pytest.raises(ConfigError, match="nope"):
        tournament.make_spec("snorkeling", ["easy", "nope"], {})


def test_results_are_the_same_whatever_the_number_of_workers() -> None:
    spec = tournament.make_spec("snorkeling", ["easy", "medium"], {"num_players": 3}, seed=5)
    alone = tournament.run(spec, 3, workers=1)
    shared = tournament.run(spec, 3, workers=2)
    assert [(r.seating, r.winners, r.scores) for r in alone] == [(r.seating, r.winners, r.scores) for r in shared]


def test_summary_ratings_pairs_and_timing() -> None:
    spec = tournament.make_spec("snorkeling", ["random", "medium"], {"num_players": 2}, seed=1)
    results = tournament.run(spec, 4, workers=1)
    summary = tournament.summarize(spec, results)
    assert summary["games"] == 4
    pairs = {(row["bot"], row["opponent"]): row for row in summary["pairwise"]}
    forward, backward = pairs["random", "medium"], pairs["medium", "random"]
    assert forward["games"] == backward["games"] == 4
    assert forward["win_rate"] + backward["win_rate"] == pytest.approx(1.0)
    assert 0 <= forward["ci95_low"] <= forward["win_rate"] <= forward["ci95_high"] <= 1
    for name in ("random", "medium"):
        rating = summary["ratings"][name]
        assert rating["ci95_low"] < rating["mu"] < rating["ci95_high"]
        assert summary["timing"][name]["decisions"] > 0
        assert summary["timing"][name]["p50_ms"] <= summary["timing"][name]["p95_ms"]
    assert wilson_interval(2.5, 5) == pytest.approx(wilson_interval(5, 10), abs=0.15)


def test_the_tournament_command_runs_end_to_end_and_writes_json(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels_module, "HARD_SECONDS", None)
    monkeypatch.setattr(levels_module, "ITERATIONS_OVERRIDE", 8)
    path = tmp_path / "t.json"
    result = CliRunner().invoke(cli.app, ["tournament", "snorkeling", "--bots", "easy,hard", "--games", "2",
                                          "--workers", "1", "-o", "num_players=2", "-o", "target_score=4",
                                          "--seed", "4", "--json", str(path)])
    assert result.exit_code == 0, result.output
    assert "Ratings" in result.output and "Head to head" in result.output and "hard" in result.output
    data = json.loads(path.read_text())
    assert data["games"] == 2 and len(data["results"]) == 2
    assert set(data["ratings"]) == {"easy", "hard"}
    assert all({"mu", "sigma", "ci95_low", "ci95_high"} <= set(r) for r in data["ratings"].values())
    hard = data["timing"]["hard"]
    assert hard["searches"] > 0 and hard["iterations_per_second"] > 0 and hard["stopped"]


def test_the_tournament_command_reports_a_bad_bot() -> None:
    result = CliRunner().invoke(cli.app, ["tournament", "snorkeling", "--bots", "easy,nope", "--games", "2"])
    assert result.exit_code != 0
    assert isinstance(result.exception, ConfigError)


@pytest.mark.parametrize("args", [["bermuda", "--bots", "diver,slow-diver"],
                                  ["hold-your-hat", "--bots", "team,random"]])
def test_real_time_games_play_tournaments_on_the_simulated_clock(args: list[str]) -> None:
    """These crashed when tournaments had a turn-based loop of their own ('DiverBot' object has no attribute
    'choose'; 'Cannot choose from an empty sequence'): they now run on the simulator's loop."""
    result = CliRunner().invoke(cli.app, ["tournament", *args, "--games", "2", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "Ratings" in result.output and "Head to head" in result.output


def test_a_tournament_times_a_real_time_bots_plans() -> None:
    spec = tournament.make_spec("bermuda", ["diver", "fast-diver"], {"num_players": 2}, seed=2)
    results = tournament.run(spec, 2, workers=1)
    timing = tournament.summarize(spec, results)["timing"]
    assert timing["diver"]["decisions"] > 0 and timing["fast-diver"]["decisions"] > 0


def test_a_tournament_refuses_a_game_of_one_seat_in_one_line() -> None:
    with pytest.raises(ConfigError, match="has one seat") as refused:
        tournament.make_spec("bermuda", ["diver", "slow-diver"], {"num_players": 1})
    assert "\n" not in str(refused.value)
