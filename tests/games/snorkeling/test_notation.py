"""Snorkeling's action and state notations: what they accept, what they refuse, and that they round-trip."""

from __future__ import annotations

from typing import Any

import pytest

from divedeck.engine import MalformedInput
from divedeck.games.snorkeling import END_TURN, PASS, PlayCenter, PlayPile

from .helpers import GAME, act, config, fields, position


@pytest.mark.parametrize(("text", "action", "written"), [
    ("pass", PASS, "pass"),
    ("end", END_TURN, "end"),
    ("c Y3", PlayCenter("Y3"), "c Y3"),
    ("p R2>1", PlayPile("R2", 1), "p R2>1"),
    ("  PASS ", PASS, "pass"),
    ("C  y3", PlayCenter("Y3"), "c Y3"),
    ("P r2>3", PlayPile("R2", 3), "p R2>3"),
])
def test_action_notation_parses_and_formats(text: str, action: Any, written: str) -> None:
    assert GAME.parse_action(text) == action
    assert GAME.format_action(GAME.parse_action(text)) == written


@pytest.mark.parametrize("text", [
    "", "c", "p", "c 3Y", "c Y", "c YY", "p R2", "p R2>", "p R2>x", "p R2>-1", "p >1", "c Y3 Y4", "pass now",
    "end turn", "x Y3", "play Y3", "c Y3>1",
])
def test_malformed_action_text_is_refused(text: str) -> None:
    with pytest.raises(MalformedInput):
        GAME.parse_action(text)


@pytest.mark.parametrize("value", [None, 42, b"pass", ["pass"]])
def test_an_action_must_be_text(value: Any) -> None:
    with pytest.raises(MalformedInput):
        GAME.parse_action(value)


def test_state_notation_round_trips_through_a_game() -> None:
    cfg = config(num_players=3)
    state = GAME.new(cfg, 5)
    for _ in range(60):
        text = GAME.state_notation(state)
        assert GAME.state_notation(GAME.parse_state(text, cfg)) == text
        (seat,) = GAME.actors(state)
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])


def test_a_position_needs_only_hands_and_centre() -> None:
    """Unlisted fields take the values of a fresh round; the player count comes from the hands."""
    state = GAME.parse_state("snorkeling hands=Y1/?5/?5 center=Y3 deck=?")
    f = fields(state)
    assert (f["round"], f["starter"], f["active"], f["phase"], f["scores"]) == ("1", "0", "0", "center", "0,0,0")
    assert (f["piles"], f["known"], f["played"], f["hit"]) == ("-/-/-", "-/-/-", "0", "-")
    assert GAME.card_count(state) == 75


def test_listed_deck_cards_lie_on_top_of_the_unknown_rest() -> None:
    state = position("hands=Y1,B3/?5/?5/?5 center=Y3 deck=?,R2,G4")
    assert fields(state)["deck"].split(",")[-2:] == ["R2", "G4"]
    events = act(state, "pass")
    assert events[-1].for_seat(0)["card"] == "G4"


@pytest.mark.parametrize("text", [
    "",
    "chess hands=Y1/?5 center=Y3 deck=?",
    "snorkeling center=Y3 deck=?",  # no hands
    "snorkeling hands=Y1/?5 deck=?",  # no centre
    "snorkeling hands=Y1/?5 center=Y3 deck=? colour=red",  # unknown field
    "snorkeling hands=Y1/?5 center=Y3 center=Y2 deck=?",  # a field twice
    "snorkeling hands=Y1/?5 center=- deck=?",  # an empty centre (SNK-I3)
    "snorkeling hands=Y1/?5 center=Q3 deck=?",  # no such card
    "snorkeling hands=Y1,Y1,Y1/Y1 center=Y3 deck=?",  # a fourth copy
    "snorkeling hands=Y1/?5 center=Y3 piles=R3/- deck=?",  # a pile must start with a 4 (SNK-I2)
    "snorkeling hands=Y1/?5 center=Y3 piles=R4,R2/- deck=?",  # and go down by one
    "snorkeling hands=Y1/?5 center=Y3 piles=R4/-/- deck=?",  # one pile per seat
    "snorkeling hands=Y1/?5 center=?3 deck=?",  # the centre is public
    "snorkeling hands=Y1/?5 center=Y3 deck=-",  # cards unaccounted for
    "snorkeling hands=Y1/?5 center=Y3 deck=?12",  # a wrong count of unknown cards
    "snorkeling hands=Y1/?5 center=Y3 deck=R2,?",  # the unknown part is the bottom of the deck
    "snorkeling hands=?5,Y1/?5 center=Y3 deck=?",  # the unknown part of a hand comes last
    "snorkeling hands=Y1/?5 known=Y2/- center=Y3 deck=?",  # a known card the seat does not hold
    "snorkeling hands=Y1/?5 center=Y3 deck=? phase=opponents",  # pile plays need a centre card first
    "snorkeling hands=Y1/?5 center=Y3 deck=? phase=diving",
    "snorkeling hands=Y1/?5 center=Y3 deck=? scores=1,2,3",
    "snorkeling hands=Y1/?5 center=Y3 deck=? active=2",
    "snorkeling hands=Y1/?5 center=Y3 deck=? phase=over scores=3,4",  # nobody reached the target
    "snorkeling hands=Y1/?5 center=Y3 deck=? phase=over scores=12,12",  # a tie is not a win
    "snorkeling hands=Y1/?5 center=Y3 deck=? rng=x:y",
    "snorkeling hands=Y1/?5 center=Y3 deck=? played=1",  # played counts cards above T0
])
def test_malformed_state_notation_is_refused(text: str) -> None:
    with pytest.raises(MalformedInput):
        GAME.parse_state(text)


def test_a_position_must_match_the_configs_player_count() -> None:
    with pytest.raises(MalformedInput):
        GAME.parse_state("snorkeling hands=Y1/?5/?5 center=Y3 deck=?", config(num_players=4))


def test_a_finished_game_round_trips() -> None:
    state = GAME.parse_state("snorkeling hands=Y1/?5 center=Y3 deck=? phase=over scores=12,3")
    assert GAME.outcome(state) is not None
    assert GAME.outcome(state).winners == (0,)
    assert GAME.state_notation(GAME.parse_state(GAME.state_notation(state))) == GAME.state_notation(state)
