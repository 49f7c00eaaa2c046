"""Snorkeling's random playout for search bots: ``Game.random_playout`` as one loop over plain lists.

A search bot spends most of its time playing random games on from a sample. ``apply`` validates each action,
builds its events and rebuilds the tuples that make a state cheap to clone; a playout needs none of that, because
the search owns its sample and reads only the result. This loop plays the same rules on lists, with the legality
helpers of ``rules.py`` (``center_accepts``, ``piles_accept``) and its round end (``_end_round``: scoring, the game
end and the next deal), and takes exactly the actions the generic playout takes for the same draws: the tests
compare the two on every configuration.

Legal actions are listed in ``rules.legal_actions``' order as numbers: ``-1`` for pass or end, a face for a centre
play, ``face + faces * (target + 1)`` for a pile play (pile plays are listed only once the turn has a
centre card, SNK-A19, which is when ``open_piles`` is filled).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable

from ...engine.rng import SeededRng
from ...engine.state import replaced
from .events import RoundEndReason
from .rules import _end_round, center_accepts, piles_accept
from .state import CENTER, OPPONENTS, SnorkelingState, without

# The only events this loop can stop after: the end of a round (after the end of the game nobody acts anyway).
ROUND_EVENTS = frozenset({"round_end", "game_over"})


def random_playout(state: SnorkelingState, random_float: Callable[[], float], max_actions: int,
                   stop_events: frozenset[str] = frozenset()) -> int:
    """``Game.random_playout`` for ``stop_events`` within ``ROUND_EVENTS`` (``Snorkeling`` checks that)."""
    context = state.context
    face_color = context.face_color
    face_value = context.face_value
    faces = len(face_value)
    turn_cap = context.config.turn_cap
    stop_at_round_end = "round_end" in stop_events
    n = len(state.hands)
    steps = 0
    while not state.winners and steps < max_actions:  # one round (or what is left of it) per pass
        hands = [list(hand) for hand in state.hands]
        known = state.known
        deck = list(state.deck)
        center = list(state.center)
        piles = [list(pile) for pile in state.piles]
        rng = state.rng
        active, phase, k, targets = state.active, state.phase, state.played, state.hit
        turns, total_turns, stall = state.turns, state.total_turns, state.stall
        color, value, needs = state.accept_color, state.accept_value, state.pile_needs
        open_piles = _open_piles(needs, faces) if k else ()
        round_over: RoundEndReason | None = None
        while steps < max_actions:
            hand = hands[active]
            options = [-1]
            if phase == CENTER:
                previous = -1
                for face in hand:
                    if face != previous:
                        previous = face
                        if face_color[face] == color or face_value[face] == value:
                            options.append(face)
            for offset, need in open_piles:
                previous = -1
                for face in hand:
                    if face != previous:
                        previous = face
                        if face_value[face] == need:
                            options.append(offset + face)
            choice = options[int(random_float() * len(options))] if len(options) > 1 else -1
            steps += 1
            if choice >= 0:  # a card leaves the hand
                face = choice % faces
                hand.remove(face)
                if known[active] and face in known[active]:
                    known = replaced(known, active, without(known[active], face))
                if choice < faces:  # SNK-R6/R7: onto the centre
                    center.append(face)
                    k += 1
                    color, value = center_accepts(context, center, k)
                    if k == 1:
                        needs = piles_accept(context, piles, active, targets)
                        open_piles = _open_piles(needs, faces)
                    continue
                target = choice // faces - 1  # SNK-R9: onto a personal pile
                piles[target].append(face)
                targets |= 1 << target
                phase = OPPONENTS
                needs = piles_accept(context, piles, active, targets)
                open_piles = _open_piles(needs, faces)
                if face_value[face] == 0:  # SNK-R10: a Beach ends the round at once
                    total_turns += 1
                    round_over = "beach"
                    break
                continue
            # Pass or end: SNK-R11 in order, as rules._end_turn.
            passed = not k
            emptied = k > 0 and not hand
            if deck:  # the usual draw, inline; _draw refills the deck from the centre
                insort(hand, deck.pop())
            else:
                rng = _draw(hand, deck, center, rng)
            if emptied:
                pile = piles[active]
                if pile:
                    face = pile.pop()
                    insort(hand, face)
                    known = replaced(known, active, known[active] + (face,))
                else:
                    rng = _draw(hand, deck, center, rng)
            while len(hand) < 2 and (deck or len(center) > 1):
                rng = _draw(hand, deck, center, rng)
            turns += 1
            total_turns += 1
            k = targets = 0
            stall = stall + 1 if passed and not deck and len(center) == 1 else 0
            if stall >= n:
                round_over = "stall"
                break
            if turns >= turn_cap:
                round_over = "turn_cap"
                break
            active = (active + 1) % n
            phase = CENTER
            color, value = center_accepts(context, center, 0)
            needs = open_piles = ()
        state.hands = tuple(map(tuple, hands))
        state.known = known
        state.deck = tuple(deck)
        state.center = tuple(center)
        state.piles = tuple(map(tuple, piles))
        state.rng = rng
        state.active, state.phase, state.played, state.hit = active, phase, k, targets
        state.turns, state.total_turns, state.stall = turns, total_turns, stall
        state.accept_color, state.accept_value, state.pile_needs = color, value, needs
        if round_over:
            _end_round(state, round_over, None)
            if stop_at_round_end:
                break
    return steps


def _open_piles(needs: tuple[int, ...], faces: int) -> list[tuple[int, int]]:
    """The piles that accept a card now, as (the number added to a face for a play onto it, the value it needs)."""
    return [(faces * (target + 1), need) for target, need in enumerate(needs) if need >= 0]


def _draw(hand: list[int], deck: list[int], center: list[int], rng: SeededRng) -> SeededRng:
    """SNK-R12 as ``rules._draw``: the top card into the hand, the deck refilled from the centre when empty."""
    if not deck:
        if len(center) == 1:
            return rng
        deck.extend(center[:-1])
        rng = rng.shuffle(deck)
        del center[:-1]
    insort(hand, deck.pop())
    return rng
