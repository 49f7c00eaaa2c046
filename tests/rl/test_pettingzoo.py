"""PettingZoo's own test suites on the divedeck environments, and what the adapters promise beyond them."""

from types import SimpleNamespace

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, render_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from divedeck.engine.errors import IllegalAction
from divedeck.rl import env, parallel_env

# api_test advises a Box observation and a NumPy observation; the classic PettingZoo environments it ships (chess,
# leduc_holdem) use the same dict of observation and action mask and get the same two advisories.
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")]

TURN_BASED = [
    ("snorkeling", {}),
    ("snorkeling", {"num_players": 2, "expert_diving": True, "opponent_play_limit": "unlimited"}),
    ("hold-your-breath", {}),
    ("hold-your-breath", {"num_players": 2, "kraken_discard": "random", "winner_rule": "distance"}),
]


@pytest.mark.parametrize(("game", "options"), TURN_BASED)
def test_api_seed_and_render(game, options):
    api_test(env(game, **options), num_cycles=300)
    seed_test(lambda: env(game, **options), num_cycles=300)
    render_test(lambda render_mode=None: env(game, render_mode=render_mode, **options))


def play_out(e, seed, choose):
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else choose(obs["action_mask"]))
    return totals


@pytest.mark.parametrize("game", ["snorkeling", "hold-your-breath"])
def test_a_game_plays_to_the_end_with_win_loss_rewards(game):
    e = env(game, num_players=3)
    rng = np.random.default_rng(0)
    totals = play_out(e, 5, lambda mask: int(rng.choice(np.flatnonzero(mask))))
    assert set(totals.values()) <= {1.0, -1.0} and 1.0 in totals.values()
    assert e.agents == []


def test_score_difference_rewards_are_zero_sum():
    e = env("snorkeling", num_players=2, target_score=4, reward="score_difference")
    rng = np.random.default_rng(1)
    totals = play_out(e, 3, lambda mask: int(rng.choice(np.flatnonzero(mask))))
    assert sum(totals.values()) == pytest.approx(0.0)
    assert any(totals.values())


def test_an_action_outside_the_mask_is_refused_with_the_rule():
    e = env("snorkeling", num_players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction) as refusal:
        e.step(illegal)
    assert refusal.value.rule


def test_the_same_seed_deals_the_same_game():
    first, second = env("hold-your-breath"), env("hold-your-breath")
    first.reset(seed=9)
    second.reset(seed=9)
    assert first.game.state_notation(first.state) == second.game.state_notation(second.state)
    second.reset(seed=10)
    assert first.game.state_notation(first.state) != second.game.state_notation(second.state)


def test_the_info_holds_the_seats_view():
    e = env("snorkeling", num_players=2)
    e.reset(seed=2)
    agent = e.agent_selection
    assert e.infos[agent]["view"] == e.game.view(e.state, e.possible_agents.index(agent))


def bermuda(**kwargs):
    return parallel_env("bermuda", **kwargs)


def test_bermuda_parallel_api_seed_max_cycles_and_render():
    parallel_api_test(bermuda(), num_cycles=300)
    parallel_seed_test(lambda: bermuda(num_players=2), num_cycles=300)
    max_cycles_test(SimpleNamespace(parallel_env=bermuda, env=lambda **kw: parallel_to_aec(bermuda(**kw))))
    render_test(lambda render_mode=None: parallel_to_aec(bermuda(render_mode=render_mode)))


def test_bermuda_time_moves_in_steps_and_deadlines_fire():
    e = bermuda(num_players=2, step_ms=250, countdown_ms=1000)
    e.reset(seed=4)
    hold = e.table.index(e.game.parse_action("hold"))
    obs, _, _, _, infos = e.step(dict.fromkeys(e.agents, hold))
    assert e.now == 250 and infos["player_0"]["view"]["phase"] == "prepare"
    for _ in range(4):
        obs, _, _, _, infos = e.step({})
    assert infos["player_0"]["view"]["phase"] == "dive"
    assert infos["player_0"]["view"]["now"] == e.now == 1250


def test_bermuda_refuses_an_out_of_date_action_without_playing_another():
    e = bermuda(num_players=2)
    e.reset(seed=4)
    lay = next(i for i, action in enumerate(e.table.actions) if e.game.format_action(action).startswith("lay"))
    before = e.game.state_notation(e.state)
    _, _, _, _, infos = e.step({"player_0": lay})
    assert infos["player_0"]["refused"]["rule"]
    assert "player_1" not in {k for k, v in infos.items() if "refused" in v}
    assert e.game.state_notation(e.state).split(" rng=")[0].replace("now=100", "now=0") == before.split(" rng=")[0]
