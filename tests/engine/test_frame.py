"""The engine's frame: final apply/check/new, and the checks it makes once for every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from divedeck.engine import CLOCK, Game, IllegalAction, game_names, get_game

from ..conformance import configs_for

GAMES = [get_game(name) for name in game_names()]
TURN_BASED = [game for game in GAMES if not game.realtime]
REALTIME = [game for game in GAMES if game.realtime]


def test_a_game_cannot_override_the_frame() -> None:
    snorkeling = type(get_game("snorkeling"))
    for name in ("apply", "check", "new", "is_legal"):
        with pytest.raises(TypeError, match="overrides"):
            type("Cheat", (snorkeling,), {name: lambda *args: None})


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_new_is_new_with_events_without_the_events(game: Game[Any, Any]) -> None:
    config = game.make_config(configs_for(game.name)[0])
    assert game.state_notation(game.new(config, 5)) == game.state_notation(game.new_with_events(config, 5)[0])


def _finished(game: Game[Any, Any], config: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new(config, seed)
    while game.outcome(state) is None:
        seat = min(game.actors(state))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("game", TURN_BASED, ids=lambda g: g.name)
def test_the_frame_refuses_with_the_games_own_rules(game: Game[Any, Any]) -> None:
    config = game.make_config(configs_for(game.name)[0])
    state = game.new(config, 3)
    seats = game.num_players(config)
    (actor, *_) = sorted(game.actors(state))
    waiting = next(seat for seat in range(seats) if seat not in game.actors(state))
    action = game.legal_actions(state, actor)[0]
    before = game.state_notation(state)
    for seat, rule in ((seats, game.seat_rule), (-2, game.seat_rule), (waiting, game.turn_rule)):
        for call in (game.apply, game.check):
            with pytest.raises(IllegalAction) as refused:
                call(state, seat, action)
            assert refused.value.rule == rule, (seat, refused.value)
    assert game.state_notation(state) == before, "a refused action changed the state"
    over = _finished(game, config, 4)
    with pytest.raises(IllegalAction) as refused:
        game.apply(over, actor, action)
    assert refused.value.rule == game.over_rule


@pytest.mark.parametrize("game", REALTIME, ids=lambda g: g.name)
def test_a_real_time_frame_lets_the_clock_through_and_checks_seats(game: Game[Any, Any]) -> None:
    config = game.make_config(configs_for(game.name)[0])
    state = game.new(config, 3)
    game.apply(state, CLOCK, game.tick(0))  # the clock may always tick while the game goes on
    action = game.legal_actions(state, min(game.actors(state)))[0]
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, game.num_players(config), action, at=1)
    assert refused.value.rule == game.seat_rule
