"""Hold Your Breath! as a pgx environment (``games/batched_env.py``: ``init(key)``, ``step(state, action, key)``,
``observe``; batch it with ``jax.vmap``). A step needs a key: a Discard icon takes a random card, the Ascent
shuffles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...batched_env import BatchedEnv, BatchedRules
from ..config import HoldYourBreathConfig
from ..state import HoldYourBreathState
from . import convert, observation, rules
from .state import OVER, HoldYourBreathBatchedState
from .tables import tables_for

RULES = BatchedRules(
    name="hold-your-breath", chance="Hold Your Breath! draws at random during play",
    state_type=HoldYourBreathBatchedState, tables_for=tables_for, new_game=rules.new_game, apply=rules.apply,
    legal_action_mask=rules.legal_action_mask, actor=rules.actor, is_over=lambda s: s.phase == OVER,
    scores=rules.distances, score_scale=lambda s: s.max_depth,  # the encoder's: distances over the board's depth
    observe=observation.observe, engine_arrays=convert.engine_arrays, to_engine=convert.to_engine)


class HoldYourBreathBatched(BatchedEnv):
    """One config of Hold Your Breath! (``HoldYourBreathConfig``; every option, with the shipped deck or another)."""

    rules = RULES

    def __init__(self, config: HoldYourBreathConfig | None = None, *, reward: str = "win_loss") -> None:
        from .. import GAME  # the game object: its move table, its encoder's constants

        super().__init__(GAME, config if config is not None else HoldYourBreathConfig(), reward=reward)

    def to_engines(self, state: Any, indices: Sequence[int], seed: int = 0) -> list[HoldYourBreathState]:
        """The reference states of the games ``indices`` of a batch (faster than one ``to_engine`` each)."""
        return convert.to_engines(self.tables, state, list(indices), seed)
