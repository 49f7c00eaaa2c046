"""The masked PPO baseline (``divedeck.rl.ppo``): it runs, it is seeded, it never samples an illegal move, the
numpy player computes the same logits as the JAX network it was trained as, and a bot's recorded moves can be
cloned and played against greedily."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("optax")

from divedeck.bots.learned import Policy, write_policy  # noqa: E402
from divedeck.rl.ppo import PPOConfig, Trainer, imitation, network, parameters_numpy  # noqa: E402

jnp = jax.numpy

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


# -- behaviour cloning and the cloned opponent (``imitation.py``, ``PPOConfig.clone_share``) -------------------------


@pytest.fixture(scope="module")
def demonstrations() -> imitation.Demonstrations:
    return imitation.record("snorkeling", 2, "medium", games=6, seed=5, options={"target_score": 1})


def test_recorded_moves_are_the_bots_legal_moves_and_the_record_is_seeded(
        demonstrations: imitation.Demonstrations) -> None:
    data = demonstrations
    assert len(data) > 20 and data.observations.shape == (len(data), data.observations.shape[1])
    masks = data.mask(np.arange(len(data)))
    assert masks.shape[1] == data.moves and (masks.sum(axis=1) > 1).all()  # only decisions with a choice
    assert masks[np.arange(len(data)), data.actions].all()
    assert set(np.unique(data.results)) <= {-1.0, 1.0}
    again = imitation.record("snorkeling", 2, "medium", games=6, seed=5, options={"target_score": 1})
    assert np.array_equal(again.actions, data.actions) and np.array_equal(again.observations, data.observations)


def test_fitting_the_recorded_moves_makes_the_network_agree_with_the_bot(
        demonstrations: imitation.Demonstrations) -> None:
    data = demonstrations
    params = network.init(jax.random.PRNGKey(0), data.observations.shape[1], data.moves, 32)
    before = imitation.agreement(params, data)
    after = imitation.agreement(imitation.fit(params, data, epochs=30, batch=16, learning_rate=3e-3), data)
    assert after > max(before + 0.2, 0.8)


def test_the_clone_plays_its_most_likely_legal_move_and_others_sample() -> None:
    config = PPOConfig(game="snorkeling", players=2, seed=4, random_share=0.5, clone_share=0.5, **TINY)
    size, moves = 222, 77
    clone = network.init(jax.random.PRNGKey(9), size, moves, 16)
    trainer = Trainer(config, clone=clone)
    carry = trainer.start()
    assert all(np.array_equal(np.asarray(carry.clone[name]), np.asarray(clone[name])) for name in clone)
    observation = jax.random.uniform(jax.random.PRNGKey(2), (8, size))
    mask = jax.random.uniform(jax.random.PRNGKey(3), (8, moves)) < 0.3
    greedy = np.asarray(jnp.argmax(network.masked(network.forward(clone, observation)[0], mask), axis=1))
    cloned = np.asarray(trainer._opponent_move(carry, jnp.full(8, -2), observation, mask, jax.random.PRNGKey(0)))
    assert np.array_equal(cloned, greedy)
    sampled = [np.asarray(trainer._opponent_move(carry, jnp.full(8, -1), observation, mask, jax.random.PRNGKey(k)))
               for k in range(6)]
    assert all(np.asarray(mask)[np.arange(8), s].all() for s in sampled)
    assert any(not np.array_equal(s, greedy) for s in sampled)
    # Opponents are drawn in the shares asked: about half the games against the clone, none against snapshots.
    _, opponent = trainer._draw_sides(jax.random.PRNGKey(1), 4000)
    share = float((np.asarray(opponent) == -2).mean())
    assert 0.45 < share < 0.55 and set(np.unique(np.asarray(opponent))) == {-2, -1}


def test_a_clone_share_needs_a_clone_and_room_for_it() -> None:
    with pytest.raises(ValueError, match="needs a clone"):
        Trainer(PPOConfig(game="snorkeling", clone_share=0.5, **TINY))
    with pytest.raises(ValueError, match="at most 1"):
        Trainer(PPOConfig(game="snorkeling", random_share=0.6, clone_share=0.5, **TINY),
                clone=network.init(jax.random.PRNGKey(0), 222, 77, 16))


def test_training_against_the_clone_is_seeded_and_reports_its_reward(
        demonstrations: imitation.Demonstrations) -> None:
    clone = imitation.fit(network.init(jax.random.PRNGKey(0), demonstrations.observations.shape[1],
                                       demonstrations.moves, 16), demonstrations, epochs=2, batch=16)
    config = PPOConfig(game="snorkeling", players=2, seed=6, random_share=0.0, clone_share=1.0, **TINY)
    trainer = Trainer(config, clone=clone)
    runs = []
    for _ in range(2):
        carry = trainer.restart_from(trainer.start(), clone)
        assert all(np.array_equal(np.asarray(carry.params[name]), np.asarray(clone[name])) for name in clone)
        carry, metrics = trainer.update(carry)
        runs.append(parameters_numpy(carry.params))
    assert all(np.array_equal(runs[0][name], runs[1][name]) for name in runs[0])
    assert -1.0 <= float(metrics["reward_vs_clone"]) <= 1.0
    assert float(metrics["games_ended"]) > 0
