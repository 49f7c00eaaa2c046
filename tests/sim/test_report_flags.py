"""Issue 25 items 3, 4, 5 and 14: per-game averages, red flags first, team games per team, the terminal summary.
Each test fails on the report before the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.sim import GameResult, SimulationSpec, flags, summarize
from divedeck.sim import report as rp


def snorkeling_game(index: int, winners: tuple[int, ...], endings: dict[str, int]) -> GameResult:
    metrics = {"beached": [0, 0, 0, 0], "round_endings": endings, "first_player_share": 0.0}
    return GameResult(index, ("greedy",) * 4, winners, (1.0,) * 4, 100 * sum(endings.values()),
                      {"rounds": sum(endings.values()), "turns": 10, "metrics": metrics})


def test_a_grouped_figure_counts_a_game_without_the_group_as_none_of_it() -> None:
    """SNK-R13: rounds ending by the turn cap, per game: 1 round in 1 of 4 games is 0.25 per game, not 1.0."""
    spec = SimulationSpec("snorkeling", ("greedy",) * 4, measure=True)
    results = [snorkeling_game(0, (0,), {"target": 3, "turn_cap": 1})] + [
        snorkeling_game(i, (i,), {"target": 3}) for i in range(1, 4)]
    measured = rp.quantities(spec, results)
    assert measured["round_endings.turn_cap"].estimate()[0] == pytest.approx(0.25)
    assert measured["round_endings.target"].estimate()[0] == pytest.approx(3.0)
    assert "per game" in measured["round_endings.turn_cap"].label


def test_stalls_and_caps_are_a_red_flag_with_how_long_those_games_last() -> None:
    spec = SimulationSpec("snorkeling", ("greedy",) * 4, measure=True)
    results = [snorkeling_game(0, (0,), {"target": 3, "turn_cap": 2})] + [
        snorkeling_game(i, (i % 4,), {"target": 3}) for i in range(1, 8)]
    built = rp.build(spec, results, {})
    [stall] = [flag for flag in built["red_flags"] if "turn_cap" in flag]
    assert "12.5% of games (1 of 8)" in stall and "minutes" in stall
    page = rp.render_html(built)
    assert page.index("Red flags") < page.index("Who wins")


def test_a_win_rate_near_100_percent_and_a_seat_winning_beyond_chance_are_red_flags() -> None:
    bermuda = SimulationSpec("bermuda", ("diver",) * 3, {"num_players": 3})
    won = [GameResult(i, ("diver",) * 3, (0, 1, 2), (5.0,) * 3, 10, {}) for i in range(40)]
    assert any("The team wins 100.0%" in flag for flag in flags.win_flags(bermuda, summarize(bermuda, won), True))
    same = SimulationSpec("snorkeling", ("greedy",) * 4)
    seat_zero = [GameResult(i, ("greedy",) * 4, (0,), (1.0,) * 4, 10, {}) for i in range(30)]
    raised = flags.win_flags(same, summarize(same, seat_zero), False)
    assert any("seat advantage beyond chance with the same bot" in flag for flag in raised)
    mixed = SimulationSpec("snorkeling", ("greedy", "random", "random", "random"))
    assert not any("beyond chance" in flag for flag in flags.win_flags(mixed, summarize(mixed, seat_zero), False))


def test_a_failed_symmetry_check_and_the_starters_edge_are_red_flags() -> None:
    check = {"applies": True, "fair": False, "verdict": "a team wins more than chance allows", "word": "team",
             "starter": {"value": 12.0, "ci95_low": 5.0, "ci95_high": 19.0, "p_value": 0.001,
                         "by_place": [0.62, 0.38], "order_test": {"p_value": 0.001}}}
    raised = flags.symmetry_flags(check)
    assert any("Symmetry check failed" in flag for flag in raised)
    assert any("Who starts matters" in flag and "+12.0 points" in flag for flag in raised)
    assert any("The turn order matters" in flag and "62.0%, 38.0%" in flag for flag in raised)


def test_a_team_game_is_reported_per_team_with_a_team_test() -> None:
    """HYH-R42: a team wins (its seats share the win); no seat ever wins alone, so a per-seat test over 'the 0
    games with one winner' said nothing."""
    spec = SimulationSpec("hold-your-hat", ("words",) * 4, measure=True)
    results = [GameResult(i, ("words",) * 4, (0, 1) if i % 3 else (2, 3), (9.0, 9.0, 5.0, 5.0), 100,
                          {"turns": 12, "seconds": 600.0, "metrics": {}}) for i in range(30)]
    summary = summarize(spec, results)
    assert "seat_test" not in summary
    assert summary["shared_games"] == 0 and not any("several" in note for note in summary["notes"])
    teams = summary["teams"]
    assert [row["side"] for row in teams["rows"]] == ["team A", "team B"]
    assert teams["rows"][0]["win_rate"] == pytest.approx(20 / 30) and teams["test"]["games"] == 30
    built = rp.build(spec, results, {})
    names = {q["name"] for q in built["quantities"]}
    assert {"win.team_A", "win.team_B", "first_team_advantage", "score.team_A"} <= names
    assert "first_seat_advantage" not in names
    page = rp.render_html(built)
    assert "Team advantage: exact binomial (team A against 1/2) over the 30 games" in page
    assert "games with one winner: p = 1" not in page


def test_report_ends_its_terminal_output_with_the_headline_and_the_red_flags(tmp_path: Path) -> None:
    out = tmp_path / "snk.html"
    done = CliRunner().invoke(app, ["report", "snorkeling", "--games", "8", "--workers", "1", "--symmetry", "8",
                                    "--out", str(out)])
    assert done.exit_code == 0, done.output
    tail = done.output[done.output.index("at a glance"):]
    assert "estimated minutes per game" in tail and "first seat's advantage" in tail
    assert "Red flags" in tail or "No red flags." in tail
    page = out.read_text(encoding="utf-8")
    assert "Symmetry check (8 games, medium in every seat, first_player rotated)" in page
    assert "--symmetry 8" in page
