"""Hold Your Breath! as a pgx environment: ``init(key)``, ``step(state, action, key)``, ``observe``, with the
legal mask, the player to act, the rewards and the end in the state.
Batch it with ``jax.vmap`` and compile with ``jax.jit``.

Actions are the move table's integers (``GAME.move_table(config)``), observations the reference encoder's vector
for the seat to play, rewards those of ``divedeck.rl.rewards`` once the game is over. pgx's own conventions hold:
a finished state's mask is all ones, an illegal action ends the game with -1 for the seat that took it, and a
step needs a key (a Discard icon takes a random card, the Ascent shuffles).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from pgx.core import Env, EnvId

from ..config import HoldYourBreathConfig
from ..state import HoldYourBreathState
from . import convert, observation, rules
from .state import OVER, HoldYourBreathBatchedState
from .tables import Tables, tables_for

REWARDS = ("win_loss", "score_difference", "score")


class HoldYourBreathBatched(Env):
    """One config of Hold Your Breath! (``HoldYourBreathConfig``; every option, with the shipped deck or another)."""

    def __init__(self, config: HoldYourBreathConfig | None = None, *, reward: str = "win_loss") -> None:
        super().__init__()
        from .. import GAME  # the game object: its move table, its encoder's constants

        config = config if config is not None else HoldYourBreathConfig()
        config.validate()
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; choose one of {', '.join(REWARDS)}")
        self.config = config
        self.reward = reward
        self.tables: Tables = tables_for(GAME, config)
        self._refresh_batch = jax.jit(jax.vmap(self._refresh))

    # -- pgx's Env -----------------------------------------------------------------------------------------------
    def _init(self, key: Any) -> HoldYourBreathBatchedState:
        return self._refresh(rules.new_game(self.tables, key))

    def _step(self, state: Any, action: Any, key: Any) -> HoldYourBreathBatchedState:
        if key is None:
            raise ValueError("Hold Your Breath! draws at random during play: step(state, action, key) needs a key")
        return self._refresh(rules.apply(self.tables, state, action, key))

    def step(self, state: Any, action: Any, key: Any = None) -> HoldYourBreathBatchedState:  # type: ignore[override]
        """pgx's ``Env.step`` (same results), with its branches as selects: the rules compute a deal or a shuffle
        only for the games of a batch that need one (``games/batched.py``), which a traced ``lax.cond`` around
        them would undo."""
        if key is None:
            raise ValueError("Hold Your Breath! draws at random during play: step(state, action, key) needs a key")
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
        return out.replace(observation=self.observe(out))  # type: ignore[no-any-return]

    def _observe(self, state: Any, player_id: Any) -> Any:
        return observation.observe(self.tables, state, player_id)

    @property
    def id(self) -> EnvId:
        return "hold-your-breath"  # type: ignore[return-value]  # pgx lists only its own games

    @property
    def version(self) -> str:
        return "v0"

    @property
    def num_players(self) -> int:
        return self.tables.players

    @property
    def num_actions(self) -> int:
        return self.tables.num_actions

    # -- bookkeeping ---------------------------------------------------------------------------------------------
    def _refresh(self, s: HoldYourBreathBatchedState) -> HoldYourBreathBatchedState:
        """Mask, player to act, end and rewards from the game fields; the observation is pgx's ``step``'s."""
        t = self.tables
        over = s.phase == OVER
        return s.replace(  # type: ignore[attr-defined,no-any-return]
            legal_action_mask=rules.legal_action_mask(t, s), current_player=rules.actor(s), terminated=over,
            rewards=jnp.where(over, self._final_rewards(s), 0.0).astype(jnp.float32))

    def _final_rewards(self, s: HoldYourBreathBatchedState) -> Any:
        """``divedeck.rl.rewards`` for the finished game: win/loss, or distances over the board's depth (the
        encoder's ``score_scale``)."""
        if self.reward == "win_loss":
            return jnp.where(s.winners, 1.0, -1.0)
        scores = rules.distances(self.tables, s).astype(jnp.float32)
        scale = s.max_depth.astype(jnp.float32)
        if self.reward == "score":
            return scores / scale
        others = (scores.sum() - scores) / (self.tables.players - 1)
        return (scores - others) / scale

    # -- the reference engine ------------------------------------------------------------------------------------
    def from_engines(self, states: Sequence[HoldYourBreathState]) -> HoldYourBreathBatchedState:
        """A batch of the reference states ``states`` (deals included), ready to step."""
        games = [convert.engine_arrays(self.tables, state) for state in states]
        n, size = len(games), self.tables.num_actions
        fields = {name: np.stack([game[name] for game in games]) for name in games[0]}
        batch = HoldYourBreathBatchedState(  # type: ignore[call-arg]
            current_player=np.zeros(n, np.int32), observation=np.zeros((n, 0), np.float32),
            rewards=np.zeros((n, self.tables.players), np.float32), terminated=np.zeros(n, bool),
            truncated=np.zeros(n, bool), legal_action_mask=np.zeros((n, size), bool),
            _step_count=np.zeros(n, np.int32), **fields)
        return self._observe_batch(self._refresh_batch(batch))

    def from_engine(self, state: HoldYourBreathState) -> HoldYourBreathBatchedState:
        """One reference state as a batched state (a batch of none: ``jax.vmap`` adds the axis)."""
        batch = self.from_engines([state])
        return jax.tree.map(lambda field: field[0], batch)  # type: ignore[no-any-return]

    def to_engine(self, state: Any, index: int | None = None, seed: int = 0) -> HoldYourBreathState:
        """The reference state of ``state`` (game ``index`` of a batch), with ``SeededRng(seed)`` to shuffle."""
        return convert.to_engine(self.tables, state, index, seed)

    def to_engines(self, state: Any, indices: Sequence[int], seed: int = 0) -> list[HoldYourBreathState]:
        """The reference states of the games ``indices`` of a batch (faster than one ``to_engine`` each)."""
        return convert.to_engines(self.tables, state, list(indices), seed)

    @partial(jax.jit, static_argnums=0)
    def _observe_batch(self, batch: HoldYourBreathBatchedState) -> HoldYourBreathBatchedState:
        return batch.replace(observation=jax.vmap(self.observe)(batch))  # type: ignore[attr-defined,no-any-return]
