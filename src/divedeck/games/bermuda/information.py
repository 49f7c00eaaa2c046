"""What each seat may know in Bermuda, in one place: its view, and determinization for search.

Public: the columns and every card in them, the face-up treasures, both piles, hand sizes, who holds their breath,
the times (the last input's, the countdown's end, the dive's start and limit), gestures, and the last round's
result. Private: each hand (its owner alone sees it, BRM-R3.3), the Diver cards set aside (nobody), the order of the
treasure deck (nobody), and face-down treasures before the dive (nobody, BRM-V1).
"""

from __future__ import annotations

import random
from typing import Any

from ...engine.rng import SeededRng
from .cards import DIVER_DECK
from .rules import column_status, deadline, judge, protection, treasures_won
from .state import NONE, BermudaState


def _treasure(state: BermudaState, index: int) -> dict[str, Any]:
    return state.table.treasures[index].to_dict()


def _time(value: int) -> int | None:
    return None if value == NONE else value


def view(state: BermudaState, seat: int | None) -> dict[str, Any]:
    config = state.config
    n = len(state.hands)
    treasures = state.table.treasures
    columns = []
    for index, cards in enumerate(state.columns):
        treasure = state.layout[index]
        depth = treasures[treasure].depth if state.revealed else None
        status, accepts = column_status(depth, cards)
        columns.append({
            "column": index + 1,
            "treasure": _treasure(state, treasure) if state.revealed else None,
            "cards": list(cards),
            "status": status,
            "accepts": list(accepts),
        })
    last = None
    if state.last and state.last_end is not None:
        reason, who, t = state.last_end
        last = {
            "reason": reason,
            "seat": _time(who),
            "t": t,
            "columns": [{"column": i + 1, "treasure": _treasure(state, treasure), "cards": list(cards),
                         **judge(treasures[treasure].depth, cards)}
                        for i, (treasure, cards) in enumerate(state.last)],
        }
    shown: dict[str, Any] = {
        "game": "bermuda",
        "seat": seat,
        "players": n,
        "phase": state.phase,
        "round": min(state.round, config.rounds),
        "rounds": config.rounds,
        "now": state.now,
        "holding": [state.is_holding(s) for s in range(n)],
        "dive_at": _time(state.dive_at),
        "t0": _time(state.t0),
        "deadline": deadline(state),
        "countdown_ms": config.countdown_ms,
        "max_dive_ms": config.max_dive_ms,
        "columns": columns,
        "hand_sizes": [len(hand) for hand in state.hands],
        "signals": [None if column == NONE else column + 1 for column in state.signals],
        "deck_size": len(state.deck),
        "won": [_treasure(state, t) for t in state.won],
        "keeper": [_treasure(state, t) for t in state.keeper],
        "treasures_won": treasures_won(state),
        "protection": protection(state),
        "last_result": last,
        "sorting": config.sorting,
        "sorting_allowed": config.sorting_allowed(state.round) and state.phase == "prepare",
        "hidden_treasures": config.hidden_treasures,
        "placement_check": config.placement_check,
        "challenge": config.challenge,
    }
    if config.challenge == "chained":
        shown["dives"] = state.dives
        shown["layouts"] = state.layouts
    if seat is not None:
        shown["hand"] = list(state.hands[seat])
    return shown


def unseen_divers(state: BermudaState, seat: int | None) -> list[int]:
    """Diver cards ``seat`` cannot locate, by value: other hands and the cards set aside."""
    remaining = {value: 0 for value in range(1, 10)}
    for value in DIVER_DECK:
        remaining[value] += 1
    seen = [*state.columns] + ([state.hands[seat]] if seat is not None else [])
    for cards in seen:
        for value in cards:
            remaining[value] -= 1
    return [value for value, count in remaining.items() for _ in range(count)]


def unseen_treasures(state: BermudaState) -> list[int]:
    """Treasures nobody can locate: the deck (order unknown) and face-down ones in the layout."""
    seen = set(state.won) | set(state.keeper) | (set(state.layout) if state.revealed else set())
    return [t for t in range(len(state.table)) if t not in seen]


def determinize(state: BermudaState, seat: int, rng: random.Random) -> BermudaState:
    """A state ``seat`` cannot tell from the real one: other hands, the set-aside cards, the treasure deck's order
    and face-down treasures dealt at random from what the seat cannot see."""
    sample = state.clone()
    pool = unseen_divers(state, seat)
    rng.shuffle(pool)
    hands = list(state.hands)
    for other, hand in enumerate(hands):
        if other != seat:
            hands[other] = tuple(pool[:len(hand)])
            del pool[:len(hand)]
    sample.hands = tuple(hands)
    sample.aside = tuple(sorted(pool))
    treasures = unseen_treasures(state)
    rng.shuffle(treasures)
    if not state.revealed:
        sample.layout = tuple(treasures[:len(state.layout)])
        del treasures[:len(state.layout)]
    sample.deck = tuple(treasures)
    sample.rng = SeededRng(rng.getrandbits(63))  # future shuffles must not be foreseeable either
    return sample
