"""Keeping Python's cyclic garbage collector from pausing a busy server.

A server with thousands of open tables holds millions of long-lived objects (sockets, states, recent events).
Python's full collections walk all of them, which stops the event loop for 0.1-0.8 s at a time: every player then
waits. So the survivors are frozen every few seconds (``gc.freeze``), and routine collections only look at objects
younger than that. Frozen objects are never collected, so every ``full_every`` seconds everything is unfrozen and
collected once, and cyclic garbage is still freed: one pause every ten minutes instead of several a minute.

Each action makes a few hundred short-lived containers (views, events, messages), nearly all freed at once by
their reference counts, yet each counts towards Python's youngest generation: at its default threshold (700) the
collector ran every few actions, and its generations' walks cost about 13 µs an action (benchmarks/README.md). A
threshold of ``young`` (10,000 by default) lets the same garbage go by between walks: a young walk every few dozen
actions, and cyclic garbage waits at most that long.
"""

from __future__ import annotations

import asyncio
import gc
import time


async def tend_garbage_collector(freeze_every: float, full_every: float, young: int = 10_000) -> None:
    gc.set_threshold(young, *gc.get_threshold()[1:])
    gc.freeze()
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(freeze_every)
        if time.monotonic() - last_full >= full_every:
            gc.unfreeze()
            gc.collect()
            last_full = time.monotonic()
        gc.freeze()
