"""Positions, moves and readings for the Hold Your Breath! tests, all through the engine contract and the notations.

A position is written in the state notation without its leading word, e.g.
``position("hands=A5D,S10C/?5 deck=?")``. Unlisted fields take the value of a fresh Descent (seat 0 to play,
nothing played this turn, every pirate at the surface); ``deck=?`` puts every card not listed elsewhere in the
deck, and ``deck=?,SH,KR`` puts those two on top of them, ``KR`` topmost (stacks are written bottom to top). ``?5``
in a hand is five cards not listed elsewhere, taken in card order (A5D, A5D, A5D, A5D, A5X, ...).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeVar

import pytest

from divedeck.engine import Event, IllegalAction, get_game

GAME = get_game("hold-your-breath")
E = TypeVar("E", bound=Event)

# The default deck (HYB-C1): every Air/Swim value and icon, four copies each, and the three special cards.
AIR_SWIM = [f"{kind}{value}{icon}" for kind in "AS" for value in (5, 10) for icon in "DXCP"]
DEFAULT_DECK = Counter({**{label: 4 for label in AIR_SWIM}, "SH": 1, "KR": 1, "DO": 2})


def config(**options: Any) -> Any:
    return GAME.make_config(options)


def position(text: str, **options: Any) -> Any:
    """The state written as ``text`` (notation fields), under a config with ``options``.

    The player count is taken from the number of hands unless ``num_players`` is given.
    """
    if "num_players" not in options:
        hands = next(word for word in text.split() if word.startswith("hands="))
        options["num_players"] = hands.count("/") + 1
    return GAME.parse_state(f"hold-your-breath {text}", config(**options))


def actor(state: Any) -> int:
    (seat,) = GAME.actors(state)
    return seat


def act(state: Any, *moves: str, seat: int | None = None) -> list[Event]:
    """Apply ``moves`` (action notation) for the seat to act (or ``seat``); the events of them all."""
    events: list[Event] = []
    for move in moves:
        events += GAME.apply(state, actor(state) if seat is None else seat, GAME.parse_action(move))
    return events


def legal(state: Any, seat: int | None = None) -> list[str]:
    return [GAME.format_action(a) for a in GAME.legal_actions(state, actor(state) if seat is None else seat)]


def rejected(state: Any, move: str, seat: int | None = None) -> IllegalAction:
    """Assert that ``move`` is illegal now: ``apply`` raises ``IllegalAction``, changes nothing, and the move is not
    offered. Returns the error (to check its rule)."""
    who = actor(state) if seat is None else seat
    before = GAME.state_notation(state)
    action = GAME.parse_action(move)
    assert move not in legal(state, who)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, who, action)
    assert GAME.state_notation(state) == before
    return caught.value


def fields(state: Any, seat: int | None = None, *, masked: bool = False) -> dict[str, str]:
    """The notation's fields by name (the seat's copy with ``masked``)."""
    text = GAME.seat_notation(state, seat) if masked else GAME.state_notation(state)
    words = text.split()
    assert words[0] == "hold-your-breath"
    return dict(word.split("=", 1) for word in words[1:])


def cards(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


def hand(state: Any, seat: int) -> list[str]:
    return cards(fields(state)["hands"].split("/")[seat])


def pile(state: Any, seat: int) -> list[str]:
    """Seat's Swim Pile items, bottom first: ``pA5P`` (Panic face up), ``hSH`` (Shark), ``dS5C`` (face-down Panic
    from the hand), ``bA5D`` (face-down Panic from the deck top)."""
    return cards(fields(state)["piles"].split("/")[seat])


def discard(state: Any) -> list[str]:
    return cards(fields(state)["discard"])


def deck(state: Any) -> list[str]:
    return cards(fields(state)["deck"])


def numbers(state: Any, name: str) -> list[int]:
    text = fields(state)[name]
    return [] if text == "-" else [int(part) for part in text.split(",")]


def number(state: Any, name: str) -> int:
    return int(fields(state)[name])


def all_cards(state: Any) -> Counter[str]:
    """Every card of the state, wherever it lies (HYB-I1)."""
    f = fields(state)
    found: Counter[str] = Counter(cards(f["deck"]) + cards(f["discard"]))
    for part in f["hands"].split("/"):
        found.update(cards(part))
    for part in f["piles"].split("/"):
        found.update(entry[1:] for entry in cards(part))
    if f["kraken"] != "-":
        found.update(part for part in f["kraken"].split("/") if part not in ("-", "?"))
    return found


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def first(events: list[Event], kind: type[E]) -> E:
    """The first event of record type ``kind``."""
    return next(event for event in events if isinstance(event, kind))


def with_deck(text: str, top: list[str], **options: Any) -> Any:
    """The position ``text`` whose Dive Deck holds only ``top`` (bottom first): every card not named anywhere is
    put in the Discard Pile, above the ones ``text`` lists there. For the end of a round."""
    probe = position(f"{text} deck=?", **options)
    rest = Counter(deck(probe))
    rest.subtract(top)
    assert min(rest.values(), default=0) >= 0, f"the deck cannot hold {top}"
    order = {label: i for i, label in enumerate(DEFAULT_DECK)}
    pile_of_rest = discard(probe) + sorted(rest.elements(), key=order.__getitem__)
    words = [w for w in text.split() if not w.startswith(("discard=", "hands="))]
    words.append(f"hands={fields(probe)['hands']}")
    words.append(f"deck={','.join(top) or '-'}")
    words.append(f"discard={','.join(pile_of_rest) or '-'}")
    return position(" ".join(words), **options)
