"""What the games' batched rules (``games/<game>/batched``, pure JAX) share. Imported only by them: it needs jax.

``keyed_order``: a shuffle with no loop, by the ranks of random keys. A Fisher-Yates loop of 67 swaps ran as 67
iterations of a compiled while loop, each paying the CPU runtime's dispatch for a few numbers a game; in a deal or
the Ascent's shuffle it was most of what those cost (1-2 ms a step of 1,024 Hold Your Breath! games).

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


def keyed_order(bits: Any, items: Any, places: Any) -> Any:
    """The order (``order[p]``: the place ``p`` now holds what was at ``order[p]``) that puts the ``items`` (a bool
    per place) into the ``places`` (as many), the item whose (key, place) is k-th smallest at the k-th of the
    places; the other places hold ``-1``. ``bits``: a uint32 random key per place, so that equal keys are rare (two
    in 68 places: about 5e-7) and then ranked by place; the order is uniform but for those. Ranks are counted by
    comparing every pair (68 x 68 places: no sort, no loop)."""
    size = bits.shape[0]
    index = jnp.arange(size)
    ahead = (bits[None, :] < bits[:, None]) | ((bits[None, :] == bits[:, None]) & (index[None, :] < index[:, None]))
    rank = jnp.where(items, (ahead & items[None, :]).sum(axis=1), -1)  # the items ahead of each item
    place_rank = jnp.where(places, ((index[None, :] < index[:, None]) & places[None, :]).sum(axis=1), -2)
    hit = rank[None, :] == place_rank[:, None]  # [place, item]
    return jnp.where(hit.any(axis=1), (hit * index[None, :]).sum(axis=1), -1).astype(jnp.int32)


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
