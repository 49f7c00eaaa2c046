"""Bermuda's action notation (with times) and state notation, and what each seat's copy hides."""

from __future__ import annotations

import random

import pytest

from divedeck.engine import MalformedInput

from .helpers import GAME, config, diving, fields, position


@pytest.mark.parametrize("text", [
    "hold", "hold @0", "release @30000", "sort @5", "lay 7 c3 @12500", "lay 1 c1", "signal c2 @9000",
    "tick @31000", "lay 9 c5 @999999999999",
])
def test_actions_round_trip_through_their_notation(text: str) -> None:
    action = GAME.parse_action(text)
    assert GAME.format_action(action) == text
    assert GAME.parse_action(GAME.format_action(action)) == action


def test_notation_forgives_case_and_spaces() -> None:
    assert GAME.format_action(GAME.parse_action("  LAY 7   C3  @12 ")) == "lay 7 c3 @12"


@pytest.mark.parametrize("text", [
    "lay 10 c1", "lay 0 c1", "lay 7", "lay 7 3", "lay 7 c0", "lay x c1", "hold @-5", "hold @", "hold @1.5",
    "tick", "tick now", "signal", "signal 2", "release @12 @13", "hold please", "lay 7 c3 @@ junk",
])
def test_malformed_actions_are_malformed_input(text: str) -> None:
    with pytest.raises(MalformedInput):
        GAME.parse_action(text)


def test_stamping_gives_the_action_its_time_and_refuses_a_bad_time() -> None:
    action = GAME.at(GAME.parse_action("lay 7 c3"), 4500)
    assert GAME.format_action(action) == "lay 7 c3 @4500"
    with pytest.raises(MalformedInput):
        GAME.at(action, -1)


def test_the_state_notation_round_trips_and_a_seats_copy_hides_hands_deck_and_aside() -> None:
    state = GAME.new(config(num_players=3), 77)
    text = GAME.state_notation(state)
    assert GAME.state_notation(GAME.parse_state(text, config(num_players=3))) == text
    masked = fields(state, 1, masked=True)
    assert masked["hands"].split("/")[0] == "?12" and masked["hands"].split("/")[1].isdigit()
    assert masked["deck"] == "?25" and masked["aside"] == "?27" and masked["rng"] == "?"


def test_a_seats_copy_parses_into_a_state_that_seat_cannot_tell_from_the_real_one() -> None:
    state = diving("123?5/?8", "T05,T21", columns="9,-", now=400)
    copy = GAME.seat_notation(state, 0)
    parsed = GAME.parse_state(copy, config(num_players=2))
    assert GAME.seat_notation(parsed, 0) == copy
    assert GAME.view(parsed, 0) == GAME.view(state, 0)


@pytest.mark.parametrize(("text", "words"), [
    ("hands=1/2 layout=T01,T02 columns=3,-", "no card is laid before the dive"),
    ("phase=dive hands=1/2 layout=T01,T02", "t0="),
    ("hands=1/2", "layout="),
    ("hands=1/2 layout=T01,T01", "more copies of T01"),
    ("hands=88888888/1 layout=T01", "more copies of 8"),
    ("hands=1/2 layout=T01,T02,T03", "3 treasures for 2 players"),
    ("hands=1/2 layout=T01,T02 hold=0,1", "dive_at= gives"),
    ("hands=1/2 layout=T01,T02 hold=0 dive_at=50", "only while everyone holds"),
    ("hands=1/2 layout=T01,T02 aside=1", "nowhere in the notation"),
    ("hands=1/2 layout=T99", "not a treasure"),
    ("hands=1/2 layout=T01 end=nap@5", "end="),
    ("hands=1/2 layout=T01 shown=0", "hidden_treasures"),
    ("hands=a/2 layout=T01", "digits"),
])
def test_impossible_or_broken_positions_are_malformed_input(text: str, words: str) -> None:
    with pytest.raises(MalformedInput, match=words):
        position(text)


def test_every_field_has_a_default_but_hands() -> None:
    state = position("hands=?12/?12 layout=T03,T04")
    f = fields(state)
    assert (f["round"], f["phase"], f["now"], f["hold"], f["rng"]) == ("1", "prepare", "0", "-", "0:0")
    assert len(f["deck"].split(",")) == 26
    with pytest.raises(MalformedInput):
        GAME.parse_state("bermuda layout=T01")


def test_determinize_keeps_what_the_seat_knows_and_resamples_the_rest() -> None:
    state = GAME.new(config(num_players=3, hidden_treasures=True), 5)
    sample = GAME.determinize(state, 1, random.Random(3))
    assert GAME.view(sample, 1) == GAME.view(state, 1)
    assert fields(sample)["hands"].split("/")[1] == fields(state)["hands"].split("/")[1]
    differs = [fields(GAME.determinize(state, 1, random.Random(seed)))["layout"] for seed in range(5)]
    assert len(set(differs)) > 1  # the face-down treasures are unknown to everyone
