"""Reading a client's websocket frames: the common one here, every other one by the websockets library.

Nearly every frame a page sends is one small, whole, masked text message (an ``act``, a ``ping``). The library
parses each through generators in Python (about 6 µs a frame on this machine, more than the rest of reading it),
and uvicorn then pauses and resumes reading the socket around every message. ``FrameReading`` splits what the
socket reads into whole frames itself (RFC 6455 5.2): a final, masked, uncompressed text frame within the size
limit is unmasked and decoded here and queued for the app as uvicorn queues it; any other frame (ping, pong,
close, a fragment, binary, compressed, not UTF-8) is handed to the library whole, so the library's parser is
always at a frame's start and answers it exactly as before. Anything the library must refuse (an unmasked frame,
reserved bits, a frame past the size limit) hands it the rest of the connection as it came, and it closes it
with its usual code.

Reading pauses only when several messages wait for the app (``PAUSE_AT``), not after each one: the app reads a
socket's messages one by one, so a flood still cannot queue more than that and one read's worth.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from websockets.protocol import State
from websockets.speedups import apply_mask  # type: ignore[attr-defined]

from .send_many import SendMany

PAUSE_AT = 8  # messages waiting for the app before the socket stops being read
FINAL_TEXT = 0x81  # FIN and opcode 1, no reserved bits
MASKED = 0x80


class LoopQueue(asyncio.Queue):  # type: ignore[type-arg]
    """uvicorn's queue of a socket's messages for the app, bound to the protocol's loop from the start: an
    ``asyncio.Queue`` asks for the running loop each time the app waits on it, and on Python 3.11 that asks the
    kernel for the process id (a system call a message)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._bound = loop

    def _get_loop(self) -> asyncio.AbstractEventLoop:
        return self._bound


class FrameReading(SendMany):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = LoopQueue(self.loop)
        self.framing: bool | None = None  # framed here from the read after the request until the library takes over
        self.unread = b""  # the start of a frame not yet whole

    def data_received(self, data: bytes) -> None:
        if not self.framing:
            super().data_received(data)
            if self.framing is None:
                # uvicorn hands over the upgrade request alone, in one piece: after it the library waits at the
                # start of a frame, and every later read can be framed here. Anything else: the library reads on.
                self.framing = (self.handshake_initiated and self.conn.parser_exc is None
                                and not self.conn.reader.buffer)
            return
        buffer = self.unread + data if self.unread else data
        start, end = 0, len(buffer)
        limit = self.conn.max_message_size
        while end - start >= 2:
            first, second = buffer[start], buffer[start + 1]
            size = second & 0x7F
            head = 2
            if size == 126:
                if end - start < 4:
                    break
                size, head = int.from_bytes(buffer[start + 2:start + 4], "big"), 4
            elif size == 127:
                if end - start < 10:
                    break
                size, head = int.from_bytes(buffer[start + 2:start + 10], "big"), 10
            if not second & MASKED or first & 0x70 or (limit is not None and size > limit):
                self._hand_over(buffer[start:])  # the library refuses it and closes the connection
                return
            whole = head + 4 + size
            if end - start < whole:
                break
            text = None
            if first == FINAL_TEXT and self._reads_text_here():
                mask = buffer[start + head:start + head + 4]
                with contextlib.suppress(UnicodeDecodeError):  # else the library's reading closes it with 1007
                    text = apply_mask(buffer[start + head + 4:start + whole], mask).decode()
            if text is not None:
                self._queue_text(text)
            else:
                super().data_received(buffer[start:start + whole])
                if self.conn.parser_exc is not None or self.conn.state is not State.OPEN:
                    self._hand_over(buffer[start + whole:])
                    return
            start += whole
        self.unread = buffer[start:] if start < end else b""

    def _reads_text_here(self) -> bool:
        conn = self.conn
        return (self.handshake_complete and not self.close_sent and conn.state is State.OPEN and not conn.extensions
                and conn.current_size is None)

    def _queue_text(self, text: str) -> None:
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused and self.queue.qsize() >= PAUSE_AT:
            self.read_paused = True
            self.transport.pause_reading()

    def _hand_over(self, rest: bytes) -> None:
        """From here on the library reads the connection, starting with ``rest``."""
        self.framing = False
        self.unread = b""
        if rest:
            super().data_received(rest)
