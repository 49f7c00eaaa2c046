"""The pgx environment of any game's batched rules: ``init(key)``, ``step(state, action, key)``, ``observe``, with
the legal mask, the player to act, the rewards and the end in the state. Batch it with ``jax.vmap`` and compile
with ``jax.jit``. Imported only by the games' batched packages (``games/<game>/batched/env.py``): it needs jax and
pgx.

A game gives its functions (``BatchedRules``); this wrapper names no game. Actions are the move table's integers
(``game.move_table(config)``), observations the reference encoder's vector for the seat to play, rewards those of
``divedeck.rl.rewards`` once the game is over. pgx's own conventions hold: a finished state's mask is all ones, an
illegal action ends the game with -1 for the seat that took it, and a step needs a key (every game here draws at
random during play).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from pgx.core import Env, EnvId

from .batched import when_needed

REWARDS = ("win_loss", "score_difference", "score")


@dataclass(frozen=True)
class BatchedRules:
    """What a game's batched package gives the wrapper. ``tables`` is what ``tables_for(game, config)`` returns:
    the config's sizes and constant arrays, with at least ``players`` and ``num_actions``."""

    name: str  # the registered game's name, pgx's env id
    chance: str  # why a step needs a key, for the error without one
    state_type: type  # the batched state (a pgx ``State`` dataclass)
    tables_for: Callable[[Any, Any], Any]  # (game, config) -> tables
    new_game: Callable[[Any, Any], Any]  # (tables, key) -> state
    apply: Callable[[Any, Any, Any, Any], Any]  # (tables, state, action, key) -> state
    legal_action_mask: Callable[[Any, Any], Any]  # (tables, state) -> [A] bool
    actor: Callable[[Any], Any]  # state -> the seat to act
    is_over: Callable[[Any], Any]  # state -> bool
    scores: Callable[[Any, Any], Any]  # (tables, state) -> [N] final scores
    score_scale: Callable[[Any], Any]  # state -> the encoder's score scale
    observe: Callable[[Any, Any, Any], Any]  # (tables, state, seat) -> the reference encoder's vector
    engine_arrays: Callable[[Any, Any], dict[str, Any]]  # (tables, reference state) -> the batched fields
    to_engine: Callable[..., Any]  # (tables, state, index, seed) -> reference state


class BatchedEnv(Env):
    """One config of a game, through its ``rules`` (a subclass sets them, with its game and its default config)."""

    rules: BatchedRules

    def __init__(self, game: Any, config: Any, *, reward: str = "win_loss") -> None:
        super().__init__()
        config.validate()
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; choose one of {', '.join(REWARDS)}")
        self.config = config
        self.reward = reward
        self.tables = self.rules.tables_for(game, config)
        self._refresh_batch = jax.jit(jax.vmap(self._refresh))

    # -- pgx's Env -----------------------------------------------------------------------------------------------
    def _init(self, key: Any) -> Any:
        return self._refresh(self.rules.new_game(self.tables, key))

    def _step(self, state: Any, action: Any, key: Any) -> Any:
        self._require(key)
        return self._refresh(self.rules.apply(self.tables, state, action, key))

    def step(self, state: Any, action: Any, key: Any = None) -> Any:  # type: ignore[override]
        """pgx's ``Env.step`` (same results), with its branches as selects: the rules compute a deal or a shuffle
        only for the games of a batch that need one (``games/batched.py``), which a traced ``lax.cond`` around
        them would undo."""
        self._require(key)
        done = state.terminated | state.truncated
        illegal = ~state.legal_action_mask[action]
        stepped = self._step(state.replace(_step_count=state._step_count + 1), action, key)
        stepped = stepped.replace(  # pgx: an illegal action ends the game, -1 for the seat that took it
            terminated=stepped.terminated | illegal,
            rewards=jnp.where(illegal, jnp.zeros_like(stepped.rewards).at[state.current_player].set(-1.0),
                              stepped.rewards))
        out = jax.tree.map(lambda new, old: jnp.where(done, old, new), stepped, state)
        out = out.replace(rewards=jnp.where(done, 0.0, out.rewards),
                          legal_action_mask=out.legal_action_mask | out.terminated)  # pgx: all ones once over
        return out.replace(observation=self.observe(out))

    def step_or_deal(self, state: Any, action: Any, key: Any, deal_key: Any) -> Any:
        """``divedeck.rl.jax.auto_reset``'s step, for a game still going: ``step``, and where the game ends, the new
        game of ``init(deal_key)`` in its place, with the finished game's rewards and end (pgx's ``auto_reset``
        convention). The same states as ``step`` then ``init`` where needed, for less: the deal is the rules' alone
        (only for the games that ended: ``when_needed``), and the legal mask, the player to act and the observation
        are computed once, for whichever game each row holds, instead of once for the step and again for the deal
        (whose masks and observations were carried through the deal's loop and written back)."""
        self._require(key)
        illegal = ~state.legal_action_mask[action]
        stepped = self.rules.apply(self.tables, state.replace(_step_count=state._step_count + 1), action, key)
        over = self.rules.is_over(stepped)
        rewards = jnp.where(illegal, jnp.zeros(self.num_players, jnp.float32).at[state.current_player].set(-1.0),
                            jnp.where(over, self._final_rewards(stepped), 0.0).astype(jnp.float32))
        ended = over | illegal
        out = self._refresh(self._deal_where(ended, stepped, deal_key))
        return out.replace(terminated=ended, truncated=jnp.zeros_like(ended), rewards=rewards,
                           observation=self.observe(out))

    def _deal_where(self, ended: Any, s: Any, key: Any) -> Any:
        """The rules' new game of ``key`` where ``ended``, else ``s``; the mask and the observation are left to the
        caller (the deal's loop carries only the game's fields)."""
        def bare(state: Any) -> Any:
            return state.replace(observation=jnp.zeros(0, jnp.float32), legal_action_mask=jnp.zeros(0, bool))

        dealt = when_needed(lambda k: bare(self.rules.new_game(self.tables, k)))(ended, bare(s), key)
        return dealt.replace(observation=s.observation, legal_action_mask=s.legal_action_mask)

    def _require(self, key: Any) -> None:
        if key is None:
            raise ValueError(f"{self.rules.chance}: step(state, action, key) needs a key")

    def _observe(self, state: Any, player_id: Any) -> Any:
        return self.rules.observe(self.tables, state, player_id)

    @property
    def id(self) -> EnvId:
        return self.rules.name  # type: ignore[return-value]  # pgx lists only its own games

    @property
    def version(self) -> str:
        return "v0"

    @property
    def num_players(self) -> int:
        return int(self.tables.players)

    @property
    def num_actions(self) -> int:
        return int(self.tables.num_actions)

    # -- bookkeeping ---------------------------------------------------------------------------------------------
    def _refresh(self, s: Any) -> Any:
        """Mask, player to act, end and rewards from the game fields; the observation is pgx's ``step``'s."""
        over = self.rules.is_over(s)
        return s.replace(
            legal_action_mask=self.rules.legal_action_mask(self.tables, s), current_player=self.rules.actor(s),
            terminated=over, rewards=jnp.where(over, self._final_rewards(s), 0.0).astype(jnp.float32))

    def _final_rewards(self, s: Any) -> Any:
        """``divedeck.rl.rewards`` for the finished game: win/loss, or scores over the encoder's score scale."""
        if self.reward == "win_loss":
            return jnp.where(s.winners, 1.0, -1.0)
        scores = self.rules.scores(self.tables, s).astype(jnp.float32)
        scale = self.rules.score_scale(s).astype(jnp.float32)
        if self.reward == "score":
            return scores / scale
        others = (scores.sum() - scores) / (self.tables.players - 1)
        return (scores - others) / scale

    # -- the reference engine ------------------------------------------------------------------------------------
    def from_engines(self, states: Sequence[Any]) -> Any:
        """A batch of the reference states ``states`` (deals included), ready to step."""
        games = [self.rules.engine_arrays(self.tables, state) for state in states]
        n, size = len(games), self.tables.num_actions
        fields = {name: np.stack([game[name] for game in games]) for name in games[0]}
        batch = self.rules.state_type(
            current_player=np.zeros(n, np.int32), observation=np.zeros((n, 0), np.float32),
            rewards=np.zeros((n, self.tables.players), np.float32), terminated=np.zeros(n, bool),
            truncated=np.zeros(n, bool), legal_action_mask=np.zeros((n, size), bool),
            _step_count=np.zeros(n, np.int32), **fields)
        return self._observe_batch(self._refresh_batch(batch))

    def from_engine(self, state: Any) -> Any:
        """One reference state as a batched state (a batch of none: ``jax.vmap`` adds the axis)."""
        batch = self.from_engines([state])
        return jax.tree.map(lambda field: field[0], batch)

    def to_engine(self, state: Any, index: int | None = None, seed: int = 0) -> Any:
        """The reference state of ``state`` (game ``index`` of a batch), with ``SeededRng(seed)`` to shuffle."""
        return self.rules.to_engine(self.tables, state, index, seed)

    @partial(jax.jit, static_argnums=0)
    def _observe_batch(self, batch: Any) -> Any:
        return batch.replace(observation=jax.vmap(self.observe)(batch))
