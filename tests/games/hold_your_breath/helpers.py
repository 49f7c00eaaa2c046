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

from divedeck.engine import Event
from tests.games.positions import TurnBased, cards

_BOUND = TurnBased("hold-your-breath")
GAME = _BOUND.game
config, position, fields = _BOUND.config, _BOUND.position, _BOUND.fields
actor, act, legal, rejected = _BOUND.actor, _BOUND.act, _BOUND.legal, _BOUND.rejected
E = TypeVar("E", bound=Event)

# The default deck (HYB-C1): every Air/Swim value and icon, four copies each, and the three special cards.
AIR_SWIM = [f"{kind}{value}{icon}" for kind in "AS" for value in (5, 10) for icon in "DXCP"]
DEFAULT_DECK = Counter({**{label: 4 for label in AIR_SWIM}, "SH": 1, "KR": 1, "DO": 2})


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
