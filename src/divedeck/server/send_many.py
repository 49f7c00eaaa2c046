"""Several websocket messages in one write: an ASGI extension of our own to uvicorn's websocket protocol.

Each ASGI ``websocket.send`` is one frame and one ``write`` on the socket, and on this kind of machine the write (a
system call that also runs the receiver's side of loopback TCP and wakes it) was a third of the server's CPU per
action. The seat that acts gets two messages at once, its update and its ack: as one write they cost one system
call and wake its client once. A protocol that offers this says so in the scope's extensions (``SEND_MANY``); a
``websocket.send`` carrying ``SEND_MANY: [text, ...]`` sends each text as its own frame, in order, in one write.
Anything else (the test client, a socket served through the bus) never sees the key: connection.py asks the scope
first.

The extension also hands over the protocol's own ``send`` (``{"send": ...}``): connection.py writes messages with
it directly, past Starlette's wrappers of ``send`` (its exception handlers' bookkeeping is for HTTP responses, and
on a websocket each wrapper was one more coroutine per message). Accepting and closing still go through Starlette,
which keeps its own record of the socket's state.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

SEND_MANY = "divedeck.send_many"


class SendMany(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:  # the app's task is created, not started: it sees the extension
            self.scope["extensions"][SEND_MANY] = {"send": self.send}  # type: ignore[index]

    async def send(self, message: Any) -> None:
        texts = message.get(SEND_MANY) if message["type"] == "websocket.send" else None
        if texts is None or not self.handshake_complete or self.close_sent or self.initial_response is not None:
            await super().send(message)
            return
        await self.writable.wait()
        if self.disconnected:
            raise ClientDisconnected()
        try:
            for text in texts:
                self.conn.send_text(text.encode())
        except InvalidState as closed:
            raise ClientDisconnected() from closed
        self.transport.write(b"".join(self.conn.data_to_send()))
