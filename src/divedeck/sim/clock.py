"""Clocks for real-time play, in integer milliseconds: the wall clock a server or a terminal runs on, and a manual
clock that a simulation or a test moves by hand.

A clock says what time it is and calls back at a time (``call_at``); callers that wait (the server's timers, its
grace periods, its rate limiter) take a clock, so a test advances time instead of sleeping.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> int:
        """The time in milliseconds, never decreasing."""
        ...

    def call_at(self, t: int, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` on the running event loop once the time is ``t`` (soon, if it already is)."""
        ...


class WallClock:
    """Wall-clock milliseconds (so a server's timestamps survive a restart), never going back."""

    def __init__(self) -> None:
        self.last = 0

    def now(self) -> int:
        self.last = max(self.last, int(time.time() * 1000))
        return self.last

    def call_at(self, t: int, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0, t - self.now()) / 1000, callback)


class _ManualTimer:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """Time that moves only when told (``advance``, ``set``). Callbacks run on the event loop that asked for them,
    so a test thread may move the clock of a server running in another thread."""

    def __init__(self, start: int = 0) -> None:
        self.time = start
        self._lock = threading.Lock()
        self._order = itertools.count()
        self._timers: list[tuple[int, int, _ManualTimer, asyncio.AbstractEventLoop, Callable[[], None]]] = []

    def now(self) -> int:
        return self.time

    def call_at(self, t: int, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer()
        loop = asyncio.get_running_loop()
        with self._lock:
            if t <= self.time:
                loop.call_soon(self._run, timer, callback)
            else:
                heapq.heappush(self._timers, (t, next(self._order), timer, loop, callback))
        return timer

    def advance(self, ms: int) -> None:
        self.set(self.time + ms)

    def set(self, t: int) -> None:
        """Move to ``t`` (never back), running every callback due by then in the order of their times."""
        with self._lock:
            self.time = max(self.time, t)
            due = []
            while self._timers and self._timers[0][0] <= self.time:
                due.append(heapq.heappop(self._timers))
        for _, _, timer, loop, callback in due:
            loop.call_soon_threadsafe(self._run, timer, callback)

    @staticmethod
    def _run(timer: _ManualTimer, callback: Callable[[], None]) -> None:
        if not timer.cancelled:
            callback()


async def sleep_until(clock: Clock, t: int) -> None:
    """Wait on the running event loop until ``clock`` reaches ``t``."""
    woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def wake() -> None:
        if not woken.done():
            woken.set_result(None)

    timer = clock.call_at(t, wake)
    try:
        await woken
    finally:
        timer.cancel()
