"""The symmetry check (issue 25 item 2): identical bots, who starts rotated, many games; no seat or team may win
more than chance allows where the rules give none an edge. Each game at a size that takes seconds.

Hold your Hat's check failed before its word bots' thinking time varied: two guessers of one level answered a
clue in the same millisecond, the scheduler asked the lower seat first, and team A won about 94% of games (HYH-R10,
HYH-R28: a raid's race for a word)."""

from __future__ import annotations

import pytest

from divedeck.sim import GameResult
from divedeck.sim.sides import Sides, side_shares, side_summary, sides_of
from divedeck.sim.symmetry import ALPHA, symmetry_check, symmetry_lines

CHECKS = {  # game: (options, bot, games): sizes that take a few seconds on one core
    "snorkeling": ({}, "greedy", 200),
    "hold-your-breath": ({}, "greedy", 200),
    "hold-your-hat": ({"deck_size": 16}, "words", 40),
}


@pytest.mark.parametrize("game", sorted(CHECKS))
def test_identical_bots_give_no_seat_or_team_an_edge_beyond_chance(game: str) -> None:
    options, bot, games = CHECKS[game]
    check = symmetry_check(game, options, bot, games, seed=3, workers=1)
    assert check["applies"] and check["starter_option"]
    assert check["games"] == games
    assert sum(row["win_rate"] for row in check["rows"]) == pytest.approx(1.0, abs=0.01)
    assert check["position_test"]["p_value"] >= ALPHA, symmetry_lines(check)
    assert check["fair"]


def test_hold_your_hat_is_checked_per_team_not_per_seat() -> None:
    sides = sides_of("hold-your-hat", {"num_players": 6, "seating": "alternate"}, 6)
    assert sides.teams and sides.names == ("team A", "team B")
    assert sides.seats == ((0, 2, 4), (1, 3, 5))


def test_bermuda_is_one_team_and_the_check_says_it_cannot_favour_a_seat() -> None:
    check = symmetry_check("bermuda", {}, "diver", 10, workers=1)
    assert not check["applies"] and "cooperative" in check["verdict"]


def test_a_side_that_always_wins_is_flagged_and_its_share_counts_shared_wins_once() -> None:
    sides = Sides(("team A", "team B"), ((0, 1), (2, 3)), teams=True)
    games = [GameResult(i, ("b",) * 4, (0, 1), (1.0,) * 4, 1, {}) for i in range(30)]
    games.append(GameResult(30, ("b",) * 4, (0, 1, 2, 3), (1.0,) * 4, 1, {}))
    assert side_shares(games[-1], sides) == [0.5, 0.5]
    summary = side_summary(games, sides)
    assert summary["rows"][0]["wins"] == 30.5 and summary["test"]["games"] == 30
    assert summary["test"]["p_value"] < 1e-6
    assert summary["first_advantage"]["value"] > 45
