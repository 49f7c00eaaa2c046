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

import pytest

from divedeck.engine import Event, IllegalAction, get_game

GAME = get_game("snorkeling")

COLORS = "YRGBP"
VALUES = range(5)
FACES = [f"{color}{value}" for color in COLORS for value in VALUES]


def config(**options: Any) -> Any:
    return GAME.make_config(options)


def position(text: str, **options: Any) -> Any:
    """The state written as ``text`` (notation fields), under a config with ``options``.

    The player count is taken from the number of hands unless ``num_players`` is given.
    """
    if "num_players" not in options:
        hands = next(word for word in text.split() if word.startswith("hands="))
        options["num_players"] = hands.count("/") + 1
    return GAME.parse_state(f"snorkeling {text}", config(**options))


def actor(state: Any) -> int:
    (seat,) = GAME.actors(state)
    return seat


def act(state: Any, *moves: str, seat: int | None = None) -> list[Event]:
    """Apply ``moves`` (action notation) for the seat to play (or ``seat``); the events of them all."""
    events: list[Event] = []
    for move in moves:
        events += GAME.apply(state, actor(state) if seat is None else seat, GAME.parse_action(move))
    return events


def legal(state: Any, seat: int | None = None) -> list[str]:
    return [GAME.format_action(a) for a in GAME.legal_actions(state, actor(state) if seat is None else seat)]


def center_moves(state: Any) -> set[str]:
    return {move for move in legal(state) if move.startswith("c ")}


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
    assert words[0] == "snorkeling"
    return dict(word.split("=", 1) for word in words[1:])


def cards(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


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
