"""No peeking: an observation never changes when only cards its seat cannot see change.

For positions met in random play, ``game.determinize(state, seat, rng)`` deals every card the seat cannot see anew
(other hands, the deck, face-down cards) and keeps everything it can; the seat's encoded observation, its OpenSpiel
tensors and strings must be the same in both, while the full states differ.
"""

import random

import numpy as np
import pyspiel
import pytest

from divedeck.engine import get_game
from divedeck.rl import encoder_for, openspiel

CONFIGS = [("snorkeling", {"num_players": 3}), ("snorkeling", {"num_players": 2, "expert_diving": True}),
           ("hold-your-breath", {"num_players": 4}), ("hold-your-breath", {"num_players": 2}),
           ("bermuda", {"num_players": 3, "countdown_ms": 0})]


def positions(game, config, seed, count):
    """Positions along one random game (Bermuda's seats act at once: the lowest acts, as the simulator does)."""
    rng = random.Random(seed)
    state = game.new(config, seed)
    t = 0
    for _ in range(count):
        if game.outcome(state) is not None:
            return
        yield state
        seat = min(game.actors(state))
        if game.realtime:
            t += 150
            legal = [a for a in game.legal_actions(state, seat) if game.format_action(a) != "release"] or \
                game.legal_actions(state, seat)
            game.apply(state, seat, rng.choice(legal), at=t)
        else:
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_observation_ignores_unseen_cards(name, options):
    game = get_game(name)
    config = game.make_config(options)
    encoder = encoder_for(game, config)
    rng = random.Random(0)
    changed = 0
    for state in positions(game, config, 11, 120):
        for seat in range(game.num_players(config)):
            sample = game.determinize(state, seat, rng)
            changed += game.state_notation(sample) != game.state_notation(state)
            mine = encoder.encode(game.view(state, seat), seat)
            assert np.array_equal(mine, encoder.encode(game.view(sample, seat), seat)), game.seat_notation(state, seat)
    assert changed > 0  # the hidden cards did move


@pytest.mark.parametrize("name", openspiel.register())
def test_openspiel_observations_ignore_unseen_cards(name):
    os_game = pyspiel.load_game(name, {"num_players": 3})
    game = os_game.game
    rng = random.Random(1)
    state = os_game.new_initial_state_for_seed(5)
    for _ in range(60):
        if state.is_terminal():
            break
        for seat in range(3):
            sample = openspiel.DivedeckState(os_game, game.determinize(state.state, seat, rng), state.position.actions)
            assert sample.observation_tensor(seat) == state.observation_tensor(seat)
            assert sample.information_state_string(seat) == state.information_state_string(seat)
        state.apply_action(rng.choice(state.legal_actions()))
