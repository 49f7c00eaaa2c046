"""Moving a server's manual clock from a test: step by step, letting the table apply what each step made due
before the next, as if time passed while the server kept up."""

from __future__ import annotations

import time
from typing import Any

from divedeck.sim.clock import ManualClock

SETTLE_TIMEOUT = 5.0


def settle(table: Any, clock: ManualClock) -> None:
    """Wait (for the server's thread, not for time) until nothing at ``table`` is due at the clock's time."""
    deadline = time.monotonic() + SETTLE_TIMEOUT
    while True:
        due = table.driver.due(table.match.state)
        if (due is None or due.t > clock.now() or table.finished) and not table.lock.locked():
            return
        assert time.monotonic() < deadline, f"the table did not apply {due} in time"
        time.sleep(0.001)


def run_clock(table: Any, clock: ManualClock, ms: int, step: int = 10) -> None:
    """Move ``clock`` on by ``ms`` in steps of ``step``, settling ``table`` after each."""
    for _ in range(ms // step):
        clock.advance(step)
        settle(table, clock)
