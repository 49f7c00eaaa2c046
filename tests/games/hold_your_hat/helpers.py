"""Positions, moves and readings for the Hold your Hat tests, all through the engine contract and the notations.

Every test plays with the generated deck (``deckgen.py``): card ``W007``'s entry in colour ``orange`` is
``w007-orange``, and the hat entry of a card (red for W001-W025, orange for W026-W050, ...) is ``w007-red hat``.
A position is written in the state notation without its leading word, e.g.
``position("deck=W003,W002,W001 set=W001,W002,W003", deck_size=3)``; unlisted fields take the value of a fresh
round (team A's turn before the timer, seats 0 and 1 in team A and seats 2 and 3 in team B, colour orange, all 17
special cards in the special deck). Stacks are written bottom to top: ``deck=W003,W002,W001`` has W001 on top.
"""

from __future__ import annotations

from typing import Any

import pytest

from divedeck.engine import CLOCK, Event, IllegalAction, get_game

from .deckgen import GENERATED

GAME = get_game("hold-your-hat")
WORDS = str(GENERATED)
T0 = 1000  # the time tests start the timer at
TURN = 60_000


def config(**options: Any) -> Any:
    options.setdefault("cards", WORDS)
    return GAME.make_config(options)


def position(text: str, **options: Any) -> Any:
    """The state written as ``text`` (notation fields), under a config with ``options`` (colour orange unless
    the text says otherwise)."""
    if "color=" not in text and "color" not in options:
        text += " color=orange"
    return GAME.parse_state(f"hold-your-hat {text}", config(**options))


def ids(*numbers: int) -> str:
    return ",".join(f"W{n:03d}" for n in numbers)


def small(words: int = 5, extra: str = "", **options: Any) -> Any:
    """Team A's turn before the timer with a deck of ``words`` cards W001..W0nn, W001 on top."""
    cards = list(range(1, words + 1))
    text = f"set={ids(*cards)} deck={ids(*reversed(cards))} {extra}"
    return position(text, deck_size=words, **options)


def started(words: int = 5, extra: str = "", t: int = T0, **options: Any) -> Any:
    """``small`` with the timer started at ``t`` by team A's clue-giver (seat 0)."""
    state = small(words, extra, **options)
    act(state, state.clue_giver(), "start", t)
    return state


def act(state: Any, seat: int, move: str, t: int | None = None) -> list[Event]:
    action = GAME.parse_action(move)
    if t is not None:
        action = GAME.at(action, t)
    return GAME.apply(state, seat, action)


def tick(state: Any, t: int) -> list[Event]:
    return GAME.apply(state, CLOCK, GAME.tick(t))


def legal(state: Any, seat: int) -> list[str]:
    return [GAME.format_action(a) for a in GAME.legal_actions(state, seat)]


def rejected(state: Any, seat: int, move: str, t: int | None = None) -> IllegalAction:
    """Assert that ``move`` is refused now with an IllegalAction, changing nothing; return the error."""
    before = GAME.state_notation(state)
    action = GAME.parse_action(move)
    if t is not None:
        action = GAME.at(action, t)
    else:
        assert move not in legal(state, seat)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert GAME.state_notation(state) == before
    return caught.value


def fields(state: Any, seat: int | None = None, *, masked: bool = False) -> dict[str, str]:
    text = GAME.seat_notation(state, seat) if masked else GAME.state_notation(state)
    words = text.split()
    assert words[0] == "hold-your-hat"
    return dict(word.split("=", 1) for word in words[1:])


def cards(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


def deck(state: Any) -> list[str]:
    return cards(fields(state)["deck"])


def won(state: Any, team: int) -> list[str]:
    return cards(fields(state)["won"].split("/")[team])


def held(state: Any, team: int) -> str:
    text = fields(state)["held"].split("/")[team]
    return "" if text == "-" else text


def current(state: Any) -> str:
    return fields(state)["current"]


def word_of(state: Any) -> str:
    """The current word, as the clue-giver sees it."""
    return str(GAME.view(state, state.clue_giver())["word"]["text"])


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def first(events: list[Event], kind: str, seat: int | None = None) -> dict[str, Any]:
    """The first event of ``kind``, as ``seat`` (default: a spectator) sees it."""
    return next(event.for_seat(seat) for event in events if event.kind == kind)


def totals(state: Any) -> list[int]:
    return [team["total"] for team in GAME.view(state, None)["teams"]]
