"""What each seat may know in Snorkeling (SNK-R4): views, seat notations, events and determinization."""

from __future__ import annotations

import random
from collections import Counter

from .helpers import FACES, GAME, act, all_cards, config, fields, hand, kinds, position

# Seat 0 took G3 back from its pile in plain sight (SNK-R11.3): everyone knows it holds a G3.
KNOWN = "hands=B2,G3/?5/?5/?5 known=G3/-/-/- center=Y3 piles=R4/-/-/- deck=?"


def test_determinize_keeps_every_card_when_the_seat_holds_a_publicly_known_card() -> None:
    """SNK-I1 and SNK-R4: determinizing for a seat that holds a publicly known card (one it took back from its
    pile) keeps all 75 cards, and that seat's view and notation are unchanged."""
    state = position(KNOWN)
    for seed in range(5):
        sample = GAME.determinize(state, 0, random.Random(seed))
        assert GAME.card_count(sample) == 75
        assert all_cards(sample) == Counter({face: 3 for face in FACES})
        assert GAME.view(sample, 0) == GAME.view(state, 0)
        assert GAME.seat_notation(sample, 0) == GAME.seat_notation(state, 0)


def test_determinize_keeps_other_seats_publicly_known_cards_in_their_hands() -> None:
    """SNK-R4: a determinization for seat 1 resamples seat 0's unknown card, but not its publicly known G3."""
    state = position(KNOWN)
    samples = [GAME.determinize(state, 1, random.Random(seed)) for seed in range(10)]
    for sample in samples:
        assert "G3" in hand(sample, 0)
        assert len(hand(sample, 0)) == 2
        assert hand(sample, 1) == hand(state, 1)
        assert all_cards(sample) == Counter({face: 3 for face in FACES})
    assert len({tuple(sorted(hand(sample, 0))) for sample in samples}) > 1
    assert len({fields(sample)["deck"] for sample in samples}) > 1
    assert {fields(sample)["rng"] for sample in samples} != {fields(state)["rng"]}


def test_a_seats_view_holds_its_own_hand_and_the_spectators_none() -> None:
    """SNK-R4: a seat's view shows its own hand; a spectator's view shows no hand at all."""
    state = position(KNOWN)
    assert GAME.view(state, 0)["hand"] == ["G3", "B2"]  # hands are sorted by face (colour order, then value)
    assert GAME.view(state, 2)["hand"] == hand(state, 2)
    spectator = GAME.view(state, None)
    assert "hand" not in spectator
    assert spectator["known_in_hand"] == [["G3"], [], [], []]
    assert fields(state, None, masked=True)["hands"] == "G3,?1/?5/?5/?5"
    assert fields(state, 2, masked=True)["hands"] == f"G3,?1/?5/{','.join(hand(state, 2))}/?5"


def test_a_drawn_card_is_shown_to_the_drawer_only() -> None:
    """SNK-R4: the card a player draws is in that player's copy of the event and nobody else's."""
    state = position("hands=Y1,B3/?5/?5/?5 center=Y3 deck=?,G4")
    events = act(state, "pass")
    draw = events[-1]
    assert draw.kind == "draw"
    assert draw.for_seat(0)["card"] == "G4"
    for seat in (None, 1, 2, 3):
        assert "card" not in draw.for_seat(seat)
        assert "G4" not in GAME.format_event(draw, seat)
    assert "G4" in GAME.format_event(draw, 0)


def test_a_retrieved_card_is_public() -> None:
    """SNK-R4/SNK-R11: a card taken back from a personal pile comes from a public pile, so everyone sees it."""
    state = position("hands=Y1/?5/?5/?5 center=Y3 piles=R4,G3/-/-/- deck=?,B2")
    events = act(state, "c Y1", "end")
    assert kinds(events)[-1] == "retrieve"
    assert all(events[-1].for_seat(seat)["card"] == "G3" for seat in (None, 0, 1, 2, 3))


def test_each_seat_sees_only_its_own_first_hand_in_the_deal() -> None:
    """SNK-R3/SNK-R4: the deal event shows each seat its own five cards and nobody else's."""
    state, events = GAME.new_with_events(config(), 12)
    (deal,) = events
    assert deal.kind == "round_start"
    for seat in range(4):
        assert list(deal.for_seat(seat)["hand"]) == hand(state, seat)
    assert "hand" not in deal.for_seat(None)


def test_a_seats_copy_of_the_notation_parses_to_a_state_it_cannot_tell_apart() -> None:
    """The seat notation is a position: parsing it gives a state with the same copy for that seat."""
    state = position("hands=Y2,G3/?5/?5/?5 known=G3/-/-/- center=Y3 piles=R4/-/-/- deck=?")
    act(state, "c Y2")
    for seat in (None, 0, 1):
        copy = GAME.seat_notation(state, seat)
        parsed = GAME.parse_state(copy, config())
        assert GAME.seat_notation(parsed, seat) == copy
        assert GAME.view(parsed, seat) == GAME.view(state, seat)


def test_no_event_of_a_whole_game_shows_a_drawn_card_or_a_dealt_hand_to_another_seat() -> None:
    """SNK-R4: over whole games, a draw's card and a deal's hand reach only the seat that receives them."""
    draws = 0
    for players, seed in ((2, 31), (5, 32)):
        state = GAME.new(config(num_players=players), seed)
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            (seat,) = GAME.actors(state)
            for event in GAME.apply(state, seat, rng.choice(list(GAME.legal_actions(state, seat)))):
                if event.kind not in ("draw", "round_start"):
                    continue
                secret = "card" if event.kind == "draw" else "hand"
                owners = [event.seat] if event.kind == "draw" else list(range(players))
                draws += event.kind == "draw"
                for viewer in (None, *range(players)):
                    shown = event.for_seat(viewer)
                    if viewer in owners:
                        assert secret in shown
                        if event.kind == "round_start":
                            assert list(shown["hand"]) == hand(state, viewer)
                    else:
                        assert secret not in shown, (event.kind, viewer, shown)
    assert draws > 50
