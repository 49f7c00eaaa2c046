"""The rulebook's five-column dive example, and players laying at the same moment (simultaneity)."""

from __future__ import annotations

from .helpers import GAME, column, diving, first, kinds, piles, play, rejected, result

# (seat, value, column) in the order the cards arrive; several players lay at once, on different columns.
EXAMPLE_LAYS = [
    (0, 1, 1), (2, 5, 2), (4, 8, 5), (1, 2, 4), (0, 9, 3),
    (0, 2, 1), (2, 4, 2), (4, 9, 5), (1, 3, 4), (0, 1, 3),
    (0, 3, 1), (2, 3, 2), (4, 8, 5), (3, 4, 4), (2, 2, 3),
    (0, 4, 1), (2, 2, 2), (4, 7, 5), (3, 5, 4), (2, 3, 3),
    (1, 5, 1), (2, 1, 2), (4, 6, 5), (3, 6, 4), (4, 2, 3),
    (1, 6, 1), (3, 3, 2), (4, 5, 5), (3, 7, 4), (4, 1, 3),
    (1, 7, 1), (3, 4, 2), (4, 5, 4),
    (1, 8, 1), (3, 5, 2),
]


def test_rulebook_dive_example_five_columns_three_lost_two_won() -> None:
    """Rulebook "Dive Example": five columns under five treasures. Column 1 needed 10 cards but has 8 (lost);
    column 2 has a 3 on a 1 and only 8 of 9 cards (lost, for both reasons); column 4 has the right count but a 5
    on a 7 (lost); columns 3 and 5 are right (won). Won treasures go to the players, the others under the
    Keeper's card."""
    hands = ["".join(str(v) for s, v, _ in EXAMPLE_LAYS if s == seat) + "?3" for seat in range(5)]
    # T26: depth 10, T21: 9, T05: 6, T09: 7, T06: 6 (BRM-C3)
    state = diving("/".join(hands), "T26,T21,T05,T09,T06")
    for t, (seat, value, col) in enumerate(EXAMPLE_LAYS):
        play(state, f"{seat} lay {value} c{col} @{1000 + 400 * t}")
    assert [column(state, k) for k in range(1, 6)] == [
        [1, 2, 3, 4, 5, 6, 7, 8], [5, 4, 3, 2, 1, 3, 4, 5], [9, 1, 2, 3, 2, 1], [2, 3, 4, 5, 6, 7, 5],
        [8, 9, 8, 7, 6, 5]]
    view = GAME.view(state, None)
    assert [c["status"] for c in view["columns"]] == ["building", "broken", "complete", "broken", "complete"]
    events = play(state, "2 release @16000")
    assert result(state) == [
        ("T26", False, ["too_short"]),
        ("T21", False, ["bad_step", "too_short"]),
        ("T05", True, []),
        ("T09", False, ["bad_step"]),
        ("T06", True, []),
    ]
    columns = GAME.view(state, None)["last_result"]["columns"]
    assert columns[1]["bad_steps"] == [6] and columns[3]["bad_steps"] == [7]
    assert piles(state) == (["T05", "T06"], ["T26", "T21", "T09"])
    end = first(events, "round_end")
    assert (end.won, end.protection) == (2, 3)
    text = GAME.format_event(events[1], None)
    assert "Chest of doubloons [5 4 3 2 1 3 4 5] lost: a bad step, too short" in text
    assert "Pearl necklace [9 1 2 3 2 1] won" in text


def test_two_lays_on_one_column_at_the_same_moment_are_taken_in_arrival_order_and_everyone_sees_it() -> None:
    """BRM-A13, BRM-R5: two players lay on the same column at the same timestamp; neither is stale or refused:
    the first supplied goes first, the second follows it, and every seat's view shows the same column."""
    state = diving("4/6/2", "T05,T06,T01", columns="345,-,-")
    events = play(state, "1 lay 6 c1 @5000", "0 lay 4 c1 @5000")
    assert kinds(events) == ["lay", "lay"]
    assert [e.length for e in events] == [4, 5]
    assert column(state, 1) == [3, 4, 5, 6, 4]
    views = [GAME.view(state, seat)["columns"] for seat in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    # The other order of arrival gives the other column: arrival order decides, not seat number.
    other = diving("4/6/2", "T05,T06,T01", columns="345,-,-")
    play(other, "0 lay 4 c1 @5000", "1 lay 6 c1 @5000")
    assert column(other, 1) == [3, 4, 5, 4, 6]


def test_lays_by_different_players_arriving_together_are_never_refused_for_being_late() -> None:
    """Simultaneity: lays of several players on different columns at one timestamp are all accepted in the order
    supplied, each judged in the state the previous one left (here all legal)."""
    state = diving("12/34/56", "T05,T06,T01")
    play(state, "2 lay 5 c3 @10", "0 lay 1 c1 @10", "1 lay 3 c2 @10", "2 lay 6 c3 @10", "0 lay 2 c1 @10")
    assert [column(state, k) for k in (1, 2, 3)] == [[1, 2], [3], [5, 6]]
    play(state, "1 release @10")
    assert rejected(state, "1 lay 4 c2 @10").rule == "BRM-R13"
