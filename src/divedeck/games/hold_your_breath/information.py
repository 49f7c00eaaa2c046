"""What each seat may know in Hold Your Breath! (HYB-R3), in one place: its view, and determinization for search.

Public: the deck size, the whole Discard Pile (face up), depths, anchors, the order of surfacing, hand sizes, every
face-up Swim Pile card (Panics played by opponents, Sharks), the backs of face-down Panics, this turn's Air and
Swim totals, whose decision is awaited and which Kraken victims have chosen. Private: each hand (to its owner); the
face of a face-down Panic laid from a hand (to its owner; one laid from the deck top is seen by nobody); the card a
Kraken victim has set aside (to that victim, until all are in); the order of the deck.
"""

from __future__ import annotations

import random
from typing import Literal, NotRequired, TypedDict

from ...engine.rng import SeededRng, shuffle_with
from .rules import actors, distance
from .state import BLIND, DOWN, OVER, PANIC, SHARK, HoldYourBreathState, item, item_face, item_how

_KIND: dict[int, Literal["panic", "shark"]] = {PANIC: "panic", SHARK: "shark", DOWN: "panic", BLIND: "panic"}


class PileItemView(TypedDict):
    kind: Literal["panic", "shark"]
    face_down: bool
    card: str | None  # None: a face-down card this seat has not seen


class TurnView(TypedDict):
    air: int
    swim: int
    move: int


class FinalView(TypedDict):
    trigger: int | None
    turns_left: int


class KrakenView(TypedDict):
    waiting: list[int]
    chosen: list[int]


class HoldYourBreathView(TypedDict):
    """What one seat (``seat``; ``None``: a spectator) sees. The card table and the board's step and hindrance
    penalty are static data (``HoldYourBreath.static_data``); ``max_depth`` and ``hand_size`` stay here for
    readers that have the view alone (the terminal, the bots)."""

    game: str
    seat: int | None
    players: int
    round: Literal["descent", "ascent"]
    phase: str
    first: int
    active: int | None
    actors: list[int]
    deck_size: int
    discard: list[str]
    hand_sizes: list[int]
    hand_size: int
    depths: list[int]
    anchors: list[int] | None
    max_depth: int
    piles: list[list[PileItemView]]
    surfaced: list[int]
    turn: TurnView
    final: FinalView
    kraken: KrakenView | None
    distances: list[int] | None
    winners: list[int]
    ended: str | None
    hand: NotRequired[list[str]]
    kraken_given: NotRequired[str]


def pile_item_view(state: HoldYourBreathState, owner: int, entry: int, seat: int | None) -> PileItemView:
    how = item_how(entry)
    face_down = how in (DOWN, BLIND)
    visible = not face_down or (how == DOWN and owner == seat)
    return {"kind": _KIND[how], "face_down": face_down,
            "card": state.context.table.face_label[item_face(entry)] if visible else None}


def view(state: HoldYourBreathState, seat: int | None) -> HoldYourBreathView:
    context = state.context
    table = context.table
    label = table.face_label
    n = len(state.hands)
    over = state.phase == OVER
    kraken = state.kraken
    shown: HoldYourBreathView = {
        "game": "hold-your-breath",
        "seat": seat,
        "players": n,
        "round": "descent" if state.round == "descent" else "ascent",
        "phase": state.phase,
        "first": state.first,
        "active": None if over else state.active,
        "actors": sorted(actors(state)),
        "deck_size": len(state.deck),
        "discard": [label[c] for c in state.discard],
        "hand_sizes": [len(hand) for hand in state.hands],
        "hand_size": context.hand_size,
        "depths": list(state.depths),
        "anchors": list(state.anchors) if state.anchors else None,
        "max_depth": context.max_depth,
        "piles": [[pile_item_view(state, owner, entry, seat) for entry in pile]
                  for owner, pile in enumerate(state.piles)],
        "surfaced": list(state.surfaced),
        "turn": {"air": state.air, "swim": state.swim, "move": min(state.air, state.swim)},
        "final": {"trigger": state.trigger if state.trigger >= 0 else None, "turns_left": state.final_left},
        "kraken": None if not kraken else {
            "waiting": [s for s in range(n) if kraken[s] == -1],
            "chosen": [s for s in range(n) if kraken[s] >= 0]},
        "distances": [distance(state, s) for s in range(n)] if state.anchors else None,
        "winners": list(state.winners),
        "ended": state.ended or None,
    }
    if seat is not None:
        shown["hand"] = [label[c] for c in state.hands[seat]]
        if kraken and kraken[seat] >= 0:
            shown["kraken_given"] = label[kraken[seat]]
    return shown


def unseen_cards(state: HoldYourBreathState, seat: int | None) -> list[int]:
    """Cards ``seat`` cannot locate, in face order: the deck, other hands, face-down Panics it has not seen and
    the cards other Kraken victims have set aside."""
    remaining = list(state.context.table.face_copies)
    for face in state.discard:
        remaining[face] -= 1
    for owner, pile in enumerate(state.piles):
        for entry in pile:
            how = item_how(entry)
            if how in (PANIC, SHARK) or (how == DOWN and owner == seat):
                remaining[item_face(entry)] -= 1
    if seat is not None:
        for face in state.hands[seat]:
            remaining[face] -= 1
        if state.kraken and state.kraken[seat] >= 0:
            remaining[state.kraken[seat]] -= 1
    return [face for face, count in enumerate(remaining) for _ in range(count)]


def determinize(state: HoldYourBreathState, seat: int, rng: random.Random) -> HoldYourBreathState:
    """A state ``seat`` cannot tell from the real one: the unseen cards dealt at random into the hidden places.

    Sampling is uniform over the unseen cards. (A seat that tracked which cards went into the Ascent's deck could
    sometimes narrow it further; the bots do not rely on that.)
    """
    sample = state.clone()
    pool = unseen_cards(state, seat)
    shuffle_with(pool, rng.random)
    hands = list(state.hands)
    for other, hand in enumerate(hands):
        if other != seat:
            hands[other] = tuple(sorted(pool[:len(hand)]))
            del pool[:len(hand)]
    piles = []
    for owner, pile in enumerate(state.piles):
        entries = []
        for entry in pile:
            how = item_how(entry)
            if how == BLIND or (how == DOWN and owner != seat):
                entry = item(pool.pop(), how)
            entries.append(entry)
        piles.append(tuple(entries))
    if state.kraken:
        sample.kraken = tuple(pool.pop() if other != seat and chosen >= 0 else chosen
                              for other, chosen in enumerate(state.kraken))
    sample.hands = tuple(hands)
    sample.piles = tuple(piles)
    sample.deck = tuple(pool)
    sample.rng = SeededRng(rng.getrandbits(63))  # future shuffles must not be foreseeable either
    return sample
