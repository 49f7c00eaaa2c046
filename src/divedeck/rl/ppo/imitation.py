"""Behaviour cloning: a bot's decisions, recorded through the reference engine, fitted by the PPO network.

    data = record("hold-your-breath", 2, "medium", games=2000, seed=0)
    params = fit(network.init(key, observations, actions, hidden), data, epochs=4, seed=0)

``record`` plays whole games with one bot in every seat (the game's own bots: they read only their seat's view)
and keeps, for each decision with more than one legal move, what a learner in that seat would have been given:
the seat's observation (the game's encoder, the same vector the batched game gives), the legal moves (the move
table's integers), the bot's move, and how that seat's game ended (+1 a win, -1 a loss; a shared win is a win, as
in the ``win_loss`` reward). ``fit`` trains the policy head on the moves (cross-entropy over the legal moves only)
and the value head on the ends, so a PPO run can start from a bot's play instead of from random moves, and the
cloned network can stand in for the bot inside a compiled rollout (``PPOConfig.clone_share``), where the bot's
Python cannot run.

Both are seeded: the games are the seeds ``seed, seed + 1, ...`` with bots seeded from them, and the minibatch
order comes from a ``jax.random`` key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ...bots import make_bot
from ...engine.decision import decision_for
from ...engine.registry import get_game
from . import network


@dataclass(frozen=True)
class Demonstrations:
    """Recorded decisions: ``observations`` (n, size) float32, ``masks`` (n, moves) packed bits of the legal moves
    (``np.packbits`` along axis 1), ``actions`` (n,) the bot's move, ``results`` (n,) +1/-1 for the seat's game."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    results: np.ndarray
    moves: int  # the move table's size
    games: int

    def __len__(self) -> int:
        return len(self.actions)

    def mask(self, rows: np.ndarray) -> np.ndarray:
        """The legal-move masks of ``rows`` as booleans (rows, moves)."""
        return np.unpackbits(self.masks[rows], axis=1, count=self.moves).astype(bool)


def record(game_name: str, players: int, bot: str, games: int, seed: int = 0,
           options: dict[str, Any] | None = None) -> Demonstrations:
    """``games`` games of ``bot`` in every seat, from the deals ``seed .. seed + games - 1``."""
    from ..encoding import MaskBuilder, encoder_for

    game = get_game(game_name)
    config = game.make_config(dict(options or {}, num_players=players))
    encoder = encoder_for(game, config)
    masks = MaskBuilder(game.move_table(config))
    observations: list[np.ndarray] = []
    legal_rows: list[np.ndarray] = []
    actions: list[int] = []
    results: list[float] = []
    for g in range(games):
        state = game.new(config, seed + g)
        bots = [make_bot(game_name, bot, (seed + g) * players + s) for s in range(players)]
        seats: list[int] = []
        while game.outcome(state) is None:
            for seat in sorted(game.actors(state)):
                decision = decision_for(game, state, seat)
                action = bots[seat].choose(decision)
                if len(decision.legal) > 1:
                    observations.append(encoder.encode(decision.view, seat))
                    legal_rows.append(np.packbits(masks.mask(decision.legal).astype(bool)))
                    actions.append(masks.indices([action])[0])
                    seats.append(seat)
                game.apply(state, seat, action)
        winners = game.outcome(state).winners  # type: ignore[union-attr]
        results.extend(1.0 if seat in winners else -1.0 for seat in seats)
    return Demonstrations(np.stack(observations), np.stack(legal_rows), np.asarray(actions, np.int32),
                          np.asarray(results, np.float32), len(masks.table), games)


def _loss(params: Any, batch: dict[str, Any], value_coef: float) -> tuple[Any, dict[str, Any]]:
    logits, value = network.forward(params, batch["obs"])
    log_probs = jax.nn.log_softmax(network.masked(logits, batch["mask"]))
    chosen = jnp.take_along_axis(log_probs, batch["action"][:, None], axis=1)[:, 0]
    policy = -chosen.mean()
    value_loss = 0.5 * ((value - batch["result"]) ** 2).mean()
    accuracy = (jnp.argmax(network.masked(logits, batch["mask"]), axis=1) == batch["action"]).mean()
    return policy + value_coef * value_loss, {"policy_loss": policy, "value_loss": value_loss, "accuracy": accuracy}


def fit(params: Any, data: Demonstrations, epochs: int = 4, batch: int = 512, learning_rate: float = 1e-3,
        value_coef: float = 0.5, seed: int = 0, log: Any = None) -> Any:
    """``params`` trained on ``data`` for ``epochs`` passes of Adam minibatches; returns the new parameters.
    ``log(epoch, metrics)`` is called after each epoch with the epoch's mean loss and accuracy."""
    optimizer = optax.adam(learning_rate)
    opt_state = optimizer.init(params)

    @jax.jit
    def step(params: Any, opt_state: Any, part: dict[str, Any]) -> tuple[Any, Any, dict[str, Any]]:
        (_, info), grads = jax.value_and_grad(_loss, has_aux=True)(params, part, value_coef)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, info

    key = jax.random.PRNGKey(seed)
    n = len(data)
    for epoch in range(epochs):
        key, k_perm = jax.random.split(key)
        order = np.asarray(jax.random.permutation(k_perm, n))
        seen: list[dict[str, Any]] = []
        for start in range(0, n - batch + 1, batch):
            rows = order[start:start + batch]
            part = {"obs": data.observations[rows], "mask": data.mask(rows), "action": data.actions[rows],
                    "result": data.results[rows]}
            params, opt_state, info = step(params, opt_state, part)
            seen.append(info)
        if log is not None:
            log(epoch + 1, {name: float(np.mean([float(i[name]) for i in seen])) for name in seen[0]})
    return params


def agreement(params: Any, data: Demonstrations, rows: np.ndarray | None = None) -> float:
    """The share of the recorded decisions (``rows``, default all) where the network's most likely legal move is
    the bot's."""
    rows = np.arange(len(data)) if rows is None else rows
    logits, _ = network.forward(params, jnp.asarray(data.observations[rows]))
    chosen = np.asarray(jnp.argmax(network.masked(logits, data.mask(rows)), axis=1))
    return float((chosen == data.actions[rows]).mean())
