"""The rulebook's worked examples, played move by move."""

from __future__ import annotations

from divedeck.games.hold_your_breath.events import Moved

from .helpers import GAME, act, actor, discard, fields, first, hand, legal, numbers, pile, position, rejected


def test_rulebook_example_elizabeth_two_air_fives_and_a_swim_ten_dive_ten_feet() -> None:
    """Rulebook example (Player's Turn During the Descent): Elizabeth discards two Air 5 cards and one Swim 10 card;
    the lesser of her Air (10) and Swim (10) totals moves her pirate 10 feet further down. She may also play other
    action cards, here a Panic on an opponent, and then keeps or discards the rest before replenishing to five."""
    state = position("hands=A5D,A5X,S10C,S5P,DO/?5/?5 deck=?")
    act(state, "air A5D", "air A5X", "swim S10C")
    assert GAME.view(state, 0)["turn"] == {"air": 10, "swim": 10, "move": 10}
    act(state, "panic S5P>2")
    assert pile(state, 2) == ["pS5P"]
    events = act(state, "end")
    assert first(events, Moved) == Moved(0, "descent", 0, 10)
    assert numbers(state, "depths") == [10, 0, 0]
    assert legal(state) == ["keep", "drop DO"]
    act(state, "keep")
    assert len(hand(state, 0)) == 5 and "DO" in hand(state, 0)
    assert discard(state) == ["A5D", "A5X", "S10C"]
    assert actor(state) == 1


def test_rulebook_example_elizabeth_without_air_lays_a_card_face_down_as_a_panic() -> None:
    """Rulebook example, continued: 'If Elizabeth does not have at least one air card to play during her turn, she
    must lay down one of her cards face down in front of her as a Panic card'; that Panic is then in her Swim Pile
    and must be cleared before she may swim again."""
    state = position("hands=S10C,S5D,S10P/?5 deck=?,S5X,S10D,A10C,S5C")
    act(state, "swim S10C", "end")
    assert numbers(state, "depths") == [0, 0]  # Swim alone moves nobody (HYB-A30)
    act(state, "gasp S5D", "keep")
    assert pile(state, 0) == ["dS5D"]
    assert fields(state, 1, masked=True)["piles"] == "d?/-"
    act(state, "air A5D", "end", "keep")  # seat 1's turn
    assert actor(state) == 0
    assert hand(state, 0) == ["A10C", "S5X", "S5C", "S10D", "S10P"]
    assert rejected(state, "swim S10D").rule == "HYB-R11"
    assert not any(move.startswith("swim") for move in legal(state))
    act(state, "calm S5C 0", "air A10C", "swim S10D", "end")
    assert numbers(state, "depths") == [10, 0]
