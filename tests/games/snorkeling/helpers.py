"""Positions, moves and readings for the Snorkeling tests, all through the engine contract and the notations.

A position is written in the state notation without its leading word, e.g.
``position("hands=Y1,Y4/?5 center=Y3 deck=?", num_players=2)``. Unlisted fields take the value of a fresh round
(round 1, seat 0 to play, nothing played this turn); ``deck=?`` puts every card not listed elsewhere in the deck,
and ``deck=?,R2,B3`` puts those two on top of them, ``B3`` topmost (stacks are written bottom to top). ``?5`` in a
hand is five cards not listed elsewhere (taken in card order: Y0, Y0, Y0, Y1, ...).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from divedeck.engine import Event
from tests.games.positions import TurnBased, cards

_BOUND = TurnBased("snorkeling")
GAME = _BOUND.game
config, position, fields = _BOUND.config, _BOUND.position, _BOUND.fields
actor, act, legal, rejected = _BOUND.actor, _BOUND.act, _BOUND.legal, _BOUND.rejected

COLORS = "YRGBP"
VALUES = range(5)
FACES = [f"{color}{value}" for color in COLORS for value in VALUES]


def center_moves(state: Any) -> set[str]:
    return {move for move in legal(state) if move.startswith("c ")}


def hand(state: Any, seat: int) -> list[str]:
    return cards(fields(state)["hands"].split("/")[seat])


def pile(state: Any, seat: int) -> list[str]:
    return cards(fields(state)["piles"].split("/")[seat])


def center(state: Any) -> list[str]:
    return cards(fields(state)["center"])


def deck(state: Any) -> list[str]:
    return cards(fields(state)["deck"])


def scores(state: Any) -> list[int]:
    return [int(s) for s in fields(state)["scores"].split(",")]


def number(state: Any, name: str) -> int:
    return int(fields(state)[name])


def all_cards(state: Any) -> Counter[str]:
    """Every reef card of the state, wherever it lies (SNK-I1)."""
    f = fields(state)
    found: Counter[str] = Counter(cards(f["deck"]) + cards(f["center"]))
    for part in f["hands"].split("/") + f["piles"].split("/"):
        found.update(cards(part))
    return found


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def first(events: list[Event], kind: str) -> dict[str, Any]:
    """The first event of ``kind``, as a spectator receives it (through JSON, as on the wire)."""
    shown: dict[str, Any] = json.loads(json.dumps(next(event.for_seat(None) for event in events if event.kind == kind)))
    return shown


def value(card: str) -> int:
    return int(card[1:])
