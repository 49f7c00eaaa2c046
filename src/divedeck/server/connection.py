"""One open websocket: a bounded outbox, and rate limits on what it sends us.

A slow reader must never make the server hold an unbounded backlog: when its outbox is full the connection is
closed (the client reconnects and gets a fresh welcome). A flooding writer is slowed by token buckets (its own, its
seat's and its address's, so more sockets buy no more), so it cannot take the event loop from other tables; one
that keeps writing past its limit is disconnected.

A message is written at once when nothing waits before it and the socket takes it without waiting (the send
coroutine is stepped by hand, as a task would, and finishes in that one step): no task, no turn of the event loop,
which was a tenth of the server's CPU per action (four updates and an ack each). Only when the peer is slow (the
transport paused) does a task take over the send that could not finish, and drain the outbox behind it; it exists
only while messages wait, so thousands of idle sockets hold no task.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Coroutine, Generator
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from ..sim.clock import Clock, WallClock
from .send_many import SEND_MANY
from .wire import encode

CLOSE_GOING_AWAY = 1001
CLOSE_TRY_AGAIN_LATER = 1013
CLOSE_POLICY_VIOLATION = 1008


class Bucket:
    """A token bucket: ``rate`` tokens a second on average, at most ``burst`` at once (a second's worth unless
    told). Constant time and no allocation per take, so refusing a message costs next to nothing."""

    __slots__ = ("burst", "clock", "last", "rate", "tokens")

    def __init__(self, rate: float, clock: Clock, burst: float | None = None) -> None:
        self.rate = rate
        self.burst = rate if burst is None else burst
        self.tokens = self.burst
        self.clock = clock
        self.last = clock.now()

    def available(self) -> float:
        now = self.clock.now()
        self.tokens = min(self.burst, self.tokens + (now - self.last) / 1000 * self.rate)
        self.last = now
        return self.tokens

    def take(self) -> bool:
        if self.available() < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    def __init__(self, websocket: WebSocket, seat: int | None, outbox_limit: int, messages_per_second: float,
                 protocol: int = 3, clock: Clock | None = None, shared: tuple[Bucket, ...] = (),
                 flood_allowance: int = 40) -> None:
        self.websocket = websocket
        self.seat = seat
        self.protocol = protocol
        self.outbox: deque[str] = deque()
        self.outbox_limit = outbox_limit
        self.sender: asyncio.Task[None] | None = None
        self.closed = False
        self.clock = clock or WallClock()
        # Its own bucket first, then those it shares with the other sockets of its seat and of its address.
        self.buckets = (Bucket(messages_per_second, self.clock), *shared)
        # Refused messages spend this one; a socket that empties it is flooding, not just bursting.
        self.refusals = Bucket(messages_per_second, self.clock, burst=flood_allowance)
        self.last_rate_warning: int | None = None
        # While corked (``cork``), messages wait here and go out together at ``uncork``, in one write if the
        # server's websocket protocol can (send_many.py).
        self.corked: list[str] | None = None
        self.sends_many = SEND_MANY in websocket.scope.get("extensions", {})

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client too slow to take it is disconnected instead of buffered without bound."""
        if self.closed:
            return
        text = message if isinstance(message, str) else encode(message)
        if self.corked is not None and len(self.corked) < self.outbox_limit:
            self.corked.append(text)
            return
        if self.sender is None:
            self._send_now(text)
            return
        if len(self.outbox) >= self.outbox_limit:
            self.close(CLOSE_TRY_AGAIN_LATER)
            return
        self.outbox.append(text)

    def cork(self) -> None:
        """Hold what is sent from now until ``uncork`` (an action's update and its ack, say)."""
        if self.corked is None:
            self.corked = []

    def uncork(self) -> None:
        """Send what was held, in one write where the protocol allows."""
        texts, self.corked = self.corked, None
        if not texts or self.closed:
            return
        if self.sender is not None or len(texts) == 1 or not self.sends_many:
            for text in texts:
                self.send(text)
            return
        self._send_now(texts)

    def _send_now(self, text: str | list[str]) -> None:
        """Write ``text`` (or several, each its own frame) now if the socket takes it; if the send has to wait, a
        task finishes it (the outbox queues behind that task)."""
        sending = (self.websocket.send_text(text) if isinstance(text, str) else
                   self.websocket.send({"type": "websocket.send", SEND_MANY: text}))
        try:
            waiting_for = sending.send(None)
        except StopIteration:
            return
        except Exception:  # the peer went away; the receive loop notices and cleans up
            self.closed = True
            return
        self.sender = asyncio.get_running_loop().create_task(self._drain(Started(sending, waiting_for)))

    def allow(self) -> bool:
        """Whether every bucket this socket draws on has a token (then one is taken from each)."""
        if any(bucket.available() < 1 for bucket in self.buckets):
            return False
        for bucket in self.buckets:
            bucket.tokens -= 1
        return True

    def flooding(self) -> bool:
        """Count a refused message: true once the socket has been refused more than its flood allowance."""
        return not self.refusals.take()

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

    async def _drain(self, started: Started | None = None) -> None:
        try:
            if started is not None:
                await started
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


class Started:
    """A coroutine already stepped once by hand, which then waited for ``waiting_for`` (a future): awaiting this
    resumes it where it stopped, as if it had been awaited from the start."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], waiting_for: Any) -> None:
        self.coroutine = coroutine
        self.waiting_for = waiting_for

    def __await__(self) -> Generator[Any, Any, None]:
        value = self.waiting_for
        while True:
            try:
                sent = yield value
            except BaseException as error:  # noqa: BLE001 - cancellation and the rest go to the coroutine
                try:
                    value = self.coroutine.throw(error)
                except StopIteration:
                    return
            else:
                try:
                    value = self.coroutine.send(sent)
                except StopIteration:
                    return
