"""The observation is the game's declaration, written into a reused buffer; masks come from a cached move table."""

from __future__ import annotations

import random

import numpy as np

from divedeck.engine.registry import get_game
from divedeck.rl import encoder_for
from divedeck.rl.encoding import MaskBuilder, games_with_observation


def test_games_declare_their_observation() -> None:
    assert set(games_with_observation()) >= {"snorkeling", "hold-your-breath", "bermuda"}
    for name in games_with_observation():
        game = get_game(name)
        encoder = encoder_for(game, game.make_config({}))
        assert encoder.size == sum(size for _, size in encoder.blocks) > 0


def test_encode_returns_fresh_arrays_and_masks_match_the_table() -> None:
    for name in ("snorkeling", "hold-your-breath"):
        game = get_game(name)
        config = game.make_config({"num_players": 3})
        encoder, table = encoder_for(game, config), game.move_table(config)
        masks = MaskBuilder(table)
        rng = random.Random(5)
        state = game.new(config, 5)
        kept: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        for _ in range(60):
            if game.outcome(state) is not None:
                break
            seat = min(game.actors(state))
            legal = game.legal_actions(state, seat)
            obs, mask = encoder.encode(game.view(state, seat), seat), masks.mask(legal)
            assert obs.dtype == np.float32 and obs.shape == (encoder.size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            assert mask.tolist() == [int(flag) for flag in table.mask(legal)]
            kept.append((obs, obs.copy(), mask, mask.copy()))
            game.apply(state, seat, rng.choice(legal))
        # Later steps never change an observation or a mask already handed out.
        for obs, obs_then, mask, mask_then in kept:
            assert np.array_equal(obs, obs_then) and np.array_equal(mask, mask_then)


def test_encode_into_writes_the_callers_array() -> None:
    game = get_game("snorkeling")
    config = game.make_config({"num_players": 2})
    encoder = encoder_for(game, config)
    state = game.new(config, 1)
    out = np.full(encoder.size, 7.0, np.float32)
    assert encoder.encode_into(game.view(state, 0), 0, out) is out
    assert np.array_equal(out, encoder.encode(game.view(state, 0), 0))
