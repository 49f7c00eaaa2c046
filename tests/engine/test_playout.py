"""``Game.random_playout``, the rollout of search bots: what it plays and where it stops, for every turn-based game.

A game may replace it with a faster loop of its own (Snorkeling does; ``tests/games/snorkeling/test_playout.py``
compares the two on every config); here the contract itself is checked against actions applied one by one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from divedeck.engine import game_names, get_game
from divedeck.engine.game import Game
from tests.conformance import random_state

TURN_BASED = [name for name in game_names() if not get_game(name).realtime]


def midgame(game: Game[Any, Any], seed: int, moves: int = 30) -> Any:
    return random_state(game, game.make_config({}), seed, moves)


def by_hand(game: Game[Any, Any], state: Any, seed: int, max_actions: int,
            stop: frozenset[str]) -> tuple[int, list[Any]]:
    """The playout's definition, one ``apply`` at a time: returns the actions taken and the events of the last."""
    draw = random.Random(seed).random
    taken = 0
    events: list[Any] = []
    while game.actors(state) and taken < max_actions:
        seat = min(game.actors(state))
        legal = game.legal_actions(state, seat)
        action = legal[int(draw() * len(legal))] if len(legal) > 1 else legal[0]
        events = game.apply(state, seat, action)
        taken += 1
        if stop & {event.kind for event in events} and game.actors(state):
            break
    return taken, events


@pytest.mark.parametrize("name", TURN_BASED)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_playout_plays_the_drawn_legal_actions(name: str, seed: int) -> None:
    game = get_game(name)
    for max_actions in (0, 3, 10**9):
        played, expected = midgame(game, seed), midgame(game, seed)
        steps = game.random_playout(played, random.Random(seed).random, max_actions)
        taken, _ = by_hand(game, expected, seed, max_actions, frozenset())
        assert steps == taken
        assert game.state_notation(played) == game.state_notation(expected)
    assert game.outcome(played) is not None, "without a limit the playout finishes the game"
    assert game.random_playout(played, random.Random(0).random, 10**9) == 0, "a finished game plays nothing"


@pytest.mark.parametrize("name", TURN_BASED)
def test_a_playout_stops_right_after_a_stop_event(name: str) -> None:
    game = get_game(name)
    probe = midgame(game, 7)
    _, first_events = by_hand(game, probe, 7, 1, frozenset())
    stop = frozenset({first_events[0].kind})  # an event the playout's first action makes
    played, expected = midgame(game, 7), midgame(game, 7)
    steps = game.random_playout(played, random.Random(7).random, 10**9, stop)
    assert steps == by_hand(game, expected, 7, 10**9, stop)[0] == 1
    assert game.state_notation(played) == game.state_notation(expected)
