"""The bus between server processes: Redis (or Valkey) pub/sub, one channel per process.

A process sends a *frame* (a small JSON object) to another by publishing it on that process's channel. Frames
from one process to another arrive in the order they were sent: every publish goes through one queue and one
connection. Nothing here is durable: a frame to a process that is gone is lost, and the routing above it
(routing.py) notices the death through the leases (ownership.py) and closes what depended on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

log = logging.getLogger(__name__)
CHANNEL = "divedeck:process:"

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


class Bus:
    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.url = url
        self.client = redis.Redis.from_url(url)
        self.node: str | None = None
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self.handler: Handler | None = None

    async def start(self, node: str, handler: Handler) -> None:
        """Listen on ``node``'s channel (again, under a new id, after this process re-registered)."""
        self.handler = handler
        if self._pubsub is None:
            self._pubsub = self.client.pubsub()
            self._tasks.append(asyncio.get_running_loop().create_task(self._publish()))
        if self.node is not None:
            await self._pubsub.unsubscribe(CHANNEL + self.node)
        self.node = node
        await self._pubsub.subscribe(CHANNEL + node)
        if len(self._tasks) == 1:
            self._tasks.append(asyncio.get_running_loop().create_task(self._listen()))

    def send(self, node: str, frame: dict[str, Any]) -> None:
        self._outbox.put_nowait((CHANNEL + node, orjson.dumps(frame)))

    async def _publish(self) -> None:
        while True:
            channel, data = await self._outbox.get()
            batch = [(channel, data)]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception:
                log.exception("the bus could not publish %d frames", len(batch))

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except Exception:
                log.exception("the bus stopped listening; trying again")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message" or self.handler is None:
                continue
            try:
                frame = orjson.loads(message["data"])
                result = self.handler(frame)
                if result is not None:
                    await result
            except Exception:
                log.exception("a bus frame could not be handled")

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.client.aclose()
