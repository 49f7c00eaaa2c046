"""What the games' batched rules (``games/<game>/batched``, pure JAX) share. Imported only by them: it needs jax.

``when_needed``: a costly branch (a deal, a shuffle) that few games of a batch take on a given step. Under
``jax.vmap`` a ``lax.cond`` computes both branches for every game; this computes the costly one only for the games
that take it, a sixty-fourth of the batch at a time (a pass costs what its room does, full or not: an eighth at a
time cost 0.5-1 ms more per step of 1,024 Hold Your Breath! games, where about 7 games end and 7 reach the Ascent
on a step): nothing when no game does, and one compiled copy of the branch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from jax.custom_batching import custom_vmap


def when_needed(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``call(need, fallback, *args)``: ``fn(*args)`` where ``need``, else ``fallback`` (a pytree shaped like what
    ``fn`` returns)."""

    @custom_vmap
    def call(need: Any, fallback: Any, *args: Any) -> Any:
        return jax.lax.cond(need, lambda: fn(*args), lambda: fallback)

    @call.def_vmap
    def batched(axis_size: int, in_batched: Any, need: Any, fallback: Any, *args: Any) -> tuple[Any, Any]:  # noqa: E501
        def full_size(value: Any, is_batched: bool) -> Any:
            return value if is_batched else jnp.broadcast_to(value, (axis_size, *jnp.shape(value)))

        need, fallback, *args = jax.tree.map(full_size, [need, fallback, *args], list(in_batched))
        room = max(1, axis_size // 64)

        def some(carry: tuple[Any, Any]) -> tuple[Any, Any]:
            """``fn`` for up to ``room`` of the games still waiting for it."""
            out, waiting = carry
            rows = jnp.nonzero(waiting, size=room, fill_value=axis_size)[0]
            picked = jax.tree.map(lambda value: value[jnp.minimum(rows, axis_size - 1)], args)
            done = jax.vmap(fn)(*picked)
            out = jax.tree.map(lambda old, new: old.at[rows].set(new, mode="drop"), out, done)
            return out, waiting.at[rows].set(False, mode="drop")

        out, _ = jax.lax.while_loop(lambda carry: jnp.any(carry[1]), some, (fallback, need))
        return out, jax.tree.map(lambda _: True, out)

    return call
