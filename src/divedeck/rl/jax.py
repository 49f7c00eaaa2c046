"""Batched games for learning (the optional extra ``divedeck[jax]``): pgx environments, pure JAX over fixed-size
arrays, to ``jax.jit(jax.vmap(env.step))`` over thousands of games at once.

    import jax
    from divedeck.rl.jax import make
    env = make("snorkeling", num_players=4, expert_diving=True)
    keys = jax.random.split(jax.random.PRNGKey(0), 1024)
    state = jax.jit(jax.vmap(env.init))(keys)
    state = jax.jit(jax.vmap(env.step))(state, actions, keys)  # actions: the move table's integers

A game offers this by declaring its batched rules (``Game.batched``); this module names no game. The batched
rules are never the reference: each game's differential test plays them against the engine at every step. Same
actions as the move table, same observation as ``divedeck.rl``'s encoder (the seat to play's view), same rewards
(``reward=``); ``env.from_engine(state)`` / ``env.to_engine(state)`` convert a game to and from the engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..engine.registry import game_names, get_game


def games_with_batched_rules() -> list[str]:
    """The registered games that declare batched rules."""
    return [name for name in game_names() if get_game(name).batched is not None]


def make(game_name: str, *, reward: str = "win_loss", **options: Any) -> Any:
    """The batched environment of ``game_name`` under ``options`` (the game's config options)."""
    game = get_game(game_name)
    if game.batched is None:
        raise ValueError(f"{game.title} has no batched rules; the games with them are: "
                         f"{', '.join(games_with_batched_rules())}")
    module, _, name = game.batched.partition(":")
    environment = getattr(import_module(module), name)
    return environment(game.make_config(options), reward=reward)


def auto_reset(env: Any) -> Any:
    """``step(state, action, key)`` that deals a new game (``env.init``) to each game that has just ended, so a
    batch runs on with no loop in Python. The state it returns is the new game's, with the finished game's rewards
    and end (pgx's ``auto_reset`` convention) and the new game's legal-action mask, ready for the next action.
    Only the games that ended are dealt (``games.batched.when_needed``). An environment that offers
    ``step_or_deal(state, action, key, deal_key)`` (the games' batched environments: the same result, with the
    mask and the observation computed once per step) steps through it; any other pgx environment through ``step``
    and ``init``."""
    import jax
    import jax.numpy as jnp

    from ..games.batched import when_needed

    def clear(state: Any) -> Any:
        """A state returned at a reset carries the finished game's end: the new game goes on from here."""
        return state.replace(terminated=jnp.zeros_like(state.terminated), truncated=jnp.zeros_like(state.truncated))

    if hasattr(env, "step_or_deal"):
        def step_or_deal(state: Any, action: Any, key: Any) -> Any:
            step_key, init_key = jax.random.split(key)
            return env.step_or_deal(clear(state), action, step_key, init_key)

        return step_or_deal

    deal = when_needed(env.init)

    def step(state: Any, action: Any, key: Any) -> Any:
        step_key, init_key = jax.random.split(key)
        state = env.step(clear(state), action, step_key)
        fresh = deal(state.terminated | state.truncated, state, init_key)
        return fresh.replace(terminated=state.terminated, truncated=state.truncated, rewards=state.rewards)

    return step


def random_legal_action(key: Any, mask: Any) -> Any:
    """One action drawn uniformly among the legal ones of ``mask`` (one game's; ``jax.vmap`` it for a batch); with
    none legal, action 0. One uniform draw, then a search in two levels: blocks of at most 32 actions (XLA on the CPU
    sums a longer axis in windows it cannot fuse), then the actions of one block, read as a row. Both running counts
    are products with a constant triangle of ones (a matrix product is one vectorised call for the whole batch; a
    ``cumsum`` is a window per entry: with it the draw cost 3-4x more). Counts in float32 are exact up to 2**24.
    A running count over all the actions, or a noise per action, cost more than a whole step of a game with a
    thousand-odd actions on the CPU."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    size = mask.shape[0]
    width = _block_width(size)
    blocks = -(-size // width)
    if blocks * width > size:
        mask = jnp.concatenate([mask, jnp.zeros(blocks * width - size, bool)])
    rows = mask.reshape(blocks, width)
    per_block = rows.sum(axis=1).astype(jnp.float32)
    through = per_block @ jnp.asarray(np.triu(np.ones((blocks, blocks), np.float32)))  # legal up to each block's end
    count = through[-1]
    nth = jnp.minimum(jnp.floor(jax.random.uniform(key) * count), jnp.maximum(count - 1, 0))
    block = jnp.minimum((through <= nth).sum(), blocks - 1)
    row = rows[block].astype(jnp.float32) @ jnp.asarray(np.triu(np.ones((width, width), np.float32)))
    within = (row <= nth - (through[block] - per_block[block])).sum()
    return jnp.where(count > 0, block * width + within, 0).astype(jnp.int32)


def _block_width(size: int) -> int:
    """The random draw's block: a width of 16-32 that divides ``size`` (no padded copy of the mask), else 32."""
    return next((width for width in range(16, 33) if size % width == 0), 32)
