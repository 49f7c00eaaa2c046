"""Issue 25 item 10: the skill ladder, a win-rate matrix of the levels with the sides rotated, and its skill gap."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.sim import flags
from divedeck.sim.ladder import ladder_levels, ladder_lines, skill_ladder


def test_the_levels_a_game_can_play_in_a_simulation() -> None:
    assert ladder_levels("snorkeling") == ["random", "easy", "medium", "hard"]
    assert "random" not in ladder_levels("hold-your-hat")  # a real-time game: random cannot keep time


def test_medium_beats_random_at_snorkeling_and_the_matrix_is_seat_rotated() -> None:
    ladder = skill_ladder("snorkeling", {"num_players": 3}, ["random", "medium"], 30, seed=2, workers=1)
    [[none, random_vs_medium], [medium_vs_random, none_again]] = ladder["matrix"]
    assert none is None and none_again is None
    assert medium_vs_random["games"] == 30 and random_vs_medium["games"] == 30
    assert medium_vs_random["share"] > 1 / 3 > random_vs_medium["share"]
    assert ladder["gap"]["value"] == pytest.approx(100 * (medium_vs_random["share"] - 1 / 3))
    assert ladder["gap"]["ci95_low"] > 0 and "skill is rewarded" in ladder_lines(ladder)[0]


def test_a_game_where_skill_shows_no_gain_is_a_red_flag() -> None:
    flat = {"levels": ["random", "medium"], "cooperative": False, "word": "seat",
            "gap": {"value": 1.0, "ci95_low": -6.0, "ci95_high": 8.0}}
    assert "No skill shown" in flags.ladder_flags(flat)[0]
    assert flags.ladder_flags({**flat, "gap": {"value": 20.0, "ci95_low": 9.0, "ci95_high": 31.0}}) == []


def test_report_ladder_levels_are_checked_before_anything_plays(tmp_path) -> None:
    done = CliRunner().invoke(app, ["report", "hold-your-hat", "--games", "5000", "--ladder", "10",
                                    "--ladder-levels", "random,medium", "--out", str(tmp_path / "r.html")])
    assert done.exit_code != 0 and "random cannot play hold-your-hat" in str(done.exception)
