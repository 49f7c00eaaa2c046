"""Several websocket messages in one write: an ASGI extension of our own to uvicorn's websocket protocol.

Each ASGI ``websocket.send`` is one frame and one ``write`` on the socket (a system call that also runs the
receiver's side of loopback TCP and wakes it: about 50 µs of kernel time an action here, four or five writes). The
seat that acts gets two messages at once, its update and its ack: as one write they cost one system call and wake
its client once. A protocol that offers this says so in the scope's extensions (``SEND_MANY``); a
``websocket.send`` carrying ``SEND_MANY: [text, ...]`` sends each text as its own frame, in order, in one write.
Anything else (the test client, a socket served through the bus) never sees the key: connection.py asks the scope
first.

The extension also hands over the protocol's own ``send`` and ``receive`` (``{"send": ..., "receive": ...}``):
connection.py writes messages with the one directly, past Starlette's wrappers of ``send`` (its exception handlers'
bookkeeping is for HTTP responses, and on a websocket each wrapper was one more coroutine per message), and the
app's receive loop reads with the other, past Starlette's check of each message's type. Accepting and closing
still go through Starlette, which keeps its own record of the socket's state. Without compression the frames are
written here (``text_frame``), not through the websockets library's frame objects.
"""

from __future__ import annotations

import struct
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

SEND_MANY = "divedeck.send_many"


class SendMany(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:  # the app's task is created, not started: it sees the extension
            self.scope["extensions"][SEND_MANY] = {"send": self.send, "receive": self.receive}  # type: ignore[index]

    async def send(self, message: Any) -> None:
        texts = message.get(SEND_MANY) if message["type"] == "websocket.send" else None
        if texts is None or not self.handshake_complete or self.close_sent or self.initial_response is not None:
            await super().send(message)
            return
        await self.writable.wait()
        if self.disconnected:
            raise ClientDisconnected()
        conn = self.conn
        if conn.state is not State.OPEN:
            raise ClientDisconnected()
        if conn.extensions or conn.expect_continuation_frame:  # compressed (permessage-deflate): the library frames
            for text in texts:
                conn.send_text(text.encode())
            self.transport.write(b"".join(conn.data_to_send()))
            return
        # Uncompressed: a server's text frame is a 2-10 byte head and the text as it is (RFC 6455 5.2, no mask), so
        # it is written here rather than through the library's Frame objects (checks and serialization in Python,
        # once per message). Whatever the library has queued (a pong) goes first.
        writes = conn.data_to_send()
        for text in texts:
            writes.append(text_frame(text.encode()))
        self.transport.write(b"".join(writes))


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked text frame carrying ``payload`` (UTF-8), as a server sends it."""
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 65536:
        return _HEAD_16.pack(0x81, 126, size) + payload
    return _HEAD_64.pack(0x81, 127, size) + payload


_HEAD_16 = struct.Struct("!BBH")
_HEAD_64 = struct.Struct("!BBQ")
