"""Hold Your Breath!'s fast random playout (``playout.py``) against the engine's generic one, on every config.

Search bots run their rollouts through ``Game.random_playout``; Hold Your Breath!'s own loop must take the same
actions for the same random draws and leave exactly the state that ``apply`` after ``apply`` leaves. Every rule of a
turn (HYB-R10..R26), the end of the Descent and of the Ascent (HYB-R30..R32, HYB-R40, HYB-R41) and the surfacing win
(HYB-R22) are played by it, so any difference shows here. A deck with every icon (``all_icons_deck.toml``) makes the
Shark and Kraken icons, Calms on Sharks and mass discards common.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from divedeck.engine.game import Game
from tests.conformance import configs_for, random_state

from .helpers import GAME, config

ICONS_DECK = str(Path(__file__).with_name("all_icons_deck.toml"))
CONFIGS: list[dict[str, Any]] = [
    *configs_for("hold-your-breath"),
    {"cards": ICONS_DECK},
    {"cards": ICONS_DECK, "num_players": 3, "kraken_discard": "random", "forced_breath": False},
    {"cards": ICONS_DECK, "num_players": 2, "final_turn_trigger": "short_hand", "empty_hand_panic": "none"},
]
IDS = [",".join(f"{k}={Path(v).name if k == 'cards' else v}" for k, v in options.items()) or "default"
       for options in CONFIGS]
STOPS = [frozenset(), frozenset({"descent_end"}), frozenset({"ascent_start", "game_over"})]


def both_playouts(state: Any, draws_seed: int, max_actions: int, stop: frozenset[str]) -> tuple[Any, Any, int, int]:
    generic, fast = state.clone(), state.clone()
    generic_steps = Game.random_playout(GAME, generic, random.Random(draws_seed).random, max_actions, stop)
    fast_steps = GAME.random_playout(fast, random.Random(draws_seed).random, max_actions, stop)
    return generic, fast, generic_steps, fast_steps


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 300), draws=st.integers(0, 2**32),
       max_actions=st.sampled_from([0, 1, 5, 40, 10**9]), stop=st.sampled_from(STOPS))
@settings(max_examples=40, deadline=None)
def test_fast_playout_takes_the_generic_playouts_actions(options: dict[str, Any], seed: int, moves: int, draws: int,
                                                          max_actions: int, stop: frozenset[str]) -> None:
    state = random_state(GAME, config(**options), seed, moves)
    generic, fast, generic_steps, fast_steps = both_playouts(state, draws, max_actions, stop)
    assert fast_steps == generic_steps
    assert GAME.state_notation(fast) == GAME.state_notation(generic)
    assert fast == generic


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_many_whole_playouts_agree(options: dict[str, Any]) -> None:
    """Fifty games from the deal to the end: every kind of turn comes up, in both rounds."""
    cfg = config(**options)
    for seed in range(50):
        generic, fast, generic_steps, fast_steps = both_playouts(GAME.new(cfg, seed), seed, 10**9, frozenset())
        assert (fast_steps, fast) == (generic_steps, generic)
        assert GAME.outcome(fast) == GAME.outcome(generic) is not None


def test_a_playout_stops_right_after_the_descent_ends_when_asked() -> None:
    """HYB-R31, HYB-R32: with ``descent_end`` among the stop events the playout ends on the Ascent's deal."""
    state = GAME.new(config(), 3)
    _, fast, _, _ = both_playouts(state, 1, 10**9, frozenset({"descent_end"}))
    assert GAME.outcome(fast) is None or fast.anchors
    assert fast.round == "ascent" and fast.turns > 0 and fast.phase == "play" and not fast.air


def test_a_playout_takes_no_more_actions_than_allowed() -> None:
    _, fast, _, steps = both_playouts(GAME.new(config(num_players=2), 8), 2, 7, frozenset())
    assert steps == 7
    assert GAME.actors(fast)


def test_other_stop_events_take_the_generic_loop() -> None:
    state = GAME.new(config(), 5)
    generic, fast, generic_steps, fast_steps = both_playouts(state, 4, 10**9, frozenset({"replenish"}))
    assert (fast_steps, fast) == (generic_steps, generic)


def test_a_finished_game_plays_no_action() -> None:
    state = GAME.new(config(), 4)
    GAME.random_playout(state, random.Random(0).random, 10**9)
    assert GAME.outcome(state) is not None
    assert GAME.random_playout(state, random.Random(0).random, 10**9) == 0
