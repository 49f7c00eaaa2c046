"""One seat's observation from the batched state: the same vector as ``../observation.py`` writes from its view.

Only what the seat may see is read (SNK-R4): its own hand, the public stacks and counts, the hand cards known to
all; never another hand or the deck's order. The blocks, their order and their scales are the reference
encoder's (``docs/rl.md``); ``tests/rl/test_jax_snorkeling.py`` compares the two vectors at every step.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from .rules import pile_top_values
from .state import OVER, SnorkelingBatchedState
from .tables import Tables


def _counts(t: Tables, cards: Any, length: Any) -> Any:
    """Cards of each face among the first ``length`` entries of the stack(s) ``cards`` (last axis)."""
    inside = jnp.arange(cards.shape[-1]) < length[..., None]
    one_hot = (cards[..., None] == jnp.arange(t.faces)) & inside[..., None]
    return one_hot.sum(axis=-2)


def observe(t: Tables, s: SnorkelingBatchedState, seat: Any) -> Any:
    n, step = t.players, t.copies_scale
    over = s.phase == OVER
    faces = jnp.arange(t.faces)
    top = s.center[s.center_len - 1]
    t0 = s.center[s.center_len - 1 - s.played]
    head = [
        s.hands[seat] * step,
        (faces == top).astype(jnp.float32),
        s.center_counts * step,
        jnp.stack([s.center_len / 20.0, s.deck_len / t.deck_divisor]),
        (jnp.arange(3) == s.phase).astype(jnp.float32),
        (s.played / 5.0)[None],
        (faces == t0).astype(jnp.float32),
        jnp.stack([s.round / 20.0, s.turns / 50.0]),
    ]
    order = (seat + jnp.arange(n)) % n  # block r is the seat r places to the observer's left
    per_seat = jnp.concatenate([
        jnp.stack([
            s.scores / s.target_score.astype(jnp.float32),
            pile_top_values(t, s) / float(t.values),
            s.pile_len / 10.0,
            s.hands.sum(axis=1) / 10.0,
            ((jnp.arange(n) == s.active) & ~over).astype(jnp.float32),  # nobody is to play once it is over
            (jnp.arange(n) == s.starter).astype(jnp.float32),
            s.hit.astype(jnp.float32),
        ], axis=1),
        _counts(t, s.piles, s.pile_len) * step,
        s.known * step,
    ], axis=1)[order]
    vector = jnp.concatenate([jnp.concatenate([jnp.asarray(part, jnp.float32).reshape(-1) for part in head]),
                              per_seat.reshape(-1).astype(jnp.float32)])
    return jnp.clip(vector, 0.0, 1.0)
