"""The rulebook's two worked examples, played move by move."""

from __future__ import annotations

from .helpers import GAME, act, actor, center, center_moves, hand, kinds, legal, pile, position, rejected


def test_rulebook_example_base_game_colour_run_then_two_opponent_piles() -> None:
    """Rulebook example (base game): the centre shows yellow 3; the player plays yellow 1, yellow 4, yellow 2, has
    no more yellow cards and cannot play to the centre any more; they then play a 4 onto an opponent's
    Lanternfish (value 5) and a 3 onto another opponent's 4."""
    state = position("hands=Y1,Y4,Y2,B4,G3/?5/?5/?5 center=Y3 piles=-/-/R4/- deck=?")
    act(state, "c Y1", "c Y4", "c Y2")
    assert center(state) == ["Y3", "Y1", "Y4", "Y2"]
    # No yellow left: the blue 4 would be T0 + 1, but the turn is in colour mode.
    assert center_moves(state) == set()
    assert rejected(state, "c B4").rule == "SNK-R6"
    act(state, "p B4>1", "p G3>2")
    assert pile(state, 1) == ["B4"]
    assert pile(state, 2) == ["R4", "G3"]
    assert GAME.view(state, None)["pile_tops"] == [5, 4, 3, 5]
    assert legal(state) == ["end"]
    # The hand is empty and the own pile is a bare Lanternfish: draw 1, then 1 more instead of retrieving.
    events = act(state, "end")
    assert kinds(events) == ["end_turn", "draw", "draw"]
    assert len(hand(state, 0)) == 2
    assert actor(state) == 1


def test_rulebook_example_expert_diving_mixed_centre_run_then_a_pile() -> None:
    """Rulebook example (Expert Diving): the centre shows yellow 3; the player plays red 4, red 2, red 1, green 2,
    then a 3 onto an opponent's 4."""
    hands = "hands=R4,R2,R1,G2,B3/?5/?5/?5 center=Y3 piles=-/-/Y4/- deck=?"
    state = position(hands, expert_diving=True)
    act(state, "c R4", "c R2", "c R1", "c G2")
    assert center(state) == ["Y3", "R4", "R2", "R1", "G2"]
    assert "p B3>2" in legal(state)
    act(state, "p B3>2")
    assert pile(state, 2) == ["Y4", "B3"]
    assert hand(state, 0) == []
    # The same run is illegal in the base game: after the +1 card (red 4) the turn's centre play is over.
    base = position(hands)
    act(base, "c R4")
    assert rejected(base, "c R2").rule == "SNK-R6"
