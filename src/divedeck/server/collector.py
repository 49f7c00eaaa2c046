"""Keeping Python's cyclic garbage collector from pausing a busy server.

A server with thousands of open tables holds millions of long-lived objects (sockets, states, recent events).
Python's full collections walk all of them, which stops the event loop for 0.1-0.8 s at a time: every player then
waits. So the survivors are frozen every few seconds (``gc.freeze``), and routine collections only look at objects
younger than that. Frozen objects are never collected, so every ``full_every`` seconds everything is unfrozen and
collected once, and cyclic garbage is still freed: one pause every ten minutes instead of several a minute.
"""

from __future__ import annotations

import asyncio
import gc
import time


async def tend_garbage_collector(freeze_every: float, full_every: float) -> None:
    gc.freeze()
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(freeze_every)
        if time.monotonic() - last_full >= full_every:
            gc.unfreeze()
            gc.collect()
            last_full = time.monotonic()
        gc.freeze()
