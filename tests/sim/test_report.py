"""divedeck report: the per-game metrics each game declares, the statistics, the listed defects of the simulate
summary (each test fails on the code before the fix), and a report that reproduces byte for byte."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

import pytest
from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.engine import get_game
from divedeck.engine.declaration import MetricKind
from divedeck.engine.registry import game_names
from divedeck.sim import GameResult, SimulationSpec, simulate, summarize
from divedeck.sim import report as rp
from divedeck.sim.stats import (
    binomial_two_sided,
    chi_square_p,
    holm,
    seat_advantage_test,
    welch_p,
    wilson_interval,
)

FEW = {"snorkeling": ("greedy", "random", "random"), "hold-your-breath": ("greedy", "greedy", "random"),
       "bermuda": ("diver", "diver"), "hold-your-hat": ("medium",) * 4}


def result(index: int, winners: tuple[int, ...], seats: int = 2, seating: tuple[str, ...] = ("a", "b")) -> GameResult:
    return GameResult(index, seating, winners, (0.0,) * seats, 10, {})


# -- the listed defects ----------------------------------------------------------------------------------------------


def test_a_shared_win_counts_one_kth_to_each_winner_and_the_summary_says_so() -> None:
    spec = SimulationSpec("snorkeling", ("greedy", "random"))
    results = [result(0, (0, 1)), result(1, (0,)), result(2, (1,)), result(3, (0, 1))]
    summary = summarize(spec, results)
    rates = [row["win_rate"] for row in summary["seats"]]
    assert rates == [0.5, 0.5]  # not 0.75 each: the rates add up to the games won
    assert sum(rates) == pytest.approx(1.0)
    assert summary["shared_games"] == 2
    assert any("1/k" in note for note in summary["notes"])


def test_rotation_over_games_not_divisible_by_the_seats_is_not_called_seat_balanced() -> None:
    runner = CliRunner()
    uneven = runner.invoke(app, ["simulate", "snorkeling", "--games", "5", "--seats", "greedy,random", "--rotate",
                                 "--workers", "1"])
    assert uneven.exit_code == 0, uneven.output
    assert "(seat-balanced)" not in uneven.output and "NOT seat-balanced" in uneven.output
    assert "use a multiple of 2 games" in uneven.output
    even = runner.invoke(app, ["simulate", "snorkeling", "--games", "4", "--seats", "greedy,random", "--rotate",
                               "--workers", "1", "--json"])
    assert json.loads(even.output)["seat_balanced"] is True


def test_a_cooperative_game_has_one_team_row_not_one_identical_row_per_seat() -> None:
    spec = SimulationSpec("bermuda", ("fast-diver",) * 3, {"num_players": 3})
    summary = summarize(spec, simulate(spec, 2, workers=1))
    assert len(summary["seats"]) == 1 and summary["seats"][0]["seat"] == "team"
    assert summary["cooperative"] is True
    printed = CliRunner().invoke(app, ["simulate", "bermuda", "--games", "2", "--workers", "1",
                                       "--seats", "fast-diver,fast-diver,fast-diver"])
    assert printed.exit_code == 0, printed.output
    assert "Per seat" not in printed.output and "The team" in printed.output
    assert printed.output.count("fast-diver x3") == 1


# -- statistics -----------------------------------------------------------------------------------------------------


def test_the_tests_match_reference_values() -> None:
    # scipy.stats.binomtest(60, 100).pvalue, chi2.sf(3.2, 3), chi2.sf(40, 5)
    assert binomial_two_sided(60, 100) == pytest.approx(0.056887933640981, rel=1e-9)
    assert binomial_two_sided(50, 100) == pytest.approx(1.0)
    assert chi_square_p(3.2, 3) == pytest.approx(0.36180502749753174, rel=1e-9)
    assert chi_square_p(40, 5) == pytest.approx(1.493367900050393e-07, rel=1e-9)
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert welch_p([1, 2, 3, 4] * 50, [1, 2, 3, 4] * 50) == pytest.approx(1.0)
    assert welch_p([1, 2] * 100, [3, 4] * 100) < 1e-6
    low, high = wilson_interval(30, 100)
    assert low < 0.3 < high


def test_seat_advantage_is_a_binomial_test_for_two_seats_and_a_chi_square_for_more() -> None:
    two = seat_advantage_test([60, 40])
    assert "binomial" in two["test"] and two["p_value"] == pytest.approx(binomial_two_sided(60, 100))
    four = seat_advantage_test([25, 25, 25, 25])
    assert "chi-square" in four["test"] and four["p_value"] == pytest.approx(1.0)
    assert seat_advantage_test([40, 20, 20, 20])["p_value"] < 0.01


# -- per-game metrics: declared by each game, measured in its games ------------------------------------------------


@pytest.mark.parametrize("name", game_names())
def test_every_game_declares_metrics_and_each_is_measured(name: str) -> None:
    game = get_game(name)
    assert game.metrics is not None and game.metrics.declared
    bots = FEW[name]
    spec = SimulationSpec(name, bots, {"num_players": len(bots)}, 3, measure=True)
    results = simulate(spec, 2, workers=1)
    for r in results:
        measured = r.details["metrics"]
        assert "ending" in measured
        assert {m.name for m in game.metrics.declared} <= set(measured)
        for m in game.metrics.declared:
            if m.kind in (MetricKind.PER_SEAT, MetricKind.PLAYED):
                assert len(measured[m.name]) == len(bots)
    # The metrics ride along: the game itself is the same as without them.
    plain = simulate(SimulationSpec(name, bots, {"num_players": len(bots)}, 3), 2, workers=1)
    assert [(r.winners, r.scores, r.decisions) for r in plain] == [(r.winners, r.scores, r.decisions) for r in results]
    built = rp.build(spec, results, {"num_players": len(bots)})
    assert built["figures"] and all(q["name"] for q in built["quantities"])
    assert any(q["name"] == "minutes" and q["value"] > 0 for q in built["quantities"])


def test_the_report_records_the_default_data_files_with_their_sha256() -> None:
    files = rp.data_files("hold-your-breath", {})
    text = resources.files("divedeck.games.hold_your_breath").joinpath("data/deck.toml").read_bytes()
    assert {"option": "(default)", "file": "hold_your_breath/data/deck.toml",
            "sha256": hashlib.sha256(text).hexdigest()} in files


def test_a_report_reproduces_byte_for_byte_and_needs_no_network(tmp_path) -> None:
    runner = CliRunner()
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        done = runner.invoke(app, ["report", "hold-your-breath", "--games", "40", "--seed", "5", "--workers", "1",
                                   "--seats", "greedy,greedy,random", "--out", str(tmp_path / folder / "r.html")])
        assert done.exit_code == 0, done.output
    for suffix in ("html", "json", "csv"):
        assert (tmp_path / "a" / f"r.{suffix}").read_bytes() == (tmp_path / "b" / f"r.{suffix}").read_bytes()
    page = (tmp_path / "a" / "r.html").read_text()
    assert page.count("<svg") >= 8 and "<script" not in page and "<link" not in page
    assert "src=\"http" not in page and "url(http" not in page
    assert str(tmp_path) not in page
    assert "sha256" in page and "seed 5" in page and "divedeck 0.1.0" in page
    built = json.loads((tmp_path / "a" / "r.json").read_text())
    assert built["options"] == {"num_players": 3} and built["options_text"] == "num_players=3"
    assert {f["id"] for f in built["figures"]} >= {"win_by_seat", "length", "scores", "played_uses", "played_wins"}
    rows = (tmp_path / "a" / "r.csv").read_text().splitlines()
    assert len(rows) == 41 and rows[0].startswith("game,seating,winners,decisions")
