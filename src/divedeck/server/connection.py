"""One open websocket: a bounded outbox, and a rate limit on what it sends us.

A slow reader must never make the server hold an unbounded backlog: when its outbox is full the connection is
closed (the client reconnects and gets a fresh welcome). A flooding writer is slowed by a token bucket, so it
cannot take the event loop from other tables.

The outbox is drained by a task that exists only while messages wait: thousands of idle sockets then hold no task,
and a burst (an update, then an ack) goes out in one pass.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from ..sim.clock import Clock, WallClock
from .wire import encode

CLOSE_TRY_AGAIN_LATER = 1013


class Connection:
    def __init__(self, websocket: WebSocket, seat: int | None, outbox_limit: int, messages_per_second: float,
                 protocol: int = 3, clock: Clock | None = None) -> None:
        self.websocket = websocket
        self.seat = seat
        self.protocol = protocol
        self.outbox: deque[str] = deque()
        self.outbox_limit = outbox_limit
        self.sender: asyncio.Task[None] | None = None
        self.closed = False
        self.clock = clock or WallClock()
        self.rate = messages_per_second
        self.allowance = messages_per_second
        self.last_check = self.clock.now()
        self.last_rate_warning: int | None = None

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client too slow to take it is disconnected instead of buffered without bound."""
        if self.closed:
            return
        if len(self.outbox) >= self.outbox_limit:
            self.close(CLOSE_TRY_AGAIN_LATER)
            return
        self.outbox.append(message if isinstance(message, str) else encode(message))
        if self.sender is None:
            self.sender = asyncio.get_running_loop().create_task(self._drain())

    def allow(self) -> bool:
        """Token bucket: ``messages_per_second`` on average, the same as a burst."""
        now = self.clock.now()
        self.allowance = min(self.rate, self.allowance + (now - self.last_check) / 1000 * self.rate)
        self.last_check = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    def should_warn_rate(self) -> bool:
        """At most one rate warning a second."""
        now = self.clock.now()
        if self.last_rate_warning is None or now - self.last_rate_warning >= 1000:
            self.last_rate_warning = now
            return True
        return False

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self.outbox.clear()
        if self.sender is not None:
            self.sender.cancel()
        asyncio.get_running_loop().create_task(self._close(code))

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            if self.websocket.application_state == WebSocketState.CONNECTED:
                await self.websocket.close(code)

    async def _drain(self) -> None:
        try:
            while self.outbox:
                await self.websocket.send_text(self.outbox.popleft())
        except asyncio.CancelledError:
            raise
        except Exception:  # the peer went away; the receive loop notices and cleans up
            self.closed = True
            self.outbox.clear()
        finally:
            self.sender = None

    async def flush_and_stop(self) -> None:
        """Let queued messages go out (briefly), then stop."""
        sender = self.sender
        if sender is not None and not self.closed:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(sender), 2.0)
        self.closed = True
        if self.sender is not None:
            self.sender.cancel()
