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
import contextlib
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import create_app
from .frame_reader import FrameReading
from .processes import READY
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

    def handle_websocket_upgrade(self, event: Any) -> None:
        """The connection becomes a websocket, with its own keep-alive: no request head is awaited any more (the
        timer would otherwise live, and fire, 10 s after every socket opened)."""
        if self.head_deadline is not None:
            self.head_deadline.cancel()
            self.head_deadline = None
        super().handle_websocket_upgrade(event)

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


class Utf8CheckedWebSockets(FrameReading):
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


class HandedServer(uvicorn.Server):
    """One of the processes of ``--processes N``: it listens on nothing; the parent accepts each connection and
    hands it over ``channel`` (a Unix socket, ``SCM_RIGHTS``: processes.py), and it serves the connection as if it
    had accepted it, with uvicorn's own protocol (built as ``uvicorn.Server.startup`` builds it)."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])
        if self.should_exit:
            return
        self.channel.setblocking(False)
        asyncio.get_running_loop().add_reader(self.channel.fileno(), self._take)
        with contextlib.suppress(OSError):
            self.channel.send(READY)  # the parent hands this process connections from now on

    def _protocol(self) -> asyncio.Protocol:
        config = self.config
        protocol: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
            config=config, server_state=self.server_state, app_state=self.lifespan.state)
        return protocol

    def _take(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                message, fds, _, _ = socket.recv_fds(self.channel, 16, 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                message, fds = b"", []
            if not message:  # the parent is gone: stop taking (the process stops with it, processes.py)
                loop.remove_reader(self.channel.fileno())
                return
            for fd in fds:
                connection = socket.socket(fileno=fd)
                connection.setblocking(False)
                if self.should_exit:
                    connection.close()
                    continue
                loop.create_task(loop.connect_accepted_socket(self._protocol, connection))

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.channel.fileno())
        await super().shutdown(sockets)


def serve_handed(settings: ServerSettings, port: int, channel: socket.socket) -> None:
    """One of several processes: serve the connections the parent hands over ``channel``."""
    HandedServer(_config(settings, port), channel).run()
