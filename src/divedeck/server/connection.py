"""One open websocket: a bounded outbox, and rate limits on what it sends us.

A slow reader must never make the server hold an unbounded backlog: when its outbox is full the connection is
closed (the client reconnects and gets a fresh welcome). A flooding writer is slowed by token buckets (its own, its
seat's and its address's, so more sockets buy no more), so it cannot take the event loop from other tables; one
that keeps writing past its limit is disconnected.

Messages are written once per turn of the event loop: what a socket is sent while the loop runs its callbacks
(an action's update and ack, a table message) waits in a short list, and one callback at the end of the turn
writes every socket's list, each in one write where the protocol allows (send_many.py). The writes of an action
then come back to back instead of between the views of the next seats: on a virtual machine a write that wakes an
idle client costs an interrupt to another core, and writes in a row find the client already awake (measured in
benchmarks/README.md: the write system call was a third of the server's CPU per action). A list is written at
once when the socket takes it without waiting (the send coroutine is stepped by hand, as a task would, and
finishes in that one step): no task per message. Only when the peer is slow (the transport paused) does a task
take over the send that could not finish, and drain the outbox behind it; it exists only while messages wait, so
thousands of idle sockets hold no task.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Coroutine, Generator
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
        # What was sent in this turn of the event loop, written at its end (``flush``), in one write if the
        # server's websocket protocol can (send_many.py).
        self.waiting: list[str] | None = None
        extension = (websocket.scope.get("extensions") or {}).get(SEND_MANY)
        self.sends_many = extension is not None
        # The websocket protocol's own send (send_many.py), past Starlette's wrappers, where it is offered.
        self.protocol_send: Callable[[dict[str, Any]], Coroutine[Any, Any, None]] | None = (
            None if extension is None else extension.get("send"))
        self.protocol_receive: Callable[[], Coroutine[Any, Any, dict[str, Any]]] | None = (
            None if extension is None else extension.get("receive"))
        self.loop = asyncio.get_running_loop()

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message for the end of this turn of the event loop; a client too slow to take what waits is
        disconnected instead of buffered without bound."""
        if self.closed:
            return
        text = message if isinstance(message, str) else encode(message)
        if self.sender is not None:  # a slow peer: its task drains the outbox
            if len(self.outbox) >= self.outbox_limit:
                self.close(CLOSE_TRY_AGAIN_LATER)
                return
            self.outbox.append(text)
            return
        if self.waiting is None:
            self.waiting = [text]
            _flush_soon(self)
        elif len(self.waiting) >= self.outbox_limit:
            self.close(CLOSE_TRY_AGAIN_LATER)
        else:
            self.waiting.append(text)

    def flush(self) -> None:
        """Write what waits now, in one write where the protocol allows (called at the end of the loop's turn)."""
        texts, self.waiting = self.waiting, None
        if not texts or self.closed:
            return
        if self.sender is not None:
            self.outbox.extend(texts)
            return
        if len(texts) > 1 and self.sends_many:
            self._send_now(texts)
            return
        for text in texts:
            if self.sender is None and not self.closed:
                self._send_now(text)
            elif not self.closed:
                self.outbox.append(text)

    def _send_now(self, text: str | list[str]) -> None:
        """Write ``text`` (or several, each its own frame) now if the socket takes it; if the send has to wait, a
        task finishes it (the outbox queues behind that task)."""
        direct = self.protocol_send
        if direct is not None:
            sending = direct({"type": "websocket.send", SEND_MANY: [text] if isinstance(text, str) else text})
        else:
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
        self.flush()  # what it was sent before the close goes out first, as it would have without the wait
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
        self.flush()
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


# The connections sent something in this turn of the event loop, per loop (tests run several loops), in order.
_waiting: dict[asyncio.AbstractEventLoop, list[Connection]] = {}


def _flush_soon(connection: Connection) -> None:
    loop = connection.loop
    waiting = _waiting.get(loop)
    if waiting is None:
        _waiting[loop] = waiting = []
        loop.call_soon(_flush_all, loop)
    waiting.append(connection)


def _flush_all(loop: asyncio.AbstractEventLoop) -> None:
    for connection in _waiting.pop(loop, ()):
        connection.flush()
