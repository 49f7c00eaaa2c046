"""Bermuda's rules, BRM-R1..R30: positions written in the state notation, a few timestamped moves, and what the
rules say must follow."""

from __future__ import annotations

from collections import Counter

import pytest

from divedeck.engine import ConfigError, MalformedInput, Match, SeededRng
from divedeck.games.bermuda.cards import DIVER_DECK
from divedeck.games.bermuda.events import CountdownStarted, Released, Signalled

from .helpers import (
    GAME,
    column,
    config,
    diving,
    everyone_holds,
    fields,
    first,
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

# -- BRM-R1: players ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_BRM_R1_one_to_five_players_each_get_twelve_cards_and_one_treasure_each(players: int) -> None:
    """BRM-R1: 1-5 players (option num_players), 12 Diver cards each from the 63; one treasure per player (one
    player: solo, one treasure per round)."""
    state = GAME.new(config(num_players=players), 3)
    view = GAME.view(state, 0)
    assert view["players"] == players
    assert view["hand_sizes"] == [12] * players
    assert len(view["columns"]) == players
    assert len(fields(state)["aside"]) == 63 - 12 * players
    assert GAME.actors(state) == frozenset(range(players))


@pytest.mark.parametrize("players", [-1, 0, 6, 12])
def test_BRM_R1_other_player_counts_are_config_errors(players: int) -> None:
    """BRM-R1: 63 cards deal twelve to at most five players; none is not a game."""
    with pytest.raises(ConfigError, match="num_players must be from 1 to 5"):
        config(num_players=players)


# -- BRM-R2, BRM-R3: setup ---------------------------------------------------------------------------------------


def test_BRM_R2_the_treasure_deck_is_shuffled_once_from_the_seed_and_the_piles_start_empty() -> None:
    """BRM-R2: the 28 treasures are shuffled (with the game's seeded RNG) into the deck; both piles are empty; the
    game is at round 1 of option rounds (default 5)."""
    seed = 99
    state = GAME.new(config(num_players=3), seed)
    order = list(range(28))
    SeededRng(seed).shuffle(order)
    ids = [f"T{i + 1:02d}" for i in order]
    f = fields(state)
    assert f["layout"].split(",") == ids[-1:-4:-1]  # the top three, the top card in column 1
    assert f["deck"].split(",") == ids[:-3]
    assert piles(state) == ([], [])
    view = GAME.view(state, None)
    assert (view["round"], view["rounds"]) == (1, 5)
    assert GAME.view(GAME.new(config(rounds=3), seed), None)["rounds"] == 3


def test_BRM_R3_deals_twelve_to_each_from_all_63_shuffled_in_deal_order_and_sets_the_rest_aside() -> None:
    """BRM-R3: after the treasures are revealed, all 63 Diver cards are shuffled and twelve dealt to each player
    (one at a time, from seat 0); hands keep the deal order; the other cards are set aside for the round."""
    seed = 2024
    state = GAME.new(config(num_players=4), seed)
    cards = list(DIVER_DECK)
    SeededRng(seed, 1).shuffle(cards)  # the second shuffle of the game: the first was the treasure deck's
    expected: list[list[int]] = [[], [], [], []]
    for i in range(48):
        expected[i % 4].append(cards.pop())
    assert [hand(state, seat) for seat in range(4)] == expected
    assert sorted(int(c) for c in fields(state)["aside"]) == sorted(cards)
    assert any(h != sorted(h) for h in expected)  # not sorted (BRM-A11)


def test_BRM_R3_each_hand_is_seen_by_its_owner_only() -> None:
    """BRM-R3.3: a hand is visible only to its owner, before and during the dive."""
    state = GAME.new(config(num_players=3), 5)
    assert "hand" not in GAME.view(state, None)
    assert GAME.view(state, 1)["hand"] == hand(state, 1)
    masked = fields(state, 0, masked=True)["hands"].split("/")
    assert masked[1:] == ["?12", "?12"] and masked[0].isdigit()
    everyone_holds(state)
    play(state, "clock tick @3000")
    assert phase(state) == "dive"
    assert fields(state, 2, masked=True)["hands"].split("/")[:2] == ["?12", "?12"]


def test_BRM_R3_every_round_reveals_new_treasures_and_deals_all_63_again() -> None:
    """BRM-R3 (BRM-A8): a new round reveals the next treasures and deals twelve each from all 63 cards again."""
    state = diving("123/45", "T05,T21", columns="67,8")
    deck_before = fields(state)["deck"].split(",")
    play(state, "1 release @100")
    f = fields(state)
    assert f["layout"].split(",") == deck_before[-1:-3:-1]
    assert GAME.view(state, None)["hand_sizes"] == [12, 12]
    assert f["columns"] == "-,-"
    assert Counter(int(c) for c in f["hands"].replace("/", "") + f["aside"]) == Counter(DIVER_DECK)


# -- BRM-R5: time ------------------------------------------------------------------------------------------------


def test_BRM_R5_an_input_earlier_than_the_last_one_is_rejected_and_equal_times_are_accepted() -> None:
    """BRM-R5: timestamps are supplied by the caller and must not decrease; an equal timestamp is fine."""
    state = GAME.new(config(num_players=3), 1)
    play(state, "0 hold @500")
    assert rejected(state, "1 hold @499").rule == "BRM-R5"
    play(state, "1 hold @500", "2 hold @500")
    assert GAME.view(state, None)["holding"] == [True, True, True]


def test_BRM_R5_the_engine_never_reads_a_clock_the_same_inputs_give_the_same_game() -> None:
    """BRM-R5, BRM-I9: everything about time comes from the inputs; replaying them gives the same states."""
    moves = ["0 hold @10", "1 hold @20", "clock tick @3020", "0 lay 5 c1 @4000", "1 release @9000"]
    a, b = GAME.new(config(num_players=2), 8), GAME.new(config(num_players=2), 8)
    hand0 = hand(a, 0)
    moves[3] = f"0 lay {hand0[0]} c1 @4000"
    play(a, *moves)
    play(b, *moves)
    assert GAME.state_notation(a) == GAME.state_notation(b)


def test_BRM_R5_the_next_deadline_is_exposed_and_a_tick_at_it_lets_it_pass() -> None:
    """BRM-R5: the engine exposes its next deadline (here max_dive_ms); the caller's tick at or after it fires
    it, at the deadline's time; a tick before it does nothing else than move the clock."""
    state = diving("12/34", "T05,T21", max_dive_ms=10_000)
    assert GAME.deadline(state) == 10_000
    assert play(state, "clock tick @9999") == []
    assert phase(state) == "dive" and fields(state)["now"] == "9999"
    events = play(state, "clock tick @12000")
    assert kinds(events)[:2] == ["time_up", "round_end"]
    assert first(events, "round_end").t == 10_000
    assert fields(state)["end"] == "time@10000"
    assert fields(state)["now"] == "12000"


def test_BRM_R5_a_deadline_fires_before_an_input_stamped_at_or_after_it() -> None:
    """BRM-R5: an input stamped at or after a deadline that has not been ticked yet first lets the deadline fire;
    if the input is then illegal, it is rejected and nothing changes (not even the deadline)."""
    state = diving("12/34", "T05,T21", max_dive_ms=10_000)
    before = GAME.state_notation(state)
    assert rejected(state, "0 lay 1 c1 @10000").rule == "BRM-R13"
    assert GAME.state_notation(state) == before
    events = play(state, "0 hold @10500")
    assert kinds(events) == ["time_up", "round_end", "round_start", "hold"]
    assert first(events, "round_end").t == 10_000
    play(state, "0 release @10600")  # the input just before the deadline is still in the dive:
    state = diving("12/34", "T05,T21", max_dive_ms=10_000)
    play(state, "0 lay 1 c1 @9999")
    assert column(state, 1) == [1]


def test_BRM_R5_only_the_callers_clock_ticks_and_the_clock_does_nothing_else() -> None:
    """BRM-R5: tick is the clock's action (seat CLOCK); players cannot tick and the clock cannot play."""
    state = diving("12/34", "T05,T21")
    assert rejected(state, "0 tick @5").rule == "BRM-R5"
    assert rejected(state, "clock lay 1 c1 @5").rule == "BRM-R5"
    assert "tick" not in " ".join(legal(state, 0))


def test_BRM_R5_an_action_without_a_time_happens_at_the_last_inputs_time() -> None:
    """BRM-R5: actions are listed without a time for the caller to stamp; one applied unstamped cannot move the
    clock and happens at the time of the last input."""
    state = diving("12/34", "T05,T21", now=700)
    assert "lay 1 c1" in legal(state, 0)
    events = play(state, "0 lay 1 c1")
    assert first(events, "lay").t == 700
    assert fields(state)["now"] == "700"


def test_BRM_R5_time_is_part_of_the_notation_and_a_saved_log_replays_exactly() -> None:
    """BRM-R5, BRM-I9: the action notation carries the time; a saved match replays to the same state."""
    match = Match.start("bermuda", {"num_players": 2, "countdown_ms": 1000}, 17)
    for seat in (0, 1):
        match.act(seat, f"hold @{100 * seat}")
    match.act(-1, "tick @1100")
    match.act(0, f"lay {hand(match.state, 0)[0]} c2 @2500")
    match.act(1, "release @4000")
    record = match.to_record()
    assert record["actions"][2] == [-1, "tick @1100"]
    assert record["actions"][3][1].endswith(" c2 @2500")
    assert GAME.state_notation(Match.from_record(record).state) == GAME.state_notation(match.state)


# -- BRM-R10, BRM-R11: preparing and starting the dive -----------------------------------------------------------


def test_BRM_R10_nobody_holds_on_entering_prepare_and_release_only_cancels_a_hold() -> None:
    """BRM-R10: in PREPARE nobody holds at first; hold signals a held breath, release before the dive only cancels
    that player's hold; no card may be laid."""
    state = GAME.new(config(num_players=3), 4)
    assert GAME.view(state, None)["holding"] == [False, False, False]
    assert legal(state, 0) == ["hold"]
    assert rejected(state, "0 release @1").rule == "BRM-R10"
    play(state, "0 hold @10", "1 hold @20")
    assert legal(state, 0) == ["release"]
    assert rejected(state, "0 hold @30").rule == "BRM-R10"
    events = play(state, "0 release @40")
    assert first(events, "release") == Released(seat=0, t=40, cancelled=False)
    assert GAME.view(state, None)["holding"] == [False, True, False]
    assert phase(state) == "prepare"
    assert rejected(state, f"1 lay {hand(state, 1)[0]} c1 @50").rule == "BRM-A16"


def test_BRM_R10_after_a_dive_the_next_round_starts_with_nobody_holding() -> None:
    """BRM-R10: entering PREPARE again (the next round), no player is holding."""
    state = diving("12/34", "T05,T21")
    play(state, "0 release @100")
    assert phase(state) == "prepare"
    assert GAME.view(state, None)["holding"] == [False, False]


def test_BRM_R11_the_dive_starts_after_the_countdown_once_everyone_holds() -> None:
    """BRM-R11: when every player holds, the count of three runs (option countdown_ms, default 3000, a deadline);
    when it passes, the dive starts with t0 = the countdown's end."""
    state = GAME.new(config(num_players=2), 6)
    play(state, "0 hold @100")
    assert GAME.deadline(state) is None
    events = play(state, "1 hold @250")
    assert first(events, "countdown") == CountdownStarted(t=250, until=3250)
    assert GAME.deadline(state) == 3250
    assert GAME.view(state, 0)["dive_at"] == 3250
    events = play(state, "clock tick @3300")
    assert first(events, "dive_start").t == 3250
    view = GAME.view(state, 0)
    assert (view["phase"], view["t0"], view["dive_at"]) == ("dive", 3250, None)
    assert any(action.startswith("lay ") for action in legal(state, 0))


def test_BRM_R11_a_release_during_the_countdown_cancels_it() -> None:
    """BRM-R11, BRM-R10: the dive starts only while every player holds; breathing out during the count stops it."""
    state = GAME.new(config(num_players=2), 6)
    everyone_holds(state, 100)
    events = play(state, "1 release @2000")
    assert first(events, "release").cancelled is True
    assert GAME.deadline(state) is None
    play(state, "clock tick @5000", "1 hold @6000")
    assert phase(state) == "prepare" and GAME.deadline(state) == 9000


def test_BRM_R11_with_no_countdown_the_dive_starts_with_the_last_hold() -> None:
    """BRM-R11: countdown_ms=0 (the caller counted already) starts the dive at the last player's hold."""
    state = GAME.new(config(num_players=2, countdown_ms=0), 6)
    events = everyone_holds(state, 400)
    assert kinds(events) == ["hold", "hold", "dive_start"]
    assert GAME.view(state, None)["t0"] == 400


# -- BRM-R12: laying cards ---------------------------------------------------------------------------------------


def test_BRM_R12_any_player_lays_any_card_under_any_treasure_and_it_stays_there() -> None:
    """BRM-R12: a card of the player's hand leaves it and is appended to the chosen column; anyone may lay on any
    column, in any order."""
    state = diving("5423/6733", "T05,T21")
    play(state, "1 lay 7 c2 @10", "0 lay 4 c2 @20", "0 lay 5 c1 @30", "1 lay 3 c2 @40")
    assert column(state, 1) == [5]
    assert column(state, 2) == [7, 4, 3]
    assert hand(state, 0) == [2, 3]
    assert hand(state, 1) == [6, 3]


def test_BRM_R12_copies_of_a_value_are_interchangeable_the_first_in_hand_goes() -> None:
    """BRM-R12: 'lay 3' lays a 3 of the hand (copies are interchangeable): the first one in hand order."""
    state = diving("3534/12", "T05,T21")
    play(state, "0 lay 3 c1 @1")
    assert hand(state, 0) == [5, 3, 4]


def test_BRM_R12_a_card_not_in_hand_or_a_column_that_does_not_exist_is_refused() -> None:
    """BRM-R12: the card must be in the player's hand and the column must exist."""
    state = diving("54/67", "T05,T21")
    assert rejected(state, "0 lay 6 c1 @1").rule == "BRM-R12"
    assert rejected(state, "0 lay 5 c3 @1").rule == "BRM-R12"
    with pytest.raises(MalformedInput):
        GAME.parse_action("lay 0 c1")


def test_BRM_R12_lenient_placement_accepts_every_lay_and_judges_only_at_resolution() -> None:
    """BRM-R12 lenient (the default, as on paper): a card that breaks its column is accepted; the column fails
    when the dive is resolved."""
    state = diving("58/21", "T05,T21")
    assert "lay 8 c1" in legal(state, 0)
    play(state, "0 lay 5 c1 @1", "0 lay 8 c1 @2")
    assert column(state, 1) == [5, 8]
    assert GAME.view(state, None)["columns"][0]["status"] == "broken"


# -- BRM-R13: the end of the dive --------------------------------------------------------------------------------


def test_BRM_R13_a_release_ends_the_dive_for_everyone_at_that_instant() -> None:
    """BRM-R13.1: any player's release ends the dive at its time; a lay processed after it is rejected."""
    state = diving("12/34", "T05,T21")
    events = play(state, "0 lay 1 c1 @500", "1 release @800")
    end = first(events, "round_end")
    assert (end.reason, end.seat, end.t) == ("release", 1, 800)
    assert rejected(state, "0 lay 2 c1 @800").rule == "BRM-R13"
    assert result(state)[0][0] == "T05"


def test_BRM_R13_the_time_limit_ends_the_dive() -> None:
    """BRM-R13.2: with option max_dive_ms the dive ends at t0 + max_dive_ms, even if nobody breathes."""
    state = GAME.new(config(num_players=2, max_dive_ms=30_000, countdown_ms=0), 3)
    everyone_holds(state, 1000)
    assert GAME.deadline(state) == 31_000
    events = play(state, "clock tick @31000")
    assert first(events, "round_end").reason == "time"
    assert first(events, "round_end").t == 31_000


def test_BRM_R13_the_lay_that_empties_the_last_hand_ends_the_dive() -> None:
    """BRM-R13.3: the lay that empties the last card from all hands ends the dive (auto_end_on_empty_hands)."""
    state = diving("1/2", "T05,T21")
    play(state, "0 lay 1 c1 @10")
    assert phase(state) == "dive"
    events = play(state, "1 lay 2 c1 @20")
    end = first(events, "round_end")
    assert (end.reason, end.t) == ("empty", 20)


# -- BRM-R14, BRM-R15: gestures and flavour ----------------------------------------------------------------------


def test_BRM_R14_a_gesture_points_at_a_column_and_changes_nothing_else() -> None:
    """BRM-R14: signal is a non-verbal gesture with no rules effect; it exists only during the dive, and there is
    no action for talking."""
    state = diving("12/34", "T05,T21")
    before = fields(state)
    events = play(state, "1 signal c2 @50")
    assert first(events, "signal") == Signalled(seat=1, column=2, treasure="Chest of doubloons", t=50)
    after = fields(state)
    assert {k for k in before if before[k] != after[k]} == {"signals", "now"}
    assert GAME.view(state, 0)["signals"] == [None, 2]
    assert rejected(state, "0 signal c3 @60").rule == "BRM-R14"
    prepare = GAME.new(config(num_players=2), 1)
    assert rejected(prepare, "0 signal c1 @1").rule == "BRM-R14"
    for text in ("say go left", "talk", "chat hello"):
        with pytest.raises(MalformedInput):
            GAME.parse_action(text)


def test_BRM_R15_who_breathed_has_no_mechanical_effect() -> None:
    """BRM-R15: "whoever has just inhaled falls into Kusalochka's embrace" is flavour: the same dive ended by
    another player at the same moment leads to the same piles, round and hands."""
    ends = []
    for seat in (0, 1):
        state = diving("12/34", "T05,T21", columns="56789,-")
        play(state, f"{seat} release @900")
        f = fields(state)
        ends.append({k: v for k, v in f.items() if k != "end"})
        assert f["end"] == f"release.{seat}@900"
    assert ends[0] == ends[1]


# -- BRM-R20, BRM-R21: adjacency and winning a column ------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "adjacent"), [
    (3, 2, True), (3, 4, True), (1, 2, True), (1, 9, True), (9, 1, True), (9, 8, True),
    (3, 3, False), (3, 5, False), (1, 8, False), (9, 2, False), (5, 7, False), (2, 9, False),
])
def test_BRM_R20_values_are_adjacent_when_one_apart_on_the_cycle_1_to_9(a: int, b: int, adjacent: bool) -> None:
    """BRM-R20: adjacent(a, b) iff |a - b| = 1 or {a, b} = {1, 9}."""
    state = diving(f"{a}{b}/5", "T01,T02", columns=f"{a},-")
    accepts = GAME.view(state, None)["columns"][0]["accepts"]
    assert (b in accepts) is adjacent
    play(state, f"0 lay {b} c1 @1")  # the lenient check lays anything
    assert (GAME.view(state, None)["columns"][0]["status"] == "building") is adjacent


@pytest.mark.parametrize(("cards", "won", "reasons"), [
    ("345654", True, []),  # exactly 6, every step adjacent
    ("343434", True, []),  # a value may recur non-consecutively
    ("891234", True, []),  # 9-1 wraps
    ("98765", False, ["too_short"]),
    ("3456543", False, ["too_long"]),
    ("", False, ["empty"]),
    ("345546", False, ["bad_step"]),  # an equal card is not a step
    ("34575", False, ["bad_step", "too_short"]),
])
def test_BRM_R21_a_column_wins_with_exactly_its_depth_and_every_step_adjacent(cards: str, won: bool,
                                                                            reasons: list[str]) -> None:
    """BRM-R21: exactly `depth` cards (T05: 6) and each card after the first adjacent to the one above; the first
    card may be anything; too few, too many, empty or any non-adjacent step fails."""
    state = diving("1/2", "T05,T01", columns=f"{cards or '-'},-")
    play(state, "0 release @1")
    assert result(state)[0] == ("T05", won, reasons)


# -- BRM-R22: after the dive -------------------------------------------------------------------------------------


def test_BRM_R22_won_treasures_go_to_the_team_failed_ones_to_the_keeper_and_the_next_round_starts() -> None:
    """BRM-R22: won treasures go to the players' shared won pile, failed ones to the Keeper's pile; every Diver
    card returns to the deck; the round counter goes up."""
    state = diving("1/2", "T01,T21", columns="12345,12345")
    play(state, "1 release @10")
    assert piles(state) == (["T01"], ["T21"])
    view = GAME.view(state, None)
    assert view["round"] == 2 and view["phase"] == "prepare"
    assert view["treasures_won"] == 1 and view["protection"] == 1
    assert GAME.card_count(state) == 63 + 28


def test_BRM_R22_after_the_last_round_the_game_is_over() -> None:
    """BRM-R22: when the round counter passes option rounds, the game is over and nobody acts any more."""
    state = position("round=5 phase=dive t0=0 hands=1/2 layout=T01,T02 won=T03 keeper=T04", num_players=2)
    play(state, "0 release @5")
    assert phase(state) == "over"
    assert GAME.actors(state) == frozenset()
    assert rejected(state, "0 hold @6").rule == "BRM-R30"


# -- BRM-R30: scoring --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("won", "keeper", "players_win"), [
    ("T01,T02,T05", "T14,T09", False),  # W 3 < P 2 + 1, + 1 + 1 for this round's T21 and T26 = 5
    ("T01,T02,T05,T06,T07", "T14,T09", True),  # W 5 = P 5: a tie goes to the players
    ("T01", "T03,T04,T13", False),  # W 1 < P 1 + 0 + 1 + 2 = 4
    ("T01,T02,T05,T06,T07", "T28", True),  # W 5 > P 2 + 2 = 4
])
def test_BRM_R30_the_players_win_iff_their_treasures_reach_the_keepers_protection_points(
        won: str, keeper: str, players_win: bool) -> None:
    """BRM-R30: W = treasures won, P = protection points in the Keeper's pile (won treasures' points do not
    count); W >= P: the players win, else the Keeper; W, P and the verdict are reported."""
    state = position(f"round=5 phase=dive t0=0 hands=1/2 layout=T21,T26 columns=1,- won={won} keeper={keeper}",
                     num_players=2)
    play(state, "0 release @5")
    outcome = GAME.outcome(state)
    assert outcome is not None
    table = {t.id: t for t in GAME.make_config({}).table.treasures}
    w = len(won.split(","))
    p = sum(table[t].protection for t in keeper.split(",") + ["T21", "T26"])
    assert (outcome.details["treasures"], outcome.details["protection"]) == (w, p)
    assert outcome.winners == ((0, 1) if players_win else ())
    assert outcome.details["verdict"] == ("players" if players_win else "keeper")
    assert outcome.termination.rule == "BRM-R30"
    assert outcome.scores == (float(w), float(w))
