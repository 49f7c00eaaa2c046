"""Snorkeling's resolved ambiguities, SNK-A1..A26: each reading the rules spec chose, with the option for the other
reading where there is one."""

from __future__ import annotations

from collections import Counter

import pytest

from divedeck.engine import ConfigError, IllegalAction, MalformedInput
from divedeck.games.snorkeling.events import GameOver, SnorkelingTermination

from .helpers import (
    GAME,
    act,
    actor,
    all_cards,
    center,
    center_moves,
    config,
    deck,
    fields,
    first,
    hand,
    kinds,
    legal,
    number,
    pile,
    position,
    rejected,
    scores,
    value,
)

# Seat 0 can land a Beach on seat 1's pile (Y1 to the centre first); seats 2 and 3 have piles of 4 and 3, so a
# Beach gives [5, 0, 4, 3] on top of the totals.
BEACH_NEXT = "hands=Y1,G0,B4/?5/?5/?5 center=Y3 piles=-/R4,R3,R2,R1/B4/G4,G3 deck=?"
# After Y1 to the centre, seat 0 holds a 4 for a Lanternfish (seat 1 or 3), and two 3s for seat 2's 4.
PILES = "hands=Y1,B4,G3,R3/?5/?5/?5 center=Y3 piles=-/-/Y4/- deck=?"


def pile_moves(state: object) -> set[str]:
    return {move for move in legal(state) if move.startswith("p ")}


def test_SNK_A1_by_default_one_card_onto_each_opponents_pile() -> None:
    """SNK-A1: by default (one_per_opponent) the player may put one card onto each opponent's pile in a turn."""
    assert config().opponent_play_limit == "one_per_opponent"
    state = position(PILES)
    act(state, "c Y1", "p B4>1", "p G3>2")
    assert (pile(state, 1), pile(state, 2)) == (["B4"], ["Y4", "G3"])
    assert rejected(state, "p R3>1").rule == "SNK-R9"  # a 3 fits seat 1's 4, but seat 1 had its card
    assert legal(state) == ["end"]


def test_SNK_A1_one_total_allows_a_single_pile_card_per_turn() -> None:
    """SNK-A1: with opponent_play_limit=one_total only one card goes onto any pile in a turn."""
    state = position(PILES, opponent_play_limit="one_total")
    act(state, "c Y1", "p B4>1")
    assert rejected(state, "p G3>2").rule == "SNK-R9"
    assert legal(state) == ["end"]


def test_SNK_A1_unlimited_allows_several_cards_onto_one_pile() -> None:
    """SNK-A1: with opponent_play_limit=unlimited any number of cards go onto piles, each one below the top."""
    state = position(PILES, opponent_play_limit="unlimited")
    act(state, "c Y1", "p B4>1", "p R3>1", "p G3>2")
    assert (pile(state, 1), pile(state, 2)) == (["B4", "R3"], ["Y4", "G3"])


def test_SNK_A2_no_card_onto_your_own_pile_by_default() -> None:
    """SNK-A2: by default a player may not play onto their own pile."""
    assert config().allow_own_pile is False
    state = position("hands=Y1,B4/?5/?5/?5 center=Y3 deck=?")
    act(state, "c Y1")
    assert pile_moves(state) == {"p B4>1", "p B4>2", "p B4>3"}
    assert rejected(state, "p B4>0").rule in ("SNK-A2", "SNK-R9")


def test_SNK_A2_allow_own_pile_permits_one_card_onto_it() -> None:
    """SNK-A2: with allow_own_pile the own pile takes cards like any other, its one card a turn included."""
    state = position("hands=Y1,B4,G3/?5/?5/?5 center=Y3 deck=?", allow_own_pile=True)
    act(state, "c Y1")
    assert "p B4>0" in legal(state)
    act(state, "p B4>0")
    assert pile(state, 0) == ["B4"]
    assert rejected(state, "p G3>0").rule == "SNK-R9"


def test_SNK_A3_base_game_never_mixes_the_two_centre_rules() -> None:
    """SNK-A3: in the base game a turn's centre play is one +1 card or cards of T0's colour, never a mix, and
    never two +1 cards."""
    state = position("hands=R4,B0,Y1/?5/?5/?5 center=Y3 deck=?")
    act(state, "c R4")
    assert rejected(state, "c B0").rule == "SNK-R6"  # +1 then +1
    assert rejected(state, "c Y1").rule == "SNK-R6"  # +1 then T0's colour
    state = position("hands=Y1,R2,B4/?5/?5/?5 center=Y3 deck=?")
    act(state, "c Y1")
    assert rejected(state, "c B4").rule == "SNK-R6"  # colour then T0 + 1
    assert rejected(state, "c R2").rule == "SNK-R6"  # colour then the top's + 1
    expert = position("hands=R4,B0,B2/?5/?5/?5 center=Y3 deck=?", expert_diving=True)
    act(expert, "c R4", "c B0", "c B2")  # +1, +1, then the top's colour
    assert center(expert) == ["Y3", "R4", "B0", "B2"]


def test_SNK_A4_same_colour_means_t0s_colour_in_base_and_the_top_in_expert() -> None:
    """SNK-A4: "same colour as the top card" is T0's colour in the base game and the current top in Expert."""
    hands = "hands=R4,R2,Y1/?5/?5/?5 center=Y3 deck=?"
    base = position(hands)
    act(base, "c Y1")
    assert center_moves(base) == set()  # R2 is neither yellow nor allowed as a +1 any more
    expert = position(hands, expert_diving=True)
    act(expert, "c R4")
    assert center_moves(expert) == {"c R2"}  # the top's red, not T0's yellow


def test_SNK_A5_personal_piles_run_down_without_wrapping() -> None:
    """SNK-A5: the 4 -> 0 wrap is for the centre only: a Beach goes only onto a 1, a 4 only onto a Lanternfish."""
    state = position("hands=Y1,G0,R4/?5/?5/?5 center=Y3 piles=-/R4,R3,R2,R1/G4/- deck=?")
    act(state, "c Y1")
    assert pile_moves(state) == {"p G0>1", "p R4>3"}
    assert rejected(state, "p G0>2").rule == "SNK-R9"  # a Beach onto a 4
    assert rejected(state, "p G0>3").rule == "SNK-R9"  # a Beach onto a Lanternfish


def test_SNK_A5_nothing_is_ever_played_onto_a_beach() -> None:
    """SNK-A5: a pile showing a Beach takes nothing (a 4 is not "one below" 0)."""
    state = position("hands=Y1,R4/?5/?5/?5 center=Y3 piles=-/B4,B3,B2,B1,B0/-/- deck=?")
    act(state, "c Y1")
    assert "p R4>1" not in legal(state)
    assert rejected(state, "p R4>1").rule in ("SNK-A5", "SNK-R9")


def test_SNK_A6_an_empty_deck_is_rebuilt_from_the_centre_and_a_draw_is_skipped_if_nothing_is_left() -> None:
    """SNK-A6: when the deck runs out, the centre pile minus its top card is shuffled into a new deck; with nothing
    to shuffle the draw is skipped, and the round goes on."""
    state = position("hands=Y1,B3/?24/?23/?23 center=R0,R1,Y3 deck=-")
    events = act(state, "pass")
    assert kinds(events) == ["pass", "refill", "draw"]
    assert center(state) == ["Y3"]
    drawn = [card for card in hand(state, 0) if card not in ("Y1", "B3")]
    assert Counter(deck(state) + drawn) == Counter(["R0", "R1"])
    # The same position always refills the same way: the shuffle comes from the state's seeded RNG.
    again = position("hands=Y1,B3/?24/?23/?23 center=R0,R1,Y3 deck=-")
    act(again, "pass")
    assert GAME.state_notation(again) == GAME.state_notation(state)
    act(state, "pass", "pass")  # seats 1 and 2 draw the last card, then nothing is left
    events = act(state, "pass")
    assert "no_draw" in kinds(events)
    assert GAME.outcome(state) is None and number(state, "round") == 1


def test_SNK_A7_a_player_is_topped_up_to_two_cards_when_draws_allow() -> None:
    """SNK-A7: at the end of a turn a player with fewer than 2 cards draws until they have 2 (or nothing is left),
    e.g. after passing with an empty hand."""
    state = position("hands=-/?5/?5/?5 center=Y3 deck=?,B1,B2")
    events = act(state, "pass")
    assert kinds(events) == ["pass", "draw", "draw"]
    assert sorted(hand(state, 0)) == ["B1", "B2"]


def test_SNK_A8_every_card_played_counts_towards_emptying_the_hand() -> None:
    """SNK-A8: centre and pile plays both count; the hand is checked after the plays, before the draw."""
    state = position("hands=Y1,B4/?5/?5/?5 center=Y3 piles=R4,G3/-/-/- deck=?,P2")
    events = act(state, "c Y1", "p B4>1", "end")
    assert kinds(events)[-3:] == ["end_turn", "draw", "retrieve"]
    assert sorted(hand(state, 0)) == ["G3", "P2"]
    assert pile(state, 0) == ["R4"]


def test_SNK_A8_an_empty_hand_without_a_card_played_retrieves_nothing() -> None:
    """SNK-A8: emptying the hand needs at least one card played this turn; a pass with an empty hand is not it."""
    state = position("hands=-/?5/?5/?5 center=Y3 piles=R4,G3/-/-/- deck=?,P1,P2")
    events = act(state, "pass")
    assert "retrieve" not in kinds(events)
    assert pile(state, 0) == ["R4", "G3"]


def test_SNK_A9_the_retrieved_card_is_the_top_of_the_own_pile_after_the_draw() -> None:
    """SNK-A9: the card taken back is the top card of the player's own pile, taken after the normal draw."""
    state = position("hands=Y1/?5/?5/?5 center=Y3 piles=R4,G3,B2/-/-/- deck=?,P2")
    events = act(state, "c Y1", "end")
    assert kinds(events)[-2:] == ["draw", "retrieve"]
    assert first(events, "retrieve")["card"] == "B2"
    assert pile(state, 0) == ["R4", "G3"]
    assert sorted(hand(state, 0)) == ["B2", "P2"]  # hands are kept sorted; the events give the order


def test_SNK_A10_after_a_beach_landing_the_turn_stops_at_once() -> None:
    """SNK-A10: a Beach on a pile ends the round at once: no more pile plays, no draw, no retrieval."""
    state = position("hands=Y1,G0/?5/?5/?5 center=Y3 piles=R4/R4,R3,R2,R1/-/- deck=?")
    act(state, "c Y1")
    events = act(state, "p G0>1")  # the hand is now empty and the own pile shows R4
    assert kinds(events) == ["play_pile", "round_end", "round_start"]
    assert first(events, "round_end")["gains"] == [4, 0, 5, 5]
    assert number(state, "round") == 2


def test_SNK_A11_a_tie_at_the_top_at_or_over_12_plays_another_round() -> None:
    """SNK-A11: if the highest total at or above 12 is shared, nobody wins yet: another round is played."""
    state = position(f"scores=7,0,8,0 {BEACH_NEXT}")
    events = act(state, "c Y1", "p G0>1")
    assert scores(state) == [12, 0, 12, 3]
    assert "game_over" not in kinds(events)
    assert kinds(events)[-1] == "round_start"
    assert GAME.outcome(state) is None
    assert number(state, "round") == 2
    assert actor(state) == 1


def test_SNK_A11_of_two_players_over_12_the_higher_total_wins() -> None:
    """SNK-A11: two players passing 12 in one round is no tie: the higher total wins."""
    state = position(f"scores=7,0,9,0 {BEACH_NEXT}")
    act(state, "c Y1", "p G0>1")
    assert scores(state) == [12, 0, 13, 3]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (2,)


def test_SNK_A11_a_tie_below_the_highest_total_does_not_matter() -> None:
    """SNK-A11: only a shared *highest* total forces another round."""
    state = position(f"scores=9,0,8,9 {BEACH_NEXT}")
    act(state, "c Y1", "p G0>1")
    assert scores(state) == [14, 0, 12, 12]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,)


def test_SNK_A11_a_tie_at_the_top_plays_another_round_up_to_the_round_cap() -> None:
    """SNK-A11/SNK-R15: a shared highest total at or above 12 plays another round, however late in the game,
    as long as the round cap (SNK-A27) is not reached."""
    state = position(f"round=49 scores=7,0,8,0 {BEACH_NEXT}")
    act(state, "c Y1", "p G0>1")
    assert scores(state) == [12, 0, 12, 3]
    assert GAME.outcome(state) is None
    assert number(state, "round") == 50


def test_SNK_A27_the_round_cap_ends_an_endless_tie_with_shared_winners() -> None:
    """SNK-A27: divedeck's safeguard against ties that never break: after round_cap rounds the game ends and
    every player with the highest total wins."""
    state = position(f"round=50 scores=7,0,8,0 {BEACH_NEXT}")
    act(state, "c Y1", "p G0>1")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 2) and outcome.termination.rule == "SNK-A27"
    state = position(f"round=3 scores=7,0,8,0 {BEACH_NEXT}", round_cap=3)
    act(state, "c Y1", "p G0>1")
    assert GAME.outcome(state).winners == (0, 2)


def test_SNK_A27_a_single_leader_below_the_target_at_the_cap_wins_by_the_cap_not_the_target() -> None:
    """SNK-A27: at the cap, a unique leader who has not reached the target wins, and the result says so."""
    state = position(f"round=2 scores=1,0,0,0 {BEACH_NEXT}", round_cap=2)
    events = act(state, "c Y1", "p G0>1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination == SnorkelingTermination.ROUND_CAP
    assert [e.reason for e in events if isinstance(e, GameOver)] == [SnorkelingTermination.ROUND_CAP]


def test_SNK_A12_later_rounds_rotate_left_unless_next_round_starter_is_same() -> None:
    """SNK-A12: by default the next round is started by the player left of the last round's starter; with
    next_round_starter=same the same player starts every round."""
    assert config().next_round_starter == "rotate_left"
    state = position(f"starter=2 active=0 {BEACH_NEXT}")
    act(state, "c Y1", "p G0>1")
    assert (number(state, "starter"), actor(state)) == (3, 3)
    state = position(f"starter=2 active=0 {BEACH_NEXT}", next_round_starter="same")
    act(state, "c Y1", "p G0>1")
    assert (number(state, "starter"), actor(state)) == (2, 2)


def test_SNK_A15_passing_is_always_legal() -> None:
    """SNK-A15: a player may pass at the start of any turn, even with playable cards, and even with no cards."""
    state = position("hands=Y1,Y2,R4/?5/?5/?5 center=Y3 deck=?")
    assert center_moves(state) == {"c Y1", "c Y2", "c R4"}
    assert "pass" in legal(state)
    state = position("hands=-/?5/?5/?5 center=Y3 deck=?")
    assert legal(state) == ["pass"]


def test_SNK_A16_a_player_draws_at_the_end_of_every_turn_a_pass_included() -> None:
    """SNK-A16: the end-of-turn draw happens on every turn, including after a pass."""
    state = position("hands=Y1,B3/?5/?5/?5 center=Y3 deck=?,G4")
    events = act(state, "pass")
    assert kinds(events) == ["pass", "draw"]
    assert sorted(hand(state, 0)) == ["B3", "G4", "Y1"]
    assert events[-1].for_seat(0)["card"] == "G4"


def test_SNK_A17_the_lanternfish_never_enters_a_hand_and_is_never_played() -> None:
    """SNK-A17: emptying the hand onto a bare Lanternfish draws a card instead, and no action plays a value 5."""
    state = position("hands=Y1/?5/?5/?5 center=Y3 deck=?,B2,P4")
    act(state, "c Y1", "end")
    assert GAME.view(state, None)["pile_tops"][0] == 5
    assert all(value(card) <= 4 for card in hand(state, 0))
    before = GAME.state_notation(state)
    for text in ("c Y5", "p Y5>2"):
        with pytest.raises((IllegalAction, MalformedInput)):
            GAME.apply(state, actor(state), GAME.parse_action(text))
    assert GAME.state_notation(state) == before
    game = GAME.new(config(), 17)
    for _ in range(300):
        if GAME.outcome(game) is not None:
            break
        moves = legal(game)
        assert all(value(move.split()[1].split(">")[0]) <= 4 for move in moves if " " in move)
        GAME.apply(game, actor(game), GAME.parse_action(moves[-1]))


def test_SNK_A18_a_beach_on_the_centre_does_not_end_the_round() -> None:
    """SNK-A18: only a Beach placed on a personal pile ends the round; one played to the centre does not."""
    state = position("hands=B0,R1/?5/?5/?5 center=Y4 deck=?")
    events = act(state, "c B0")
    assert kinds(events) == ["play_center"]
    assert number(state, "round") == 1
    act(state, "end")
    assert (number(state, "round"), actor(state)) == (1, 1)


def test_SNK_A19_pile_plays_come_after_a_centre_card_and_end_centre_play() -> None:
    """SNK-A19: pile plays are allowed only after at least one centre card; after the first pile play no more
    centre cards."""
    state = position("hands=Y1,Y2,B4/?5/?5/?5 center=Y3 deck=?")
    assert pile_moves(state) == set()
    assert rejected(state, "p B4>1").rule == "SNK-R8"
    act(state, "c Y1", "p B4>2")
    assert rejected(state, "c Y2").rule == "SNK-R8"


def test_SNK_A20_a_pile_card_is_exactly_one_lower_in_any_colour() -> None:
    """SNK-A20: onto a pile goes a card of exactly the top value - 1, whatever its colour (the same colour too)."""
    state = position("hands=Y1,R3,Y3,B2,G4/?5/?5/?5 center=Y3 piles=-/Y4/-/- deck=?")
    act(state, "c Y1")
    assert {move for move in pile_moves(state) if move.endswith(">1")} == {"p R3>1", "p Y3>1"}
    assert rejected(state, "p B2>1").rule == "SNK-R9"
    assert rejected(state, "p G4>1").rule == "SNK-R9"


def test_SNK_A22_colour_mode_cards_go_in_any_order_and_the_last_is_the_next_top() -> None:
    """SNK-A22: colour-mode cards may be played in any order; the last one is T0 for the next player."""
    state = position("hands=Y1,Y4,Y2/R3,Y0,B4,G1/?5/?5 center=Y3 deck=?")
    act(state, "c Y1", "c Y4", "c Y2", "end")
    assert center(state)[-1] == "Y2"
    assert GAME.view(state, None)["turn"]["t0"] == "Y2"
    assert center_moves(state) == {"c Y0", "c R3"}  # yellow, or 2 + 1; B4 would have followed Y3


def test_SNK_A23_everyone_plays_the_extra_round_after_a_tie() -> None:
    """SNK-A23: the round after a tie is a normal round for all players."""
    state = position(f"scores=7,0,8,0 {BEACH_NEXT}")
    events = act(state, "c Y1", "p G0>1")
    start = first(events, "round_start")
    assert start["round"] == 2
    assert [len(hand(state, seat)) for seat in range(4)] == [5, 5, 5, 5]
    assert GAME.view(state, None)["pile_tops"] == [5, 5, 5, 5]
    seen = set()
    for _ in range(4):
        seen.add(actor(state))
        act(state, "pass")
    assert seen == {0, 1, 2, 3}


def test_SNK_A24_a_pile_scores_its_top_value_and_the_beach_receiver_scores_0() -> None:
    """SNK-A24: each pile scores its top value, 5 for a bare Lanternfish; the player who got the Beach scores 0."""
    state = position("hands=Y1,G0/?5/?5/?5 center=Y3 piles=-/R4,R3,R2,R1/B4,B3,B2/- scores=3,3,3,3 deck=?")
    events = act(state, "c Y1", "p G0>1")
    assert first(events, "round_end")["gains"] == [5, 0, 2, 5]
    assert scores(state) == [8, 3, 5, 8]


def test_SNK_A25_expert_diving_keeps_one_card_per_pile() -> None:
    """SNK-A25: Expert Diving lifts the centre limits only; pile plays still follow SNK-R9 (one per opponent)."""
    state = position(PILES, expert_diving=True)
    act(state, "c Y1", "p B4>1")
    assert rejected(state, "p R3>1").rule == "SNK-R9"
    assert rejected(state, "c R3").rule == "SNK-R8"  # R3 would follow Y1 by value, but piles have started
    act(state, "p G3>2")
    assert legal(state) == ["end"]


def test_SNK_A26_the_first_centre_card_has_no_effect_even_a_beach_or_a_4() -> None:
    """SNK-A26: the card turned up at the start of a round is just T0, whatever it is (a Beach ends nothing)."""
    state = position("hands=Y2,B1,R0,G4/?5/?5/?5 center=Y0 deck=?")
    assert center_moves(state) == {"c Y2", "c B1"}
    state = position("hands=Y2,B1,R0,G4/?5/?5/?5 center=R4 deck=?")
    assert center_moves(state) == {"c R0"}
    found = {0: False, 4: False}
    for seed in range(200):
        game = GAME.new(config(), seed)
        top = value(center(game)[0])
        if top in found:
            found[top] = True
            assert GAME.outcome(game) is None
            assert number(game, "round") == 1
            assert actor(game) == 0
            assert "pass" in legal(game)
        if all(found.values()):
            break
    assert all(found.values())


def test_SNK_A21_a_round_nobody_can_end_is_scored_by_the_stall_safeguard() -> None:
    """SNK-A21: a round that could go on for ever (here nobody ever plays a card) is ended and scored by the
    safeguard SNK-R13: by the stall once the deck is drawn dry, or earlier by option turn_cap."""
    state = position("hands=?5/?5 center=Y3 deck=?")
    dealt = len(deck(state))
    assert dealt == 75 - 2 * 5 - 1
    passes = 0
    while number(state, "round") == 1:
        events = act(state, "pass")
        passes += 1
        assert passes <= config().turn_cap
    # The last draw empties the deck; that pass and the other player's next one leave nothing to draw: a stall.
    assert passes == dealt + 1
    end = first(events, "round_end")
    assert (end["reason"], end["gains"], end["totals"]) == ("stall", [5, 5], [5, 5])
    assert kinds(events)[-1] == "round_start" and scores(state) == [5, 5]

    state = position("hands=?5/?5 center=Y3 deck=?", turn_cap=6)
    for _ in range(5):
        act(state, "pass")
    events = act(state, "pass")
    end = first(events, "round_end")
    assert (end["reason"], end["gains"]) == ("turn_cap", [5, 5])
    assert number(state, "round") == 2 and GAME.outcome(state) is None


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_SNK_A13_two_to_six_players_one_lanternfish_each(players: int) -> None:
    """SNK-A13: the rulebook gives no player count; divedeck seats 2 to 6 (option num_players), one per Lanternfish:
    every seat starts the round with a bare Lanternfish pile (top 5)."""
    state = GAME.new(config(num_players=players), 3)
    assert GAME.view(state, None)["pile_tops"] == [5] * players
    assert len(fields(state)["hands"].split("/")) == players


@pytest.mark.parametrize("players", [1, 7])
def test_SNK_A13_one_player_or_more_than_six_are_refused(players: int) -> None:
    """SNK-A13: fewer than 2 players (nobody to play onto) or more than 6 (no Lanternfish left) is refused."""
    with pytest.raises(ConfigError, match="players"):
        config(num_players=players)


@pytest.mark.parametrize("color", list("YRGBP"))
def test_SNK_A14_beach_is_a_value_so_a_0_of_any_colour_is_a_beach(color: str) -> None:
    """SNK-A14: Beach, School of Fish, Clownfish, Turtle and Ray are the values 0 to 4, not colours: every colour
    has all five, and a 0 of any colour placed on a pile is a Beach that ends the round (SNK-R10)."""
    assert {card for card in all_cards(GAME.new(config(), 1)) if card[0] == color} == {f"{color}{v}" for v in range(5)}
    state = position(f"hands=Y1,{color}0/?5/?5/?5 center=Y3 piles=-/R4,R3,R2,R1/-/- deck=?")
    events = act(state, "c Y1", f"p {color}0>1")
    assert first(events, "round_end")["reason"] == "beach"
