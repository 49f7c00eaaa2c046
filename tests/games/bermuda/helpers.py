"""Positions, moves and readings for the Bermuda tests, all through the engine contract and the notations.

A position is written in the state notation without its leading word, e.g.
``position("phase=dive t0=0 hands=3456/?12 layout=T05,T21")``. Unlisted fields take the value of a fresh round;
``aside=?`` (the default) sets aside every Diver card not listed elsewhere and ``deck=?`` puts every unlisted
treasure in the deck. A hand ``34?10`` is a 3, a 4 and ten cards not listed elsewhere (taken from 1 up).

A move is a seat and an action: ``"0 lay 7 c3 @12500"``, or ``"clock tick @31000"`` for the caller's clock.
"""

from __future__ import annotations

from typing import Any

import pytest

from divedeck.engine import CLOCK, Event, IllegalAction
from tests.games.positions import Positions

_BOUND = Positions("bermuda")
GAME = _BOUND.game
config, position, fields = _BOUND.config, _BOUND.position, _BOUND.fields


def diving(hands: str, layout: str, columns: str | None = None, now: int = 0, **options: Any) -> Any:
    """A dive in progress since t=0 (everyone holding): the quickest way into a position where cards are laid."""
    text = f"phase=dive t0=0 now={now} hands={hands} layout={layout}"
    if columns is not None:
        text += f" columns={columns}"
    return position(text, **options)


def parse_move(move: str) -> tuple[int, Any]:
    who, _, text = move.partition(" ")
    return (CLOCK if who == "clock" else int(who)), GAME.parse_action(text)


def play(state: Any, *moves: str) -> list[Event]:
    """Apply ``moves`` in order; the events of them all."""
    events: list[Event] = []
    for move in moves:
        seat, action = parse_move(move)
        events += GAME.apply(state, seat, action)
    return events


def legal(state: Any, seat: int) -> list[str]:
    return [GAME.format_action(a) for a in GAME.legal_actions(state, seat)]


def rejected(state: Any, move: str) -> IllegalAction:
    """Assert that ``move`` is illegal now: ``check`` and ``apply`` raise ``IllegalAction`` and nothing changes.
    Returns the error (to check its rule)."""
    seat, action = parse_move(move)
    before = GAME.state_notation(state)
    with pytest.raises(IllegalAction):
        GAME.check(state, seat, action)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert GAME.state_notation(state) == before
    return caught.value


def hand(state: Any, seat: int) -> list[int]:
    return GAME.view(state, seat)["hand"]


def column(state: Any, number: int) -> list[int]:
    return GAME.view(state, None)["columns"][number - 1]["cards"]


def phase(state: Any) -> str:
    return GAME.view(state, None)["phase"]


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def first(events: list[Event], kind: str) -> Any:
    """The first event record of ``kind``."""
    return next(event for event in events if event.kind == kind)


def result(state: Any) -> list[tuple[str, bool, list[str]]]:
    """The last resolved layout: (treasure id, won, reasons) per column."""
    last = GAME.view(state, None)["last_result"]
    return [(c["treasure"]["id"], c["won"], c["reasons"]) for c in last["columns"]]


def piles(state: Any) -> tuple[list[str], list[str]]:
    view = GAME.view(state, None)
    return view["won"], view["keeper"]


def everyone_holds(state: Any, t: int = 0) -> list[Event]:
    """Every seat holds its breath at ``t``."""
    return play(state, *(f"{seat} hold @{t}" for seat in range(GAME.view(state, None)["players"])))
