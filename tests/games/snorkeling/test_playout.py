"""Snorkeling's fast random playout (``playout.py``) against the engine's generic one, on every config.

Search bots run their rollouts through ``Game.random_playout``; Snorkeling's own loop must take the same actions
for the same random draws and leave exactly the state that ``apply`` after ``apply`` leaves (every rule of
SNK-R5..R17 and the variant SNK-V1 is played by it, so any difference shows here).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from divedeck.engine.game import Game
from tests.conformance import configs_for, random_state

from .helpers import GAME, config

# The conformance configs, and short caps so that rounds also end by the turn limit (SNK-R13) and games by the
# round limit (SNK-A27).
CONFIGS: list[dict[str, Any]] = [*configs_for("snorkeling"), {"num_players": 3, "turn_cap": 12, "round_cap": 3}]
IDS = [",".join(f"{k}={v}" for k, v in options.items()) or "default" for options in CONFIGS]


def state_after(options: dict[str, Any], seed: int, moves: int) -> Any:
    return random_state(GAME, config(**options), seed, moves)


def both_playouts(state: Any, draws_seed: int, max_actions: int, stop: frozenset[str]) -> tuple[Any, Any, int, int]:
    generic, fast = state.clone(), state.clone()
    generic_steps = Game.random_playout(GAME, generic, random.Random(draws_seed).random, max_actions, stop)
    fast_steps = GAME.random_playout(fast, random.Random(draws_seed).random, max_actions, stop)
    return generic, fast, generic_steps, fast_steps


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 400), draws=st.integers(0, 2**32),
       max_actions=st.sampled_from([0, 1, 5, 40, 10**9]), stop=st.sampled_from([frozenset(), frozenset({"round_end"})]))
@settings(max_examples=40, deadline=None)
def test_fast_playout_takes_the_generic_playouts_actions(options: dict[str, Any], seed: int, moves: int, draws: int,
                                                          max_actions: int, stop: frozenset[str]) -> None:
    state = state_after(options, seed, moves)
    generic, fast, generic_steps, fast_steps = both_playouts(state, draws, max_actions, stop)
    assert fast_steps == generic_steps
    assert GAME.state_notation(fast) == GAME.state_notation(generic)
    assert fast == generic  # the derived fields too (what the centre and the piles accept)


def test_a_playout_to_the_end_finishes_the_game_with_a_winner() -> None:
    """SNK-R15: played on without limits, a game ends; the outcome is the engine's."""
    state = state_after({"num_players": 4}, 3, 50)
    generic, fast, steps, _ = both_playouts(state, 9, 10**9, frozenset())
    assert steps > 0
    assert GAME.outcome(fast) is not None and GAME.outcome(fast) == GAME.outcome(generic)
    assert not GAME.actors(fast)


def test_a_playout_stops_right_after_a_round_ends_when_asked() -> None:
    """SNK-R17: with ``round_end`` among the stop events the playout ends on the next round's deal."""
    state = state_after({"num_players": 3}, 5, 10)
    round_before = GAME.view(state, None)["round"]
    _, fast, _, _ = both_playouts(state, 1, 10**9, frozenset({"round_end"}))
    view = GAME.view(fast, None)
    assert GAME.outcome(fast) is not None or (view["round"] == round_before + 1 and view["turns_in_round"] == 0)


def test_a_playout_takes_no_more_actions_than_allowed() -> None:
    state = state_after({"num_players": 2}, 8, 20)
    _, fast, _, steps = both_playouts(state, 2, 7, frozenset())
    assert steps == 7
    assert GAME.actors(fast)


def test_a_finished_game_plays_no_action() -> None:
    state = state_after({"num_players": 2}, 4, 100_000)
    assert GAME.outcome(state) is not None
    assert GAME.random_playout(state, random.Random(0).random, 10**9) == 0
