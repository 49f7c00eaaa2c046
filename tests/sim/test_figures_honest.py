"""Issue 25 items 8 and 13: figures that do not mislead (a 0/1 share as one estimate, counts in whole-number
bins, dots where bars from 0 would hide a difference, what everyone used left out, typed JSON, one default for
the seats) and sweeps read as curves. Each test fails on the code before the fix."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.sim import GameResult, SimulationSpec, sweep
from divedeck.sim import figures as fig
from divedeck.sim import report as rp


def snorkeling(index: int, first_share: float) -> GameResult:
    return GameResult(index, ("greedy",) * 4, (index % 4,), (1.0,) * 4, 100,
                      {"rounds": 3, "turns": 30, "metrics": {"beached": [0] * 4, "round_endings": {"target": 3},
                                                             "first_player_share": first_share}})


def test_a_per_game_share_is_one_estimate_with_its_interval_not_a_histogram_of_0s_and_1s() -> None:
    """SNK-R2's starter: first_player_share is 0 or 1 a game; drawn as a histogram it ran from -0.5 to 1.5."""
    spec = SimulationSpec("snorkeling", ("greedy",) * 4, measure=True)
    built = rp.build(spec, [snorkeling(i, float(i % 4 == 0)) for i in range(20)], {})
    [figure] = [f for f in built["figures"] if f["id"] == "first_player_share"]
    assert figure["kind"] == "bars" and figure["series"][0]["values"] == [25.0]
    assert figure["reference"] == 25.0  # a seat's win share, beside an equal share (on a fitted axis, it had none)
    share = next(q for q in built["quantities"] if q["name"] == "first_player_share")
    assert 0 <= share["ci95_low"] < share["value"] < share["ci95_high"] <= 1 and share["trials"] == 20


def test_counts_over_a_wide_range_fall_in_bins_of_whole_numbers() -> None:
    counts = rp.histogram([float(v) for v in range(100, 400)])
    widths = {round(b - a, 9) for a, b in zip(counts["edges"], counts["edges"][1:], strict=False)}
    assert widths == {10.0} and counts["edges"][0] == 99.5 and counts["discrete"]
    assert set(counts["counts"]) == {10}  # every bin holds as many whole numbers as the next


def test_estimates_far_from_zero_are_dots_on_a_fitted_axis_not_bars_from_zero() -> None:
    close = [{"values": [153.0, 155.0], "low": [150.0, 152.0], "high": [156.0, 158.0]}]
    assert fig.far_from_zero(close)
    assert not fig.far_from_zero([{"values": [2.0, 30.0], "low": [1.0, 25.0], "high": [3.0, 35.0]}])
    def patches(series: list[dict[str, Any]]) -> int:
        drawn = rp.draw({"id": "x", "kind": "bars", "title": "", "ylabel": "", "labels": ["a", "b"],
                         "series": [{"name": "", **series[0]}], "reference": None})
        return drawn.count('id="patch_')

    assert patches(close) + 2 == patches([{"values": [2.0, 30.0], "low": [1.0, 25.0], "high": [3.0, 35.0]}])


def hyb(index: int) -> GameResult:
    played = [{"air": 3, "panic": 1 if seat == 0 else 0} for seat in range(3)]
    return GameResult(index, ("greedy",) * 3, (index % 3,), (1.0,) * 3, 50,
                      {"turns": 10, "metrics": {"played": played, "ending": "surfaced_first"}})


def test_a_card_everyone_played_gets_no_win_share_bar_and_the_figure_says_why() -> None:
    spec = SimulationSpec("hold-your-breath", ("greedy",) * 3, {"num_players": 3}, measure=True)
    built = rp.build(spec, [hyb(i) for i in range(12)], {"num_players": 3})
    [wins] = [f for f in built["figures"] if f["id"] == "played_wins"]
    assert wins["labels"] == ["panic"] and "not drawn: air" in wins["title"]


def test_the_reproduce_table_names_the_default_data_once() -> None:
    spec = SimulationSpec("hold-your-breath", ("greedy",) * 3, {"num_players": 3}, measure=True)
    page = rp.render_html(rp.build(spec, [hyb(i) for i in range(3)], {"num_players": 3}))
    assert "((default))" not in page and "deck.toml (the game&#x27;s default data)" in page


def sweep_data(values: list[Any]) -> dict[str, Any]:
    cell = {"value": 0.5, "ci95_low": 0.4, "ci95_high": 0.6}
    return {"game": "hold-your-breath", "variants": [{"name": f"deck.panic={v}", "variant": {"deck.panic": v}}
                                                     for v in values],
            "quantities": [{"name": "minutes", "label": "minutes", "unit": "min", "group": "length",
                            "variants": [cell] * len(values)}]}


def test_a_sweep_of_one_number_draws_curves_against_it_and_its_json_keeps_numbers() -> None:
    assert sweep.json_value("8") == 8 and sweep.json_value("true") is True and sweep.json_value("x") == "x"
    [curve] = sweep.sweep_figures(sweep_data([2, 4, 6]))
    assert curve["kind"] == "curves" and curve["x"] == [2.0, 4.0, 6.0] and curve["xlabel"] == "deck.panic"
    assert "<svg" in rp.draw(curve)
    [bars] = sweep.sweep_figures(sweep_data(["owner_choice", "random", "x"]))
    assert bars["kind"] == "bars"


def test_simulate_seats_default_to_the_medium_level_as_report_sweep_and_tune() -> None:
    done = CliRunner().invoke(app, ["simulate", "snorkeling", "--games", "2", "--workers", "1", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["bots"] == ["medium"] * 4


def test_means_on_a_grid_get_one_bin_per_grid_point_not_spikes_where_two_share_a_bin() -> None:
    """Hold Your Breath!'s Descent depth, the mean of four anchors at 5 ft steps, lies on a 1.25 ft grid; in 30
    equal bins from 6.25 to 48.75 some bins held two grid points and drew spikes twice their neighbours' height."""
    values = [1.25 * (5 + i % 35) for i in range(350)]  # every grid point from 6.25 to 48.75, ten times
    counts = rp.histogram(values)
    widths = {round(b - a, 9) for a, b in zip(counts["edges"], counts["edges"][1:], strict=False)}
    assert widths == {1.25} and counts["discrete"]
    assert set(counts["counts"]) == {10}


def test_a_length_that_is_the_same_in_every_game_says_so_and_is_not_one_bar_filling_the_axis() -> None:
    """Bermuda plays five rounds in every game: its 'rounds per game' was one bar from 4.6 to 5.4, an axis that
    looked like a spread of values."""
    svg = rp.draw({"id": "length", "kind": "histograms", "title": "Game length",
                   "panels": [{"title": "rounds per game", "series": [{"name": "", "hist": rp.histogram([5.0] * 9)}]}]})
    assert "rounds per game: 5 in every game" in svg


def test_in_a_team_game_a_players_win_share_is_their_teams_beside_an_equal_share_of_teams() -> None:
    """Hold your Hat's 'win share of the players who used each' counted half a win to each seat of the winning
    team and drew 1/seats (25%) as the line, beside the impact table's team shares against 50%."""
    played = [{"raid": 1}, {}, {"binoculars": 1}, {}]
    games = [GameResult(i, ("words",) * 4, (0, 1) if i % 2 else (2, 3), (1.0,) * 4, 100,
                        {"turns": 10, "metrics": {"played": played, "ending": "highest_total"}}) for i in range(20)]
    built = rp.build(SimulationSpec("hold-your-hat", ("words",) * 4, measure=True), games, {})
    shares = {q["name"]: q["value"] for q in built["quantities"]}
    assert shares["played.raid.win"] == 0.5 and shares["played.binoculars.win"] == 0.5  # half the games each
    [figure] = [f for f in built["figures"] if f["id"] == "played_wins"]
    assert figure["reference"] == 50.0
