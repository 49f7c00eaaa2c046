"""Snorkeling's rules, SNK-R1..R17, and the Expert Diving variant SNK-V1: positions written in the state notation,
an action or two, and what the rules say must follow."""

from __future__ import annotations

from collections import Counter

import pytest

from divedeck.engine import ConfigError, SeededRng
from divedeck.games.snorkeling.events import SnorkelingTermination

from .helpers import (
    FACES,
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
)

# Seat 0 can land a Beach on seat 1's pile (Y1 to the centre first); seats 2 and 3 have piles of 4 and 3.
BEACH_NEXT = "hands=Y1,G0,B4/?5/?5/?5 center=Y3 piles=-/R4,R3,R2,R1/B4/G4,G3 deck=?"


# -- SNK-R1: players ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_SNK_R1_two_to_six_players_can_play(players: int) -> None:
    """SNK-R1: Snorkeling is for 2 to 6 players (option num_players)."""
    cfg = config(num_players=players)
    state = GAME.new(cfg, 5)
    assert GAME.num_players(cfg) == players
    assert len(fields(state)["hands"].split("/")) == players
    assert GAME.static_data(cfg)["players"] == players


@pytest.mark.parametrize("players", [-1, 0, 1, 7, 64])
def test_SNK_R1_fewer_than_two_or_more_than_six_players_is_a_config_error(players: int) -> None:
    """SNK-R1: any other player count is refused."""
    with pytest.raises(ConfigError, match="players"):
        config(num_players=players)


def test_SNK_R1_default_is_four_players() -> None:
    """SNK-R1/SNK-A13: the player count is an option; its default is 4."""
    assert config().num_players == 4


# -- SNK-R2, SNK-R3: setup ---------------------------------------------------------------------------------------


def test_SNK_R2_each_player_starts_with_a_lanternfish_a_total_of_0_and_seat_first_player_starts() -> None:
    """SNK-R2: every player's pile is just their Lanternfish (worth 5), every total is 0, and round 1 is started by
    option first_player (default seat 0)."""
    state = GAME.new(config(), 8)
    view = GAME.view(state, None)
    assert view["piles"] == [[], [], [], []]
    assert view["pile_tops"] == [5, 5, 5, 5]
    assert scores(state) == [0, 0, 0, 0]
    assert actor(state) == 0
    state = GAME.new(config(first_player=2), 8)
    assert actor(state) == 2
    assert number(state, "starter") == 2
    with pytest.raises(ConfigError):
        config(first_player=4)


def sorted_by_face(cards: list[str]) -> list[str]:
    """Hands are kept sorted by face: colour in FACES order, then value."""
    return sorted(cards, key=FACES.index)


def test_SNK_R3_deals_five_each_one_at_a_time_from_the_first_player_then_turns_up_the_centre() -> None:
    """SNK-R3: the 75 reef cards are shuffled with the game's seeded RNG; 5 are dealt to each player one at a time
    from the top of the deck, starting with the round's first player; the next card is turned up as the centre."""
    seed = 2024
    state = GAME.new(config(first_player=1), seed)
    shuffled = [face for face in FACES for _ in range(3)]
    SeededRng(seed).shuffle(shuffled)  # the round's shuffle; the top of the deck is the last card
    expected: list[list[str]] = [[], [], [], []]
    for i in range(5 * 4):
        expected[(1 + i) % 4].append(shuffled.pop())
    assert [hand(state, seat) for seat in range(4)] == [sorted_by_face(cards) for cards in expected]
    assert center(state) == [shuffled.pop()]
    assert deck(state) == shuffled
    assert len(deck(state)) == 75 - 5 * 4 - 1


def test_SNK_R3_a_new_round_gathers_all_75_cards_and_deals_again() -> None:
    """SNK-R3: every round gathers every reef card (hands, deck, centre, piles), shuffles and deals again; the
    Lanternfish stay where they are."""
    state = position("hands=Y1,G0,B4/?7/?1/?5 center=P0,P1,P2,Y3 piles=-/R4,R3,R2,R1/B4/G4,G3 deck=?")
    act(state, "c Y1", "p G0>1")
    assert number(state, "round") == 2
    assert all_cards(state) == Counter({face: 3 for face in FACES})
    assert [len(hand(state, seat)) for seat in range(4)] == [5, 5, 5, 5]
    assert len(center(state)) == 1
    assert len(deck(state)) == 75 - 21
    assert fields(state)["piles"] == "-/-/-/-"
    assert GAME.view(state, None)["pile_tops"] == [5, 5, 5, 5]


def test_SNK_R3_the_next_round_is_started_by_the_player_to_the_left() -> None:
    """SNK-R3 step 5: round r > 1 is started by the player left of round r-1's first player, wrapping around."""
    state = position(BEACH_NEXT)
    act(state, "c Y1", "p G0>1")
    assert (number(state, "starter"), actor(state)) == (1, 1)
    state = position(f"starter=3 active=0 {BEACH_NEXT}")
    act(state, "c Y1", "p G0>1")
    assert (number(state, "starter"), actor(state)) == (0, 0)


# -- SNK-R4: information -----------------------------------------------------------------------------------------


def test_SNK_R4_hands_are_private_and_deck_size_centre_and_piles_public() -> None:
    """SNK-R4: a player sees their own hand only; the deck size, the whole centre pile and every personal pile are
    public."""
    state = position("hands=Y1,B2/R3,R4,G0/?4/?5 center=P0,Y3 piles=-/-/B4/- deck=?")
    view = GAME.view(state, 1)
    assert view["hand"] == ["R3", "R4", "G0"]
    assert view["hand_sizes"] == [2, 3, 4, 5]
    assert view["deck_size"] == len(deck(state))
    assert view["center"] == ["P0", "Y3"]
    assert view["piles"] == [[], [], ["B4"], []]
    mine = fields(state, 1, masked=True)
    assert mine["hands"] == "?2/R3,R4,G0/?4/?5"
    assert mine["deck"] == f"?{len(deck(state))}"
    assert (mine["center"], mine["piles"], mine["rng"]) == ("P0,Y3", "-/-/B4/-", "?")
    assert fields(state, None, masked=True)["hands"] == "?2/?3/?4/?5"
    assert "hand" not in GAME.view(state, None)
    # Seat 1 cannot tell this position from one where seat 0 holds other cards.
    other = position("hands=G1,G2/R3,R4,G0/?4/?5 center=P0,Y3 piles=-/-/B4/- deck=?")
    assert GAME.view(other, 1) == view
    assert GAME.seat_notation(other, 1) == GAME.seat_notation(state, 1)
    assert GAME.view(other, 0) != GAME.view(state, 0)


# -- SNK-R5..R9: a turn ------------------------------------------------------------------------------------------


def test_SNK_R5_only_the_active_player_may_act() -> None:
    """SNK-R5: only the active player acts; anyone else is refused, even with a card that would be legal."""
    state = position("hands=Y1,B2/Y4,R0/?5/?5 center=Y3 deck=?")
    assert GAME.actors(state) == {0}
    assert legal(state, 1) == []
    assert rejected(state, "c Y4", seat=1).rule == "SNK-R5"
    assert rejected(state, "pass", seat=2).rule == "SNK-R5"


def test_SNK_R5_a_turn_starts_with_a_pass_or_a_centre_card() -> None:
    """SNK-R5: at the start of a turn the player either passes or plays a card from their hand to the centre."""
    state = position("hands=Y1,B4,G2/?5/?5/?5 center=Y3 deck=?")
    assert sorted(legal(state)) == ["c B4", "c Y1", "pass"]
    assert rejected(state, "c R2").rule == "SNK-R5"  # not in the hand


def test_SNK_R5_a_pass_ends_the_turn_with_no_pile_play() -> None:
    """SNK-R5: a pass goes straight to the end of the turn: no card is played anywhere."""
    state = position("hands=Y1,B4/?5/?5/?5 center=Y3 deck=?,G2")
    events = act(state, "pass")
    assert kinds(events) == ["pass", "draw"]
    assert actor(state) == 1
    assert fields(state)["piles"] == "-/-/-/-"
    assert center(state) == ["Y3"]
    assert sorted(hand(state, 0)) == ["B4", "G2", "Y1"]


BASE_CENTER = "hands=Y1,Y4,Y2,R4,G3,Y0/?5/?5/?5 center=Y3 deck=?"


def test_SNK_R6_first_card_matches_t0_colour_or_value_plus_one() -> None:
    """SNK-R6: the first centre card has T0's colour or T0's value + 1."""
    state = position(BASE_CENTER)
    assert center_moves(state) == {"c Y1", "c Y4", "c Y2", "c Y0", "c R4"}
    assert rejected(state, "c G3").rule == "SNK-R6"


def test_SNK_R6_color_mode_allows_any_values_of_t0_color() -> None:
    """SNK-R6: after a first card of T0's colour, any further cards of that colour follow, of any value and in any
    order, and nothing else."""
    state = position(BASE_CENTER)
    act(state, "c Y1")
    assert center_moves(state) == {"c Y4", "c Y2", "c Y0"}
    assert rejected(state, "c R4").rule == "SNK-R6"  # T0's value + 1 no longer counts
    act(state, "c Y0", "c Y4", "c Y2")
    assert center(state) == ["Y3", "Y1", "Y0", "Y4", "Y2"]
    assert center_moves(state) == set()


def test_SNK_R6_colour_mode_follows_t0_not_the_card_below() -> None:
    """SNK-R6: in the base game later cards are checked against T0's colour, not the current top (SNK-A4)."""
    state = position("hands=Y1,R2,B4/?5/?5/?5 center=Y3 deck=?")
    act(state, "c Y1")
    assert rejected(state, "c R2").rule == "SNK-R6"  # the top Y1's value + 1
    assert rejected(state, "c B4").rule == "SNK-R6"  # T0's value + 1


def test_SNK_R6_a_plus_one_card_is_the_only_centre_card_of_its_turn() -> None:
    """SNK-R6: a first card of value T0 + 1 and another colour is the turn's only centre card."""
    state = position("hands=R4,B0,R1,Y2/?5/?5/?5 center=Y3 deck=?")
    act(state, "c R4")
    assert center_moves(state) == set()
    assert rejected(state, "c B0").rule == "SNK-R6"  # the next +1
    assert rejected(state, "c R1").rule == "SNK-R6"  # the new top's colour
    assert rejected(state, "c Y2").rule == "SNK-R6"  # T0's colour
    assert "end" in legal(state)


def test_SNK_R6_the_value_after_4_is_0() -> None:
    """SNK-R6: succ(v) = (v + 1) mod 5, so on a 4 the +1 card is a Beach (0)."""
    state = position("hands=B0,R4,G1/?5/?5/?5 center=Y4 deck=?")
    assert center_moves(state) == {"c B0"}
    assert rejected(state, "c G1").rule == "SNK-R6"


def test_SNK_R6_a_card_of_t0s_colour_and_value_plus_one_starts_colour_mode() -> None:
    """SNK-R6: a first card that is both T0's colour and T0 + 1 starts colour mode, so more of the colour follow."""
    state = position("hands=Y4,Y1,R0/?5/?5/?5 center=Y3 deck=?")
    act(state, "c Y4")
    assert center_moves(state) == {"c Y1"}
    assert rejected(state, "c R0").rule == "SNK-R6"


def test_SNK_R7_expert_each_card_matches_the_card_directly_below() -> None:
    """SNK-R7: with expert_diving each centre card has the colour of the card directly below it or its value + 1."""
    state = position("hands=R4,R2,B3,G2,Y1/?5/?5/?5 center=Y3 deck=?", expert_diving=True)
    assert center_moves(state) == {"c R4", "c Y1"}
    act(state, "c R4")
    assert center_moves(state) == {"c R2"}  # red, or a 0; T0's yellow no longer counts
    assert rejected(state, "c Y1").rule == "SNK-R7"
    act(state, "c R2")
    assert center_moves(state) == {"c B3"}
    act(state, "c B3")
    assert center_moves(state) == set()
    assert rejected(state, "c G2").rule == "SNK-R7"
    assert center(state) == ["Y3", "R4", "R2", "B3"]


def test_SNK_R8_pile_plays_and_ending_the_turn_come_only_after_a_centre_card() -> None:
    """SNK-R8: only after at least one centre card may the player play onto piles or end the turn."""
    state = position("hands=Y1,B4/?5/?5/?5 center=Y3 deck=?")
    assert rejected(state, "end").rule == "SNK-R8"
    assert rejected(state, "p B4>1").rule == "SNK-R8"
    act(state, "c Y1")
    assert sorted(legal(state)) == ["end", "p B4>1", "p B4>2", "p B4>3"]


def test_SNK_R8_no_centre_card_after_a_pile_play() -> None:
    """SNK-R8: once a card went onto a pile, no more centre cards this turn."""
    state = position("hands=Y1,B4,Y2/?5/?5/?5 center=Y3 deck=?")
    act(state, "c Y1", "p B4>1")
    assert fields(state)["phase"] == "opponents"
    assert rejected(state, "c Y2").rule == "SNK-R8"
    assert legal(state) == ["end"]


def test_SNK_R9_a_pile_takes_a_card_one_below_its_top_whatever_its_colour() -> None:
    """SNK-R9: a card goes onto another player's pile iff its value is the pile's top value - 1 (the Lanternfish
    counts 5), colour irrelevant, at most one card per pile per turn by default."""
    state = position("hands=Y1,B4,G3,R2,P3/?5/?5/?5 center=Y3 piles=-/-/Y4/R4,R3 deck=?")
    act(state, "c Y1")
    assert {m for m in legal(state) if m.startswith("p ")} == {"p B4>1", "p G3>2", "p P3>2", "p R2>3"}
    assert rejected(state, "p G3>1").rule == "SNK-R9"  # a 3 onto a 5
    assert rejected(state, "p R2>2").rule == "SNK-R9"  # a 2 onto a 4
    act(state, "p G3>2")
    assert pile(state, 2) == ["Y4", "G3"]
    assert GAME.view(state, None)["pile_tops"] == [5, 5, 3, 3]
    assert rejected(state, "p P3>2").rule == "SNK-R9"  # seat 2's pile has had its card this turn
    act(state, "p R2>3")
    assert pile(state, 3) == ["R4", "R3", "R2"]


# -- SNK-R10..R13: the end of a turn and of a round --------------------------------------------------------------


def test_SNK_R10_a_beach_on_a_personal_pile_ends_the_round_at_once() -> None:
    """SNK-R10: a Beach placed on a personal pile ends the round immediately: no further plays, no draw."""
    state = position(BEACH_NEXT)
    act(state, "c Y1")
    events = act(state, "p G0>1")
    assert kinds(events) == ["play_pile", "round_end", "round_start"]
    assert first(events, "round_end")["reason"] == "beach"
    assert number(state, "round") == 2
    assert scores(state) == [5, 0, 4, 3]


def test_SNK_R11_ending_the_turn_draws_one_card_and_passes_to_the_left() -> None:
    """SNK-R11: at the end of a turn the player draws 1 card and the player to the left becomes active."""
    state = position("hands=Y1,Y2,B4/?5/?5/?5 center=Y3 deck=?,G2")
    events = act(state, "c Y1", "end")
    assert kinds(events) == ["play_center", "end_turn", "draw"]
    assert sorted(hand(state, 0)) == ["B4", "G2", "Y2"]
    assert actor(state) == 1
    assert fields(state)["phase"] == "center"
    assert number(state, "played") == 0


def test_SNK_R11_the_turn_passes_from_the_last_seat_to_seat_0() -> None:
    """SNK-R11 step 5: "left" is seat + 1, wrapping from the last seat to seat 0."""
    state = position("active=3 hands=?5/?5/?5/Y1,Y2 center=Y3 deck=?")
    act(state, "pass")
    assert actor(state) == 0


def test_SNK_R11_emptying_the_hand_takes_back_the_top_of_the_own_pile_after_the_draw() -> None:
    """SNK-R11 step 3: a player who played every card draws 1, then takes the top card of their own pile into
    their hand (in plain sight), so the pile goes back up."""
    state = position("hands=Y1/?5/?5/?5 center=Y3 piles=R4,G3/-/-/- deck=?,B2")
    events = act(state, "c Y1", "end")
    assert kinds(events) == ["play_center", "end_turn", "draw", "retrieve"]
    assert first(events, "retrieve")["card"] == "G3"
    assert sorted(hand(state, 0)) == ["B2", "G3"]
    assert pile(state, 0) == ["R4"]
    assert fields(state)["known"].split("/")[0] == "G3"
    assert GAME.view(state, 2)["known_in_hand"][0] == ["G3"]


def test_SNK_R11_emptying_the_hand_on_a_bare_lanternfish_draws_one_more_card() -> None:
    """SNK-R11 step 3: if the own pile shows its Lanternfish, the player draws 1 more card instead."""
    state = position("hands=Y1/?5/?5/?5 center=Y3 deck=?,B2,P4")
    events = act(state, "c Y1", "end")
    assert kinds(events) == ["play_center", "end_turn", "draw", "draw"]
    assert sorted(hand(state, 0)) == ["B2", "P4"]
    assert pile(state, 0) == []
    assert GAME.view(state, None)["pile_tops"][0] == 5


def test_SNK_R12_an_empty_deck_is_refilled_from_the_centre_but_its_top() -> None:
    """SNK-R12: drawing from an empty deck first shuffles every centre card but the top one into a new deck."""
    state = position("hands=Y1,B3/?23/?23/?22 center=R0,R1,R2,G4,Y3 deck=-")
    events = act(state, "c Y1", "end")
    assert kinds(events) == ["play_center", "end_turn", "refill", "draw"]
    assert first(events, "refill")["deck"] == 5
    assert center(state) == ["Y1"]
    drawn = [card for card in hand(state, 0) if card != "B3"]
    assert len(drawn) == 1
    assert Counter(deck(state) + drawn) == Counter(["R0", "R1", "R2", "G4", "Y3"])


def test_SNK_R12_with_nothing_to_draw_the_draw_is_skipped() -> None:
    """SNK-R12: an empty deck and a centre of one card leave nothing to draw: the draw is skipped."""
    state = position("hands=Y1,B3/?24/?24/?24 center=Y3 deck=-")
    events = act(state, "pass")
    assert kinds(events) == ["pass", "no_draw"]
    assert hand(state, 0) == ["Y1", "B3"]
    assert center(state) == ["Y3"]
    assert actor(state) == 1


def test_SNK_R13a_a_rotation_of_passes_with_nothing_to_draw_ends_the_round() -> None:
    """SNK-R13 (a): n consecutive passes, each ending with an empty deck and a one-card centre, end the round, which
    is scored normally."""
    state = position("hands=?36/?36 center=Y3 piles=R4,R3/- deck=-")
    act(state, "pass")
    assert number(state, "round") == 1
    events = act(state, "pass")
    end = first(events, "round_end")
    assert (end["reason"], end["gains"]) == ("stall", [3, 5])
    assert number(state, "round") == 2
    assert scores(state) == [3, 5]


def test_SNK_R13a_a_pass_that_could_draw_does_not_count_towards_a_stall() -> None:
    """SNK-R13 (a): only passes after which nothing could be drawn count; the rotation must be unbroken."""
    state = position("hands=?35/?35 center=Y4,Y2,Y3 piles=R4,R3/- deck=-")
    act(state, "pass")  # Y4 and Y2 become the deck, one is drawn: a card is left to draw
    act(state, "pass")  # the last card is drawn: from now on nothing can be drawn
    assert number(state, "round") == 1
    events = act(state, "pass")
    assert first(events, "round_end")["reason"] == "stall"


def test_SNK_R13b_a_round_is_scored_after_turn_cap_turns() -> None:
    """SNK-R13 (b): after option turn_cap turns (default 500) the round ends and is scored."""
    assert config().turn_cap == 500
    state = position("hands=Y1,B3/?5/?5/?5 center=Y3 piles=-/B4/-/- deck=?", turn_cap=3)
    act(state, "pass")
    act(state, "pass")
    assert number(state, "round") == 1
    events = act(state, "pass")
    end = first(events, "round_end")
    assert (end["reason"], end["gains"]) == ("turn_cap", [5, 4, 5, 5])
    assert number(state, "round") == 2


# -- SNK-R14..R17: scoring and the end of the game ---------------------------------------------------------------


def test_SNK_R14_each_player_adds_the_top_value_of_their_pile() -> None:
    """SNK-R14: at the end of a round each total rises by the top value of the player's pile (Lanternfish 5)."""
    state = position("hands=Y1,G0/?5/?5/?5 center=Y3 piles=-/R4,R3,R2,R1/B4,B3/G4 scores=1,2,3,4 deck=?")
    events = act(state, "c Y1", "p G0>1")
    end = first(events, "round_end")
    assert end["gains"] == [5, 0, 3, 4]
    assert end["totals"] == [6, 2, 6, 8]
    assert scores(state) == [6, 2, 6, 8]


def test_SNK_R15_with_no_total_at_the_target_a_new_round_is_dealt() -> None:
    """SNK-R15: if no total reached target_score (default 12), a new round starts."""
    state = position(f"scores=6,0,0,0 {BEACH_NEXT}")
    act(state, "c Y1", "p G0>1")
    assert scores(state) == [11, 0, 4, 3]
    assert GAME.outcome(state) is None
    assert number(state, "round") == 2


def test_SNK_R15_a_unique_highest_total_at_the_target_wins() -> None:
    """SNK-R15: a single player with the highest total at or above the target wins and the game is over."""
    state = position(f"scores=7,0,7,0 {BEACH_NEXT}")
    events = act(state, "c Y1", "p G0>1")
    assert kinds(events)[-2:] == ["round_end", "game_over"]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.scores == (12, 0, 11, 3)
    assert outcome.termination == SnorkelingTermination.TARGET_SCORE
    assert outcome.termination.rule == "SNK-R15"
    assert GAME.actors(state) == frozenset()
    assert all(legal(state, seat) == [] for seat in range(4))
    assert rejected(state, "pass", seat=0).rule == "SNK-R15"


def test_SNK_R15_the_target_score_is_an_option() -> None:
    """SNK-R15: option target_score sets the total that ends the game."""
    state = position(f"scores=7,0,0,0 {BEACH_NEXT}", target_score=13)
    act(state, "c Y1", "p G0>1")
    assert GAME.outcome(state) is None
    state = position(f"scores=3,0,0,0 {BEACH_NEXT}", target_score=8)
    act(state, "c Y1", "p G0>1")
    assert GAME.outcome(state) is not None


def test_SNK_R16_between_rounds_only_the_lanternfish_and_the_totals_stay() -> None:
    """SNK-R16: a new round rebuilds everything but the Lanternfish and the totals."""
    state = position("hands=Y1,G0,B2/?5/?5/?5 known=B2/-/-/- center=P1,Y3 piles=R4/R4,R3,R2,R1/B4/- "
                     "scores=1,1,1,1 turns=17 deck=?")
    act(state, "c Y1", "p G0>1")
    f = fields(state)
    assert scores(state) == [5, 1, 5, 6]
    assert (f["piles"], f["known"], f["played"], f["hit"], f["turns"], f["stall"]) == (
        "-/-/-/-", "-/-/-/-", "0", "-", "0", "0")
    assert len(center(state)) == 1


def test_SNK_R17_a_round_end_scores_checks_and_deals_with_no_input() -> None:
    """SNK-R17: the end of a round scores, checks for a winner and deals the next round in one go; the next
    round's first player then has their turn."""
    state = position(BEACH_NEXT)
    events = act(state, "c Y1", "p G0>1")
    assert kinds(events) == ["play_center", "play_pile", "round_end", "round_start"]
    start = first(events, "round_start")
    assert (start["round"], start["starter"]) == (2, 1)
    assert start["center"] == center(state)[0]
    assert actor(state) == 1
    assert "pass" in legal(state)


# -- SNK-V1: Expert Diving ---------------------------------------------------------------------------------------


def test_SNK_V1_expert_diving_chains_plus_one_cards_through_the_wrap() -> None:
    """SNK-V1: Expert Diving lets both placement rules combine card by card, any number of cards, including
    several successive +1 cards (3 -> 4 -> 0 -> 1)."""
    hands = "hands=R4,B0,G1,P2/?5/?5/?5 center=Y3 deck=?"
    state = position(hands, expert_diving=True)
    act(state, "c R4", "c B0", "c G1", "c P2")
    assert center(state) == ["Y3", "R4", "B0", "G1", "P2"]
    base = position(hands)
    act(base, "c R4")
    assert rejected(base, "c B0").rule == "SNK-R6"


def test_SNK_V1_expert_diving_is_off_by_default() -> None:
    """SNK-V1: expert_diving defaults to false."""
    assert config().expert_diving is False
    assert GAME.static_data(config())["expert_diving"] is False
    assert GAME.static_data(config(expert_diving=True))["expert_diving"] is True
