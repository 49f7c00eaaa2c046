"""What each seat may know in Snorkeling (SNK-R4), in one place: its view, and determinization for search.

Public: every personal pile, the whole centre pile, the deck size, hand sizes, scores, and the cards a player took
back from their own pile in plain sight (SNK-R11.3) until they play them. Private: the rest of each hand, and the
order of the deck. A seat's own hand is known only to that seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NotRequired, TypedDict, cast

from ...engine.rng import SeededRng, shuffle_with
from .state import SnorkelingState


class TurnView(TypedDict):
    center_played: int  # centre cards played this turn: the last ones of ``center``
    t0: str  # the centre's top card when the turn began (SNK-R6)
    targets: list[int]  # the seats whose piles received a card this turn


class SnorkelingView(TypedDict):
    """What one seat (``None``: a spectator) sees. What never changes in a game (the card table, the target score,
    the variant) is the game's static data, sent once, not part of every view."""

    seat: int | None
    round: int
    starter: int
    phase: str
    active: int | None  # ``None`` once the game is over
    scores: list[int]
    center: list[str]  # bottom to top
    deck_size: int
    piles: list[list[str]]  # reef cards on each seat's Lanternfish, bottom to top
    pile_tops: list[int]  # each pile's top value, the Lanternfish's where it has no reef card
    hand_sizes: list[int]
    known_in_hand: list[list[str]]  # cards taken back from a pile in plain sight (SNK-R11.3)
    turn: TurnView
    turns_in_round: int
    winners: list[int]
    hand: NotRequired[list[str]]  # the seat's own hand (a spectator has none)


def view(state: SnorkelingState, seat: int | None) -> SnorkelingView:
    return views(state, (seat,))[0]


def views(state: SnorkelingState, seats: Sequence[int | None]) -> list[SnorkelingView]:
    """The view of each of ``seats``: what they all see is built once (and its lists shared), then each seat's
    own hand is added."""
    label = state.context.face_label
    n = len(state.hands)
    k = state.played
    shared = {
        "round": state.round,
        "starter": state.starter,
        "phase": state.phase,
        "active": None if state.winners else state.active,
        "scores": list(state.scores),
        "center": [label[c] for c in state.center],
        "deck_size": len(state.deck),
        "piles": [[label[c] for c in pile] for pile in state.piles],
        "pile_tops": [state.pile_top_value(s) for s in range(n)],
        "hand_sizes": [len(hand) for hand in state.hands],
        "known_in_hand": [[label[c] for c in cards] for cards in state.known],
        "turn": {
            "center_played": k,
            "t0": label[state.center[-1 - k]],
            "targets": [s for s in range(n) if state.hit >> s & 1],
        },
        "turns_in_round": state.turns,
        "winners": list(state.winners),
    }
    shown: list[SnorkelingView] = []
    for seat in seats:
        one = cast(SnorkelingView, {"seat": seat, **shared})
        if seat is not None:
            one["hand"] = [label[c] for c in state.hands[seat]]
        shown.append(one)
    return shown


def unseen_cards(state: SnorkelingState, seat: int | None) -> list[int]:
    """Cards ``seat`` cannot locate, in face order: the deck and the unknown part of other players' hands."""
    remaining = list(state.context.table.face_copies)
    # The seat's own hand already includes its publicly known cards: count them once.
    seen = [state.center, *state.piles, *(known for other, known in enumerate(state.known) if other != seat)]
    if seat is not None:
        seen.append(state.hands[seat])
    for cards in seen:
        for face in cards:
            remaining[face] -= 1
    return [face for face, count in enumerate(remaining) for _ in range(count)]


def determinize(state: SnorkelingState, seat: int, rng: random.Random) -> SnorkelingState:
    """A state ``seat`` cannot tell from the real one: unseen cards dealt at random into the hidden places.

    Sampling is uniform over the unseen cards, keeping every publicly known hand card in place. (A seat that
    tracked every refill could sometimes narrow the deck further; search bots do not rely on that.)
    """
    sample = state.clone()
    pool = unseen_cards(state, seat)
    shuffle_with(pool, rng.random)
    hands = list(state.hands)
    for other, hand in enumerate(hands):
        if other != seat:
            hidden = len(hand) - len(state.known[other])
            hands[other] = tuple(sorted(state.known[other] + tuple(pool[:hidden])))
            del pool[:hidden]
    sample.hands = tuple(hands)
    sample.deck = tuple(pool)
    sample.rng = SeededRng(rng.getrandbits(63))  # future shuffles must not be foreseeable either
    return sample
