"""Snorkeling as a pgx environment (``games/batched_env.py``: ``init(key)``, ``step(state, action, key)``,
``observe``; batch it with ``jax.vmap``). A step needs a key: Snorkeling shuffles when the deck runs out and
between rounds.
"""

from __future__ import annotations

from ...batched_env import BatchedEnv, BatchedRules
from ..config import SnorkelingConfig
from . import convert, observation, rules
from .state import OVER, SnorkelingBatchedState
from .tables import tables_for

RULES = BatchedRules(
    name="snorkeling", chance="Snorkeling shuffles during play", state_type=SnorkelingBatchedState,
    tables_for=tables_for, new_game=rules.new_game, apply=rules.apply, legal_action_mask=rules.legal_action_mask,
    actor=lambda s: s.active, is_over=lambda s: s.phase == OVER,
    scores=lambda t, s: s.scores, score_scale=lambda s: s.target_score,  # the encoder's: scores over the target
    observe=observation.observe, engine_arrays=convert.engine_arrays, to_engine=convert.to_engine)


class SnorkelingBatched(BatchedEnv):
    """One config of Snorkeling (``SnorkelingConfig``; every option, Expert Diving included)."""

    rules = RULES

    def __init__(self, config: SnorkelingConfig | None = None, *, reward: str = "win_loss") -> None:
        from .. import GAME  # the game object: its move table, its encoder's constants

        super().__init__(GAME, config if config is not None else SnorkelingConfig(), reward=reward)
