"""Masked PPO (Schulman et al. 2017) on a batched game, against a mix of in-JAX opponents.

One *update* plays ``steps`` moves in each of ``games`` games at once (``divedeck.rl.jax``, auto-reset), then runs
``epochs`` passes of clipped-PPO minibatch steps (optax Adam, clipped gradient norm) over the learner's moves.

- **Who plays what.** In each game one seat (drawn at random, again at each new deal) is the learner, sampling from
  the current policy; every other seat is an opponent: the random-legal policy (a ``random_share`` of the games)
  or, when the trainer is given a ``clone`` (a network fitted to a bot's moves, ``imitation.py``), that clone
  playing its most likely legal move (a ``clone_share`` of the games: a stand-in for the bot, whose Python cannot
  run in a compiled rollout), or one of ``snapshots`` frozen earlier copies of the policy (the pool starts as
  copies of the first policy and takes the current one every ``snapshot_every`` updates, oldest out). The
  opponent of a game is drawn at each deal. Every seat sees only its own observation (the batched game's
  observation is the seat to play's).
- **Advantages over the learner's moves only.** An opponent's move is part of the environment: GAE (gamma,
  lambda) runs backwards over the learner's moves of each game, the reward being the learner's win/loss (+1/-1)
  when its game ends, whoever made the last move. The learner's moves after the last end of a game in the
  rollout (whose return is not known yet) get no weight in that update; the games run on into the next one.
- **Masks.** Illegal moves get a -1e9 logit (``network.masked``) when sampling and in the loss, so the policy puts
  no probability on them and the entropy bonus counts only legal moves.
- **Seeded.** Everything random comes from ``jax.random`` keys split from ``seed``: the same seed and number of
  updates give the same parameters on the same machine (``--minutes`` only chooses where to stop).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from ..jax import auto_reset, make
from . import network


@dataclass(frozen=True)
class PPOConfig:
    game: str = "snorkeling"
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)  # the game's other config options
    seed: int = 0
    games: int = 256  # games played at once
    steps: int = 128  # moves per game per update
    hidden: int = 128
    learning_rate: float = 3e-4
    epochs: int = 4
    minibatches: int = 4
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    random_share: float = 0.5  # share of the games whose opponents play at random
    clone_share: float = 0.0  # share of the games whose opponents are the clone of a bot (``Trainer(clone=...)``)
    snapshots: int = 4  # frozen copies of the policy kept as opponents
    snapshot_every: int = 10  # updates between two snapshots

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Carry(NamedTuple):
    params: Any
    opt_state: Any
    env_state: Any
    learner: Any  # (games,) the learner's seat in each game
    opponent: Any  # (games,) -1: random; -2: the clone; k: snapshot k
    pool: Any  # the snapshots' parameters, stacked on a first axis of size ``snapshots``
    clone: Any  # the clone's parameters (the initial policy's when there is none; then never drawn)
    key: Any
    update: Any  # updates done


class Trainer:
    """Holds the environment and the compiled update of one ``PPOConfig``: ``start()`` then ``update(carry)``.

    ``clone``: a network's parameters (``network.init``'s names) that plays ``clone_share`` of the games' opponents
    greedily, e.g. ``imitation.fit`` on the ``medium`` bot's moves; required when ``clone_share`` is above 0."""

    def __init__(self, config: PPOConfig, clone: Any = None) -> None:
        if config.clone_share > 0 and clone is None:
            raise ValueError("clone_share needs a clone: Trainer(config, clone=params)")
        if config.random_share + config.clone_share > 1:
            raise ValueError("random_share + clone_share must be at most 1")
        self.config = config
        self.clone = clone
        self.env = make(config.game, num_players=config.players, **config.options)
        self.observations = int(self.env.observation_shape[0])
        self.actions = int(self.env.num_actions)
        self.optimizer = optax.chain(optax.clip_by_global_norm(config.max_grad_norm),
                                     optax.adam(config.learning_rate, eps=1e-5))
        self._step = jax.vmap(auto_reset(self.env))
        self.update = jax.jit(self._update)
        self.win_rate_vs_random = jax.jit(self._win_rate_vs_random, static_argnums=(2, 3))

    # -- setup --------------------------------------------------------------------------------------------------
    def start(self) -> Carry:
        c = self.config
        key = jax.random.PRNGKey(c.seed)
        key, k_params, k_env, k_seats = jax.random.split(key, 4)
        params = network.init(k_params, self.observations, self.actions, c.hidden)
        env_state = jax.vmap(self.env.init)(jax.random.split(k_env, c.games))
        learner, opponent = self._draw_sides(k_seats, c.games)
        pool = jax.tree.map(lambda p: jnp.stack([p] * c.snapshots), params)
        clone = jax.tree.map(jnp.asarray, self.clone) if self.clone is not None else params
        return Carry(params, self.optimizer.init(params), env_state, learner, opponent, pool, clone, key,
                     jnp.zeros((), jnp.int32))

    def restart_from(self, carry: Carry, params: Any) -> Carry:
        """``carry`` with ``params`` as the policy (names missing from ``params`` keep their value), a fresh
        optimizer, and every snapshot a copy of it."""
        params = {name: jnp.asarray(params[name]) if name in params else value for name, value in carry.params.items()}
        return carry._replace(params=params, opt_state=self.optimizer.init(params),
                              pool=jax.tree.map(lambda p: jnp.stack([p] * self.config.snapshots), params))

    def _draw_sides(self, key: Any, n: int) -> tuple[Any, Any]:
        c = self.config
        k_seat, k_kind, k_which = jax.random.split(key, 3)
        learner = jax.random.randint(k_seat, (n,), 0, c.players)
        snapshot = jax.random.randint(k_which, (n,), 0, c.snapshots)
        u = jax.random.uniform(k_kind, (n,))
        opponent = jnp.where(u < c.random_share, -1, jnp.where(u < c.random_share + c.clone_share, -2, snapshot))
        return learner, opponent

    # -- one update ---------------------------------------------------------------------------------------------
    def _opponent_logits(self, pool: Any, opponent: Any, observation: Any) -> Any:
        every = jax.vmap(lambda p: network.forward(p, observation)[0])(pool)  # (snapshots, games, actions)
        chosen = every[jnp.clip(opponent, 0), jnp.arange(observation.shape[0])]
        return jnp.where((opponent < 0)[:, None], 0.0, chosen)  # random: equal logits over the legal moves

    def _opponent_move(self, carry: Carry, opponent: Any, observation: Any, mask: Any, key: Any) -> Any:
        """The opponents' moves: sampled from a snapshot or at random, or the clone's most likely legal move."""
        sampled = jax.random.categorical(key, network.masked(self._opponent_logits(carry.pool, opponent, observation),
                                                             mask))
        if self.config.clone_share <= 0:
            return sampled
        greedy = jnp.argmax(network.masked(network.forward(carry.clone, observation)[0], mask), axis=1)
        return jnp.where(opponent == -2, greedy, sampled)

    def _rollout(self, carry: Carry) -> tuple[Carry, dict[str, Any]]:
        c = self.config
        games = jnp.arange(c.games)

        def move(inner: tuple[Any, Any, Any, Any], key: Any) -> tuple[tuple[Any, Any, Any, Any], dict[str, Any]]:
            state, learner, opponent, params = inner
            k_learner, k_opponent, k_step, k_sides = jax.random.split(key, 4)
            obs, mask = state.observation, state.legal_action_mask
            logits, value = network.forward(params, obs)
            logits = network.masked(logits, mask)
            mine = jax.random.categorical(k_learner, logits)
            theirs = self._opponent_move(carry, opponent, obs, mask, k_opponent)
            is_learner = state.current_player == learner
            action = jnp.where(is_learner, mine, theirs)
            state = self._step(state, action, jax.random.split(k_step, c.games))
            ended = state.terminated | state.truncated
            reward = state.rewards[games, learner]
            played_clone = opponent == -2
            fresh_learner, fresh_opponent = self._draw_sides(k_sides, c.games)
            learner = jnp.where(ended, fresh_learner, learner)
            opponent = jnp.where(ended, fresh_opponent, opponent)
            log_prob = jax.nn.log_softmax(logits)[games, mine]
            record = {"obs": obs, "mask": mask, "action": mine, "log_prob": log_prob, "value": value,
                      "is_learner": is_learner, "ended": ended, "reward": reward, "against_clone": played_clone}
            return (state, learner, opponent, params), record

        key, k_roll = jax.random.split(carry.key)
        (env_state, learner, opponent, _), trajectory = jax.lax.scan(
            move, (carry.env_state, carry.learner, carry.opponent, carry.params), jax.random.split(k_roll, c.steps))
        return carry._replace(env_state=env_state, learner=learner, opponent=opponent, key=key), trajectory

    def _advantages(self, t: dict[str, Any]) -> tuple[Any, Any, Any]:
        """GAE over each game's learner moves, backwards; returns (advantages, returns, weights)."""
        c = self.config

        def back(carry: tuple[Any, Any, Any, Any], x: dict[str, Any]) -> tuple[tuple[Any, Any, Any, Any], Any]:
            next_value, next_advantage, reward, known = carry
            # The game ended on this move: what follows (in the scan's future) is another game.
            next_value = jnp.where(x["ended"], 0.0, next_value)
            next_advantage = jnp.where(x["ended"], 0.0, next_advantage)
            reward = jnp.where(x["ended"], x["reward"], reward)
            known = known | x["ended"]
            delta = reward + c.gamma * next_value - x["value"]
            advantage = delta + c.gamma * c.lam * next_advantage
            mine = x["is_learner"]
            out = (jnp.where(mine, advantage, 0.0), (mine & known).astype(jnp.float32))
            carry = (jnp.where(mine, x["value"], next_value), jnp.where(mine, advantage, next_advantage),
                     jnp.where(mine, 0.0, reward), known)
            return carry, out

        zeros = jnp.zeros(c.games)
        _, (advantages, weights) = jax.lax.scan(
            back, (zeros, zeros, zeros, jnp.zeros(c.games, bool)),
            {k: t[k] for k in ("ended", "reward", "value", "is_learner")}, reverse=True)
        return advantages, advantages + t["value"], weights

    def _loss(self, params: Any, batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        c = self.config
        logits, value = network.forward(params, batch["obs"])
        logits = network.masked(logits, batch["mask"])
        log_probs = jax.nn.log_softmax(logits)
        log_prob = jnp.take_along_axis(log_probs, batch["action"][:, None], axis=1)[:, 0]
        w = batch["weight"]
        total = jnp.maximum(w.sum(), 1.0)
        advantage = batch["advantage"]
        ratio = jnp.exp(log_prob - batch["log_prob"])
        policy = -jnp.minimum(ratio * advantage, jnp.clip(ratio, 1 - c.clip, 1 + c.clip) * advantage)
        value_loss = 0.5 * (value - batch["return"]) ** 2
        probs = jnp.exp(log_probs)
        entropy = -jnp.sum(jnp.where(batch["mask"], probs * log_probs, 0.0), axis=1)
        policy_loss = (policy * w).sum() / total
        value_loss = (value_loss * w).sum() / total
        entropy = (entropy * w).sum() / total
        loss = policy_loss + c.value_coef * value_loss - c.entropy * entropy
        return loss, {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy}

    def _update(self, carry: Carry) -> tuple[Carry, dict[str, Any]]:
        c = self.config
        carry, t = self._rollout(carry)
        advantages, returns, weights = self._advantages(t)
        n = c.steps * c.games
        batch = {"obs": t["obs"].reshape(n, -1), "mask": t["mask"].reshape(n, -1),
                 "action": t["action"].reshape(n), "log_prob": t["log_prob"].reshape(n),
                 "advantage": advantages.reshape(n), "return": returns.reshape(n), "weight": weights.reshape(n)}
        w = batch["weight"]
        mean = (batch["advantage"] * w).sum() / jnp.maximum(w.sum(), 1.0)
        std = jnp.sqrt((((batch["advantage"] - mean) ** 2) * w).sum() / jnp.maximum(w.sum(), 1.0))
        batch["advantage"] = (batch["advantage"] - mean) / (std + 1e-8)
        size = n // c.minibatches

        def epoch(inner: tuple[Any, Any, Any], _: Any) -> tuple[tuple[Any, Any, Any], dict[str, Any]]:
            params, opt_state, key = inner
            key, k_perm = jax.random.split(key)
            order = jax.random.permutation(k_perm, n)

            def minibatch(inner2: tuple[Any, Any], i: Any) -> tuple[tuple[Any, Any], dict[str, Any]]:
                params, opt_state = inner2
                idx = jax.lax.dynamic_slice(order, (i * size,), (size,))
                part = jax.tree.map(lambda x: x[idx], batch)
                (_, info), grads = jax.value_and_grad(self._loss, has_aux=True)(params, part)
                updates, opt_state = self.optimizer.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), info

            (params, opt_state), info = jax.lax.scan(minibatch, (params, opt_state), jnp.arange(c.minibatches))
            return (params, opt_state, key), info

        key, k_epochs = jax.random.split(carry.key)
        (params, opt_state, _), info = jax.lax.scan(epoch, (carry.params, carry.opt_state, k_epochs), None,
                                                    length=c.epochs)
        update = carry.update + 1
        slot = (update // c.snapshot_every) % c.snapshots
        take = update % c.snapshot_every == 0
        pool = jax.tree.map(lambda stack, p: stack.at[slot].set(jnp.where(take, p, stack[slot])), carry.pool, params)
        ended = t["ended"]
        mine_ended = ended & (t["reward"] != 0)
        metrics = {k: v.mean() for k, v in info.items()}
        metrics["games_ended"] = ended.sum()
        metrics["learner_reward"] = jnp.where(mine_ended, t["reward"], 0.0).sum() / jnp.maximum(mine_ended.sum(), 1)
        metrics["learner_moves"] = weights.sum()
        versus_clone = mine_ended & t["against_clone"]
        metrics["reward_vs_clone"] = (jnp.where(versus_clone, t["reward"], 0.0).sum()
                                      / jnp.maximum(versus_clone.sum(), 1))
        return carry._replace(params=params, opt_state=opt_state, pool=pool, key=key, update=update), metrics

    # -- evaluation in JAX --------------------------------------------------------------------------------------
    def _win_rate_vs_random(self, params: Any, key: Any, games: int, max_moves: int) -> Any:
        """The share of ``games`` fresh deals won by the greedy policy (its most likely legal move) against the
        random policy, half of them in each seat (2 players: seats alternate; more: the policy sits at seat
        ``game % players``). A game not over after ``max_moves`` counts as lost."""
        c = self.config
        k_init, k_loop = jax.random.split(key)
        state = jax.vmap(self.env.init)(jax.random.split(k_init, games))
        seat = jnp.arange(games) % c.players
        index = jnp.arange(games)

        def body(x: tuple[Any, Any, Any, Any]) -> tuple[Any, Any, Any, Any]:
            state, result, key, moves = x
            key, k_random, k_step = jax.random.split(key, 3)
            logits, _ = network.forward(params, state.observation)
            mine = jnp.argmax(network.masked(logits, state.legal_action_mask), axis=1)
            theirs = jax.random.categorical(k_random, network.masked(jnp.zeros_like(logits),
                                                                     state.legal_action_mask))
            action = jnp.where(state.current_player == seat, mine, theirs)
            before = state.terminated | state.truncated
            state = jax.vmap(self.env.step)(state, action, jax.random.split(k_step, games))
            now = (state.terminated | state.truncated) & ~before
            result = jnp.where(now, state.rewards[index, seat], result)
            return state, result, key, moves + 1

        def running(x: tuple[Any, Any, Any, Any]) -> Any:
            state, _, _, moves = x
            return (~(state.terminated | state.truncated)).any() & (moves < max_moves)

        _, result, _, _ = jax.lax.while_loop(running, body, (state, jnp.zeros(games), k_loop, 0))
        return (result > 0).mean()


def parameters_numpy(params: Any) -> dict[str, np.ndarray]:
    """The parameters as float32 numpy arrays (what the shipped policy file holds)."""
    return {name: np.asarray(value, dtype=np.float32) for name, value in params.items()}


def steps_per_update(config: PPOConfig) -> int:
    return config.games * config.steps

