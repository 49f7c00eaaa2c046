"""What each seat may know in Hold Your Breath! (HYB-R3): views, seat notations, events and determinization."""

from __future__ import annotations

import random
from collections import Counter

from .helpers import DEFAULT_DECK, GAME, act, all_cards, fields, hand, pile, position

# Seat 0 laid S10D face down from its hand; seat 1 took the deck's top card face down, blind; seat 1 also faces a
# face-up Panic.
PILES = "hands=A5D,S5C/A5X,S5D,A10D,S10C/?5 piles=dS10D/bKR,pA5P/- deck=?"


def test_HYB_R3_hands_are_private_and_everything_public_is_in_every_view() -> None:
    """HYB-R3: a seat's view shows its own hand only; the deck size, Discard Pile, depths, anchors, hand sizes and
    face-up Swim Pile cards are public; a spectator sees no hand."""
    state = position(PILES + " discard=SH")
    view = GAME.view(state, 0)
    assert view["hand"] == ["A5D", "S5C"]
    assert view["hand_sizes"] == [2, 4, 5]
    assert view["discard"] == ["SH"]
    assert view["deck_size"] == 68 - 11 - 3 - 1
    spectator = GAME.view(state, None)
    assert "hand" not in spectator
    assert spectator["piles"][1][1] == {"kind": "panic", "face_down": False, "card": "A5P"}
    assert fields(state, None, masked=True)["hands"] == "?2/?4/?5"
    assert fields(state, 1, masked=True)["hands"] == "?2/A5X,A10D,S5D,S10C/?5"


def test_HYB_R3_a_face_down_panic_shows_its_back_and_its_owner_alone_knows_its_face() -> None:
    """HYB-R3: others see only the back of a face-down Panic; its owner knows its face if it came from their hand;
    one laid from the deck top is unseen by all, its owner included."""
    state = position(PILES)
    down = {"kind": "panic", "face_down": True, "card": None}
    assert GAME.view(state, 0)["piles"][0] == [{"kind": "panic", "face_down": True, "card": "S10D"}]
    assert GAME.view(state, 1)["piles"][0] == [down]
    assert GAME.view(state, None)["piles"][0] == [down]
    for seat in (None, 0, 1, 2):
        assert GAME.view(state, seat)["piles"][1][0] == down
    assert fields(state, 0, masked=True)["piles"] == "dS10D/b?,pA5P/-"
    assert fields(state, 1, masked=True)["piles"] == "d?/b?,pA5P/-"


def test_HYB_R3_drawn_and_penalty_cards_are_told_to_their_owner_only() -> None:
    """HYB-R3: the card drawn by a Draw, the cards of a replenish and the card laid face down reach their owner's
    copy of the event and nobody else's."""
    state = position("hands=A5D,S5C,S10D/?5 deck=?,KR,SH")
    events = act(state, "draw A5D", "end", "gasp S10D", "keep")
    private = [event for event in events if event.private_parts()]
    assert [event.kind for event in private] == ["draw", "gasp", "replenish"]
    for event in private:
        assert set(event.private_parts()) == {0}
        for seat in (None, 1):
            shown = event.for_seat(seat)
            assert not set(shown) & set(event.private_fields)
    assert private[0].for_seat(0)["drawn"] == "SH"
    assert private[1].for_seat(0)["card"] == "S10D"


def test_HYB_R3_a_card_set_aside_for_the_kraken_stays_private_until_all_are_in() -> None:
    """HYB-R3 with HYB-R12: during KRAKEN_DISCARDS the card a victim set aside is known to that victim only."""
    state = position("hands=KR,A5D,A5X,S5C,S5D,A10D/S10P,S10C,S10D,S10X,A10C deck=?")
    act(state, "mass KR")
    events = act(state, "lose S10P", seat=1)
    assert events[0].for_seat(1)["card"] == "S10P"
    assert "card" not in events[0].for_seat(0)
    assert GAME.view(state, 1)["kraken_given"] == "S10P"
    assert "kraken_given" not in GAME.view(state, 0)
    assert GAME.view(state, 0)["kraken"] == {"waiting": [0], "chosen": [1]}
    assert fields(state, 0, masked=True)["kraken"] == "?/*"
    assert fields(state, 1, masked=True)["kraken"] == "?/S10P"


def test_determinize_keeps_what_the_seat_knows_and_resamples_the_rest() -> None:
    """HYB-R3: a determinization for seat 0 keeps its hand, its own face-down card and everything public, and
    resamples other hands, the blind card and the deck; every card stays in play once."""
    state = position(PILES + " discard=SH")
    samples = [GAME.determinize(state, 0, random.Random(seed)) for seed in range(12)]
    for sample in samples:
        assert hand(sample, 0) == ["A5D", "S5C"]
        assert pile(sample, 0) == ["dS10D"]
        assert pile(sample, 1)[1] == "pA5P" and pile(sample, 1)[0].startswith("b")
        assert all_cards(sample) == Counter(DEFAULT_DECK)
        assert GAME.view(sample, 0) == GAME.view(state, 0)
    assert len({tuple(hand(sample, 1)) for sample in samples}) > 1
    assert len({pile(sample, 1)[0] for sample in samples}) > 1
    for_seat_1 = [GAME.determinize(state, 1, random.Random(seed)) for seed in range(12)]
    assert len({pile(sample, 0)[0] for sample in for_seat_1}) > 1  # seat 1 never saw seat 0's face-down card
