"""Hold Your Breath!'s rules over fixed-size arrays (HYB-R2..R41): deal, legal moves, and what a move does.

The same rules as ``../rules.py``, written once more for ``jax.jit(jax.vmap(...))``: no Python control flow on
values, every branch computed and selected. The reference is ``../rules.py``; ``tests/rl/test_jax_hold_your_breath.py``
plays both from the same deals and compares them at every step.

Chance: the Descent's deal (``init``'s key), a Discard icon's random card (HYB-A18), the random losses of a Kraken's
mass discard (``kraken_discard=random``, HYB-A19), the tie-break among the shallowest anchors (HYB-A12) and the
Ascent's shuffle (HYB-R32). A step's key is split into ``SLOTS`` keys, used in the order the reference draws:
the k-th draw of a step uses key k. A draw is a shuffle of ``m`` things (``shuffle_order``) of which the rules
read the whole order (a deck) or its first place (``pick``: a card of a hand, a seat among the tied).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ...batched import keyed_order, when_needed
from .state import ASCENT, BREATH, DESCENT, DISCARD, KRAKEN, OVER, PHASES, PLAY, HoldYourBreathBatchedState
from .tables import (
    AIR,
    CALM,
    DRAW,
    DROP,
    END,
    GASP,
    KEEP,
    LOSE,
    MASS,
    PANIC,
    SHARK,
    SWIM,
    Tables,
)
from .tables import DISCARD as DISCARD_ICON
from .tables import KRAKEN as KRAKEN_SHARK

State = HoldYourBreathBatchedState

SLOTS = 4  # at most one draw per victim of a mass discard (HYB-R1: four players); the Ascent needs two
# How a Swim Pile item lies (``../state.py``).
HOW_PANIC, HOW_SHARK, HOW_DOWN, HOW_BLIND = 0, 1, 2, 3
NOT_INVOLVED, WAITING = -2, -1


# -- chance ----------------------------------------------------------------------------------------------------------

def step_keys(key: Any) -> Any:
    """The keys of a step's draws, in the order the reference makes them."""
    return jax.random.split(key, SLOTS)


def pick(key: Any, m: Any) -> Any:
    """The first place of ``shuffle_order(key, m, ...)``, alone: a uniform choice among ``m``."""
    return jnp.clip((jax.random.uniform(key) * m).astype(jnp.int32), 0, jnp.maximum(m - 1, 0))


def shuffle_order(key: Any, m: Any, size: int) -> Any:
    """A uniform order of the first ``m`` of ``size`` places (the places from ``m`` on stay where they are): the
    thing at place ``i`` is the one that was at ``order[i]``. Place 0 first, by ``pick(key, m)``; the others by the
    ranks of random keys (``keyed_order``: no loop; a Fisher-Yates loop was a compiled while loop of ``size``
    iterations)."""
    places = jnp.arange(size)
    first = pick(key, m)
    bits = jax.random.bits(jax.random.fold_in(key, 1), (size,), jnp.uint32)
    rest = keyed_order(bits, (places < m) & (places != first), (places < m) & (places > 0))
    return jnp.where(places == 0, first, jnp.where(places < m, rest, places)).astype(jnp.int32)


def _select(flag: Any, then: State, otherwise: State) -> State:
    return jax.tree.map(lambda a, b: jnp.where(flag, a, b), then, otherwise)


def _one(size: int, index: Any) -> Any:
    return (jnp.arange(size) == index).astype(jnp.int32)


def _nth_card(hand: Any, index: Any) -> Any:
    """The face of the ``index``-th card of a hand kept sorted by face (``hand``: counts per face)."""
    return (jnp.cumsum(hand) <= index).sum().astype(jnp.int32)


# -- setup (HYB-R2, HYB-R32) -----------------------------------------------------------------------------------------

def _deal(t: Tables, s: State, cards: Any, m: Any, first: Any) -> State:
    """Deal from the shuffled ``cards`` (its first ``m``, top last) a full hand to each player one card at a time
    from ``first``; a deck too small deals what it has. The turn starts (HYB-R2.2, HYB-R32)."""
    n = t.players
    i = jnp.arange(t.hand_size * n)
    dealt = jnp.minimum(t.hand_size * n, m)
    faces = cards[jnp.clip(m - 1 - i, 0, t.deck_size - 1)]
    hands = jnp.zeros((n, t.faces), jnp.int32).at[(first + i) % n, faces].add((i < dealt).astype(jnp.int32))
    return s.replace(  # type: ignore[attr-defined,no-any-return]
        hands=hands, deck=cards, deck_len=m - dealt, first=first, active=first, trigger=jnp.int32(-1),
        final_left=jnp.int32(0), phase=jnp.int32(PLAY), air=jnp.int32(0), swim=jnp.int32(0),
        kraken=jnp.full(n, NOT_INVOLVED, jnp.int32))


def new_game(t: Tables, key: Any) -> State:
    """HYB-R2: empty Swim Piles, everyone at the surface, the whole deck shuffled and dealt from ``first_player``.
    The options are the environment's config's."""
    n, d, config = t.players, t.deck_size, t.config
    blank = State(  # type: ignore[call-arg]
        current_player=jnp.int32(0), observation=jnp.zeros(0, jnp.float32), rewards=jnp.zeros(n, jnp.float32),
        terminated=jnp.bool_(False), truncated=jnp.bool_(False),
        legal_action_mask=jnp.zeros(t.num_actions, jnp.bool_), _step_count=jnp.int32(0),
        hands=jnp.zeros((n, t.faces), jnp.int32), deck=jnp.zeros(d, jnp.int32), deck_len=jnp.int32(0),
        discard=jnp.zeros(d, jnp.int32), discard_len=jnp.int32(0), piles=jnp.zeros((n, d), jnp.int32),
        pile_len=jnp.zeros(n, jnp.int32), depths=jnp.zeros(n, jnp.int32), anchors=jnp.zeros(n, jnp.int32),
        has_anchors=jnp.bool_(False), surfaced=jnp.full(n, -1, jnp.int32), round=jnp.int32(DESCENT),
        phase=jnp.int32(PLAY), first=jnp.int32(config.first_player), active=jnp.int32(config.first_player),
        air=jnp.int32(0), swim=jnp.int32(0), trigger=jnp.int32(-1), final_left=jnp.int32(0),
        kraken=jnp.full(n, NOT_INVOLVED, jnp.int32), turns=jnp.int32(0), winners=jnp.zeros(n, jnp.bool_),
        ended=jnp.int32(0), forced_breath=jnp.bool_(config.forced_breath),
        short_hand=jnp.bool_(config.final_turn_trigger == "short_hand"),
        by_distance=jnp.bool_(config.winner_rule == "distance"),
        kraken_random=jnp.bool_(config.kraken_discard == "random"),
        tie_seat_order=jnp.bool_(config.ascent_tie_break == "seat_order"),
        blind_panic=jnp.bool_(config.empty_hand_panic == "deck_top"),
        max_depth=jnp.int32(config.depth_limit))
    cards = jnp.asarray(t.sorted_deck)[shuffle_order(key, d, d)]
    return _deal(t, blank, cards, jnp.int32(d), blank.first)


def _setup_ascent(t: Tables, s: State, keys: Any) -> State:
    """HYB-R31, HYB-R32 in their order: the anchors, Swim Piles stay, the Discard Pile and then every hand (seat
    order, each sorted) gathered, the first player (HYB-A12), shuffle, deal."""
    n, f, d = t.players, t.faces, t.deck_size
    ends = s.discard_len + jnp.cumsum(s.hands.reshape(-1))  # where each (seat, face) run of cards ends
    m = ends[-1]
    places = jnp.arange(d)
    runs = (ends[None, :] <= places[:, None]).sum(axis=1)
    cards = jnp.where(places < s.discard_len, s.discard, runs % f).astype(jnp.int32)
    shallowest = s.anchors.min()
    tied = s.anchors == shallowest
    count = tied.sum()
    drawn = (count > 1) & ~s.tie_seat_order  # rock-paper-scissors, seeded (HYB-A12)
    by_chance = jnp.argmax((jnp.cumsum(tied) - 1 == pick(keys[0], count)) & tied)
    seats = jnp.arange(n)
    by_seat = jnp.argmin(jnp.where(tied, (seats - s.first) % n, n))
    first = jnp.where(drawn, by_chance, by_seat).astype(jnp.int32)  # one tied seat: both give it
    order = shuffle_order(jnp.where(drawn, keys[1], keys[0]), m, d)
    s = s.replace(round=jnp.int32(ASCENT), discard_len=jnp.int32(0))  # type: ignore[attr-defined]
    return _deal(t, s, cards[order], m, first)


# -- who acts, and legality (HYB-R10..R14, HYB-R23, HYB-R24, HYB-A4, HYB-A17..A24) ----------------------------------

def actor(s: State) -> Any:
    """The seat to act: the active player, or the first Kraken victim still to choose (HYB-R12)."""
    return jnp.where(s.phase == KRAKEN, jnp.argmax(s.kraken == WAITING), s.active).astype(jnp.int32)


def _pile_has(t: Tables, s: State) -> tuple[Any, Any]:
    """Per seat: holds a Panic (face up or down), holds the Shark."""
    inside = jnp.arange(t.deck_size)[None, :] < s.pile_len[:, None]
    shark = (s.piles & 3) == HOW_SHARK
    return (inside & ~shark).any(axis=1), (inside & shark).any(axis=1)


def distances(t: Tables, s: State) -> Any:
    """HYB-R41, HYB-A14: down and back up, less the hindrance penalty per Swim Pile card."""
    anchor = jnp.where(s.has_anchors, s.anchors, s.depths)
    return 2 * anchor - s.depths - t.hindrance_penalty * s.pile_len


def legal_action_mask(t: Tables, s: State) -> Any:
    """The move table's mask for the seat to act (``HoldYourBreath.all_actions``' order), run by run (``Tables``):
    the Calms' grid of places and targets once, the other actions over their own rows.

    The other actions each need three conditions (``tables.py``, ``others_needs``): every condition is computed
    once (per kind of decision, per seat aimed at, per face, per phase), and one product with the constant matrix
    counts how many each action meets (XLA wrote out a [kinds, actions] table of selects and reduced it, or
    gathered for each action, at several times the cost). The seat to act's rows are read with one-hots, not
    gathers (a gather under ``vmap`` is fused into each of its uses and made again)."""
    n, d = t.players, t.deck_size
    seat = actor(s)
    mine = jnp.arange(n) == seat
    hand = jnp.where(mine[:, None], s.hands, 0).sum(axis=0)
    my_pile = jnp.where(mine[:, None], s.piles, 0).sum(axis=0)
    my_pile_len = jnp.where(mine, s.pile_len, 0).sum()
    diver = (mine & (s.surfaced < 0)).any()
    has_panic, has_shark = _pile_has(t, s)
    diving = s.surfaced < 0
    discard_ok = ~mine & (s.hands.sum(axis=1) >= t.hand_size)  # HYB-A17
    panic_ok = ~mine & diving & ~has_panic  # HYB-A21, HYB-R34
    shark_ok = ~mine & diving & ~has_shark  # HYB-A22, HYB-R34
    held = hand > 0
    may_end = ~s.forced_breath | (s.air > 0) | ~diver | ~(held & t.face_air).any()  # HYB-R14, HYB-A4

    # The Calms: one grid [place, target + 1] for every Calm face (HYB-A23: a Shark moves to a seat it may go to,
    # or, with none, is discarded; anything else is taken out with no target).
    moves_shark = ((my_pile & 3) == HOW_SHARK) & shark_ok.any()
    no_target = np.arange(n + 1) == 0
    grid = (jnp.arange(d) < my_pile_len)[:, None] & jnp.where(
        moves_shark[:, None], jnp.concatenate([jnp.zeros(1, bool), shark_ok])[None, :], no_target[None, :])
    calm_ok = grid.reshape(-1) & (s.phase == PLAY)

    # The other actions: the conditions in ``tables.py``'s order (``others_needs``), three met of three.
    conditions = jnp.concatenate([
        jnp.stack([jnp.bool_(True), may_end, diver, diver & (my_pile_len == 0)]),  # always, end, Air, Swim (HYB-R11)
        discard_ok, panic_ok, shark_ok, has_shark,  # by the seat aimed at (HYB-A20: a Kraken needs its Shark)
        held, jnp.arange(PHASES) == s.phase,
    ]).astype(jnp.float32)
    others_ok = conditions @ jnp.asarray(t.others_needs) > 2.5

    runs = [others_ok[first:first + length] if what == "others" else calm_ok & held[first]
            for what, first, length in t.runs]
    return jnp.concatenate(runs)


# -- effects (HYB-R10..R41) ------------------------------------------------------------------------------------------

def _append(stack: Any, length: Any, valid: Any, cards: Any) -> tuple[Any, Any]:
    """``cards`` where ``valid``, in order, onto ``stack`` (top last)."""
    at = length + jnp.cumsum(valid) - valid
    stack = stack.at[jnp.where(valid, at, stack.shape[0])].set(cards, mode="drop")
    return stack, length + valid.sum()


def _remove(row: Any, index: Any) -> Any:
    """``row`` without its entry at ``index`` (the later ones move down)."""
    places = jnp.arange(row.shape[0])
    return jnp.where(places < index, row, row[jnp.minimum(places + 1, row.shape[0] - 1)])


def _winners_at_end(t: Tables, s: State) -> Any:
    """HYB-R41, HYB-A13, HYB-A15: the surfaced first (greatest anchor, then earliest), else the total distance."""
    up = s.surfaced >= 0
    best = jnp.where(up, s.anchors, -1).max()
    earliest = jnp.argmin(jnp.where(up & (s.anchors == best), s.surfaced, t.players))
    totals = distances(t, s)
    by_distance = totals == totals.max()
    return jnp.where(~s.by_distance & up.any(), jnp.arange(t.players) == earliest, by_distance)


def _finish_turn(t: Tables, s: State, finishing: Any, keys: Any) -> State:
    """Where ``finishing``: HYB-R25 replenish, HYB-R26/R30 the final-turn count, then the next player, the Ascent
    (HYB-R31, HYB-R32; only the games that reach it shuffle) or the end (HYB-R41)."""
    n, seat = t.players, s.active
    held = s.hands[seat].sum()
    draws = jnp.clip(t.hand_size - held, 0, s.deck_len)
    i = jnp.arange(t.hand_size)
    drawn = s.deck[jnp.maximum(s.deck_len - 1 - i, 0)]
    hand = s.hands[seat] + ((drawn[:, None] == jnp.arange(t.faces)) & (i < draws)[:, None]).sum(axis=0)
    deck_len = s.deck_len - draws
    counting = s.trigger >= 0
    final_left = jnp.where(counting, s.final_left - 1, s.final_left)
    round_over = counting & (final_left == 0)
    triggers = ~counting & (deck_len == 0) & (~s.short_hand | (hand.sum() < t.hand_size))  # HYB-R30, HYB-A10
    done = s.replace(  # type: ignore[attr-defined]
        hands=s.hands.at[seat].set(hand), deck_len=deck_len, turns=s.turns + 1,
        trigger=jnp.where(triggers, seat, s.trigger), final_left=jnp.where(triggers, n, final_left))
    next_turn = done.replace(  # type: ignore[attr-defined]
        active=(seat + 1) % n, phase=jnp.int32(PLAY), air=jnp.int32(0), swim=jnp.int32(0))
    over = done.replace(  # type: ignore[attr-defined]
        winners=_winners_at_end(t, done), ended=jnp.int32(2), phase=jnp.int32(OVER))
    descent_over = done.replace(anchors=done.depths, has_anchors=jnp.bool_(True))  # type: ignore[attr-defined]
    game_over = round_over & (s.round == ASCENT)
    s_or_next = _select(finishing & game_over, over, _select(finishing & ~round_over, next_turn, s))
    ascent = finishing & round_over & (s.round == DESCENT)
    return when_needed(partial(_setup_ascent, t))(ascent, s_or_next, descent_over, keys)  # type: ignore[no-any-return]


def apply(t: Tables, s: State, action: Any, key: Any) -> State:
    """The rules' part of a step: ``action`` (a legal move-table integer) by the seat to act."""
    n, d = t.players, t.deck_size
    keys = step_keys(key)
    action = jnp.asarray(action, jnp.int32)
    kind, face = jnp.asarray(t.kind)[action], jnp.asarray(t.face)[action]
    value, target = jnp.asarray(t.value)[action], jnp.asarray(t.target)[action]
    place = jnp.asarray(t.place)[action]
    aim = jnp.clip(target, 0, n - 1)
    seat = actor(s)
    seats = jnp.arange(n)

    # The card leaves the hand (every decision but end and keep names one).
    hands = s.hands.at[seat, face].add(-(kind >= AIR).astype(jnp.int32))
    held = hands.sum(axis=1)

    # Chance: a Discard icon's random card of its target (HYB-A18), a random mass discard's card of each victim
    # (HYB-A19; hand sizes counted once the Kraken has left the hand), in seat order.
    victims = held >= t.hand_size
    mass = kind == MASS
    randomly = jnp.where(kind == DISCARD_ICON, seats == aim, victims & mass & s.kraken_random)
    slot = jnp.where(kind == DISCARD_ICON, 0, jnp.cumsum(victims) - victims)
    places = jax.vmap(pick)(keys[jnp.minimum(slot, SLOTS - 1)], held)
    lost = jax.vmap(_nth_card)(hands, places)
    hands = hands - (lost[:, None] == jnp.arange(t.faces)) * randomly[:, None]

    # end (HYB-R20..R23): movement, surfacing and the immediate win, the breath penalty.
    ending = kind == END
    moved = jnp.minimum(s.air, s.swim)  # HYB-A3
    diver = s.surfaced[seat] < 0
    old = s.depths[seat]
    new = jnp.where(s.round == DESCENT, jnp.minimum(old + moved, s.max_depth), jnp.maximum(old - moved, 0))  # HYB-A8
    moves = ending & diver & (moved > 0)
    depths = s.depths.at[seat].set(jnp.where(moves, new, old))
    surfaces = moves & (s.round == ASCENT) & (old > 0) & (new == 0)  # HYB-R21
    surfaced = s.surfaced.at[seat].set(jnp.where(surfaces, (s.surfaced >= 0).sum(), s.surfaced[seat]))
    anchor = s.anchors[seat]
    deepest = surfaces & (anchor > 0) & (anchor == s.anchors.max())  # HYB-R22
    breathless = ending & ~deepest & diver & ~surfaces & (s.air == 0)  # HYB-R23, HYB-A4
    gasping = breathless & (held[seat] > 0)
    blind = breathless & (held[seat] == 0) & s.blind_panic & (s.deck_len > 0)  # HYB-A6
    top = s.deck[jnp.maximum(s.deck_len - 1, 0)]

    # Swim Piles: a Calm takes one hindrance out, a Kraken the target's Shark (HYB-R12, HYB-A20, HYB-A23, HYB-A24);
    # a Panic, a Shark, a calmed Shark, a breath penalty go in.
    _, has_shark = _pile_has(t, s)
    calm, kraken = kind == CALM, kind == KRAKEN_SHARK
    shark_at = jnp.argmax(((s.piles[aim] & 3) == HOW_SHARK) & (jnp.arange(d) < s.pile_len[aim]))
    out_seat = jnp.where(calm, seat, aim)
    out_place = jnp.where(calm, place, shark_at)
    taken = s.piles[out_seat, out_place]
    removing = calm | kraken
    piles = s.piles.at[out_seat].set(jnp.where(removing, _remove(s.piles[out_seat], out_place), s.piles[out_seat]))
    pile_len = s.pile_len.at[out_seat].add(-removing.astype(jnp.int32))
    moves_shark = calm & (target >= 0)
    into = (kind == PANIC) | (kind == SHARK) | moves_shark
    adding = into | (kind == GASP) | blind
    in_seat = jnp.where(into, aim, seat)
    in_item = jnp.where(kind == PANIC, face * 4 + HOW_PANIC, jnp.where(
        kind == SHARK, face * 4 + HOW_SHARK, jnp.where(
            kind == GASP, face * 4 + HOW_DOWN, jnp.where(moves_shark, (taken >> 2) * 4 + HOW_SHARK,
                                                         top * 4 + HOW_BLIND))))
    piles = piles.at[in_seat, jnp.where(adding, pile_len[in_seat], d)].set(in_item, mode="drop")
    pile_len = pile_len.at[in_seat].add(adding.astype(jnp.int32))

    # A Kraken victim sets a card aside; when all have, they go to the Discard Pile in seat order (HYB-R12).
    losing = kind == LOSE
    kraken_row = jnp.where(losing, s.kraken.at[seat].set(face), s.kraken)
    all_in = losing & ~(kraken_row == WAITING).any()
    choosing = mass & ~s.kraken_random & victims.any()
    kraken_row = jnp.where(all_in, NOT_INVOLVED, jnp.where(choosing, jnp.where(victims, WAITING, NOT_INVOLVED),
                                                          kraken_row))

    # The Discard Pile: the card played (Panics and Sharks stay in a Swim Pile), then what its effect discards.
    played = ((kind >= AIR) & (kind <= CALM) & (kind != PANIC) & (kind != SHARK)) | (kind == DROP)
    single = (calm & ~moves_shark) | kraken
    extra_valid = randomly | (single & (seats == 0)) | (all_in & (s.kraken.at[seat].set(face) >= 0))
    extra = jnp.where(randomly, lost, jnp.where(single, taken >> 2, s.kraken.at[seat].set(face)))
    discard, discard_len = _append(s.discard, s.discard_len, jnp.concatenate([played[None], extra_valid]),
                                   jnp.concatenate([face[None], extra]))

    # The Draw icon (HYB-A27: nothing with an empty deck) and the blind penalty take the deck's top.
    drawing = (kind == DRAW) & (s.deck_len > 0)
    hands = hands.at[seat, top].add(drawing.astype(jnp.int32))
    deck_len = s.deck_len - (drawing | blind)

    s = s.replace(  # type: ignore[attr-defined]
        hands=hands, depths=depths, surfaced=surfaced, piles=piles, pile_len=pile_len, discard=discard,
        discard_len=discard_len, deck_len=deck_len, kraken=kraken_row,
        air=s.air + jnp.where(kind == AIR, value, 0), swim=s.swim + jnp.where(kind == SWIM, value, 0),
        winners=jnp.where(deepest, seats == seat, s.winners), ended=jnp.where(deepest, 1, s.ended))
    empty = hands[seat].sum() == 0
    # After the penalty (HYB-R24): discard at will, or with an empty hand, straight to the replenish.
    after_penalty = (ending & ~deepest & ~gasping) | (kind == GASP)
    phase = jnp.where(deepest, OVER, jnp.where(gasping, BREATH, jnp.where(
        after_penalty & ~empty, DISCARD, jnp.where(choosing, KRAKEN, jnp.where(all_in, PLAY, s.phase)))))
    s = s.replace(phase=phase.astype(jnp.int32))  # type: ignore[attr-defined]
    finishing = (kind == KEEP) | (after_penalty & empty) | ((kind == DROP) & empty)
    return _finish_turn(t, s, finishing, keys)
