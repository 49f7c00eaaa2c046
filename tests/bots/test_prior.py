"""The learned policy as the prior of ``hard``'s search (``bots/prior.py``, PUCT in ``bots/ismcts.py``).

Budgets are iterations, not seconds, so every test is deterministic for its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from divedeck.bots import levels
from divedeck.bots.base import RandomBot
from divedeck.bots.ismcts import ISMCTSBot
from divedeck.bots.learned import LearnedBot, shipped_policy
from divedeck.bots.prior import PolicyPrior
from divedeck.bots.worker import dumps, loads
from divedeck.engine.decision import decide, decision_for
from divedeck.engine.registry import get_game

HYB = get_game("hold-your-breath")
TRAINED = ["snorkeling", "hold-your-breath"]


def choices(game_name: str, players: int, seed: int, count: int, least: int = 3) -> list[tuple[Any, int]]:
    """``count`` states of a random game, each with a seat to move that has at least ``least`` legal actions."""
    game = get_game(game_name)
    state = game.new(game.make_config({"num_players": players}), seed)
    mover = RandomBot(seed)
    found: list[tuple[Any, int]] = []
    while game.outcome(state) is None and len(found) < count:
        seat = min(game.actors(state))
        if len(game.legal_actions(state, seat)) >= least:
            found.append((state.clone(), seat))
        game.apply(state, seat, decide(mover, game, state, seat))
    assert len(found) == count
    return found


def hard(seed: int, iterations: int, prior: bool, **search: Any) -> ISMCTSBot:
    bot = levels.hard_bot(HYB, seed, iterations=iterations, prior=prior)
    bot.seconds = None  # deterministic: the iteration budget only
    for name, value in search.items():
        setattr(bot, name, value)
    return bot


@pytest.mark.parametrize("game_name", TRAINED)
def test_the_prior_is_the_learned_policys_softmax_over_the_legal_moves(game_name: str) -> None:
    game = get_game(game_name)
    learned = LearnedBot(0)
    prior = PolicyPrior()
    for state, seat in choices(game_name, 2, 4, 5):
        decision = decision_for(game, state, seat)
        probabilities = np.array(prior(game, decision.view, seat, decision.legal))
        assert probabilities.shape == (len(decision.legal),) and abs(probabilities.sum() - 1) < 1e-6
        # The likeliest move is the one the learned bot plays (ties aside), and the order follows the logits.
        assert decision.legal[int(np.argmax(probabilities))] == learned.choose(decision)
        encoder, masks = learned._prepare(game, 2)
        logits = shipped_policy(game_name, 2).logits(encoder.encode(decision.view, seat))[masks.indices(decision.legal)]
        assert list(np.argsort(-probabilities, kind="stable")) == list(np.argsort(-logits, kind="stable"))


def test_no_prior_at_a_player_count_without_a_policy() -> None:
    ((state, seat),) = choices("hold-your-breath", 3, 2, 1)
    decision = decision_for(HYB, state, seat)
    assert PolicyPrior()(HYB, decision.view, seat, decision.legal) is None
    # So hard with the prior option searches exactly as without it there.
    with_option, without = hard(5, 60, True), hard(5, 60, False)
    assert decide(with_option, HYB, state, seat) == decide(without, HYB, state, seat)
    assert with_option.last.visits == without.last.visits


def test_the_prior_draws_the_visits_towards_the_moves_it_favours() -> None:
    """A prior that puts almost everything on the move plain search visits least: that move gets more visits."""
    raised = 0
    for state, seat in choices("hold-your-breath", 2, 9, 6):
        decision = decision_for(HYB, state, seat)
        unguided = ISMCTSBot(3, iterations=150, early_stop=False)
        unguided.search(decision)
        least = min(unguided.last.visits, key=unguided.last.visits.__getitem__)
        favoured = next(a for a in decision.legal if HYB.format_action(a) == least)

        def towards(game: Any, view: Mapping[str, Any], who: int, legal: Sequence[Any],
                    favoured: Any = favoured) -> list[float]:
            if favoured not in legal:
                return [1 / len(legal)] * len(legal)
            return [0.9 if a == favoured else 0.1 / (len(legal) - 1) for a in legal]

        guided = ISMCTSBot(3, iterations=150, prior=towards, prior_depth=0, early_stop=False)
        guided.search(decision)
        raised += guided.last.visits[least] > 2 * unguided.last.visits[least]
    assert raised == 6


def test_the_learned_prior_concentrates_the_root_on_its_likeliest_moves() -> None:
    """With the shipped policy, the visits at the root follow the prior more closely than without it."""
    closer = 0
    for state, seat in choices("hold-your-breath", 2, 11, 6):
        decision = decision_for(HYB, state, seat)
        probabilities = PolicyPrior()(HYB, decision.view, seat, decision.legal)
        assert probabilities is not None
        p = dict(zip(map(HYB.format_action, decision.legal), probabilities, strict=True))
        shares = []
        for prior in (True, False):
            bot = hard(7, 120, prior, early_stop=False)
            bot.search(decision)
            total = sum(bot.last.visits.values())
            shares.append(sum(p[a] * v / total for a, v in bot.last.visits.items()))
        closer += shares[0] > shares[1]
    assert closer >= 5


def test_the_prior_is_asked_with_the_bots_own_view_at_the_root_and_views_of_samples_below() -> None:
    asked: list[tuple[int, Mapping[str, Any]]] = []
    prior = PolicyPrior()

    def spy(game: Any, view: Mapping[str, Any], seat: int, legal: Sequence[Any]) -> Sequence[float] | None:
        asked.append((seat, view))
        return prior(game, view, seat, legal)

    state, seat = choices("hold-your-breath", 2, 6, 1)[0]
    decision = decision_for(HYB, state, seat)
    bot = ISMCTSBot(1, iterations=80, prior=spy)
    bot.search(decision)
    assert asked[0] == (seat, decision.view) and len(asked) > 1
    for who, view in asked:
        assert view["seat"] == who  # a seat's view, with only that seat's hand in it
    bot_root_only = ISMCTSBot(1, iterations=80, prior=spy, prior_depth=0)
    asked.clear()
    bot_root_only.search(decision)
    assert len(asked) == 1


@pytest.mark.parametrize("depth", [None, 0])
def test_no_peeking_with_the_prior(depth: int | None) -> None:
    """The same decision on the true state and on a state that differs only in what the seat cannot see."""
    rng = random.Random(3)
    compared = 0
    for index, (state, seat) in enumerate(choices("hold-your-breath", 2, 13, 12)):
        sample = HYB.determinize(state, seat, random.Random(rng.getrandbits(32)))
        if HYB.state_notation(sample) == HYB.state_notation(state):
            continue
        assert HYB.view(sample, seat) == HYB.view(state, seat)
        on_true = decide(hard(index, 40, True, prior_depth=depth), HYB, state, seat)
        assert decide(hard(index, 40, True, prior_depth=depth), HYB, sample, seat) == on_true
        compared += 1
    assert compared >= 6


def test_hard_with_the_prior_plays_whole_games_and_travels_to_a_worker() -> None:
    state = HYB.new(HYB.make_config({"num_players": 2}), 21)
    bots = [hard(1, 12, True), RandomBot(2)]
    while HYB.outcome(state) is None:
        seat = min(HYB.actors(state))
        decision = decision_for(HYB, state, seat)
        action = bots[seat].choose(decision)
        assert action in decision.legal
        HYB.apply(state, seat, action)
    # A bot sent to a worker process (pickled) plays as the original: encoders are rebuilt, not copied.
    state, seat = choices("hold-your-breath", 2, 8, 1)[0]
    decision = decision_for(HYB, state, seat)
    original = hard(4, 50, True)
    original.choose(decision)  # its prior has built an encoder
    copy = loads(dumps(original))
    assert copy.choose(decision) == original.choose(decision)
    assert copy.last.visits == original.last.visits


def test_hard_uses_the_prior_where_the_game_declares_it() -> None:
    for game_name in TRAINED:
        game = get_game(game_name)
        bot = levels.hard_bot(game, 0)
        assert (bot.prior is not None) == game.levels.hard_prior
    assert levels.hard_bot(get_game("snorkeling"), 0, prior=True).prior is not None
    assert levels.hard_bot(HYB, 0, prior=False).prior is None


def test_with_the_prior_hard_searches_the_share_of_its_budget_that_takes_the_same_time() -> None:
    """Asking the prior makes an iteration longer: hard then searches ``HARD_PRIOR_ITERATION_SHARE`` of its budget,
    and its whole budget where no policy answers (3 players)."""
    for players, expected in ((2, round(100 * levels.HARD_PRIOR_ITERATION_SHARE)), (3, 100)):
        state, seat = choices("hold-your-breath", players, 3, 1)[0]
        bot = hard(2, 100, True, early_stop=False)
        bot.choose(decision_for(HYB, state, seat))
        assert bot.last.iterations == expected
    assert levels.HARD_PRIOR_ITERATION_SHARE < 1
