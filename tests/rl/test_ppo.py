"""The masked PPO baseline (``divedeck.rl.ppo``): it runs, it is seeded, it never samples an illegal move, and the
numpy player computes the same logits as the JAX network it was trained as."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("optax")

from divedeck.bots.learned import Policy, write_policy  # noqa: E402
from divedeck.rl.ppo import PPOConfig, Trainer, network, parameters_numpy  # noqa: E402

# Games to one point, so that some end within a rollout and the learner's moves get a weight.
TINY = {"options": {"target_score": 1}, "games": 8, "steps": 64, "hidden": 16, "epochs": 1, "minibatches": 2,
        "snapshot_every": 1, "snapshots": 2}


@pytest.fixture(scope="module")
def trainer() -> Trainer:
    return Trainer(PPOConfig(game="snorkeling", players=2, seed=3, **TINY))


def test_two_updates_change_the_policy_and_keep_it_finite(trainer: Trainer) -> None:
    carry = trainer.start()
    first = parameters_numpy(carry.params)
    for _ in range(2):
        carry, metrics = trainer.update(carry)
    after = parameters_numpy(carry.params)
    assert int(carry.update) == 2
    assert all(np.isfinite(value).all() for value in after.values())
    assert any(not np.array_equal(first[name], after[name]) for name in first)
    assert np.isfinite(float(metrics["policy_loss"]))
    # A snapshot at every update (snapshot_every=1), in slot update % 2: slot 0 holds the policy of update 2.
    assert all(np.array_equal(np.asarray(carry.pool[name][0]), after[name]) for name in after)


def test_the_same_seed_gives_the_same_parameters(trainer: Trainer) -> None:
    runs = []
    for _ in range(2):
        carry = trainer.start()
        carry, _ = trainer.update(carry)
        runs.append(parameters_numpy(carry.params))
    assert all(np.array_equal(runs[0][name], runs[1][name]) for name in runs[0])


def test_the_learner_samples_only_legal_moves(trainer: Trainer) -> None:
    """Every move the learner makes in a rollout is legal in the state it was made in (the mask it saw)."""
    carry = trainer.start()
    _, trajectory = jax.jit(trainer._rollout)(carry)
    mask = np.asarray(trajectory["mask"])
    action = np.asarray(trajectory["action"])
    mine = np.asarray(trajectory["is_learner"])
    chosen = np.take_along_axis(mask, action[..., None], axis=-1)[..., 0]
    assert mine.any() and chosen[mine].all()


def test_the_numpy_policy_computes_the_jax_logits(tmp_path) -> None:  # type: ignore[no-untyped-def]
    params = network.init(jax.random.PRNGKey(1), 12, 7, 5)
    params = jax.tree.map(lambda p: p + 0.1, params)  # nonzero biases
    path = tmp_path / "policy.npz"
    write_policy(path, parameters_numpy(params), {"game": "snorkeling", "players": 2, "options": {}})
    policy = Policy.read(path)
    observation = np.linspace(0, 1, 12, dtype=np.float32)
    expected = np.asarray(network.forward(params, observation)[0])
    np.testing.assert_allclose(policy.logits(observation), expected, rtol=1e-5, atol=1e-6)
    assert policy.meta["players"] == 2
