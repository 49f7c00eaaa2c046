"""OpenSpiel's random simulation test on each registered game, and OpenSpiel's own bots playing them unchanged."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from divedeck.rl import openspiel

NAMES = openspiel.register()
CONFIGS = [("divedeck_snorkeling", {"num_players": 2}),
           ("divedeck_snorkeling", {"num_players": 3, "expert_diving": True}),
           ("divedeck_hold_your_breath", {"num_players": 2}),
           ("divedeck_hold_your_breath", {"num_players": 4, "kraken_discard": "random"})]


def test_both_games_are_registered():
    assert set(NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("name", "params"), CONFIGS)
def test_random_sim_test(name, params):
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=2, serialize=False, verbose=False)


# Short games (a low target, a shallow board), so that whole rollouts stay quick.
SHORT = {"divedeck_snorkeling": {"target_score": 2}, "divedeck_hold_your_breath": {"max_depth": "40"}}


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_ismcts_and_mcts_play_a_whole_game(name):
    game = pyspiel.load_game(name, {"num_players": 2, "seed": 3, **SHORT[name]})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rng),
            mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng)]
    state = game.new_initial_state()
    while not state.is_terminal():  # evaluate_bots would call restart_at, which ISMCTSBot leaves out
        state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [1.0, 1.0])


@pytest.mark.parametrize("name", NAMES)
def test_a_resampled_state_has_the_same_information_state(name):
    game = pyspiel.load_game(name, {"num_players": 2})
    state = game.new_initial_state_for_seed(7)
    rng = np.random.RandomState(1)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.information_state_tensor(player) == state.information_state_tensor(player)
    assert str(sample) != str(state)


def test_parameters_are_the_config_options_and_the_seed():
    game = pyspiel.load_game("divedeck_hold_your_breath", {"num_players": 3, "winner_rule": "distance", "seed": 4})
    assert game.num_players() == 3 and game.config.winner_rule == "distance"
    again = pyspiel.load_game("divedeck_hold_your_breath", {"num_players": 3, "winner_rule": "distance", "seed": 4})
    assert str(game.new_initial_state()) == str(again.new_initial_state())


@pytest.mark.parametrize("name", NAMES)
def test_the_algorithms_that_walk_the_whole_tree_are_refused_in_one_line(name):
    """TabularPolicy, CFRSolver and ExternalSamplingSolver walk every state through ``state.child``: on these games
    they ran out of Python's recursion or ran for ever; they are refused at once, with the reason."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, external_sampling_mccfr

    game = pyspiel.load_game(name, {"num_players": 2, **SHORT[name]})
    walks = [lambda: policy.TabularPolicy(game), lambda: cfr.CFRSolver(game),
             lambda: external_sampling_mccfr.ExternalSamplingSolver(game).iteration()]
    for walk in walks:
        with pytest.raises(openspiel.GameTreeTooLarge, match="game tree is far too large to walk") as refused:
            walk()
        assert "\n" not in str(refused.value)
