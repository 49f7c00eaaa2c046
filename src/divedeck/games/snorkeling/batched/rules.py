"""Snorkeling's rules over fixed-size arrays (SNK-R2..R17, SNK-V1): deal, legal moves, and what a move does.

The same rules as ``../rules.py``, written once more for ``jax.jit(jax.vmap(...))``: no Python control flow on
values, every branch computed and selected. The reference is ``../rules.py``; ``tests/rl/test_jax_snorkeling.py``
plays both from the same deals and compares them at every step.

Randomness: a step's key is split by ``shuffle_keys`` into the key of a refill (SNK-R12) and the key of the next
deal (SNK-R3); a shuffle of ``m`` cards puts card ``order[i]`` at place ``i`` (``shuffle_order``). A step needs at
most one of each: after a refill the centre holds one card, so it cannot refill again before the next play.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp

from ...batched import keyed_order, when_needed
from .state import CENTER, LIMITS, OPPONENTS, OVER, SnorkelingBatchedState
from .tables import Tables

State = SnorkelingBatchedState


def shuffle_keys(key: Any) -> tuple[Any, Any]:
    """(refill key, deal key) of a step's key."""
    refill, deal = jax.random.split(key)
    return refill, deal


def shuffle_order(key: Any, m: Any, size: int) -> Any:
    """A uniform order of the first ``m`` of ``size`` places (the places from ``m`` on stay where they are), by the
    ranks of random keys (``keyed_order``: no loop; a Fisher-Yates loop was a compiled while loop of ``size``
    iterations)."""
    first = jnp.arange(size) < m
    order = keyed_order(jax.random.bits(key, (size,), jnp.uint32), first, first)
    return jnp.where(first, order, jnp.arange(size)).astype(jnp.int32)


def _refill_order(refill: Any, key: Any, m: Any, size: int) -> Any:
    """The refill's order (SNK-R12), computed only for the games that refill on this step."""
    return when_needed(partial(shuffle_order, size=size))(refill, jnp.arange(size, dtype=jnp.int32), key, m)


def _select(flag: Any, then: State, otherwise: State) -> State:
    return jax.tree.map(lambda a, b: jnp.where(flag, a, b), then, otherwise)


# -- setup (SNK-R2, SNK-R3) ------------------------------------------------------------------------------------

def deal(t: Tables, s: State, key: Any) -> State:
    """SNK-R3: shuffle every reef card, deal one at a time from the starter, turn up the centre's card."""
    n, d, dealt = t.players, t.deck_size, t.hand_size * t.players
    cards = jnp.asarray(t.sorted_deck)[shuffle_order(key, d, d)]
    popped = jnp.arange(dealt)
    seats = (s.starter + popped) % n
    hands = jnp.zeros((n, t.faces), jnp.int32).at[seats, cards[d - 1 - popped]].add(1)
    up = cards[d - 1 - dealt]
    center = jnp.zeros(d, jnp.int32).at[0].set(up)
    zeros_n = jnp.zeros(n, jnp.int32)
    return s.replace(  # type: ignore[attr-defined]
        hands=hands, known=jnp.zeros_like(hands), deck=cards, deck_len=jnp.int32(d - 1 - dealt),
        center=center, center_len=jnp.int32(1), center_counts=_one(t, up),
        piles=jnp.zeros((n, t.pile_capacity), jnp.int32), pile_len=zeros_n, active=s.starter,
        phase=jnp.int32(CENTER), played=jnp.int32(0), hit=jnp.zeros(n, jnp.bool_), turns=jnp.int32(0),
        stall=jnp.int32(0))


def _one(t: Tables, face: Any) -> Any:
    return (jnp.arange(t.faces) == face).astype(jnp.int32)


def new_game(t: Tables, key: Any) -> State:
    """SNK-R2: totals at 0, seat ``first_player`` starts round 1; then the first deal. The options are the env's
    config's."""
    n, config = t.players, t.config
    blank = State(  # type: ignore[call-arg]
        current_player=jnp.int32(0), observation=jnp.zeros(0, jnp.float32), rewards=jnp.zeros(n, jnp.float32),
        terminated=jnp.bool_(False), truncated=jnp.bool_(False),
        legal_action_mask=jnp.zeros(t.num_actions, jnp.bool_), _step_count=jnp.int32(0),
        hands=jnp.zeros((n, t.faces), jnp.int32), known=jnp.zeros((n, t.faces), jnp.int32),
        deck=jnp.zeros(t.deck_size, jnp.int32), deck_len=jnp.int32(0), center=jnp.zeros(t.deck_size, jnp.int32),
        center_len=jnp.int32(0), piles=jnp.zeros((n, t.pile_capacity), jnp.int32),
        pile_len=jnp.zeros(n, jnp.int32), scores=jnp.zeros(n, jnp.int32), round=jnp.int32(1),
        starter=jnp.int32(t.config.first_player), active=jnp.int32(t.config.first_player),
        phase=jnp.int32(CENTER), played=jnp.int32(0), hit=jnp.zeros(n, jnp.bool_), turns=jnp.int32(0),
        total_turns=jnp.int32(0), stall=jnp.int32(0), winners=jnp.zeros(n, jnp.bool_),
        center_counts=jnp.zeros(t.faces, jnp.int32), expert_diving=jnp.bool_(config.expert_diving),
        play_limit=jnp.int32(LIMITS.index(config.opponent_play_limit)),
        allow_own_pile=jnp.bool_(config.allow_own_pile),
        rotate_starter=jnp.bool_(config.next_round_starter == "rotate_left"),
        target_score=jnp.int32(config.target_score), turn_cap=jnp.int32(config.turn_cap),
        round_cap=jnp.int32(config.round_cap))
    return deal(t, blank, key)


# -- legality (SNK-R5..R9) ------------------------------------------------------------------------------------

def center_accepts(t: Tables, s: State) -> tuple[Any, Any]:
    """(colour, value) a centre card may match now, ``-1`` where nothing matches (SNK-R6; SNK-R7 in Expert)."""
    color, value = jnp.asarray(t.face_color), jnp.asarray(t.face_value)
    top = s.center[s.center_len - 1]
    k = s.played
    t0 = s.center[s.center_len - 1 - k]
    first = s.center[jnp.minimum(s.center_len - k, t.deck_size - 1)]
    # SNK-R6: the first card follows T0's colour or climbs one; later ones only follow a colour-mode first card
    base_color = jnp.where(k == 0, color[t0], jnp.where(color[first] == color[t0], color[t0], -1))
    base_value = jnp.where(k == 0, (value[t0] + 1) % t.values, -1)
    # SNK-R7 / SNK-V1: against the card directly below
    return (jnp.where(s.expert_diving, color[top], base_color),
            jnp.where(s.expert_diving, (value[top] + 1) % t.values, base_value))


def pile_top_values(t: Tables, s: State) -> Any:
    """Each pile's top value, the Lanternfish's (V) where it holds no reef card (SNK-R2, SNK-R14)."""
    top = jnp.take_along_axis(s.piles, jnp.maximum(s.pile_len - 1, 0)[:, None], axis=1)[:, 0]
    return jnp.where(s.pile_len > 0, jnp.asarray(t.face_value)[top], t.values)


def pile_needs(t: Tables, s: State) -> Any:
    """For each seat, the value a card needs to go onto its pile now, or -1 (SNK-R9, SNK-A1, SNK-A2, SNK-A5)."""
    needs = pile_top_values(t, s) - 1  # a 0 on top needs -1: nothing
    own = (jnp.arange(t.players) == s.active) & ~s.allow_own_pile
    closed = ((s.play_limit == LIMITS.index("one_per_opponent")) & s.hit) | (
        (s.play_limit == LIMITS.index("one_total")) & jnp.any(s.hit))
    return jnp.where(own | closed, -1, needs)


def legal_action_mask(t: Tables, s: State) -> Any:
    """The move table's mask for the seat to play: pass, end, a centre play per face, a pile play per face and
    target, in that order (``Snorkeling.all_actions``)."""
    color, value = jnp.asarray(t.face_color), jnp.asarray(t.face_value)
    going = s.phase != OVER
    holds = s.hands[s.active] > 0
    accept_color, accept_value = center_accepts(t, s)
    at_center = going & (s.phase == CENTER)
    center = at_center & holds & ((color == accept_color) | (value == accept_value))
    # SNK-R8 / SNK-A19: pile plays only after a centre play
    piles = going & (s.played > 0) & holds[:, None] & (value[:, None] == pile_needs(t, s)[None, :])
    first = jnp.stack([at_center & (s.played == 0), going & (s.played > 0)])
    return jnp.concatenate([first, center, piles.reshape(-1)])


# -- effects (SNK-R5..R17) -------------------------------------------------------------------------------------

def _end_turn(t: Tables, s: State, passed: Any, refill_key: Any) -> tuple[State, Any]:
    """SNK-R11 in its order, then the stall checks of SNK-R13; returns the state and whether the round is over.

    The draws of a turn (SNK-R11.2-4, SNK-R12) are counted first, then taken at once: the first from the deck's
    top, the rest, once it is empty, from the centre but its top, shuffled into a new deck. The centre does not
    change until that refill, and the refill leaves it one card, so a turn refills at most once."""
    seat = s.active
    held = s.hands[seat].sum()
    emptied = (s.played > 0) & (held == 0)  # SNK-R11.1
    refillable = jnp.maximum(s.center_len - 1, 0)
    available = s.deck_len + refillable
    first = jnp.minimum(1, available)  # SNK-R11.2, SNK-A16: every turn, a pass too
    own = s.pile_len[seat]
    retrieve = emptied & (own > 0)  # SNK-R11.3: take back the pile's top ...
    extra = jnp.minimum((emptied & (own == 0)).astype(jnp.int32), available - first)  # ... or draw (SNK-A17)
    top_up = jnp.clip(2 - (held + first + retrieve + extra), 0, available - first - extra)  # SNK-R11.4, SNK-A7
    draws = first + extra + top_up
    refill = draws > s.deck_len
    order = _refill_order(refill, refill_key, refillable, t.deck_size)
    new_deck = s.center[order]
    drawn = jnp.arange(4)  # at most 1 + 1 + 2 draws
    from_deck = drawn < s.deck_len
    cards = jnp.where(from_deck, s.deck[jnp.maximum(s.deck_len - 1 - drawn, 0)],
                      new_deck[jnp.maximum(refillable - 1 - (drawn - s.deck_len), 0)])
    taken = ((cards[:, None] == jnp.arange(t.faces)) & (drawn < draws)[:, None]).sum(axis=0)
    retrieved = s.piles[seat, jnp.maximum(own - 1, 0)]
    back = (jnp.arange(t.faces) == retrieved) & retrieve
    hands = s.hands.at[seat].add(taken + back)
    top = s.center[refillable]
    s = s.replace(  # type: ignore[attr-defined]
        hands=hands, known=s.known.at[seat].add(back), pile_len=s.pile_len.at[seat].add(-retrieve.astype(jnp.int32)),
        deck=jnp.where(refill, new_deck, s.deck),
        deck_len=jnp.where(refill, refillable - (draws - s.deck_len), s.deck_len - draws),
        center=jnp.where(refill, s.center.at[0].set(top), s.center),
        center_len=jnp.where(refill, 1, s.center_len),
        center_counts=jnp.where(refill, _one(t, top), s.center_counts))
    turns = s.turns + 1
    stall = jnp.where(passed & (s.deck_len == 0) & (s.center_len == 1), s.stall + 1, 0)
    round_over = (stall >= t.players) | (turns >= s.turn_cap)  # SNK-R13 (a), (b)
    s = s.replace(  # type: ignore[attr-defined]
        turns=turns, total_turns=s.total_turns + 1, played=jnp.int32(0), hit=jnp.zeros_like(s.hit), stall=stall,
        active=jnp.where(round_over, seat, (seat + 1) % t.players),  # SNK-R11.5
        phase=jnp.where(round_over, s.phase, CENTER))
    return s, round_over


def _play(t: Tables, s: State, action: Any) -> tuple[State, Any]:
    """A card from the hand to the centre (SNK-R6/R7) or onto a pile (SNK-R9); a Beach on a pile ends the round
    at once (SNK-R10). Returns the state and whether the round is over."""
    seat = s.active
    to_center = action < 2 + t.faces
    pile_index = action - 2 - t.faces
    face = jnp.where(to_center, action - 2, pile_index // t.players)
    target = jnp.where(to_center, 0, pile_index % t.players)
    known = s.known[seat, face]
    s = s.replace(hands=s.hands.at[seat, face].add(-1),  # type: ignore[attr-defined]
                  known=s.known.at[seat, face].add(-(known > 0).astype(jnp.int32)))
    onto_pile = ~to_center
    center = jnp.where(to_center, s.center.at[s.center_len].set(face), s.center)
    piles = jnp.where(onto_pile, s.piles.at[target, s.pile_len[target]].set(face), s.piles)
    beach = onto_pile & (jnp.asarray(t.face_value)[face] == 0)
    s = s.replace(  # type: ignore[attr-defined]
        center=center, center_len=s.center_len + to_center, played=s.played + to_center,
        center_counts=s.center_counts + to_center * _one(t, face),
        piles=piles, pile_len=s.pile_len.at[target].add(onto_pile.astype(jnp.int32)),
        hit=s.hit.at[target].set(s.hit[target] | onto_pile),
        phase=jnp.where(onto_pile, OPPONENTS, s.phase),
        total_turns=s.total_turns + beach)  # the turn was cut short, but it was taken
    return s, beach


def _end_round(t: Tables, s: State, round_over: Any, deal_key: Any) -> State:
    """SNK-R17 where ``round_over``: score (SNK-R14), check the end (SNK-R15, SNK-A11, SNK-A27), then finish or
    deal (SNK-R3; only the games that deal compute a deal)."""
    scores = s.scores + pile_top_values(t, s)
    best = scores.max()
    leaders = scores == best
    reached = (best >= s.target_score) & (leaders.sum() == 1)
    over = reached | (s.round >= s.round_cap)
    finished = s.replace(scores=scores, winners=leaders, phase=jnp.int32(OVER))  # type: ignore[attr-defined]
    s_or_finished = _select(round_over & over, finished, s)
    starter = jnp.where(s.rotate_starter, (s.starter + 1) % t.players, s.starter)  # SNK-R3.5, SNK-A12
    scored = s.replace(scores=scores, round=s.round + 1, starter=starter)  # type: ignore[attr-defined]
    return when_needed(partial(deal, t))(round_over & ~over, s_or_finished, scored, deal_key)  # type: ignore


def apply(t: Tables, s: State, action: Any, key: Any) -> State:
    """The rules' part of a step: ``action`` (a legal move-table integer) by the seat to play."""
    refill_key, deal_key = shuffle_keys(key)
    action = jnp.asarray(action, jnp.int32)
    played, beach = _play(t, s, action)
    ended, over = _end_turn(t, s, action == 0, refill_key)
    ends_turn = action < 2
    s = _select(ends_turn, ended, played)
    round_over = jnp.where(ends_turn, over, beach)
    return _end_round(t, s, round_over, deal_key)
