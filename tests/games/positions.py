"""What every game's test helpers read and write through the engine contract: configs, positions written in the
state notation, the notation's fields; and, for the turn-based games (one seat to act), the moves.

Each game's ``helpers.py`` binds these to its game (``TurnBased("snorkeling")``) and adds its own readings."""

from __future__ import annotations

from typing import Any

import pytest

from divedeck.engine import Event, IllegalAction, get_game


def cards(text: str) -> list[str]:
    """A notation list of cards (``-`` for none)."""
    return [] if text == "-" else text.split(",")


class Positions:
    """Configs, positions and notation fields of one game."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.game = get_game(name)

    def config(self, **options: Any) -> Any:
        return self.game.make_config(options)

    def position(self, text: str, **options: Any) -> Any:
        """The state written as ``text`` (notation fields), under a config with ``options``.

        The player count is taken from the number of hands unless ``num_players`` is given.
        """
        if "num_players" not in options:
            hands = next(word for word in text.split() if word.startswith("hands="))
            options["num_players"] = hands.count("/") + 1
        return self.game.parse_state(f"{self.name} {text}", self.config(**options))

    def fields(self, state: Any, seat: int | None = None, *, masked: bool = False) -> dict[str, str]:
        """The notation's fields by name (the seat's copy with ``masked``)."""
        text = self.game.seat_notation(state, seat) if masked else self.game.state_notation(state)
        words = text.split()
        assert words[0] == self.name
        return dict(word.split("=", 1) for word in words[1:])


class TurnBased(Positions):
    """A game where exactly one seat acts at a time: moves in action notation, for that seat unless told."""

    def actor(self, state: Any) -> int:
        (seat,) = self.game.actors(state)
        return seat

    def act(self, state: Any, *moves: str, seat: int | None = None) -> list[Event]:
        """Apply ``moves`` (action notation) for the seat to act (or ``seat``); the events of them all."""
        events: list[Event] = []
        for move in moves:
            events += self.game.apply(state, self.actor(state) if seat is None else seat, self.game.parse_action(move))
        return events

    def legal(self, state: Any, seat: int | None = None) -> list[str]:
        who = self.actor(state) if seat is None else seat
        return [self.game.format_action(a) for a in self.game.legal_actions(state, who)]

    def rejected(self, state: Any, move: str, seat: int | None = None) -> IllegalAction:
        """Assert that ``move`` is illegal now: ``apply`` raises ``IllegalAction``, changes nothing, and the move is
        not offered. Returns the error (to check its rule)."""
        who = self.actor(state) if seat is None else seat
        before = self.game.state_notation(state)
        action = self.game.parse_action(move)
        assert move not in self.legal(state, who)
        with pytest.raises(IllegalAction) as caught:
            self.game.apply(state, who, action)
        assert self.game.state_notation(state) == before
        return caught.value
