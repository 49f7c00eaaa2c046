"""Gymnasium's own checker on the single-agent environment, its bots and its vector API."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from divedeck.rl import SingleAgentEnv, make_vector_env

pytestmark = pytest.mark.filterwarnings("ignore:.*(render fps|alternative render modes).*")


@pytest.mark.parametrize("game", ["snorkeling", "hold-your-breath"])
def test_check_env(game):
    check_env(SingleAgentEnv(game, num_players=2))
    check_env(SingleAgentEnv(game, num_players=3, seat="random", opponents=["easy", "medium"], render_mode="ansi"))


def test_registered_ids_make_and_make_vec():
    single = gymnasium.make("divedeck/HoldYourBreath-v0", num_players=2, opponents="medium")
    obs, info = single.reset(seed=1)
    assert obs.shape == single.observation_space.shape and info["action_mask"].any()
    vector = gymnasium.make_vec("divedeck/Snorkeling-v0", num_envs=3, vectorization_mode="sync", num_players=2)
    obs, infos = vector.reset(seed=0)
    assert obs.shape[0] == 3 and infos["action_mask"].shape[0] == 3


def test_vector_env_plays_many_games_at_once():
    vector = make_vector_env(4, "snorkeling", num_players=2, target_score=3)
    obs, infos = vector.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in infos["action_mask"]]
        obs, rewards, terminated, truncated, infos = vector.step(np.array(actions))
        finished += int(terminated.sum())
        assert set(rewards[terminated].tolist()) <= {1.0, -1.0}
    assert obs.shape[0] == 4 and finished > 0


def test_a_refused_action_leaves_the_game_as_it_was():
    e = SingleAgentEnv("snorkeling", num_players=2)
    obs, info = e.reset(seed=3)
    before = e.game.state_notation(e.state)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = e.step(illegal)
    assert info2["refused"]["rule"] and reward == 0.0 and not terminated
    assert e.game.state_notation(e.state) == before and np.array_equal(obs, obs2)


def test_the_opponents_are_the_named_bots_and_the_seed_fixes_the_game():
    def first_moves(seed):
        e = SingleAgentEnv("hold-your-breath", num_players=2, seat=1, opponents="medium")
        e.reset(seed=seed)
        return e.game.state_notation(e.state)

    assert first_moves(5) == first_moves(5) != first_moves(6)
    e = SingleAgentEnv("hold-your-breath", num_players=2, seat=1, opponents="medium")
    e.reset(seed=0)
    assert e.bots[0].name == "greedy"
