"""A masked PPO baseline on the batched games (``divedeck.rl.jax``; the extra ``divedeck[jax]``, with optax).

    from divedeck.rl.ppo import PPOConfig, Trainer
    trainer = Trainer(PPOConfig(game="snorkeling", players=2, seed=0))
    carry = trainer.start()
    for _ in range(100):
        carry, metrics = trainer.update(carry)

``imitation`` records a bot's moves through the reference engine and fits the network to them, for a warm start and
for an opponent that stands in for the bot inside the rollout (``Trainer(config, clone=...)``, ``clone_share``).
``examples/train_ppo.py`` trains, evaluates against the bots and writes the policy file that the ``learned`` bot
plays with numpy (``divedeck.bots.learned``). ``docs/rl.md`` describes the method and its results.
"""

from .train import PPOConfig, Trainer, parameters_numpy, steps_per_update

__all__ = ["PPOConfig", "Trainer", "parameters_numpy", "steps_per_update"]
