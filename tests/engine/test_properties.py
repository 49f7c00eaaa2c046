"""Property tests: Hypothesis chooses the seed, the config and every action; the conformance invariants hold at
each step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from divedeck.engine import CLOCK, game_names, get_game

from .. import conformance

MAX_STEPS = 250


@pytest.mark.parametrize("name", game_names())
def test_invariants_hold_at_every_step_of_hypothesis_driven_games(name: str) -> None:
    game = get_game(name)

    # Derandomized and without shrinking, so a run costs the same every time (shrinking a long game can take
    # minutes); a failure still reports the seed, the options and the step.
    @settings(max_examples=20, deadline=None, derandomize=True, database=None,
              phases=[Phase.explicit, Phase.generate],
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(options=st.sampled_from(conformance.configs_for(name)), seed=st.integers(0, 2**63 - 1),
           choices=st.lists(st.integers(0, 1 << 16), min_size=MAX_STEPS // 4, max_size=MAX_STEPS))
    def run(options: dict[str, Any], seed: int, choices: list[int]) -> None:
        config = game.make_config(options)
        n = game.num_players(config)
        state = game.new(config, seed)
        count = game.card_count(state)
        rng = random.Random(seed)
        seen: dict[str, tuple[int, Any]] = {}
        now = 0
        for index, choice in enumerate(choices):
            if game.outcome(state) is not None:
                break
            where = f"step {index}"
            conformance.assert_turn_contract(game, config, state, where=where)
            actors = sorted(game.actors(state))
            seat = actors[choice % len(actors)]
            legal = list(game.legal_actions(state, seat))
            action = legal[(choice >> 3) % len(legal)]
            for item in legal:
                seen.setdefault(game.format_action(item), (seat, item))
            candidates = [(seat, a) for _, a in seen.values()] + [(s, action) for s in range(n) if s not in actors]
            conformance.assert_illegal_rejected(game, state, rng.sample(candidates, min(6, len(candidates))),
                                                where=where)
            if game.realtime:  # Hypothesis chooses the time too; the clock ticks once a deadline has passed
                now += (choice >> 8) % 4000 if choice & 4 else 0
                due = game.deadline(state)
                passed = due is not None and due <= now
                seat, action = (CLOCK, game.tick(now)) if passed else (seat, game.at(action, now))
            if index % 4 == 0:
                conformance.assert_notation_roundtrip(game, config, state, where=where)
                conformance.assert_information(game, config, state, rng, where=where)
                conformance.assert_legal_actions_apply(game, state, where=where)
            copy = state.clone()
            events = game.apply(copy, seat, action)
            conformance.assert_clone_isolated(game, state, seat, action, where=where)
            assert game.state_notation(copy) == game.state_notation(state)
            conformance.assert_events_private(game, events, n, where=where)
            assert game.card_count(state) == count
        conformance.assert_turn_contract(game, config, state, where="last state")

    run()
