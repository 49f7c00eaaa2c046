"""How Bermuda resolves what the rulebook leaves open, BRM-A1..A24: one test per decision."""

from __future__ import annotations

import pytest

from divedeck.engine import ConfigError, MalformedInput
from divedeck.engine.game import CLOCK

from .helpers import (
    GAME,
    column,
    config,
    diving,
    everyone_holds,
    fields,
    hand,
    kinds,
    legal,
    phase,
    piles,
    play,
    position,
    rejected,
    result,
)


def test_BRM_A1_a_column_needs_the_exact_count_and_every_step_adjacent() -> None:
    """BRM-A1: "exactly 6 cards, no more and no less" and "each card must differ by one": both, together."""
    for cards, won in (("345676", True), ("34567", False), ("3456765", False), ("345677", False)):
        state = diving("1/2", "T05,T01", columns=f"{cards},-")
        play(state, "0 release @1")
        assert result(state)[0][1] is won, cards


@pytest.mark.parametrize("first_card", [1, 5, 9])
def test_BRM_A2_the_first_card_under_a_treasure_may_have_any_value(first_card: int) -> None:
    """BRM-A2: the first card of a column matches nothing; any value starts a winnable column."""
    state = diving(f"{first_card}/2", "T05,T01")
    assert GAME.view(state, None)["columns"][0]["accepts"] == list(range(1, 10))
    play(state, f"0 lay {first_card} c1 @1")
    assert GAME.view(state, None)["columns"][0]["status"] == "building"


def test_BRM_A3_only_1_and_9_wrap_around() -> None:
    """BRM-A3: after a 1 come 9 or 2; after a 9 come 8 or 1; 9 then 2 and 1 then 8 are bad steps."""
    state = diving("1/2", "T01,T02", columns="91,19")
    view = GAME.view(state, None)
    assert view["columns"][0]["accepts"] == [2, 9]
    assert view["columns"][1]["accepts"] == [1, 8]
    for cards, won in (("91219", True), ("19898", True), ("92345", False), ("18765", False)):
        state = diving("1/2", "T01,T02", columns=f"{cards},-")
        play(state, "0 release @1")
        assert result(state)[0][1] is won, cards


def test_BRM_A4_a_wrong_card_can_be_laid_and_stands_until_the_column_fails() -> None:
    """BRM-A4: on paper nothing stops a wrong card ("a 3 lies on the 1"): lenient placement lays it, and the
    column fails at resolution; option placement_check=strict refuses it instead."""
    state = diving("3/2", "T05,T01", columns="54321,-")
    play(state, "0 lay 3 c1 @1")
    assert column(state, 1) == [5, 4, 3, 2, 1, 3]
    play(state, "1 release @2")
    assert result(state)[0] == ("T05", False, ["bad_step"])
    strict = diving("3/2", "T05,T01", columns="54321,-", placement_check="strict")
    assert rejected(strict, "0 lay 3 c1 @1").rule == "BRM-R12"


def test_BRM_A5_breathing_is_a_release_a_lost_connection_or_the_time_cap() -> None:
    """BRM-A5: digitally, breathing is releasing the held breath (an explicit release), losing the connection
    (leave_action gives that seat's release), or the optional time cap."""
    state = diving("1/2", "T05,T01")
    leave = GAME.leave_action(state, 1, 4200)
    assert GAME.format_action(leave) == "release @4200"
    events = GAME.apply(state, 1, leave)
    assert "round_end" in kinds(events) and fields(state)["end"] == "release.1@4200"
    # In PREPARE, a seat that is not holding has nothing to let go of; one that holds lets go (the countdown stops).
    assert GAME.leave_action(state, 0, 4300) is None
    play(state, "0 hold @4300", "1 hold @4300")
    assert GAME.format_action(GAME.leave_action(state, 0, 4400)) == "release @4400"
    capped = diving("1/2", "T05,T01", max_dive_ms=20_000)
    play(capped, "clock tick @20000")
    assert fields(capped)["end"] == "time@20000"


def test_BRM_A6_the_player_who_breathed_suffers_nothing() -> None:
    """BRM-A6: falling "into Kusalochka's embrace" has no mechanical effect: the breather is dealt the same as
    everyone and is not singled out in the result."""
    state = diving("1/2/3", "T05,T01,T02")
    play(state, "2 release @10")
    view = GAME.view(state, None)
    assert view["hand_sizes"] == [12, 12, 12]
    assert GAME.legal_actions(state, 2) == GAME.legal_actions(state, 0)
    assert view["treasures_won"] == 0


def test_BRM_A7_treasures_come_from_the_top_of_the_once_shuffled_deck_until_it_runs_out() -> None:
    """BRM-A7: each round reveals the next treasures from the top of the deck shuffled once (never reshuffled in
    the standard game: five rounds of five players use 25 of 28); a short deck reveals what remains; an empty one
    ends the game."""
    state = GAME.new(config(num_players=5, rounds=7, countdown_ms=0), 21)
    seen: list[str] = []
    for rnd in range(6):
        layout = fields(state)["layout"].split(",")
        assert len(layout) == (5 if rnd < 5 else 3)
        seen += layout
        everyone_holds(state, 100 * rnd)
        play(state, f"0 release @{100 * rnd + 50}")
    assert len(set(seen)) == 28
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.details["rounds"] == 6  # round 7 found no treasure: game over


def test_BRM_A8_every_round_reshuffles_all_63_and_leftovers_stay_out() -> None:
    """BRM-A8: all 63 Diver cards are shuffled for every round; the undealt ones are unused that round (nobody may
    lay them)."""
    state = GAME.new(config(num_players=1, countdown_ms=0), 9)
    assert len(fields(state)["aside"]) == 51
    aside_values = set(int(c) for c in fields(state)["aside"])
    missing = sorted(v for v in aside_values if v not in hand(state, 0))
    everyone_holds(state, 0)
    if missing:
        assert rejected(state, f"0 lay {missing[0]} c1 @1").rule == "BRM-R12"
    hands = [hand(state, 0)]
    play(state, "0 release @2")
    hands.append(hand(state, 0))
    assert hands[0] != hands[1] and len(hands[1]) == 12


def test_BRM_A9_one_to_five_players_one_is_solo() -> None:
    """BRM-A9: 1-5 players (63 / 12); a single player plays solo with one treasure per round."""
    state = GAME.new(config(num_players=1), 2)
    assert len(GAME.view(state, 0)["columns"]) == 1
    with pytest.raises(ConfigError):
        config(num_players=6)


def test_BRM_A10_the_treasure_data_is_the_specifications_table() -> None:
    """BRM-A10: the rulebook is silent on the 28 treasures' data; the default is table BRM-C3, from a file."""
    table = config().table
    assert table.source == "default treasures.toml"
    assert (table.treasures[0].depth, table.treasures[-1].depth) == (5, 10)


def test_BRM_A11_hands_are_not_sorted_by_default() -> None:
    """BRM-A11: "Do not sort them": sorting is never allowed by default, and hands keep deal order."""
    state = GAME.new(config(num_players=2), 2)
    assert "sort" not in legal(state, 0)
    assert rejected(state, "0 sort @1").rule == "BRM-A11"


def test_BRM_A12_a_laid_card_can_be_neither_taken_back_nor_moved() -> None:
    """BRM-A12: no action takes a card back or moves it; a column only grows."""
    state = diving("12/34", "T05,T01")
    play(state, "0 lay 1 c1 @1")
    assert all(a.split()[0] in ("lay", "release", "signal") for a in legal(state, 0))
    for text in ("take 1 c1", "move 1 c1 c2", "undo", "lay 1 c1 -> c2"):
        with pytest.raises(MalformedInput):
            GAME.parse_action(text)
    play(state, "1 lay 3 c2 @2", "0 lay 2 c1 @3")
    assert column(state, 1) == [1, 2]


def test_BRM_A13_two_lays_on_one_column_at_once_follow_timestamp_then_supply_order() -> None:
    """BRM-A13: simultaneous lays on one column are taken in timestamp order, then in the order supplied; each
    follows the column's last card at processing time, and every seat sees the same column."""
    state = diving("5?1/5?1/6?1", "T05,T01,T02", columns="34,-,-")
    play(state, "1 lay 5 c1 @700", "0 lay 5 c1 @700", "2 lay 6 c1 @701")
    assert column(state, 1) == [3, 4, 5, 5, 6]
    assert GAME.view(state, 0)["columns"] == GAME.view(state, 1)["columns"] == GAME.view(state, None)["columns"]
    assert GAME.view(state, None)["columns"][0]["status"] == "broken"


def test_BRM_A14_lenient_columns_have_no_length_cap_strict_ones_stop_at_the_depth() -> None:
    """BRM-A14: "room for a line of 10 cards" is no rule: a lenient column can overfill (and then fails); strict
    placement stops at the depth."""
    state = diving("6/2", "T01,T02", columns="12345,-")
    play(state, "0 lay 6 c1 @1", "1 release @2")
    assert result(state)[0] == ("T01", False, ["too_long"])
    strict = diving("6/2", "T01,T02", columns="12345,-", placement_check="strict")
    assert "lay 6 c1" not in legal(strict, 0)


def test_BRM_A15_players_may_look_at_their_own_hand_before_diving() -> None:
    """BRM-A15: the hand is dealt before the round begins and its owner sees it in PREPARE."""
    state = GAME.new(config(num_players=2), 2)
    assert phase(state) == "prepare" and len(GAME.view(state, 1)["hand"]) == 12


def test_BRM_A16_no_card_is_laid_before_everyone_holds_and_the_dive_starts() -> None:
    """BRM-A16: cards are laid only in DIVE, which starts only when everyone holds (and the count is over)."""
    state = GAME.new(config(num_players=2), 2)
    card = hand(state, 0)[0]
    assert rejected(state, f"0 lay {card} c1 @1").rule == "BRM-A16"
    everyone_holds(state, 10)
    assert rejected(state, f"0 lay {card} c1 @20").rule == "BRM-A16"  # the count of three is still running
    play(state, f"0 lay {card} c1 @3010")  # the countdown's deadline fires first, then the lay
    assert column(state, 1) == [card]


def test_BRM_A17_a_tie_between_treasures_and_protection_goes_to_the_players() -> None:
    """BRM-A17: "equal to or more Treasure cards than the sum of the keeper's protection points": W = P wins."""
    state = position("round=5 phase=dive t0=0 hands=1/2 layout=T01,T02 columns=12345,12345 won=T03 keeper=T14",
                     num_players=2)
    play(state, "0 release @1")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.details["treasures"], outcome.details["protection"], outcome.winners) == (3, 2, (0, 1))
    tie = position("round=5 phase=dive t0=0 hands=1/2 layout=T01,T02 columns=12345,- won=T03 keeper=T14",
                   num_players=2)
    play(tie, "0 release @1")
    outcome = GAME.outcome(tie)
    assert outcome is not None
    assert (outcome.details["treasures"], outcome.details["protection"], outcome.winners) == (2, 2, (0, 1))


def test_BRM_A18_the_dive_ends_by_itself_when_every_hand_is_empty_unless_switched_off() -> None:
    """BRM-A18: nobody breathes but no card is left: the dive ends (auto_end_on_empty_hands, default true); with
    the option off, it lasts until someone breathes."""
    state = diving("1/2", "T01,T02")
    play(state, "0 lay 1 c1 @1", "1 lay 2 c1 @2")
    assert fields(state)["end"] == "empty@2"
    off = diving("1/2", "T01,T02", auto_end_on_empty_hands=False)
    play(off, "0 lay 1 c1 @1", "1 lay 2 c1 @2")
    assert phase(off) == "dive" and legal(off, 0) == ["release", "signal c1", "signal c2"]


def test_BRM_A19_the_single_breath_challenge_chains_layouts_by_default() -> None:
    """BRM-A19: "how many dives ... on a single breath" is read as several layouts on one breath (chained), the
    default single_breath_mode; one_round is the other reading."""
    assert config(single_breath_challenge=True).challenge == "chained"
    assert config(single_breath_challenge=True, single_breath_mode="one_round").challenge == "one_round"
    assert config().challenge is None


def test_BRM_A20_face_down_treasures_turn_over_when_the_dive_starts() -> None:
    """BRM-A20: "turn them over only after everyone has held their breath": at start_dive, not before."""
    state = GAME.new(config(num_players=2, hidden_treasures=True, countdown_ms=500), 2)
    everyone_holds(state, 0)
    assert GAME.view(state, 0)["columns"][0]["treasure"] is None  # the countdown runs, still face down
    play(state, "clock tick @500")
    assert GAME.view(state, 0)["columns"][0]["treasure"] is not None


def test_BRM_A21_gestures_only_no_words_during_the_dive() -> None:
    """BRM-A21: gestures cannot be forbidden: 'signal' points at a column; there is no way to send words."""
    state = diving("1/2", "T01,T02")
    assert [a for a in legal(state, 0) if a.startswith("signal")] == ["signal c1", "signal c2"]
    with pytest.raises(MalformedInput):
        GAME.parse_action("signal hello")


def test_BRM_A22_the_game_lasts_five_rounds_whatever_the_player_count() -> None:
    """BRM-A22: "The game lasts 5 rounds", with any number of players (option rounds)."""
    for players in (1, 3, 5):
        assert GAME.view(GAME.new(config(num_players=players), 1), None)["rounds"] == 5


def test_BRM_A23_anyone_may_lay_under_any_treasure_at_any_time_of_the_dive() -> None:
    """BRM-A23: no player owns a column; every player may lay on every column."""
    state = diving("12/34/56", "T01,T02,T03")
    for seat in range(3):
        lays = [a for a in legal(state, seat) if a.startswith("lay")]
        assert {a.split()[2] for a in lays} == {"c1", "c2", "c3"}


def test_BRM_A24_treasures_belong_to_the_team_and_who_laid_which_card_is_not_scored() -> None:
    """BRM-A24: won treasures are the team's: every seat gets the same score, and the same columns built by
    other players give the same result."""
    results = []
    for builder in (0, 1):
        state = position("round=5 phase=dive t0=0 hands=12345?1/12345?1 layout=T01,T02", num_players=2)
        play(state, *(f"{builder} lay {v} c1 @{v}" for v in (1, 2, 3, 4, 5)))
        play(state, f"{1 - builder} release @9")
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert outcome.scores[0] == outcome.scores[1]
        results.append((piles(state), outcome.winners, outcome.scores))
    assert results[0] == results[1]


def test_the_clock_seat_is_the_engines_clock_constant() -> None:
    """BRM-R5 (the caller's clock): ticks are applied for seat CLOCK (-1)."""
    assert CLOCK == -1
    state = diving("1/2", "T01,T02", max_dive_ms=1000)
    GAME.apply(state, CLOCK, GAME.tick(1000))
    assert phase(state) == "prepare" and piles(state) == ([], ["T01", "T02"])
