"""Between the two forms of the rules: a reference state as batched arrays (``engine_arrays``) and back
(``to_engine``). The deal travels with the state; the reference's generator does not (the batched form draws
with the key each step is given), so ``to_engine`` takes the seed of the generator to give it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ....engine.rng import SeededRng
from ..state import ASCENT, DESCENT, PHASES, HoldYourBreathState, context_for
from .state import ENDINGS
from .tables import Tables

_ROUND_INDEX = {DESCENT: 0, ASCENT: 1}
_PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}


def _stack(cards: tuple[int, ...], size: int) -> np.ndarray:
    out = np.zeros(size, np.int32)
    out[:len(cards)] = cards
    return out


def engine_arrays(t: Tables, state: HoldYourBreathState) -> dict[str, Any]:
    """The batched state's game fields (numpy, one game) for a reference state of the same config."""
    config = state.context.config
    if config.num_players != t.players or state.context.table != t.config.table:
        raise ValueError(f"this state has {config.num_players} players and its own deck: the environment has "
                         f"{t.players} players (every other option may differ: it travels with the state)")
    n, d, f = t.players, t.deck_size, t.faces
    surfaced = np.full(n, -1, np.int32)
    for rank, seat in enumerate(state.surfaced):
        surfaced[seat] = rank
    return {
        "hands": np.stack([np.bincount(np.asarray(hand, np.int64), minlength=f).astype(np.int32)
                           for hand in state.hands]),
        "deck": _stack(state.deck, d), "deck_len": np.int32(len(state.deck)),
        "discard": _stack(state.discard, d), "discard_len": np.int32(len(state.discard)),
        "piles": np.stack([_stack(pile, d) for pile in state.piles]),
        "pile_len": np.asarray([len(pile) for pile in state.piles], np.int32),
        "depths": np.asarray(state.depths, np.int32),
        "anchors": np.asarray(state.anchors or (0,) * n, np.int32), "has_anchors": np.bool_(bool(state.anchors)),
        "surfaced": surfaced, "round": np.int32(_ROUND_INDEX[state.round]),
        "phase": np.int32(_PHASE_INDEX[state.phase]), "first": np.int32(state.first),
        "active": np.int32(state.active), "air": np.int32(state.air), "swim": np.int32(state.swim),
        "trigger": np.int32(state.trigger), "final_left": np.int32(state.final_left),
        "kraken": np.asarray(state.kraken or (-2,) * n, np.int32), "turns": np.int32(state.turns),
        "winners": np.asarray([seat in state.winners for seat in range(n)]),
        "ended": np.int32(ENDINGS.index(state.ended)),
        "forced_breath": np.bool_(config.forced_breath),
        "short_hand": np.bool_(config.final_turn_trigger == "short_hand"),
        "by_distance": np.bool_(config.winner_rule == "distance"),
        "kraken_random": np.bool_(config.kraken_discard == "random"),
        "tie_seat_order": np.bool_(config.ascent_tie_break == "seat_order"),
        "blind_panic": np.bool_(config.empty_hand_panic == "deck_top"),
        "max_depth": np.int32(config.depth_limit),
    }


FIELDS = ("hands", "deck", "deck_len", "discard", "discard_len", "piles", "pile_len", "depths", "anchors",
          "has_anchors", "surfaced", "round", "phase", "first", "active", "air", "swim", "trigger", "final_left",
          "kraken", "turns", "winners", "ended", "forced_breath", "short_hand", "by_distance", "kraken_random",
          "tie_seat_order", "blind_panic", "max_depth")


def to_engine(t: Tables, arrays: Any, index: int | None = None, seed: int = 0) -> HoldYourBreathState:
    """The reference state of one game of ``arrays`` (a batched state, or numpy copies of its fields); ``index``
    picks the game of a batch. Its config is the environment's with the game's own options; its generator is
    ``SeededRng(seed)``."""
    fields = {name: np.asarray(getattr(arrays, name)) for name in FIELDS}
    return from_row(t, {name: (value if index is None else value[index]).tolist() for name, value in fields.items()},
                    seed)


def to_engines(t: Tables, arrays: Any, indices: list[int], seed: int = 0) -> list[HoldYourBreathState]:
    """The reference states of the games ``indices`` of the batch ``arrays``: each field is read once for all."""
    columns = {name: np.asarray(getattr(arrays, name))[indices].tolist() for name in FIELDS}
    return [from_row(t, {name: column[k] for name, column in columns.items()}, seed) for k in range(len(indices))]


def from_row(t: Tables, row: dict[str, Any], seed: int = 0) -> HoldYourBreathState:
    """The reference state of one game given as plain Python values, field by field."""
    field = row.__getitem__
    max_depth = field("max_depth")
    config = replace(
        t.config, forced_breath=bool(field("forced_breath")),
        final_turn_trigger="short_hand" if field("short_hand") else "deck_emptied",
        winner_rule="distance" if field("by_distance") else "surfaced_first",
        kraken_discard="random" if field("kraken_random") else "owner_choice",
        ascent_tie_break="seat_order" if field("tie_seat_order") else "random",
        empty_hand_panic="deck_top" if field("blind_panic") else "none",
        max_depth=None if max_depth == t.config.table.max_depth else max_depth)
    n = t.players
    phase = PHASES[field("phase")]
    state = object.__new__(HoldYourBreathState)
    state.context = context_for(config)
    state.rng = SeededRng(seed)
    state.round = (DESCENT, ASCENT)[field("round")]
    state.phase = phase
    state.first, state.active = field("first"), field("active")
    state.hands = tuple(tuple(face for face, count in enumerate(row) for _ in range(count)) for row in field("hands"))
    state.deck = tuple(field("deck")[:field("deck_len")])
    state.discard = tuple(field("discard")[:field("discard_len")])
    state.piles = tuple(tuple(pile[:size]) for pile, size in zip(field("piles"), field("pile_len"), strict=True))
    state.depths = tuple(field("depths"))
    state.anchors = tuple(field("anchors")) if field("has_anchors") else ()
    ranks = field("surfaced")
    state.surfaced = tuple(sorted((seat for seat in range(n) if ranks[seat] >= 0), key=ranks.__getitem__))
    state.air, state.swim = field("air"), field("swim")
    state.trigger, state.final_left = field("trigger"), field("final_left")
    state.kraken = tuple(field("kraken")) if phase == "kraken" else ()
    state.turns = field("turns")
    state.winners = tuple(seat for seat, won in enumerate(field("winners")) if won)
    state.ended = ENDINGS[field("ended")]
    return state
