"""The shared piece of the batched rules (``games/batched.py``): a costly branch computed only where needed gives
what computing it everywhere and selecting gives, however many games of a batch need it."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from divedeck.games.batched import when_needed
from divedeck.rl.jax import games_with_batched_rules, make


def costly(x, y):
    return {"sum": x * 3 + y, "rows": jnp.stack([x, y])}


@pytest.mark.parametrize("needing", [0, 3, 64])  # none, a few (several passes), all of it
def test_when_needed_gives_the_branch_where_needed_and_the_fallback_elsewhere(needing):
    batch = 64
    need = jnp.arange(batch) < needing
    x, y = jnp.arange(batch, dtype=jnp.float32), jnp.ones(batch, jnp.float32)
    fallback = {"sum": -jnp.ones(batch), "rows": jnp.zeros((batch, 2))}
    got = jax.jit(jax.vmap(when_needed(costly)))(need, fallback, x, y)
    expected = jax.vmap(lambda n, f, a, b: jax.tree.map(lambda p, q: jnp.where(n, p, q), costly(a, b), f))(
        need, fallback, x, y)
    for name in ("sum", "rows"):
        np.testing.assert_array_equal(got[name], expected[name])
    single = when_needed(costly)(jnp.bool_(True), {"sum": jnp.float32(0), "rows": jnp.zeros(2)}, x[5], y[5])
    assert float(single["sum"]) == 16.0


def test_the_batched_games_are_found_by_declaration_and_refused_by_name():
    assert "snorkeling" in games_with_batched_rules()
    with pytest.raises(ValueError, match="has no batched rules"):
        make("bermuda")
    assert make("snorkeling", num_players=3).num_actions == 102


def test_a_random_legal_action_is_legal_and_every_legal_action_is_drawn():
    from divedeck.rl.jax import random_legal_action

    mask = jnp.zeros(1134, bool).at[jnp.asarray([0, 35, 36, 700, 1133])].set(True)
    keys = jax.random.split(jax.random.PRNGKey(0), 2000)
    drawn = np.asarray(jax.jit(jax.vmap(random_legal_action, in_axes=(0, None)))(keys, mask))
    assert set(drawn.tolist()) == {0, 35, 36, 700, 1133}
    assert np.bincount(drawn, minlength=1134)[[0, 35, 36, 700, 1133]].min() > 300  # about 400 each
    assert int(random_legal_action(keys[0], jnp.zeros(1134, bool))) == 0


class _StepAndInit:
    """An environment seen through pgx's ``step`` and ``init`` only, as ``auto_reset`` steps any pgx environment."""

    def __init__(self, env):
        self.step, self.init = env.step, env.init


@pytest.mark.parametrize("name, options", [("hold-your-breath", {"max_depth": 15}),
                                           ("snorkeling", {"target_score": 2, "turn_cap": 12})])
def test_auto_reset_through_step_or_deal_is_step_then_init_where_a_game_ended(name, options):
    """The batched games' own reset step (``step_or_deal``: one mask and one observation a step) gives, field by
    field, what ``step`` then ``init`` give, on games ending by the rules and by an illegal action (one in 20, in
    the first half of the batch)."""
    from divedeck.rl.jax import auto_reset, random_legal_action

    env = make(name, num_players=2, **options)
    batch = 64
    fused, plain = jax.jit(jax.vmap(auto_reset(env))), jax.jit(jax.vmap(auto_reset(_StepAndInit(env))))
    draw = jax.jit(jax.vmap(random_legal_action))
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(1), batch))
    key = jax.random.PRNGKey(2)
    ended = illegal_ends = 0
    wild_half = jnp.arange(batch) < batch // 2
    for _ in range(200):
        key, pick, wild, anything, step = jax.random.split(key, 5)
        keys = jax.random.split(step, batch)
        actions = draw(jax.random.split(pick, batch), state.legal_action_mask)
        at_random = jax.random.randint(anything, (batch,), 0, env.num_actions)
        actions = jnp.where(wild_half & (jax.random.uniform(wild, (batch,)) < 0.05), at_random, actions)
        illegal = ~np.asarray(state.legal_action_mask[jnp.arange(batch), actions])
        got, expected = fused(state, actions, keys), plain(state, actions, keys)
        for field, value in vars(expected).items():
            np.testing.assert_array_equal(getattr(got, field), value, err_msg=field)
        ended += int(got.terminated.sum())
        illegal_ends += int((illegal & np.asarray(got.terminated)).sum())
        state = got
    assert illegal_ends > 10 and ended - illegal_ends > 5, (ended, illegal_ends)
