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


@pytest.mark.parametrize("needing", [0, 3, 64])  # none, fewer than an eighth of the batch, all of it
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
