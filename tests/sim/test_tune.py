"""divedeck tune: targets, their miss, and successive halving finding a variant that meets them."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.engine.errors import ConfigError
from divedeck.sim import tune


def test_targets_are_values_or_ranges_and_miss_in_their_own_units() -> None:
    band = tune.parse_target("minutes=10..15")
    assert band.miss(12) == 0 and band.miss(20) == pytest.approx(1.0) and band.miss(7.5) == pytest.approx(0.5)
    assert band.miss_bounds(8, 11) == (0.0, pytest.approx(0.4))
    point = tune.parse_target("first_seat_advantage=0")
    assert point.miss(2) == pytest.approx(2.0)
    for bad in ("minutes", "minutes=a", "minutes=5..1"):
        with pytest.raises(ConfigError):
            tune.parse_target(bad)


def test_tuning_finds_a_variant_that_meets_the_target(tmp_path) -> None:
    out = tmp_path / "t.html"
    # Rounds per game grow with the target score: only a low target gives games of 1 to 2 rounds.
    done = CliRunner().invoke(app, ["tune", "snorkeling", "--vary", "target_score=2..30", "--points", "4",
                                    "--target", "rounds=1..2", "--games", "20", "--budget", "300", "--seats",
                                    "greedy,greedy", "--workers", "1", "--out", str(out)])
    assert done.exit_code == 0, done.output
    built = json.loads(out.with_suffix(".json").read_text())
    assert built["best"] == "target_score=2"
    assert built["candidates"][0]["variant"] == "target_score=2" and built["candidates"][0]["meets"]
    assert built["games_played"] <= 300
    assert any(c["dropped_after"] for c in built["candidates"])  # the far ones stopped early
    assert "tuning toward rounds=1..2" in out.read_text()


def test_an_unknown_target_names_the_quantities(tmp_path) -> None:
    done = CliRunner().invoke(app, ["tune", "snorkeling", "--vary", "target_score=5,10", "--target", "fun=1",
                                    "--games", "10", "--budget", "40", "--seats", "random,random", "--workers", "1",
                                    "--out", str(tmp_path / "t.html")])
    assert done.exit_code != 0 and "first_seat_advantage" in str(done.exception)


def test_every_quantity_the_report_lists_is_a_target_with_one_syntax() -> None:
    """Issue 25 item 6: names holding '=' (an ending) parse, and the names of what happened in none of the games
    yet (a card nobody played, an ending nobody reached) are listed and count 0 per game."""
    ending = tune.parse_target("ending=distance=0.1..0.2")
    assert (ending.name, ending.low, ending.high) == ("ending=distance", 0.1, 0.2)
    assert tune.parse_target("first_seat_advantage=-2..2").low == -2
    spec = tune._spec("hold-your-breath", ("greedy",) * 3, {"num_players": 3}, 0, False)
    results = [tune.GameResult(0, ("greedy",) * 3, (0,), (1.0, 2.0, 3.0), 10,
                               {"turns": 5, "metrics": {"ending": "surfaced", "played": [{}, {}, {}]}})]
    candidate = tune.Candidate({"deck.panic": "4"}, {"num_players": 3}, results)
    targets = [tune.parse_target("ending=distance=0..0.2"), tune.parse_target("played.panic=2..3")]
    evaluated = tune.evaluate(candidate, "hold-your-breath", spec.bots, targets, False)
    assert [q["value"] for q in evaluated["quantities"]] == [0.0, 0.0]
    assert evaluated["quantities"][0]["ci95_high"] > 0  # one game: an honest interval, not a certain 0
    with pytest.raises(ConfigError) as error:
        tune.evaluate(candidate, "hold-your-breath", spec.bots, [tune.parse_target("fun=1")], False)
    assert "played.KIND" in str(error.value) and "ending=ENDING" in str(error.value)


def test_variants_whose_games_are_identical_are_detected_and_stop(tmp_path) -> None:
    """Issue 25 item 7: HYB-C2's board depth beyond where greedy divers ever reach changes nothing; the tuner says
    so after the first round instead of spending its budget on copies."""
    out = tmp_path / "t.html"
    done = CliRunner().invoke(app, ["tune", "hold-your-breath", "--vary", "max_depth=100..200", "--points", "3",
                                    "--target", "first_seat_advantage=-2..2", "--games", "12", "--budget", "200",
                                    "--seats", "greedy,greedy,greedy", "--workers", "1", "--out", str(out)])
    assert done.exit_code == 0, done.output
    built = json.loads(out.with_suffix(".json").read_text())
    assert sorted(built["identical"]) == [["max_depth=150", "max_depth=100"], ["max_depth=200", "max_depth=100"]]
    assert built["games_played"] == 12 * 3  # the copies played one round, then stopped
    assert "played the same 12 games as max_depth=100" in done.output
    assert "max_depth=150 played exactly the same games as max_depth=100" in out.read_text()


def evaluation(variant: str, miss: float, low: float, high: float) -> dict:
    measured = {"name": "first_seat_advantage", "label": "", "unit": "points", "value": 2 + miss,
                "ci95_low": 2 + low, "ci95_high": 2 + high, "games": 100}
    return {"variant": variant, "games": 100, "rounds": 1, "dropped_after": None, "quantities": [measured],
            "miss": miss,
            "miss_best": low, "miss_worst": high, "meets": miss == 0, "surely_meets": high == 0, "same_as": None}


def test_no_candidate_is_called_best_when_another_ones_intervals_reach_it() -> None:
    """Issue 25 item 7: deck.panic=8 was 'best' on noise, its interval overlapping the next ones."""
    target = tune.parse_target("first_seat_advantage=-2..2")
    overlapping = [evaluation("deck.panic=8", 0.0, 0.0, 2.0), evaluation("deck.panic=6", 0.3, 0.0, 2.5),
                   evaluation("deck.panic=2", 3.0, 2.5, 4.0)]
    built = tune.build("hold-your-breath", ["greedy"] * 3, {}, "greedy", ["deck.panic=2..8"], [target],
                       overlapping, 0, 100, 1000, 4)
    [line] = tune.best_lines(built)
    assert built["best_tied_with"] == ["deck.panic=6"]
    assert "not shown better than deck.panic=6" in line and "Best candidate" not in line
    clear = [evaluation("deck.panic=8", 0.0, 0.0, 0.5), evaluation("deck.panic=2", 3.0, 2.5, 4.0)]
    built = tune.build("hold-your-breath", ["greedy"] * 3, {}, "greedy", ["deck.panic=2..8"], [target], clear, 0,
                       100, 1000, 4)
    assert tune.best_lines(built) == ["Best candidate meeting every target: deck.panic=8; no other candidate's "
                                      "intervals come as near."]
