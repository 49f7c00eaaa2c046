"""Timing windows with hand-set timestamps (HYH-R6): what is allowed just before a deadline, refused at it and after
it, and which special card may be played in which window."""

from __future__ import annotations

from .helpers import (
    GAME,
    T0,
    TURN,
    act,
    current,
    fields,
    first,
    held,
    kinds,
    legal,
    rejected,
    small,
    started,
    tick,
    won,
)

END = T0 + TURN


def test_a_theft_stamped_before_the_timer_ends_counts() -> None:
    """HYH-R21/HYH-R26: a THEFT one millisecond before the deadline claims the word; the timeout resolves it."""
    state = started(3, "held=-/T")
    act(state, 2, 'theft B "w001-orange"', END - 1)
    events = tick(state, END)
    assert kinds(events)[:2] == ["timeout", "won"] and won(state, 1) == ["W001"]


def test_a_theft_after_the_timer_ends_is_refused() -> None:
    """HYH-R21, HYH-I6: a THEFT stamped at the deadline or later finds the timer run out: refused, the card kept."""
    for t in (END, END + 1, END + 5000):
        state = started(3, "held=-/T")
        error = rejected(state, 2, 'theft B "w001-orange"', t)
        assert error.rule == "HYH-R21" and "timer" in error.reason
        assert held(state, 1) == "T"


def test_skip_foul_and_guesses_at_the_deadline_are_late() -> None:
    """HYH-R6, HYH-I6: the deadline fires before an input stamped exactly at it."""
    state = started(3, "held=S/-")
    assert rejected(state, 0, "skip", END).rule == "HYH-R22"
    assert rejected(state, 0, "foul", END).rule == "HYH-R23"
    assert rejected(state, 1, 'guess "w001-orange"', END).rule == "HYH-R20"
    assert rejected(state, 0, "got A", END).rule == "HYH-R20"


def test_extra_time_drawn_at_the_end_of_a_turn_cannot_be_used_in_that_turn() -> None:
    """HYH-R30, HYH-A10, HYH-I5: the EXTRA TIME a team draws at the end of its turn comes after the timeout
    decision: that turn is over, so it can only be played in a later turn of the team."""
    state = started(5, "specials=E discard=BBBEESSSTTTTRRRR")  # EXTRA TIME is the only card left to draw
    events = tick(state, END)
    assert "extra_time_offer" not in kinds(events)  # team A held no EXTRA TIME at the timeout
    assert first(events, "special_draw")["card"] == "EXTRA TIME" and held(state, 0) == "E"
    assert rejected(state, 0, "extra", END + 10).rule == "HYH-R30"  # its turn is over
    act(state, 2, "start", END + 100)
    tick(state, END + 100 + TURN)  # team B's turn
    act(state, 1, "start", END + 200 + TURN)  # team A's next turn: now it may use it
    tick(state, END + 200 + 2 * TURN)
    assert fields(state)["phase"] == "decision" and legal(state, 0) == ["extra", "end"]


def test_raid_is_not_allowed_during_extra_time() -> None:
    """HYH-R30, HYH-A9: while EXTRA TIME runs no RAID can be played."""
    state = started(5, "held=E/R")
    tick(state, END)
    act(state, 1, "extra", END + 1000)
    assert fields(state)["phase"] == "extra"
    assert rejected(state, 2, "raid B", END + 1100).rule == "HYH-R10"
    assert rejected(state, 2, "raid B").rule == "HYH-R10"


def test_the_clock_stops_during_the_extra_time_decision() -> None:
    """HYH-R30: TIMEOUT_DECISION has no deadline; EXTRA TIME's timer starts when it is played."""
    state = started(5, "held=E/-")
    tick(state, END)
    assert GAME.deadline(state) is None
    tick(state, END + 3_600_000)  # an hour of thinking
    act(state, 0, "extra", END + 3_600_000)
    assert GAME.deadline(state) == END + 3_600_000 + TURN
    assert rejected(state, 1, 'guess "w001-orange"', END + 3_600_001 + TURN).rule == "HYH-R20"


def test_the_claim_window_includes_its_last_millisecond() -> None:
    """HYH-R28.2: the window is [t1, t1 + W]: a claim at t1 + W joins, one at t1 + W + 1 finds it resolved."""
    state = started(5, "held=-/TT/T", num_players=6, teams=3)  # C's THEFT keeps the window open
    act(state, 1, 'guess "w001-orange"', 2000)
    act(state, 2, 'theft B "w001-orange"', 2300)
    assert fields(state)["claim"] == "A@2000,B@2300"
    events = act(state, 3, 'theft B "w002-orange"', 2301)
    assert kinds(events)[:2] == ["won", "word"]
    assert first(events, "won")["claimed_by"] == (0, 1)


def test_a_claim_is_resolved_at_the_turn_deadline_when_that_comes_first() -> None:
    """HYH-R28.2, HYH-R26: a claim whose window runs past the timer is resolved at the timeout, no next word."""
    state = started(5, "held=-/T")
    act(state, 1, 'guess "w001-orange"', END - 100)
    assert GAME.deadline(state) == END
    events = tick(state, END + 1000)
    assert kinds(events)[:3] == ["timeout", "won", "turn_end"] and current(state) == "-"


def test_one_tick_fires_every_deadline_it_passes_in_order() -> None:
    """HYH-R6: tick(t) lets every deadline up to t fire: here the claim's, then the timer's."""
    state = started(5, "held=-/T")
    act(state, 1, 'guess "w001-orange"', 5000)
    events = tick(state, END + 1)
    assert kinds(events)[:3] == ["won", "word", "timeout"]
    assert won(state, 0) == ["W001"] and fields(state)["aside"] == "-"
    assert fields(state)["deck"] == "W002,W005,W004,W003"


def test_binoculars_and_raids_only_while_the_clock_is_stopped_before_the_turn() -> None:
    """HYH-R11, HYH-R12, HYH-A8: both belong to PRE_TURN; once the timer starts they are refused."""
    state = small(5, "held=B/R")
    act(state, 2, "raid B", 10)
    act(state, 1, "binoculars", 20)
    act(state, 0, "order 2,1,3,4,5", 30)
    act(state, 0, "start", 40)
    assert rejected(state, 1, "binoculars", 50).rule == "HYH-R11"
    assert current(state) == "W002"
