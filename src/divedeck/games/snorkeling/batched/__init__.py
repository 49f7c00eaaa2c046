"""Snorkeling's batched rules for learning: pure JAX over fixed-size arrays, pgx's Env API (needs ``divedeck[jax]``).

Never the reference: ``../rules.py`` is. ``tests/rl/test_jax_snorkeling.py`` plays both forms from the same deals
and compares them at every step. Reach it through ``divedeck.rl.jax.make("snorkeling", **options)``.
"""

from .env import SnorkelingBatched
from .state import SnorkelingBatchedState

__all__ = ["SnorkelingBatched", "SnorkelingBatchedState"]
