"""The baseline bot; what a bot is given and returns (``Decision``, ``Bot``, ``TimedBot``) lives in the engine.

A bot sees a ``Decision``: its seat, that seat's view and legal actions, and a ``determinize`` that samples a full
state consistent with what the seat knows (for search). It never receives the true state, so it cannot read
another seat's hand.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.decision import Bot, Decision, TimedBot, decide, decision_for


class RandomBot:
    """Uniformly random among the legal actions: the baseline every other bot should beat."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, decision: Decision) -> Any:
        return self.rng.choice(decision.legal)


__all__ = ["Bot", "Decision", "RandomBot", "TimedBot", "decide", "decision_for"]
