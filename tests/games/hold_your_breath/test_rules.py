"""Hold Your Breath!'s rules, HYB-R1..R41: positions written in the state notation, an action or two, and what the
rules say must follow."""

from __future__ import annotations

from collections import Counter

import pytest

from divedeck.engine import ConfigError, SeededRng
from divedeck.games.hold_your_breath import HoldYourBreathTermination
from divedeck.games.hold_your_breath.cards import load_deck
from divedeck.games.hold_your_breath.events import (
    AscentStarted,
    Breathed,
    Dealt,
    Discarded,
    Gasped,
    KrakenDiscards,
    KrakenStruck,
    Moved,
    Surfaced,
)

from .helpers import (
    DEFAULT_DECK,
    GAME,
    act,
    actor,
    all_cards,
    config,
    deck,
    discard,
    fields,
    first,
    hand,
    kinds,
    legal,
    number,
    numbers,
    pile,
    position,
    rejected,
    with_deck,
)

# -- HYB-R1: players -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_HYB_R1_two_to_four_players_can_play(players: int) -> None:
    """HYB-R1: Hold Your Breath! is for 2 to 4 players."""
    cfg = config(num_players=players)
    state = GAME.new(cfg, 3)
    assert GAME.num_players(cfg) == players
    assert len(fields(state)["hands"].split("/")) == players
    assert GAME.view(state, None)["players"] == players


@pytest.mark.parametrize("players", [0, 1, 5, 8])
def test_HYB_R1_other_player_counts_are_config_errors(players: int) -> None:
    """HYB-R1: four Pirate/Anchor token pairs, so any other count is refused."""
    with pytest.raises(ConfigError, match="from 2 to 4"):
        config(num_players=players)


# -- HYB-R2: setup -------------------------------------------------------------------------------------------------


def test_HYB_R2_everyone_starts_at_the_surface_with_empty_swim_piles_and_no_anchors() -> None:
    """HYB-R2.1: every pirate at depth 0, no anchors, every Swim Pile and the Discard Pile empty."""
    state = GAME.new(config(num_players=3), 11)
    assert numbers(state, "depths") == [0, 0, 0]
    assert fields(state)["anchors"] == "-"
    assert fields(state)["piles"] == "-/-/-"
    assert discard(state) == []
    assert fields(state)["round"] == "descent"


def test_HYB_R2_deals_five_each_one_at_a_time_from_the_first_player() -> None:
    """HYB-R2.2: the 68 cards are shuffled with the game's seeded RNG and dealt one at a time from the top of the
    deck, starting with the first player, until everyone holds 5."""
    seed = 2024
    state = GAME.new(config(num_players=3, first_player=1), seed)
    table = load_deck()
    shuffled = [table.face_label[face] for face in table.deck]
    SeededRng(seed).shuffle(shuffled)  # the top of the deck is the last card
    expected: list[list[str]] = [[], [], []]
    for i in range(5 * 3):
        expected[(1 + i) % 3].append(shuffled.pop())
    order = {label: index for index, label in enumerate(table.face_label)}
    assert [hand(state, seat) for seat in range(3)] == [sorted(cards, key=order.__getitem__) for cards in expected]
    assert deck(state) == shuffled
    assert len(deck(state)) == 68 - 15


def test_HYB_R2_first_player_option_starts_the_descent() -> None:
    """HYB-R2.3: the Descent's first player is option first_player (default seat 0)."""
    assert actor(GAME.new(config(), 1)) == 0
    state = GAME.new(config(num_players=4, first_player=3), 1)
    assert actor(state) == 3
    assert number(state, "first") == 3
    with pytest.raises(ConfigError):
        config(num_players=2, first_player=2)


# -- HYB-R10..R14: plays -------------------------------------------------------------------------------------------


def test_HYB_R10_an_air_card_adds_its_value_to_A_and_goes_to_the_discard_pile() -> None:
    """HYB-R10: play_air adds the card's value to A; the card goes to the Discard Pile."""
    state = position("hands=A10D,A5X,S5C/?5 deck=?")
    events = act(state, "air A10D", "air A5X")
    assert number(state, "air") == 15
    assert discard(state) == ["A10D", "A5X"]
    assert hand(state, 0) == ["S5C"]
    assert first(events, Breathed) == Breathed(0, "A10D", 10)
    assert rejected(state, "air S5C").rule == "HYB-R10"


def test_HYB_R11_a_swim_card_adds_to_S_only_when_the_swim_pile_is_clear() -> None:
    """HYB-R11: play_swim adds the card's value to S; it is refused while the player is hindered."""
    state = position("hands=A10D,S10D,S5C/?5 piles=pA5P/- deck=?")
    assert rejected(state, "swim S10D").rule == "HYB-R11"
    assert rejected(state, "swim A10D").rule == "HYB-R11"
    act(state, "calm S5C 0", "swim S10D")
    assert number(state, "swim") == 10
    assert discard(state) == ["S5C", "A5P", "S10D"]


def test_HYB_R12_an_action_must_be_the_cards_own_icon() -> None:
    """HYB-R12: an Air/Swim card may be played only for its own icon's action."""
    state = position("hands=A5X,S5P/?5 deck=?")
    assert rejected(state, "draw A5X").rule == "HYB-R12"
    assert rejected(state, "panic A5X>1").rule == "HYB-R12"
    assert legal(state) == ["air A5X", "discard A5X>1", "swim S5P", "panic S5P>1"]


def test_HYB_R12_draw_takes_the_top_card_into_the_hand() -> None:
    """HYB-R12 draw: the top Dive Deck card joins the hand and may be played this turn."""
    state = position("hands=A5D,S10C/?5 deck=?,KR,SH")
    events = act(state, "draw A5D")
    assert hand(state, 0) == ["S10C", "SH"]
    assert deck(state)[-1] == "KR"
    assert discard(state) == ["A5D"]
    assert kinds(events) == ["draw"]
    assert "shark SH>1" in legal(state)


def test_HYB_R12_discard_takes_a_random_card_from_an_opponent_holding_five() -> None:
    """HYB-R12 discard: the target must be an opponent holding at least 5 cards; one of their cards, chosen at
    random, goes face up to the Discard Pile."""
    state = position("hands=A5X,A10X,S5C/A5D,A10D,S5C,S10P,DO deck=?")
    before = hand(state, 1)
    events = act(state, "discard A5X>1")
    lost = first(events, Discarded).lost
    assert lost in before
    assert len(hand(state, 1)) == 4
    assert discard(state) == ["A5X", lost]
    assert rejected(state, "discard A10X>1").rule == "HYB-A17"  # four cards left
    assert rejected(state, "discard A10X>0").rule == "HYB-R12"  # not on yourself


def test_HYB_R12_calm_sends_a_panic_to_the_discard_pile() -> None:
    """HYB-R12 calm: a Panic in the player's own Swim Pile goes to the Discard Pile."""
    state = position("hands=S5C/?5 piles=pA5P/- deck=?")
    act(state, "calm S5C 0")
    assert pile(state, 0) == []
    assert discard(state) == ["S5C", "A5P"]


def test_HYB_R12_calm_moves_the_shark_to_another_diver_without_one() -> None:
    """HYB-R12 calm: a calmed Shark moves to another player who is a diver and has no Shark (the player picks)."""
    state = position("hands=S5C/?5/?5 piles=hSH/-/hDO deck=?")
    assert [move for move in legal(state) if move.startswith("calm")] == ["calm S5C 0>1"]
    act(state, "calm S5C 0>1")
    assert pile(state, 0) == []
    assert pile(state, 1) == ["hSH"]
    assert discard(state) == ["S5C"]


def test_HYB_R12_calm_discards_the_shark_when_nobody_can_take_it() -> None:
    """HYB-R12 calm: if no other diver is free of a Shark, the calmed Shark goes to the Discard Pile."""
    state = position("hands=S5C/?5 piles=hSH/hDO deck=?")
    assert rejected(state, "calm S5C 0>1").rule == "HYB-A23"
    act(state, "calm S5C 0")
    assert discard(state) == ["S5C", "SH"]


def test_HYB_R12_panic_lies_face_up_on_an_opponent_without_a_panic() -> None:
    """HYB-R12 panic: the card is placed face up in an opponent's Swim Pile, if they have no Panic yet."""
    state = position("hands=A5P,S10P/?5/?5 piles=-/-/dS5D deck=?")
    assert [move for move in legal(state) if move.startswith("panic")] == ["panic A5P>1", "panic S10P>1"]
    act(state, "panic A5P>1")
    assert pile(state, 1) == ["pA5P"]
    assert rejected(state, "panic S10P>1").rule == "HYB-R12"
    assert rejected(state, "panic S10P>2").rule == "HYB-R12"  # a face-down Panic blocks too
    assert rejected(state, "panic S10P>0").rule == "HYB-R12"


def test_HYB_R12_shark_lies_in_an_opponents_swim_pile() -> None:
    """HYB-R12 shark: the Shark goes to an opponent's Swim Pile (a Panic there does not stop it)."""
    state = position("hands=SH/?5 piles=-/pA5P deck=?")
    act(state, "shark SH>1")
    assert pile(state, 1) == ["pA5P", "hSH"]


def test_HYB_R12_kraken_removes_a_shark_to_the_discard_pile() -> None:
    """HYB-R12 kraken_shark: the Kraken sends a player's Shark to the Discard Pile."""
    state = position("hands=KR/?5/?5 piles=-/pA5P,hSH/- deck=?")
    assert [move for move in legal(state) if move.startswith("kraken")] == ["kraken KR>1"]
    act(state, "kraken KR>1")
    assert pile(state, 1) == ["pA5P"]
    assert discard(state) == ["KR", "SH"]
    assert rejected(position("hands=KR/?5 deck=?"), "kraken KR>1").rule == "HYB-R12"


def test_HYB_R12_kraken_mass_discard_waits_for_every_victim_then_discards_together() -> None:
    """HYB-R12 kraken_mass: every player holding 5 or more (counted after the Kraken left the hand) discards one
    card; each victim chooses (KRAKEN_DISCARDS), the cards go to the Discard Pile together, then play resumes."""
    state = position("hands=KR,A5D,A5X,S5C,S5D,A10D/S10P,S10C,S10D,S10X,A10C/?4 deck=?", num_players=3)
    events = act(state, "mass KR")
    assert first(events, KrakenStruck).victims == (0, 1)
    assert fields(state)["phase"] == "kraken"
    assert GAME.actors(state) == {0, 1}
    assert legal(state, 2) == []
    assert legal(state, 1) == ["lose A10C", "lose S10D", "lose S10X", "lose S10C", "lose S10P"]
    act(state, "lose S10P", seat=1)
    assert discard(state) == ["KR"]  # nothing is discarded until everyone has chosen
    assert GAME.actors(state) == {0}
    events = act(state, "lose A5D", seat=0)
    assert first(events, KrakenDiscards).losses == ((0, "A5D"), (1, "S10P"))
    assert discard(state) == ["KR", "A5D", "S10P"]
    assert fields(state)["phase"] == "play"
    assert actor(state) == 0


def test_HYB_R13_a_dolphin_is_declared_as_one_card_type_and_is_a_dolphin_again_when_it_leaves() -> None:
    """HYB-R13: a Dolphin is declared as exactly one card type and obeys its rules; lying in a Swim Pile as a
    Panic it is a Panic, and when calmed it goes to the Discard Pile as a Dolphin."""
    state = position("hands=DO,DO,S5C,A5P/A5D,S5C,S5D,S10D,A10D deck=?")
    offered = legal(state)
    for move in ("air DO 5", "air DO 10", "swim DO 5", "swim DO 10", "draw DO", "discard DO>1", "panic DO>1",
                 "shark DO>1", "mass DO"):
        assert move in offered
    assert rejected(state, "air DO 15").rule == "HYB-R13"
    act(state, "air DO 10", "panic DO>1")
    assert number(state, "air") == 10
    assert pile(state, 1) == ["pDO"]
    assert rejected(state, "panic A5P>1").rule == "HYB-R12"  # the Dolphin is a Panic there
    act(state, "swim S5C", "end")
    act(state, "keep")
    act(state, "calm S5C 0")
    assert discard(state)[-2:] == ["S5C", "DO"]


def test_HYB_R14_forced_breath_a_diver_holding_air_must_breathe_before_ending() -> None:
    """HYB-R14: with forced_breath (default) end_play is refused while a diver with A = 0 holds an Air card or a
    Dolphin; it is allowed once they have played Air, or if they hold none."""
    assert config().forced_breath is True
    state = position("hands=A5D,S10C/?5 deck=?")
    assert rejected(state, "end").rule == "HYB-R14"
    act(state, "air A5D")
    assert "end" in legal(state)
    assert rejected(position("hands=DO,S10C/?5 deck=?"), "end").rule == "HYB-R14"
    assert "end" in legal(position("hands=S5C,S10C/?5 deck=?"))
    assert "end" in legal(position("hands=A5D,S10C/?5 deck=?", forced_breath=False))


# -- HYB-R20..R26: the end of a turn ---------------------------------------------------------------------------------


def test_HYB_R20_movement_is_the_lesser_of_A_and_S_down_in_the_descent() -> None:
    """HYB-R20: at end_play the pirate moves min(A, S) feet, down during the Descent, capped at max_depth."""
    state = position("hands=A10D,A5D,S10C/?5 depths=20,0 deck=?")
    act(state, "air A10D", "air A5D", "swim S10C")
    assert numbers(state, "depths") == [20, 0]  # nothing moves before end_play
    events = act(state, "end")
    assert numbers(state, "depths") == [30, 0]
    assert first(events, Moved) == Moved(0, "descent", 20, 30)
    capped = position("hands=A10D,S10C/?5 depths=145,0 deck=?")
    act(capped, "air A10D", "swim S10C", "end")
    assert numbers(capped, "depths") == [150, 0]


def test_HYB_R20_movement_is_up_in_the_ascent_and_stops_at_the_surface() -> None:
    """HYB-R20: during the Ascent the pirate moves min(A, S) feet up, never above 0."""
    state = position("round=ascent hands=A10D,S10C/?5 anchors=20,60 depths=15,60 deck=?")
    act(state, "air A10D", "swim S10C", "end")
    assert numbers(state, "depths") == [5, 60]
    state = position("round=ascent hands=A10D,S10C/?5 anchors=20,60 depths=5,60 deck=?")
    act(state, "air A10D", "swim S10C", "end")
    assert numbers(state, "depths") == [0, 60]


def test_HYB_R21_reaching_depth_zero_in_the_ascent_is_surfacing_in_order() -> None:
    """HYB-R21: a diver whose depth goes from above 0 to 0 has surfaced; the order of surfacing is recorded."""
    state = position("round=ascent hands=A10D,S10C/?5/?5 anchors=10,60,40 depths=10,60,0 surfaced=2 deck=?",
                     num_players=3)
    events = act(state, "air A10D", "swim S10C", "end")
    assert first(events, Surfaced) == Surfaced(0, 2)
    assert numbers(state, "surfaced") == [2, 0]
    assert GAME.outcome(state) is None  # seat 1 dove deeper: the game goes on


def test_HYB_R22_the_deepest_diver_surfacing_wins_at_once() -> None:
    """HYB-R22: if the player who just surfaced has the greatest anchor (above 0), the game ends at once and they
    win; the rest of their turn (breath penalty, discard, replenish) is not played."""
    state = position("round=ascent hands=A10D,S10C,S5C/?5 anchors=60,40 depths=10,30 deck=?")
    act(state, "air A10D", "swim S10C")
    events = act(state, "end")
    assert kinds(events) == ["end_play", "move", "surface", "game_over"]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.termination == HoldYourBreathTermination.DEEPEST_SURFACED
    assert hand(state, 0) == ["S5C"]
    assert GAME.actors(state) == frozenset()


def test_HYB_R22_among_divers_tied_deepest_the_first_to_surface_wins() -> None:
    """HYB-R22: with several players tied at the greatest anchor, the first of them to surface wins."""
    state = position("round=ascent hands=A10D,S10C/?5 anchors=40,40 depths=10,5 deck=?")
    act(state, "air A10D", "swim S10C", "end")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_HYB_R23_a_diver_without_air_lays_a_chosen_card_face_down_as_a_panic() -> None:
    """HYB-R23: a diver ending the turn with A = 0 chooses a hand card and lays it face down in their own Swim
    Pile as a Panic (BREATH_PENALTY)."""
    state = position("hands=S5C,S10D/?5 deck=?")
    act(state, "end")
    assert fields(state)["phase"] == "breath"
    assert legal(state) == ["gasp S5C", "gasp S10D"]
    assert rejected(state, "keep").rule == "HYB-R23"
    events = act(state, "gasp S10D")
    assert pile(state, 0) == ["dS10D"]
    assert first(events, Gasped) == Gasped(0, False, {0: "S10D"})
    assert first(events, Gasped).for_seat(1) == {"kind": "gasp", "seat": 0, "blind": False}
    assert fields(state)["phase"] == "discard"


def test_HYB_R23_an_empty_hand_takes_the_deck_top_unseen_or_nothing_if_the_deck_is_empty() -> None:
    """HYB-R23: with an empty hand the top Dive Deck card is laid face down unseen instead; with the deck empty
    too there is no penalty."""
    state = position("hands=-/?5 deck=?,SH")
    act(state, "end")
    assert pile(state, 0) == ["bSH"]
    assert fields(state, 0, masked=True)["piles"].split("/")[0] == "b?"  # its owner never saw it
    empty = with_deck("hands=-/?5", [])
    act(empty, "end")
    assert pile(empty, 0) == []


def test_HYB_R24_the_player_discards_any_subset_of_the_hand_then_keeps_the_rest() -> None:
    """HYB-R24: after moving (and any penalty) the player may discard any number of hand cards, or none."""
    state = position("hands=A5D,S5C,S10D,A10P/?5 deck=?")
    act(state, "air A5D", "end")
    assert fields(state)["phase"] == "discard"
    assert legal(state) == ["keep", "drop A10P", "drop S5C", "drop S10D"]
    act(state, "drop S5C", "drop A10P")
    assert discard(state) == ["A5D", "S5C", "A10P"]
    act(state, "keep")
    assert actor(state) == 1


def test_HYB_R25_replenish_draws_back_to_five_without_reshuffling() -> None:
    """HYB-R25: the hand is refilled from the Dive Deck to 5 cards, or as far as the deck allows; there is no
    reshuffle within a round."""
    state = position("hands=A5D,S5C,S10D/?5 deck=?,KR,SH,A10P")
    act(state, "air A5D", "end", "keep")
    assert sorted(hand(state, 0)) == sorted(["S5C", "S10D", "A10P", "SH", "KR"])
    short = with_deck("hands=A5D,S5C,S10D/?5", ["SH"])
    act(short, "air A5D", "end", "keep")
    assert sorted(hand(short, 0)) == ["S10D", "S5C", "SH"]
    assert deck(short) == []
    assert len(discard(short)) > 0


def test_HYB_R26_play_passes_to_the_left() -> None:
    """HYB-R26: after the turn the next player is the one to the left (seat + 1, wrapping)."""
    state = position("hands=?5/?5/A5D,S5C active=2 deck=?", num_players=3)
    act(state, "air A5D", "end", "keep")
    assert actor(state) == 0


# -- HYB-R30..R34: the end of a round --------------------------------------------------------------------------------


def test_HYB_R30_the_turn_that_empties_the_deck_triggers_one_more_turn_each_ending_with_its_player() -> None:
    """HYB-R30 (deck_emptied, default): after the turn that ends with the deck empty, every player takes exactly one
    more turn, from the trigger player's left, the trigger player last; then the round ends."""
    state = with_deck("hands=A5D,S5C,S10D,A10P,S10C/A10D,S5D,S10X,A10X,A5X/A5C,A10C,S5P,S10P,DO", ["KR"],
                      num_players=3)
    act(state, "air A5D", "end", "keep")
    assert fields(state)["final"] == "0:3"
    order = []
    for _ in range(3):
        order.append(actor(state))
        assert fields(state)["round"] == "descent"
        moves = [m for m in legal(state) if m.startswith("air ")]
        act(state, moves[0], "end")
        if fields(state)["phase"] == "discard":
            act(state, "keep")
    assert order == [1, 2, 0]
    assert fields(state)["round"] == "ascent"


def test_HYB_R30_short_hand_triggers_on_the_first_hand_that_cannot_be_refilled() -> None:
    """HYB-R30 (short_hand): the trigger is the first player whose replenish ends short of 5 cards."""
    text = "hands=A5D,S5C,S10D,A10P,S10C/A10D,S5D,S10X,A10X,A5X"
    emptied = with_deck(text, ["KR"])
    act(emptied, "air A5D", "end", "keep")
    assert fields(emptied)["final"] == "0:2"  # the deck is empty after seat 0's turn
    short = with_deck(text, ["KR"], final_turn_trigger="short_hand")
    act(short, "air A5D", "end", "keep")
    assert len(hand(short, 0)) == 5
    assert fields(short)["final"] == "-"  # seat 0 refilled to 5
    act(short, "air A10D", "end", "keep")
    assert fields(short)["final"] == "1:2"


def test_HYB_R31_the_descent_ends_with_each_anchor_at_its_pirates_depth() -> None:
    """HYB-R31: at the end of the Descent each player's anchor is set to their depth."""
    state = with_deck("hands=A5D/A10D,S10D active=1 depths=35,50 final=0:1", [])
    act(state, "air A10D", "swim S10D", "end")  # the hand is empty: nothing to discard, the turn ends
    assert numbers(state, "anchors") == [35, 60]
    assert numbers(state, "depths") == [35, 60]
    assert fields(state)["round"] == "ascent"


def test_HYB_R32_the_ascent_keeps_swim_piles_collects_hands_and_the_shallowest_starts() -> None:
    """HYB-R32: Swim Piles stay as they are (face-down Panics too); all hands go to the Discard Pile, which is
    shuffled into the new Dive Deck; the shallowest anchor starts; 5 cards are dealt to each from them."""
    state = with_deck("hands=A5D,S5C/A10D,S10D,SH active=1 depths=45,20 final=0:1 piles=dS10C,pA5P,hDO/-", [])
    events = act(state, "air A10D", "swim S10D", "end", "keep")
    assert fields(state)["piles"] == "dS10C,pA5P,hDO/-"
    assert numbers(state, "anchors") == [45, 30]
    assert actor(state) == 1
    assert first(events, AscentStarted).first == 1
    assert first(events, Dealt).hand_sizes == (5, 5)
    assert discard(state) == []
    assert len(deck(state)) == 68 - 3 - 10
    assert all_cards(state) == DEFAULT_DECK


def test_HYB_R32_deal_order_and_shuffle_come_from_the_seeded_rng() -> None:
    """HYB-R32: the shuffle of the Discard Pile and the deal (one at a time from the first player) are the game's
    own seeded randomness: the same position and moves give the same Ascent."""
    text = "hands=A5D,S5C/A10D,S10D active=1 depths=45,20 final=0:1 rng=9:4"
    one, two = with_deck(text, []), with_deck(text, [])
    for state in (one, two):
        act(state, "air A10D", "swim S10D", "end")
    assert GAME.state_notation(one) == GAME.state_notation(two)
    other = with_deck(text.replace("rng=9:4", "rng=10:4"), [])
    act(other, "air A10D", "swim S10D", "end")
    assert fields(other)["deck"] != fields(one)["deck"]


def test_HYB_R33_a_player_with_anchor_zero_stays_a_diver_at_the_surface_who_cannot_surface() -> None:
    """HYB-R33: anchor 0 means they never dived: in the Ascent movement has no effect, they never surface, and the
    breath penalty and attacks still apply to them."""
    state = position("round=ascent hands=A10D,S10C,S5C/A5P,S5D,S10D,A10C,A5X anchors=0,40 depths=0,40 deck=?")
    act(state, "air A10D", "swim S10C", "end", "keep")
    assert numbers(state, "depths") == [0, 40]
    assert fields(state)["surfaced"] == "-"
    assert "panic A5P>0" in legal(state)  # still a diver: a target
    back = position("round=ascent hands=S5C/?5 anchors=0,40 depths=0,40 deck=?")
    act(back, "end")
    assert fields(back)["phase"] == "breath"


def test_HYB_R34_surfaced_players_keep_playing_actions_but_not_air_or_swim_and_cannot_be_hindered() -> None:
    """HYB-R34: a surfaced player keeps taking turns (draw, discard, panic, shark, kraken), may not play Air or
    Swim for value, takes no breath penalty, and cannot be the target of a Panic or a Shark."""
    state = position("round=ascent hands=A5D,S10P,A5P,SH/?5 anchors=20,40 depths=0,25 surfaced=0 deck=?")
    offered = legal(state)
    assert "end" in offered  # no forced breath either
    assert not any(move.startswith(("air ", "swim ")) for move in offered)
    assert {"draw A5D", "panic S10P>1", "panic A5P>1", "shark SH>1"} <= set(offered)
    assert rejected(state, "air A5D").rule == "HYB-R34"
    act(state, "end")
    assert fields(state)["phase"] == "discard"  # no breath penalty
    assert pile(state, 0) == []
    opponent = position("round=ascent hands=?5/A5P,SH,S5C anchors=20,40 depths=0,25 surfaced=0 active=1 "
                        "piles=-/hDO deck=?")
    assert rejected(opponent, "panic A5P>0").rule == "HYB-R34"
    assert rejected(opponent, "shark SH>0").rule == "HYB-R34"
    assert [m for m in legal(opponent) if m.startswith("calm")] == ["calm S5C 0"]  # the Shark cannot go to seat 0


def test_HYB_R34_discard_and_the_kraken_still_reach_surfaced_players() -> None:
    """HYB-R34: a Discard and the Kraken's mass discard affect surfaced players normally."""
    state = position("round=ascent hands=?5/A5X,KR,S5C,S5D,A10D,A10C anchors=20,40 depths=0,25 surfaced=0 "
                     "active=1 deck=?")
    assert "discard A5X>0" in legal(state)
    events = act(state, "mass KR")
    assert first(events, KrakenStruck).victims == (0, 1)


# -- HYB-R40, HYB-R41: the end of the game ---------------------------------------------------------------------------


def test_HYB_R40_after_the_game_ends_nobody_may_act() -> None:
    """HYB-R40: the game ends by HYB-R22 or at the end of the Ascent; after that no action is legal."""
    state = position("round=ascent hands=A10D,S10C,S5C/?5 anchors=60,40 depths=10,30 deck=?")
    act(state, "air A10D", "swim S10C", "end")
    assert GAME.actors(state) == frozenset()
    for seat in (0, 1):
        assert GAME.legal_actions(state, seat) == []
        assert rejected(state, "keep", seat=seat).rule == "HYB-R40"


def ascent_last_turn(anchors: str, depths: str, surfaced: str = "-", piles: str = "-/-/-", **options: object) -> object:
    """Seat 2's final turn of the Ascent, at its discard step: ``keep`` ends the game."""
    return with_deck(f"round=ascent hands=?1/?1/A5D active=2 phase=discard anchors={anchors} depths={depths} "
                     f"surfaced={surfaced} piles={piles} final=2:1", [], num_players=3, **options)


def test_HYB_R41_surfaced_players_win_before_divers_greatest_anchor_first() -> None:
    """HYB-R41 (surfaced_first, default): if anyone surfaced, the surfaced player with the greatest anchor wins."""
    state = ascent_last_turn("30,20,60", "0,0,5", surfaced="1,0")
    act(state, "keep")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.termination == HoldYourBreathTermination.SURFACED_FIRST


def test_HYB_R41_otherwise_the_greatest_total_distance_wins_less_ten_per_hindrance() -> None:
    """HYB-R41: with nobody surfaced, T = anchor + (anchor - depth) - 10 per hindrance; the highest T wins, equal
    highest T share the victory."""
    state = ascent_last_turn("40,40,30", "20,10,0", piles="hSH/dS5C,pA5P/-")
    act(state, "keep")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (50.0, 50.0, 60.0)  # 40+20-10, 40+30-20, 30+30
    assert outcome.winners == (2,)
    tied = ascent_last_turn("40,40,30", "20,20,10")
    act(tied, "keep")
    outcome = GAME.outcome(tied)
    assert outcome is not None and outcome.winners == (0, 1)  # 60, 60, 50: a shared victory


def test_HYB_R41_distance_rule_ranks_everyone_by_total_distance() -> None:
    """HYB-R41 (winner_rule=distance): surfaced or not, everyone ranks by total distance."""
    state = ascent_last_turn("30,20,60", "0,0,5", surfaced="1,0", winner_rule="distance")
    act(state, "keep")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (2,)
    assert outcome.scores == (60.0, 40.0, 115.0)
    assert all_cards(state) == Counter(DEFAULT_DECK)
