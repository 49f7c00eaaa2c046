"""Every environment ends by itself under any policy, and what a learner meets at the end is usable (docs/rl.md,
"How a game ends")."""

from __future__ import annotations

import numpy as np

from divedeck.rl import make_vector_env, parallel_env
from divedeck.rl.parallel import TIME_LIMIT, TIME_LIMIT_MS_PER_ROUND


def test_random_agents_in_bermuda_end_the_game_at_the_time_limit_as_a_loss():
    """Random agents almost never all hold their breath through the count of three (BRM-R10, BRM-R11): the
    environment's time limit ends the game, as a termination with the loss's rewards, not a reward-0 truncation."""
    env = parallel_env("bermuda", num_players=3, step_ms=100, time_limit_ms=3_000)
    rng = np.random.default_rng(7)
    observations, _ = env.reset(seed=7)
    steps = 0
    while env.agents:
        actions = {agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"]))) for agent in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        steps += 1
    assert steps <= 30
    assert all(terminations.values()) and not any(truncations.values())
    assert infos["player_0"]["outcome"]["termination"] == TIME_LIMIT  # five rounds never fit in three seconds
    assert set(rewards.values()) == {-1.0}


def test_bermuda_has_a_time_limit_by_default():
    env = parallel_env("bermuda", num_players=2, rounds=3)
    assert env.time_limit_ms == 3 * TIME_LIMIT_MS_PER_ROUND


def test_the_mask_after_the_last_step_is_usable_with_next_step_autoreset():
    """With Gymnasium's NEXT_STEP autoreset the step after a game's end only resets it: the end's mask must still
    give a sampler something to pick (all ones), never an empty mask."""
    vector = make_vector_env(4, "snorkeling", num_players=2, target_score=1, round_cap=1, turn_cap=2)
    _, infos = vector.reset(seed=3)
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(60):
        masks = infos["action_mask"]
        assert all(mask.any() for mask in masks)
        _, _, terminated, _, infos = vector.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
        ends += int(terminated.sum())
        for i in np.flatnonzero(terminated):
            assert infos["action_mask"][i].all()
    assert ends > 0
