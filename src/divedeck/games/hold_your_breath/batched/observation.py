"""One seat's observation from the batched state: the same vector as ``../observation.py`` writes from its view.

Only what the seat may see is read (HYB-R3): its own hand, the card it set aside for the Kraken, the faces of the
face-down Panics it laid itself, and what is public; never another hand, the deck's order or a face-down card it
did not lay. The blocks, their order and their scales are the reference encoder's (``docs/rl.md``);
``tests/rl/test_jax_hold_your_breath.py`` compares the two vectors at every step.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from .rules import HOW_BLIND, HOW_DOWN, HOW_SHARK, WAITING, actor, distances
from .state import KRAKEN, OVER, HoldYourBreathBatchedState
from .tables import Tables

PIECE = 32  # XLA on the CPU sums a longer axis as a windowed sum it cannot fuse with what it sums


def count_each(codes: Any, size: int) -> Any:
    """How many entries of ``codes``' last axis equal each of ``0 .. size - 1``: ``[..., size]``. The entries are
    compared along their own (contiguous) axis in slices of at most ``PIECE``, so that each compare is summed as it
    is made: summed across the other axis, over all 68 places at once, or padded to equal pieces, XLA wrote every
    compare out first (5-30x slower; this was most of the observation's cost)."""
    length = codes.shape[-1]
    even = [k for k in range(1, length + 1) if length % k == 0 and length // k <= PIECE][0]
    if even <= 2 * -(-length // PIECE):  # equal pieces (68 places: 4 of 17), twice as fast as unequal slices
        split = codes.reshape(*codes.shape[:-1], 1, even, length // even)
        return (split == jnp.arange(size)[:, None, None]).sum(axis=-1).sum(axis=-1)
    width = -(-length // -(-length // PIECE))
    values = jnp.arange(size)[:, None]
    return sum((codes[..., None, start:start + width] == values).sum(axis=-1) for start in range(0, length, width))


def observe(t: Tables, s: HoldYourBreathBatchedState, seat: Any) -> Any:
    n, f, d = t.players, t.faces, t.deck_size
    per_copy = 1.0 / jnp.asarray(t.face_copies, jnp.float32)
    faces = jnp.arange(f)
    over = s.phase == OVER
    in_discard = count_each(jnp.where(jnp.arange(d) < s.discard_len, s.discard, -1), f)
    depth = s.max_depth.astype(jnp.float32)
    kraken = s.phase == KRAKEN
    head = [
        s.hands[seat] * per_copy,
        in_discard * per_copy,
        (s.deck_len / float(d))[None],
        (jnp.arange(2) == s.round).astype(jnp.float32),
        (jnp.arange(5) == s.phase).astype(jnp.float32),
        jnp.stack([s.air, s.swim, jnp.minimum(s.air, s.swim)]) / t.turn_scale,
        (jnp.arange(n + 1) == jnp.where(s.trigger < 0, n, (s.trigger - seat) % n)).astype(jnp.float32),
        (s.final_left / float(n))[None],
        ((faces == s.kraken[seat]) & kraken).astype(jnp.float32),
    ]
    seats = jnp.arange(n)
    acting = jnp.where(kraken, s.kraken == WAITING, (seats == actor(s)) & ~over)
    inside = (jnp.arange(d)[None, :] < s.pile_len[:, None])
    how = s.piles & 3
    up = inside & (how <= HOW_SHARK)
    seen = inside & (how == HOW_DOWN) & (seats == seat)[:, None]
    unseen = inside & ((how == HOW_BLIND) | ((how == HOW_DOWN) & (seats != seat)[:, None]))
    # One code per Swim Pile place: its face if it lies face up, the face plus F if the observer laid it face
    # down, else none; then both blocks' counts in one pass.
    code = jnp.where(up, s.piles >> 2, jnp.where(seen, (s.piles >> 2) + f, -1))
    counts = count_each(code, 2 * f) * jnp.tile(per_copy, 2)
    counts = jax.lax.optimization_barrier(counts)  # computed once: XLA would fuse it into each use and repeat it

    table = jnp.concatenate([
        jnp.stack([
            s.depths / depth,
            jnp.where(s.has_anchors, s.anchors / depth, 0.0),
            jnp.where(s.has_anchors, distances(t, s) / (2 * depth), 0.0),
            s.hands.sum(axis=1) / float(t.hand_size),
            (s.surfaced >= 0).astype(jnp.float32),
            ((seats == s.active) & ~over).astype(jnp.float32),
            acting.astype(jnp.float32),
            (kraken & (s.kraken == WAITING)).astype(jnp.float32),
            (kraken & (s.kraken >= 0)).astype(jnp.float32),
            s.winners.astype(jnp.float32),
        ], axis=1),
        counts, (unseen.sum(axis=1) / 5.0)[:, None],
    ], axis=1)
    # Block r is the seat r places to the observer's left: a select with a one-hot per block (a gather of rows
    # by a traced order is slower under vmap).
    rotation = (seat + seats[:, None]) % n == seats[None, :]  # [block, seat]
    per_seat = jnp.where(rotation[:, :, None], table[None, :, :], 0.0).sum(axis=1)
    vector = jnp.concatenate([jnp.concatenate([jnp.asarray(part, jnp.float32).reshape(-1) for part in head]),
                              per_seat.reshape(-1).astype(jnp.float32)])
    return jnp.clip(vector, 0.0, 1.0)
