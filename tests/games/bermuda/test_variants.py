"""Bermuda's variants BRM-V1..V4: experienced divers, sorting, the single-breath challenge, the strict check."""

from __future__ import annotations

import pytest

from divedeck.engine import ConfigError
from divedeck.games.bermuda.events import GameOver

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

ALL = [f"T{i:02d}" for i in range(1, 29)]

# -- BRM-V1: experienced divers ---------------------------------------------------------------------------------


def test_BRM_V1_hidden_treasures_are_face_down_until_the_dive_starts() -> None:
    """BRM-V1 (BRM-A20): with hidden_treasures the treasures lie face down in PREPARE (nobody sees which, not even
    their depth) and are turned over when the dive starts."""
    state = GAME.new(config(num_players=2, hidden_treasures=True), 12)
    layout = fields(state)["layout"]
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert [c["treasure"] for c in view["columns"]] == [None, None]
        assert [c["status"] for c in view["columns"]] == ["hidden", "hidden"]
        assert fields(state, seat, masked=True)["layout"] == "?,?"
    assert first(GAME.new_with_events(config(num_players=2, hidden_treasures=True), 12)[1],
                 "round_start").treasures is None
    everyone_holds(state, 0)
    events = play(state, "clock tick @3000")
    start = first(events, "dive_start")
    assert start.revealed is True and ",".join(start.treasures) == layout
    assert [c["treasure"]["id"] for c in GAME.view(state, 0)["columns"]] == layout.split(",")


def test_BRM_V1_experienced_divers_never_sort() -> None:
    """BRM-V1: with hidden_treasures, sorting is forced to never: asking for both is a config error, and the
    hand cannot be sorted."""
    with pytest.raises(ConfigError, match="BRM-V1"):
        config(hidden_treasures=True, sorting="every_round")
    state = GAME.new(config(num_players=2, hidden_treasures=True), 12)
    assert "sort" not in legal(state, 0)
    assert rejected(state, "0 sort @1").rule == "BRM-V1"


# -- BRM-V2: sorting for beginners -------------------------------------------------------------------------------


def test_BRM_V2_first_round_sorting_is_allowed_before_the_first_dive_only() -> None:
    """BRM-V2 (BRM-R3.4): sorting=first_round allows 'sort' in round 1's PREPARE: the hand is sorted low to high,
    privately; not during the dive, not in later rounds."""
    state = GAME.new(config(num_players=2, sorting="first_round"), 3)
    original = hand(state, 0)
    assert "sort" in legal(state, 0)
    events = play(state, "0 sort @5")
    assert hand(state, 0) == sorted(original)
    assert events[0].for_seat(0)["hand"] == sorted(original)
    assert "hand" not in events[0].for_seat(1)
    assert "sort" not in legal(state, 0)
    assert rejected(state, "0 sort @6").rule == "BRM-R3"
    everyone_holds(state, 10)
    play(state, "clock tick @3010")
    assert rejected(state, "1 sort @3011").rule == "BRM-R3"
    play(state, "1 release @3100")
    assert GAME.view(state, None)["round"] == 2
    assert rejected(state, "0 sort @3200").rule == "BRM-A11"


def test_BRM_V2_every_round_sorting_is_allowed_before_each_dive() -> None:
    """BRM-V2: sorting=every_round allows sorting in every round's PREPARE."""
    state = diving("1/2", "T01,T02", sorting="every_round")
    play(state, "0 release @1")
    assert GAME.view(state, None)["round"] == 2
    assert GAME.view(state, 0)["sorting_allowed"] is True
    play(state, "1 sort @2")
    assert hand(state, 1) == sorted(hand(state, 1))


# -- BRM-V3: the single-breath challenge -------------------------------------------------------------------------


def chained(hands: str, layout: str, deck: str = "?", **kw: str) -> object:
    extra = " ".join(f"{k}={v}" for k, v in kw.items())
    return position(f"phase=dive t0=0 hands={hands} layout={layout} deck={deck} {extra}",
                    single_breath_challenge=True)


def test_BRM_V3_chained_one_breath_spans_layouts_and_a_full_layout_is_dealt_anew_at_once() -> None:
    """BRM-V3 chained: a layout closes when every column holds at least its depth; it is resolved (a successful
    dive iff every column wins) and the next layout (n new treasures, a new deal of twelve each) starts at the
    same moment, on the same breath."""
    state = chained("123456/98765", "T01,T02")  # T01 and T02: depth 5 each
    play(state, *(f"0 lay {v} c1 @{10 * v}" for v in (1, 2, 3, 4, 5)))
    assert phase(state) == "dive"
    events = play(state, "1 lay 9 c2 @100", "1 lay 8 c2 @110", "1 lay 7 c2 @120", "1 lay 6 c2 @130")
    assert "layout_end" not in kinds(events)
    events = play(state, "1 lay 5 c2 @140")
    end = first(events, "layout_end")
    assert (end.reason, end.dive, end.dives, end.found) == ("full", True, 1, 2)
    start = first(events, "layout_start")
    assert start.t == 140 and start.treasures == ("T28", "T27")
    view = GAME.view(state, 0)
    assert (view["phase"], view["t0"], view["dives"], view["layouts"]) == ("dive", 0, 1, 1)
    assert view["hand_sizes"] == [12, 12]
    assert [c["cards"] for c in view["columns"]] == [[], []]
    assert piles(state) == (["T01", "T02"], [])


def test_BRM_V3_chained_a_layout_with_a_lost_column_is_no_successful_dive() -> None:
    """BRM-V3 chained: a closed layout with a failed column counts its won treasures but is not a successful dive;
    the failed treasure goes to the lost pile (there is no Keeper)."""
    state = chained("1234556/98765", "T01,T02")
    play(state, *(f"0 lay {v} c1 @{v}" for v in (1, 2, 3, 5, 5, 6)))  # 3-5 and 5-5: bad steps, 6 cards
    events = play(state, *(f"1 lay {v} c2 @{20 + i}" for i, v in enumerate((9, 8, 7, 6, 5))))
    end = first(events, "layout_end")
    assert (end.dive, end.dives, end.found) == (False, 0, 1)
    assert piles(state) == (["T02"], ["T01"])
    assert GAME.view(state, None)["protection"] == 0


def test_BRM_V3_chained_empty_hands_close_the_layout_instead_of_ending_the_dive() -> None:
    """BRM-V3 chained: BRM-R13.3 does not apply; when every hand is empty the layout closes and the next is
    dealt."""
    state = chained("1/2", "T01,T02")
    events = play(state, "0 lay 1 c1 @1", "1 lay 2 c1 @2")
    assert first(events, "layout_end").reason == "empty"
    assert phase(state) == "dive" and GAME.view(state, None)["hand_sizes"] == [12, 12]


def test_BRM_V3_chained_the_first_release_ends_the_challenge_counting_the_open_layouts_winners() -> None:
    """BRM-V3 chained: the first release ends the challenge; the open layout's winning columns count as
    treasures, but it is not a successful dive. The result is dives, then treasures; nobody wins or loses."""
    state = chained("12345/6", "T01,T02", dives="2", found="5", layouts="3")
    play(state, *(f"0 lay {v} c1 @{v}" for v in (1, 2, 3, 4, 5)))
    events = play(state, "1 release @50")
    end = first(events, "layout_end")
    assert (end.reason, end.dive, end.dives, end.found) == ("release", False, 2, 6)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == () and outcome.termination.rule == "BRM-V3"
    assert (outcome.details["dives"], outcome.details["treasures"]) == (2, 6)
    assert first(events, "game_over") == GameOver(termination="breath_over", challenge="chained", dives=2,
                                                  treasures=6, layouts=4)


def test_BRM_V3_chained_the_time_limit_ends_the_challenge() -> None:
    """BRM-V3 chained: the max_dive_ms deadline (from the start of the breath) ends the challenge too."""
    state = position("phase=dive t0=0 hands=1/2 layout=T01,T02", single_breath_challenge=True, max_dive_ms=45_000)
    assert GAME.deadline(state) == 45_000
    events = play(state, "clock tick @45000")
    assert first(events, "layout_end").reason == "time"
    assert phase(state) == "over"


def test_BRM_V3_chained_a_short_deck_is_refilled_from_the_won_and_lost_piles() -> None:
    """BRM-V3 chained: if fewer than n treasures remain for a new layout, the won and lost piles are shuffled back
    into the treasure deck with the remaining cards first."""
    rest = [t for t in ALL if t not in ("T01", "T02", "T03")]
    state = chained("1/2", "T01,T02", deck="T03", won=",".join(rest[:12]), keeper=",".join(rest[12:]))
    play(state, "0 lay 1 c1 @1", "1 lay 2 c2 @2")
    f = fields(state)
    assert f["won"] == f["keeper"] == "-"
    assert len(f["layout"].split(",")) == 2 and len(f["deck"].split(",")) == 26
    assert GAME.card_count(state) == 63 + 28


def test_BRM_V3_one_round_mode_is_a_single_round_without_the_keeper() -> None:
    """BRM-V3 one_round: one normal round without the Keeper; the result is the treasures won."""
    state = GAME.new(config(num_players=2, single_breath_challenge=True, single_breath_mode="one_round",
                            countdown_ms=0), 5)
    everyone_holds(state, 0)
    play(state, "0 release @9000")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ()
    assert outcome.details == {"challenge": "one_round", "treasures": 0, "rounds": 1}
    assert GAME.view(state, None)["protection"] == 0


def test_BRM_V3_one_round_counts_each_won_treasure() -> None:
    """BRM-V3 one_round: every winning column of the round counts."""
    state = position("phase=dive t0=0 hands=6/7 layout=T01,T02 columns=12345,23456",
                     single_breath_challenge=True, single_breath_mode="one_round")
    play(state, "0 release @5")
    assert result(state) == [("T01", True, []), ("T02", True, [])]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.details["treasures"] == 2 and outcome.scores == (2.0, 2.0)


# -- BRM-V4: the strict placement check --------------------------------------------------------------------------


def test_BRM_V4_strict_placement_refuses_a_card_that_breaks_its_column_or_overfills_it() -> None:
    """BRM-V4 (BRM-R12 strict): a lay is refused unless the column is empty or the card is adjacent to its last
    card, and the column is shorter than its depth; only fitting lays are offered."""
    state = diving("35976/4", "T01,T02", columns="1234,-", placement_check="strict")
    assert [a for a in legal(state, 0) if a.startswith("lay")] == [
        "lay 3 c1", "lay 3 c2", "lay 5 c1", "lay 5 c2", "lay 6 c2", "lay 7 c2", "lay 9 c2"]
    error = rejected(state, "0 lay 9 c1 @1")
    assert error.rule == "BRM-R12" and "does not follow" in error.reason
    play(state, "0 lay 5 c1 @2")
    assert column(state, 1) == [1, 2, 3, 4, 5]
    error = rejected(state, "0 lay 6 c1 @3")
    assert error.rule == "BRM-R12" and "already holds" in error.reason


def test_BRM_V4_strict_placement_is_judged_at_processing_time() -> None:
    """BRM-V4, BRM-A13: two players aim at the same column at once; the second lay is judged against the column
    as the first left it, so with strict placement it can be refused."""
    state = diving("5/5", "T01,T02", columns="1234,-", placement_check="strict")
    play(state, "0 lay 5 c1 @100")
    assert rejected(state, "1 lay 5 c1 @100").rule == "BRM-R12"
