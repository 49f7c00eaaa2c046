"""Any process takes any client: a socket for a table another process owns is served through the bus.

The process the socket reached (the *edge*) keeps the socket, with its outbox and rate limits (connection.py),
and relays: it sends the owner an ``open`` frame with the hello, then each message as an ``in`` frame, and a
``close`` frame when the socket goes. The owner seats a ``RemoteConnection`` at the table, which the table treats
like any socket: what it sends goes back as ``out`` frames, and closing it sends ``end``. Frames between two
processes keep their order (bus.py), so a page sees exactly what a socket on the owner would have shown it.

When either side dies (its lease row expires, ownership.py), the other closes what it relayed: the edge closes
the page's socket with 1012 and the page reconnects (client.js), reaching whichever process owns the table now;
the owner seats the socket's seat away, as if the page had closed.

Rooms (rooms.py) live with their table: an HTTP request about a room whose table another process owns is passed
to that process whole (an ``http`` frame), answered by its own app, and the answer comes back (``http-reply``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from .bus import Bus
from .connection import Connection
from .manager import CLOSE_SERVICE_RESTART, TableManager
from .ownership import Leases
from .table import LiveTable, error
from .wire import encode

log = logging.getLogger(__name__)
HTTP_TIMEOUT = 10.0  # seconds to wait for the process a request was passed to
FORWARDED = "x-divedeck-passed"  # a request passed on once is answered where it arrives, never passed again
RELAYED_COUNT = "divedeck:relayed-sockets"  # a Redis counter: sockets served through the bus, all processes
CLOSE_NOT_FOUND = 4404
CLOSE_BAD_TOKEN = 4401


class RemoteConnection:
    """A page's socket held by another process (the edge), as the owner's table sees it."""

    def __init__(self, router: Router, edge: str, connection_id: str, seat: int | None, protocol: int) -> None:
        self.router = router
        self.edge = edge
        self.id = connection_id
        self.seat = seat
        self.protocol = protocol
        self.closed = False
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, message: dict[str, Any] | str) -> None:
        if not self.closed:
            text = message if isinstance(message, str) else encode(message)
            self.router.bus.send(self.edge, {"k": "out", "c": self.id, "x": text})

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.router.bus.send(self.edge, {"k": "end", "c": self.id, "code": code})
            self.inbox.put_nowait(None)


@dataclass
class Relayed:
    """The edge's side: a page's socket whose table another process owns."""

    connection: Connection
    owner: str
    ended: asyncio.Event = field(default_factory=asyncio.Event)


class Router:
    def __init__(self, bus: Bus, manager: TableManager, leases: Leases) -> None:
        self.bus = bus
        self.manager = manager
        self.leases = leases
        self.relayed: dict[str, Relayed] = {}
        self.remote: dict[str, RemoteConnection] = {}
        self.requests: dict[str, asyncio.Future[tuple[int, list[Any], bytes]]] = {}
        self.app: Any = None  # the ASGI app that answers requests passed here by other processes
        self._node: str | None = None

    async def start(self) -> None:
        await self._listen()
        self.manager.on_tick.append(self.tick)

    async def _listen(self) -> None:
        assert self.leases.node is not None
        self._node = self.leases.node
        await self.bus.start(self.leases.node, self.on_frame)

    async def tick(self) -> None:
        """After each lease renewal: close what depended on a process that is gone (or on this process's old
        id, after it lost its lease and registered again)."""
        if self.leases.node != self._node:
            for relayed in list(self.relayed.values()):
                relayed.connection.close(CLOSE_SERVICE_RESTART)
            for remote in list(self.remote.values()):
                remote.closed = True
                remote.inbox.put_nowait(None)
            await self._listen()
            return
        alive = self.leases.alive
        for relayed in list(self.relayed.values()):
            if relayed.owner not in alive:
                relayed.connection.close(CLOSE_SERVICE_RESTART)
        for remote in list(self.remote.values()):
            if remote.edge not in alive:
                remote.closed = True
                remote.inbox.put_nowait(None)

    # -- the edge ------------------------------------------------------------------------------------------------
    async def relay(self, connection: Connection, owner: str, table_id: str, hello: dict[str, Any],
                    receive: Any) -> None:
        """Serve ``connection`` through ``owner`` until either side ends it. ``receive(handler)`` runs the
        socket's receive loop, giving each message to ``handler.handle(connection, text)``."""
        connection_id = secrets.token_hex(8)
        relayed = self.relayed[connection_id] = Relayed(connection, owner)
        with contextlib.suppress(Exception):  # how many sockets were relayed, for operators and the tests
            await self.bus.client.incr(RELAYED_COUNT)
        self.bus.send(owner, {"k": "open", "c": connection_id, "from": self._node, "t": table_id, "hello": hello})
        router = self

        class Forward:
            async def handle(self, _connection: Connection, text: str) -> None:
                router.bus.send(owner, {"k": "in", "c": connection_id, "x": text})

        try:
            await receive(Forward())
        finally:
            self.relayed.pop(connection_id, None)
            if not relayed.ended.is_set():
                self.bus.send(owner, {"k": "close", "c": connection_id})

    # -- frames --------------------------------------------------------------------------------------------------
    def on_frame(self, frame: dict[str, Any]) -> None:
        kind, connection_id = frame.get("k"), str(frame.get("c"))
        if kind == "out":
            relayed = self.relayed.get(connection_id)
            if relayed is not None:
                relayed.connection.send(str(frame["x"]))
        elif kind == "end":
            relayed = self.relayed.get(connection_id)
            if relayed is not None:
                relayed.ended.set()
                asyncio.get_running_loop().create_task(_close_after_sending(relayed.connection,
                                                                            int(frame.get("code", 1000))))
        elif kind == "open":
            asyncio.get_running_loop().create_task(self._open(frame))
        elif kind == "in":
            remote = self.remote.get(connection_id)
            if remote is not None and not remote.closed:
                remote.inbox.put_nowait(str(frame["x"]))
        elif kind == "http":
            asyncio.get_running_loop().create_task(self._answer_http(frame))
        elif kind == "http-reply":
            answer = self.requests.get(connection_id)
            if answer is not None and not answer.done():
                answer.set_result((int(frame["s"]), [(k.encode("latin-1"), v.encode("latin-1")) for k, v in frame["h"]],
                                   str(frame["b"]).encode()))
        elif kind == "close":
            remote = self.remote.get(connection_id)
            if remote is not None:
                remote.closed = True
                remote.inbox.put_nowait(None)

    # -- the owner -----------------------------------------------------------------------------------------------
    async def _open(self, frame: dict[str, Any]) -> None:
        edge, connection_id, hello = str(frame["from"]), str(frame["c"]), frame.get("hello") or {}
        found = await self.manager.find(str(frame.get("t")))
        if not isinstance(found, LiveTable):
            # Gone, or it moved on the way: the page reconnects and reaches the owner of now.
            code = CLOSE_NOT_FOUND if found is None else CLOSE_SERVICE_RESTART
            if found is None:
                self.bus.send(edge, {"k": "out", "c": connection_id,
                                     "x": encode(error("not_found", f"no table {frame.get('t')}"))})
            self.bus.send(edge, {"k": "end", "c": connection_id, "code": code})
            return
        table = found
        seat = None
        if hello.get("spectator") is not True:
            holder = table.seat_for_token(hello.get("token"))
            if holder is None:
                self.bus.send(edge, {"k": "out", "c": connection_id,
                                     "x": encode(error("bad_token", "that token opens no seat at this table"))})
                self.bus.send(edge, {"k": "end", "c": connection_id, "code": CLOSE_BAD_TOKEN})
                return
            seat = holder.index
        remote = self.remote[connection_id] = RemoteConnection(self, edge, connection_id, seat,
                                                               int(hello.get("protocol", 3)))
        try:
            try:
                table.join(remote, hello.get("name"))  # type: ignore[arg-type]
            except Exception:
                log.exception("could not welcome a relayed socket at table %s", table.id)
                remote.close(1011)
                return
            while True:
                text = await remote.inbox.get()
                if text is None or table.closing:
                    break
                await table.handle(remote, text)  # type: ignore[arg-type]
        finally:
            self.remote.pop(connection_id, None)
            table.leave(remote)  # type: ignore[arg-type]
            if table.closing:
                remote.close(CLOSE_SERVICE_RESTART)

    # -- HTTP requests about a room whose table another process owns ----------------------------------------------
    async def forward_http(self, owner: str, scope: dict[str, Any], body: bytes) -> tuple[int, list[Any], bytes]:
        """Have ``owner`` answer this request as if it had reached it (its own app handles it)."""
        request_id = secrets.token_hex(8)
        answer: asyncio.Future[tuple[int, list[Any], bytes]] = asyncio.get_running_loop().create_future()
        self.requests[request_id] = answer
        client = scope.get("client") or ("", 0)
        self.bus.send(owner, {"k": "http", "c": request_id, "from": self._node, "m": scope["method"],
                              "p": scope["path"], "q": scope.get("query_string", b"").decode("latin-1"),
                              "h": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
                              "b": body.decode("utf-8", "replace"), "a": client[0]})
        try:
            return await asyncio.wait_for(answer, HTTP_TIMEOUT)
        except TimeoutError:
            return 503, [], encode({"error": {"code": "server_busy", "message": "the room's server process did "
                                                                                "not answer: try again"}}).encode()
        finally:
            self.requests.pop(request_id, None)

    async def _answer_http(self, frame: dict[str, Any]) -> None:
        assert self.app is not None
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": frame["m"],
                 "scheme": "http", "path": frame["p"], "raw_path": str(frame["p"]).encode(),
                 "query_string": str(frame.get("q", "")).encode("latin-1"), "root_path": "",
                 "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in frame["h"]
                             if k.lower() != FORWARDED] + [(FORWARDED.encode(), b"1")],
                 "client": (frame.get("a") or "", 0), "server": ("127.0.0.1", 0)}
        pending = [{"type": "http.request", "body": str(frame["b"]).encode(), "more_body": False}]
        status, headers, chunks = 500, [], []

        async def receive() -> dict[str, Any]:
            return pending.pop() if pending else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status, headers
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        self.bus.send(str(frame["from"]), {"k": "http-reply", "c": frame["c"], "s": status, "h": headers,
                                           "b": b"".join(chunks).decode("utf-8", "replace")})

    async def close(self) -> None:
        for remote in list(self.remote.values()):
            remote.close(CLOSE_SERVICE_RESTART)
        for relayed in list(self.relayed.values()):
            relayed.connection.close(CLOSE_SERVICE_RESTART)
        with contextlib.suppress(Exception):
            await asyncio.sleep(0.05)  # let the last frames go


async def _close_after_sending(connection: Connection, code: int) -> None:
    """Close a page's socket once what the owner sent before closing it has gone out (a refusal's reason)."""
    sender = connection.sender
    if sender is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(sender), 2.0)
    connection.close(code)
