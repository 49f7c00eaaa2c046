"""A timed bot's plan is applied once, even when it comes due while another action is under way (issue 14: a
fast-diver laid a 7 on its own 7 beside a person laying cards). The person's action, still writing to storage,
holds the table; the bot's timer fires and waits; the person's action re-arms the timer for the same plan, which
fires again. Applied by both, the plan would be played twice: in Bermuda a second copy of the card on the first, a
bad step (BRM-R21) no diver chose. The toy game of tests/server/buzzer.py counts presses instead."""

from __future__ import annotations

import time
from typing import Any

from divedeck.sim.clock import ManualClock

from .buzzer_tables import BUZZER, START, buzzer_registered  # noqa: F401 - the fixture
from .clocked import settle


def waiting_for_lock(table: Any) -> int:
    return sum(1 for waiter in (table.lock._waiters or ()) if not waiter.cancelled())


def test_a_plan_that_came_due_during_another_action_is_applied_once(make_app: Any) -> None:
    clock = ManualClock(START)
    app = make_app(clock=clock)
    table_id, tokens, _ = app.create(("human", "steady"), {"num_players": 2, "length_ms": 10_000}, game=BUZZER)
    person = app.connect(table_id, tokens[0])
    assert person.act("press")["type"] == "ack"  # the steady bot now plans a press 50 ms later
    table = app.live(table_id)
    portal = app.client.portal
    portal.call(table.lock.acquire)  # a person's action is being written to storage
    clock.advance(50)  # the bot's press comes due and waits for the table
    deadline = time.monotonic() + 5
    while not waiting_for_lock(table):
        assert time.monotonic() < deadline, "the bot's due press never reached the table"
        time.sleep(0.001)
    portal.call(table.schedule)  # the person's action ends by arming the timer for what is due: the same press
    time.sleep(0.05)  # time for that timer to fire (on the server's loop)
    portal.call(table.lock.release)
    settle(table, clock)
    assert table.match.state.presses == [1, 1], "the bot's one planned press was applied more than once"
    clock.advance(50)  # and the bot goes on at its pace
    settle(table, clock)
    assert table.match.state.presses == [1, 2]
