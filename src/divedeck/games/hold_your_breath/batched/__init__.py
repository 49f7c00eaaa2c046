"""Hold Your Breath!'s batched rules for learning: pure JAX over fixed-size arrays, pgx's Env API (needs
``divedeck[jax]``).

Never the reference: ``../rules.py`` is. ``tests/rl/test_jax_hold_your_breath.py`` plays both forms from the same
deals and compares them at every step. Reach it through ``divedeck.rl.jax.make("hold-your-breath", **options)``.
"""

from .env import HoldYourBreathBatched
from .state import HoldYourBreathBatchedState

__all__ = ["HoldYourBreathBatched", "HoldYourBreathBatchedState"]
