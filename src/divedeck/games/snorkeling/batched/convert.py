"""Between the two forms of the rules: a reference state as batched arrays (``engine_arrays``) and back
(``to_engine``). The deal travels with the state; the reference's shuffle generator does not (the batched form
shuffles with the key each step is given), so ``to_engine`` takes the seed of the generator to give it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ....engine.rng import SeededRng
from ..context import context_for
from ..rules import refresh_acceptance
from ..state import CENTER, GAME_OVER, OPPONENTS, SnorkelingState
from .state import LIMITS, PHASES
from .tables import Tables

_PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}
_PHASE_NAME = {0: CENTER, 1: OPPONENTS, 2: GAME_OVER}


def _stack(cards: tuple[int, ...], size: int) -> np.ndarray:
    out = np.zeros(size, np.int32)
    out[:len(cards)] = cards
    return out


def _counts(cards: tuple[int, ...], faces: int) -> np.ndarray:
    return np.bincount(np.asarray(cards, np.int64), minlength=faces).astype(np.int32)


def engine_arrays(t: Tables, state: SnorkelingState) -> dict[str, Any]:
    """The batched state's game fields (numpy, one game) for a reference state of the same config."""
    config = state.context.config
    if config.num_players != t.players or state.context.table != t.config.table:
        raise ValueError(f"this state has {config.num_players} players and its own card table: the environment "
                         f"has {t.players} players (every other option may differ: it travels with the state)")
    n, f = t.players, t.faces
    return {
        "hands": np.stack([_counts(hand, f) for hand in state.hands]),
        "known": np.stack([_counts(known, f) for known in state.known]),
        "deck": _stack(state.deck, t.deck_size), "deck_len": np.int32(len(state.deck)),
        "center": _stack(state.center, t.deck_size), "center_len": np.int32(len(state.center)),
        "piles": np.stack([_stack(pile, t.pile_capacity) for pile in state.piles]),
        "pile_len": np.asarray([len(pile) for pile in state.piles], np.int32),
        "scores": np.asarray(state.scores, np.int32), "round": np.int32(state.round),
        "starter": np.int32(state.starter), "active": np.int32(state.active),
        "phase": np.int32(_PHASE_INDEX[state.phase]), "played": np.int32(state.played),
        "hit": np.asarray([bool(state.hit >> seat & 1) for seat in range(n)]), "turns": np.int32(state.turns),
        "total_turns": np.int32(state.total_turns), "stall": np.int32(state.stall),
        "winners": np.asarray([seat in state.winners for seat in range(n)]),
        "center_counts": _counts(state.center, f),
        "expert_diving": np.bool_(config.expert_diving),
        "play_limit": np.int32(LIMITS.index(config.opponent_play_limit)),
        "allow_own_pile": np.bool_(config.allow_own_pile),
        "rotate_starter": np.bool_(config.next_round_starter == "rotate_left"),
        "target_score": np.int32(config.target_score), "turn_cap": np.int32(config.turn_cap),
        "round_cap": np.int32(config.round_cap),
    }


def to_engine(t: Tables, arrays: Any, index: int | None = None, seed: int = 0) -> SnorkelingState:
    """The reference state of one game of ``arrays`` (a batched state, or numpy copies of its fields); ``index``
    picks the game of a batch. Its config is the environment's with the game's own options; its generator is
    ``SeededRng(seed)``."""

    def field(name: str) -> Any:
        value = np.asarray(getattr(arrays, name))
        return (value if index is None else value[index]).tolist()

    def cards(counts: list[int]) -> tuple[int, ...]:
        return tuple(face for face, count in enumerate(counts) for _ in range(count))

    config = replace(t.config, expert_diving=bool(field("expert_diving")),
                     opponent_play_limit=LIMITS[field("play_limit")],  # type: ignore[arg-type]
                     allow_own_pile=bool(field("allow_own_pile")),
                     next_round_starter="rotate_left" if field("rotate_starter") else "same",
                     target_score=field("target_score"), turn_cap=field("turn_cap"), round_cap=field("round_cap"))
    state = object.__new__(SnorkelingState)
    state.context = context_for(config)
    state.rng = SeededRng(seed)
    state.hands = tuple(cards(row) for row in field("hands"))
    state.known = tuple(cards(row) for row in field("known"))
    state.deck = tuple(field("deck")[:field("deck_len")])
    state.center = tuple(field("center")[:field("center_len")])
    state.piles = tuple(tuple(pile[:size]) for pile, size in zip(field("piles"), field("pile_len"), strict=True))
    state.scores = tuple(field("scores"))
    for name in ("round", "starter", "active", "played", "turns", "total_turns", "stall"):
        setattr(state, name, field(name))
    state.phase = _PHASE_NAME[field("phase")]
    state.hit = sum(1 << seat for seat, hit in enumerate(field("hit")) if hit)
    state.winners = tuple(seat for seat, won in enumerate(field("winners")) if won)
    refresh_acceptance(state)
    return state
