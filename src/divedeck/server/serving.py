"""Running the app under uvicorn with limits on what a slow or idle HTTP client can hold.

Uvicorn closes an idle keep-alive connection after ``timeout_keep_alive`` seconds, but it waits for a request's
head without limit: a client that connects and sends nothing, or a header line now and then, holds its connection
forever. ``HeaderTimeoutProtocol`` gives the head a deadline from the moment the connection opens (or the previous
response ends); a websocket, once upgraded, belongs to another protocol and is not touched.

Uvicorn answers a websocket text frame that is not UTF-8 by closing it (1007) and logging a traceback, as if the
server had failed: ``Utf8CheckedWebSockets`` closes it the same way with a reason and a one-line warning.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .app import create_app
from .settings import ServerSettings

MAX_HEAD_BYTES = 16384  # a request line and headers; more is refused with 400 by h11


class HeaderTimeoutProtocol(H11Protocol):
    header_timeout = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_deadline is not None:
            self.head_deadline.cancel()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        if self.head_deadline is not None:
            self.head_deadline.cancel()
        waiting_for = self.cycle  # a new request replaces the cycle
        self.head_deadline = self.loop.call_later(self.header_timeout, self._head_late, waiting_for)

    def _head_late(self, waiting_for: object) -> None:
        self.head_deadline = None
        if self.cycle is waiting_for and self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()


CLOSE_INVALID_DATA = 1007


class Utf8CheckedWebSockets(WebSocketsSansIOProtocol):
    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = b"".join(self.frames)
            try:
                if not data.isascii():  # ASCII, nearly every message, is UTF-8: no second decode
                    data.decode()
            except UnicodeDecodeError:
                self.frames = []
                self.logger.warning("closed a websocket that sent a text frame not in UTF-8")
                self.conn.send_close(CLOSE_INVALID_DATA, "text frames must be UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()


def _config(settings: ServerSettings, port: int) -> uvicorn.Config:
    protocol = type("HeaderTimeout", (HeaderTimeoutProtocol,), {"header_timeout": settings.header_timeout})
    # No permessage-deflate: our messages are small, and compression state costs memory on every socket.
    # Forwarding headers only from the proxies named (uvicorn would believe them from 127.0.0.1 unless told).
    proxies = list(settings.trusted_proxies)
    return uvicorn.Config(create_app(settings), host=settings.host, port=port, log_level="warning", http=protocol,
                          ws=Utf8CheckedWebSockets, proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None,
                          ws_max_size=65536, ws_per_message_deflate=False, timeout_keep_alive=settings.keep_alive,
                          h11_max_incomplete_event_size=MAX_HEAD_BYTES)


def serve(settings: ServerSettings, port: int, processes: int = 1) -> None:
    if processes == 1:
        uvicorn.Server(_config(settings, port)).run()
    else:
        from .processes import serve_processes

        serve_processes(settings, port, processes)


def serve_on(settings: ServerSettings, port: int, listening: socket.socket) -> None:
    """One of several processes: serve on the socket they all accept from."""
    uvicorn.Server(_config(settings, port)).run(sockets=[listening])
