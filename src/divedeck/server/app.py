"""The HTTP and WebSocket routes of ``divedeck serve`` (see docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..bots import bot_names
from ..bots.registry import bot_descriptions, bot_player_counts
from ..engine.registry import game_names, get_game
from .bot_workers import BotWorkers
from .bus import Bus
from .collector import tend_garbage_collector
from .connection import CLOSE_TRY_AGAIN_LATER, Bucket, Connection
from .manager import TableError, TableManager, client_key
from .move_clock import PROFILES
from .ownership import Leases, Solo
from .replay import ReplayCache, replay_steps
from .rooms import Rooms, normal_code, qr_svg
from .routing import FORWARDED, Router
from .settings import ServerSettings
from .socket_limits import SocketLimits
from .storage import Storage
from .table import PROTOCOL, PROTOCOLS, LiveTable, SeatState, encodable, error, parse_json
from .wire import encode_bytes

logger = logging.getLogger(__name__)
WEB = Path(__file__).resolve().parent.parent / "web"
MAX_BODY_BYTES = 16384
MAX_SEATS = 16  # seats at one table (Hold your Hat allows more players than a screen can show)


class Body(BaseModel):
    """A request body: every field must arrive as its declared JSON type (``"seat": true``, ``"0"`` or ``2.0`` for
    a whole number are refused as malformed, not read as 1, 0 and 2), as the socket's messages are checked."""

    model_config = ConfigDict(strict=True)


class SeatSpec(Body):
    kind: str = Field(max_length=20)  # checked by the manager, which answers bad_seats
    bot: str | None = Field(default=None, max_length=40)
    name: str | None = Field(default=None, max_length=40)


# An option's text is a word, a number or (with --allow-files) a path: never a page of text to echo in an error.
OptionText = Annotated[str, Field(max_length=200)]


class NewTable(Body):
    game: str = Field(max_length=40)
    options: dict[str, OptionText | int | bool | None] = Field(default_factory=dict, max_length=32)
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    hotseat: bool = False
    clock: str | None = Field(default=None, max_length=20)  # a clock per move: off, relaxed, normal or fast
    guide: bool = False  # the game's guided first game: its declared deal, seats and options replace the ones given


class NewRoom(Body):
    game: str = Field(max_length=40)
    options: dict[str, OptionText | int | bool | None] = Field(default_factory=dict, max_length=32)
    players: int = Field(ge=1, le=MAX_SEATS)
    # Per seat, a bot to seat at once (as the lobby's seat choices say), or null for a seat people join.
    bots: list[Annotated[str, Field(max_length=40)] | None] = Field(default_factory=list, max_length=MAX_SEATS)
    clock: str | None = Field(default=None, max_length=20)  # a clock per move: off, relaxed, normal or fast


class RoomJoin(Body):
    code: str = Field(max_length=32)
    name: str = Field(max_length=200)
    token: str | None = Field(default=None, max_length=200)  # the seat token this phone was given when it joined


class RoomHost(Body):
    host: str = Field(max_length=200)
    seat: int | None = None
    bot: str | None = Field(default=None, max_length=40)


@functools.cache
def game_declaration(game_name: str) -> dict[str, Any]:
    """What the lobby and a table page need to know about a game, from its declarations, for its default config."""
    game = get_game(game_name)
    seats = game.player_range()
    fewest, most = (seats.start, seats.stop - 1) if seats else (2, 2)
    # The player count comes from the seats and a file names a path on the server: neither is the lobby's to set.
    set_by_seats = set(game.with_players({}, fewest))
    options = [o for o in game.options() if not o["file"] and o["name"] not in set_by_seats]
    offered = bot_names(game_name)
    return {"name": game_name, "title": game.title, "summary": game.summary, "options": options,
            "bots": offered, "bot_labels": bot_descriptions(game_name),
            # Bots that play only some player counts (a trained policy): the lobby offers them only at those.
            "bot_players": bot_player_counts(game_name),
            "default_bot": game.levels.stand_in if game.levels.stand_in in offered else None,
            "min_players": fewest, "max_players": most, "default_players": game.default_players(),
            "realtime": game.realtime, "frontends": sorted(game.frontends),
            # The clocks per move a table of it may have (move_clock.py), [] for a game that keeps its own time.
            "clocks": [profile.to_dict() for profile in PROFILES.values()] if game.move_clock else [],
            "presets": [preset.to_dict() for preset in game.presets],
            "guide": (game.guide or {}).get("intro") if game.guide else None,
            "static": game.static_data(game.make_config())}


def problem(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


class SecurityHeaders:
    """Headers on every HTTP response that keep the pages from being framed, sniffed or made to load anything
    but their own files (pure ASGI: it wraps ``send``, and costs nothing on websockets)."""

    FIXED = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
             (b"referrer-policy", b"no-referrer")]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = content_security_policy(Headers(scope=scope).get("host", "")).encode("latin-1")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.FIXED,
                                      (b"content-security-policy", policy)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RoomsWhereTheirTablesAre:
    """With several processes: a request about a room whose table another process owns is answered by that
    process (routing.py passes it whole through the bus). Only ``/api/rooms/...`` requests are looked at."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        router = scope["app"].state.router if path.startswith("/api/rooms/") else None
        if router is None or any(name == FORWARDED.encode() for name, _ in scope["headers"]):
            await self.app(scope, receive, send)
            return
        body = b""
        while True:  # bounded: the body-size limit refuses more before any route reads it
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body") or len(body) > MAX_BODY_BYTES:
                break
        code: object = path.split("/")[3]
        if code == "join":
            sent = parse_json(body.decode("utf-8", "replace"))
            code = sent.get("code") if isinstance(sent, dict) else None
        owner = await scope["app"].state.rooms.owner_elsewhere(code)
        if owner is not None:
            status, headers, answer = await router.forward_http(owner, scope, body)
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": answer})
            return
        given = False

        async def replay() -> Message:
            nonlocal given
            if given:
                return await receive()
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def content_security_policy(host: str) -> str:
    """Scripts, styles, images only from this server; sockets to this host. The pages have no inline script or
    ``<style>``; style attributes stay allowed because they place and colour what the scripts draw."""
    sockets = f" ws://{host} wss://{host}" if host and host.isprintable() and " " not in host else ""
    return ("default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
            f"img-src 'self'; connect-src 'self'{sockets}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


def create_app(settings: ServerSettings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.database_url)
        bot_workers = BotWorkers.for_settings(settings)
        # On a database several processes can share, tables are owned by leases (ownership.py).
        ownership = Leases(storage, settings.lease_seconds) if storage.shared else Solo()
        manager = TableManager(settings, storage, bot_workers, ownership)
        manager.restore()
        rooms = Rooms(settings, storage, manager)
        rooms.restore()  # before the start: a room not yet started keeps its table held
        if ownership.clustered:
            manager.on_rebuild.append(rooms.adopt)  # a table taken over brings its room
        manager.start()
        await manager.start_cluster()
        router = None
        if settings.bus_url and isinstance(ownership, Leases):
            router = Router(Bus(settings.bus_url), manager, ownership)
            router.app = app
            await router.start()
            manager.shared_counts = router.bus.client  # per-address table counts, shared by every process
        app.state.router = router
        app.state.manager = manager
        app.state.rooms = rooms
        collector = None
        if settings.gc_freeze_every > 0:
            collector = asyncio.get_running_loop().create_task(
                tend_garbage_collector(settings.gc_freeze_every, settings.gc_full_every))
        try:
            yield
        finally:
            if collector is not None:
                collector.cancel()
                gc.unfreeze()
            if router is not None:
                await router.close()
                await router.bus.close()
            await manager.close()
            bot_workers.close()
            storage.close()

    # No /docs or /openapi.json: the protocol is documented in docs/protocol.md, and a stranger needs no map.
    app = FastAPI(title="divedeck", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)

    app.add_middleware(RoomsWhereTheirTablesAre)
    # Added last, so outermost: even a refused Host gets the security headers.
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.trusted_hosts())
    app.add_middleware(SecurityHeaders)

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Any:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return problem(413, "too_large", f"request bodies are at most {MAX_BODY_BYTES} bytes")
        if length is None and request.method in ("POST", "PUT", "PATCH"):
            return problem(411, "malformed", "a request body needs a Content-Length")
        return await call_next(request)

    def manager_of(request: Request | WebSocket) -> TableManager:
        manager: TableManager = request.app.state.manager
        return manager

    @app.exception_handler(RequestValidationError)
    async def malformed_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":
            return problem(400, "malformed", "the request body is not JSON in UTF-8")
        where = ".".join(str(part) for part in first.get("loc", ()))
        return problem(400, "malformed", f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "malformed" if exc.status_code < 500 else "server_error")
        message = {404: f"nothing at {request.url.path[:200]}",
                   405: f"{request.method} is not allowed here"}.get(exc.status_code, str(exc.detail))
        return problem(exc.status_code, code, message, exc.headers)

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        return {"games": [game_declaration(name) for name in game_names()]}

    @app.post("/api/tables", status_code=201, response_model=None)
    async def create_table(body: NewTable, request: Request, response: Response) -> dict[str, Any] | JSONResponse:
        options, seats, seed = dict(body.options), [seat.model_dump() for seat in body.seats], None
        if body.guide:
            guide = get_game(body.game).guide if body.game in game_names() else None
            if not guide:
                return problem(404, "no_guide", f"{body.game} has no guided game")
            options, seats, seed = dict(guide["options"]), [dict(seat) for seat in guide["seats"]], guide["seed"]
        try:
            table, tokens = await manager_of(request).create(
                body.game, options, seats, body.hotseat,
                address=client_key(request.client.host if request.client else None), seed=seed,
                clock=None if body.guide else body.clock)
        except TableError as failure:
            status = 404 if failure.code == "unknown_game" else failure.status
            return problem(status, failure.code, str(failure))
        if settings.home is not None:  # the next table this client creates is made by the next process
            response.headers["connection"] = "close"
        return {"table": table.public(), "tokens": tokens}

    @app.get("/api/tables")
    async def open_tables(request: Request) -> dict[str, Any]:
        return {"tables": [table.public() for table in manager_of(request).open_tables()]}

    @app.get("/api/tables/{table_id}", response_model=None)
    async def one_table(table_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        table = await manager_of(request).snapshot(table_id)
        if table is None:
            return problem(404, "not_found", f"no table {table_id}")
        return {"table": table.listing()}

    replays = app.state.replays = ReplayCache(settings.replay_cache_bytes, settings.replays_per_minute,
                                              settings.clock)

    @app.get("/api/tables/{table_id}/replay", response_model=None)
    async def replay(table_id: str, request: Request, seat: int | None = None) -> Response:
        """A finished table's game step by step as ``seat`` saw it (none: a spectator), from its stored log. A seat's
        replay shows its hidden cards, so it needs that seat's token (header ``X-Seat-Token``, kept out of URLs and
        logs), as the seat's socket did: a finished game's hands stay as private as they were. Built once per
        viewer and kept (replay.py); each address may ask ``replays_per_minute``."""
        if not replays.allow(address_of(request) or "unknown"):
            return problem(429, "rate_limited", f"at most {settings.replays_per_minute:g} replays a minute from "
                                                "one address")
        manager = manager_of(request)
        table = await manager.snapshot(table_id)
        if table is None:
            return problem(404, "not_found", f"no table {table_id}")
        if not table.finished:
            return problem(409, "not_finished", "a table can be replayed once its game is over")
        if seat is not None and not 0 <= seat < len(table.seats):
            return problem(400, "malformed", f"there is no seat {seat} at this table")
        if seat is not None:
            holder = table.seat_for_token(request.headers.get("x-seat-token"))
            if holder is None or holder.index != seat:
                return problem(403, "bad_token", f"replaying as seat {seat} needs that seat's token")

        def build() -> bytes:
            stored = manager.storage.load(table_id)
            if stored is None:  # gone from storage since the table was looked up
                raise LookupError(table_id)
            return encode_bytes(replay_steps(stored, seat))

        try:
            body = await replays.get((table_id, seat), build)
        except LookupError:
            return problem(404, "not_found", f"no table {table_id}")
        return Response(body, media_type="application/json")

    @app.get("/tables", include_in_schema=False)
    async def your_tables_page() -> FileResponse:
        return FileResponse(WEB / "tables.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")
    @app.get("/api/tables/{table_id}/hint", response_model=None)
    async def guide_hint(table_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        """The guided game's hint for the seat whose token comes in the ``X-Seat-Token`` header."""
        table = await manager_of(request).snapshot(table_id)
        if table is None:
            return problem(404, "not_found", f"no table {table_id}")
        seat = table.seat_for_token(request.headers.get("x-seat-token"))
        if seat is None:
            return problem(403, "bad_token", "that token opens no seat at this table")
        return {"version": table.version, "hint": table.game.guide_hint(table.match.state, seat.index)}

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    # -- rooms: a shared screen and a phone per player (rooms.py) ------------------------------------------------
    def rooms_of(request: Request) -> Rooms:
        rooms: Rooms = request.app.state.rooms
        return rooms

    def address_of(request: Request) -> str | None:
        return client_key(request.client.host if request.client else None)

    def refused(failure: TableError) -> JSONResponse:
        return problem(404 if failure.code == "unknown_game" else failure.status, failure.code, str(failure))

    @app.post("/api/rooms", status_code=201, response_model=None)
    async def create_room(body: NewRoom, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            room, table, host = await rooms_of(request).create(body.game, dict(body.options), body.players,
                                                               address_of(request), body.bots, body.clock)
        except TableError as failure:
            return refused(failure)
        return {"room": room.public(table), "host": host}

    @app.post("/api/rooms/join", response_model=None)
    async def join_room(body: RoomJoin, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            table, seat, token = await rooms_of(request).join(body.code, body.name, address_of(request), body.token)
        except TableError as failure:
            return refused(failure)
        return {"table": table.id, "seat": seat, "token": token}

    @app.get("/api/rooms/{code}", response_model=None)
    async def room_state(code: str, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            room, table = rooms_of(request).hosted(code, request.headers.get("x-room-host"), address_of(request))
        except TableError as failure:
            return refused(failure)
        return {"room": room.public(table)}

    @app.post("/api/rooms/{code}/bots", response_model=None)
    async def room_bot(code: str, body: RoomHost, request: Request) -> dict[str, Any] | JSONResponse:
        rooms = rooms_of(request)
        try:
            room, table = rooms.hosted(code, body.host, address_of(request))
            await rooms.add_bot(room, table, body.seat, body.bot)
        except TableError as failure:
            return refused(failure)
        return {"room": room.public(table)}

    @app.post("/api/rooms/{code}/invite", response_model=None)
    async def room_invite(code: str, body: RoomHost, request: Request) -> dict[str, Any] | JSONResponse:
        """An invite link's token for an open seat, for a player who is not in the room (a mixed room)."""
        rooms = rooms_of(request)
        try:
            room, table = rooms.hosted(code, body.host, address_of(request))
            token = await rooms.invite(room, table, body.seat)
        except TableError as failure:
            return refused(failure)
        return {"room": room.public(table), "seat": body.seat, "token": token}

    @app.post("/api/rooms/{code}/readmit", response_model=None)
    async def room_readmit(code: str, body: RoomHost, request: Request) -> dict[str, Any] | JSONResponse:
        """The host lets a seat's person join again by name (their phone died, and its token with it)."""
        rooms = rooms_of(request)
        try:
            room, table = rooms.hosted(code, body.host, address_of(request))
            rooms.readmit(room, table, body.seat)
        except TableError as failure:
            return refused(failure)
        return {"room": room.public(table)}

    @app.post("/api/rooms/{code}/start", response_model=None)
    async def room_start(code: str, body: RoomHost, request: Request) -> dict[str, Any] | JSONResponse:
        rooms = rooms_of(request)
        try:
            room, table = rooms.hosted(code, body.host, address_of(request))
            await rooms.start(room, table)
        except TableError as failure:
            return refused(failure)
        return {"room": room.public(table)}

    @app.get("/api/rooms/{code}/qr.svg", response_model=None)
    async def room_qr(code: str, request: Request) -> Response | JSONResponse:
        # Drawn for any well-formed code, open or not: the picture tells a guesser nothing.
        normal = normal_code(code)
        if normal is None:
            return problem(404, "not_found", "a room code is 6 letters")
        link = f"{request.url.scheme}://{request.headers.get('host', 'localhost')}/join#{normal}"
        return Response(qr_svg(link), media_type="image/svg+xml", headers={"cache-control": "no-store"})

    @app.get("/room/{code}", include_in_schema=False)
    async def room_page(code: str) -> FileResponse:
        return FileResponse(WEB / "room.html")

    @app.get("/join", include_in_schema=False)
    async def join_page() -> FileResponse:
        return FileResponse(WEB / "join.html")

    app.mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static")

    # A plain Starlette route: FastAPI's dependency machinery would stay on the stack of every open socket (memory
    # per idle table is one of the server's numbers) and this endpoint has no dependencies to solve.
    sockets = app.state.sockets = SocketLimits(settings.sockets_per_address, settings.sockets_per_table)

    @app.websocket_route("/ws/tables/{table_id}")
    async def play(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        await websocket.accept()
        table = await manager_of(websocket).find(table_id)
        if table is None:
            await _refuse(websocket, "not_found", f"no table {table_id}", 4404)
            return
        address = client_key(websocket.client.host if websocket.client else None) or "unknown"
        refusal = sockets.admit(address, table_id)
        if refusal is not None:
            await _refuse(websocket, "too_many_sockets", refusal, CLOSE_TRY_AGAIN_LATER)
            return
        try:
            await seat_socket(websocket, table, table_id, address)
        finally:
            sockets.release(address, table_id)

    async def seat_socket(websocket: WebSocket, table: LiveTable | str, table_id: str, address: str) -> None:
        """A socket counted against its address and table: its hello, its welcome, then its messages (a table
        another process owns is served by its owner, through the bus)."""
        router: Router | None = websocket.app.state.router
        if isinstance(table, str) and router is None:  # another live process owns it, and no bus leads there
            await _refuse(websocket, "elsewhere", "this table is played on another server process", 1013)
            return
        try:
            first = await asyncio.wait_for(websocket.receive(), settings.hello_timeout)
        except (TimeoutError, WebSocketDisconnect):
            await _refuse(websocket, "malformed", "the first message must be a hello, sent within 10 s", 4400)
            return
        text = first.get("text")
        if text is not None and len(text.encode("utf-8", "replace")) > settings.max_message_bytes:
            await _refuse(websocket, "too_large", f"messages are at most {settings.max_message_bytes} bytes", 1009)
            return
        hello = parse_json(text) if text is not None else None
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            await _refuse(websocket, "malformed", "the first message must be a hello", 4400)
            return
        if type(hello.get("protocol")) is not int or hello.get("protocol") not in PROTOCOLS:
            await _refuse(websocket, "bad_protocol", f"this server speaks protocol {PROTOCOL}: reload the page", 4400)
            return
        manager = manager_of(websocket)
        if isinstance(table, str):  # served by its owner, through the bus
            assert router is not None
            connection = Connection(websocket, None, settings.outbox_limit, settings.messages_per_second,
                                    protocol=hello["protocol"], clock=settings.clock,
                                    shared=(manager.limits.address_bucket(address),),
                                    flood_allowance=settings.flood_allowance)
            try:
                await router.relay(connection, table, table_id, hello,
                                   lambda handler: _receive_loop(websocket, connection, handler, settings))
            finally:
                manager.limits.release(address)
                await connection.flush_and_stop()
            return
        seat: SeatState | None = None
        if hello.get("spectator") is not True:
            seat = table.seat_for_token(hello.get("token"))
            if seat is None:
                await _refuse(websocket, "bad_token", "that token opens no seat at this table", 4401)
                return
        shared: tuple[Bucket, ...] = (manager.limits.address_bucket(address),)
        if seat is not None:
            if seat.bucket is None:
                seat.bucket = Bucket(settings.seat_messages_per_second, settings.clock)
            shared = (seat.bucket, *shared)
        connection = Connection(websocket, None if seat is None else seat.index, settings.outbox_limit,
                                settings.messages_per_second, protocol=hello["protocol"], clock=settings.clock,
                                shared=shared, flood_allowance=settings.flood_allowance)
        try:
            try:
                table.join(connection, hello.get("name"))
            except Exception:
                logger.exception("could not welcome a socket at table %s", table.id)
                await _refuse(websocket, "server_error", "this table cannot be shown now", 1011)
                return
            await _receive_loop(websocket, connection, table, settings)
        finally:
            table.leave(connection)
            manager.limits.release(address)
            await connection.flush_and_stop()

    return app


async def _receive_loop(websocket: WebSocket, connection: Connection, table: Any, settings: ServerSettings) -> None:
    limit = settings.max_message_bytes
    # The protocol's own receive where it offers it (send_many.py): after the hello, a message is a text or the end.
    receive = connection.protocol_receive or websocket.receive
    while not connection.closed:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            websocket.client_state = WebSocketState.DISCONNECTED  # Starlette's record, as its receive keeps it
            return
        text, data = message.get("text"), message.get("bytes")
        # The rate comes first and costs the same whatever the message: a flood is refused before it is read.
        if not connection.allow():
            if connection.flooding():
                await _cut_off(websocket, connection, "flooding", "too many messages: disconnected", 1008)
                return
            _refuse_rate(connection, text, settings)
            continue
        if text is None:
            if data is not None and len(data) > limit:
                await _cut_off(websocket, connection, "too_large", f"messages are at most {limit} bytes", 1009)
                return
            connection.send(error("malformed", "messages are JSON text, not binary"))
            continue
        if len(text) > limit or (4 * len(text) > limit and len(text.encode("utf-8", "replace")) > limit):
            await _cut_off(websocket, connection, "too_large", f"messages are at most {limit} bytes", 1009)
            return
        await table.handle(connection, text)


def _refuse_rate(connection: Connection, text: str | None, settings: ServerSettings) -> None:
    """Say a message was dropped. A dropped act or check is named (by client id, by action), so the client knows
    which went unanswered; reading it is paid for from the socket's flood allowance, which bounds it."""
    dropped = parse_json(text) if text is not None and len(text) <= settings.max_message_bytes else None
    if not isinstance(dropped, dict):
        dropped = {}
    kind = dropped.get("type")
    client_id = dropped.get("client_id") if kind == "act" else None
    check = dropped.get("action") if kind == "check" else None
    client_id = client_id if isinstance(client_id, str) and encodable(client_id) else None
    check = check if isinstance(check, str) and encodable(check) else None
    if client_id is not None or check is not None or connection.should_warn_rate():
        connection.send(error("rate_limited", f"too many messages: at most {settings.messages_per_second:g} a "
                                              "second", client_id=client_id, check=check))


async def _cut_off(websocket: WebSocket, connection: Connection, code: str, message: str, close_code: int) -> None:
    """A last error, then the close code."""
    connection.send(error(code, message))
    await connection.flush_and_stop()
    with contextlib.suppress(Exception):
        await websocket.close(close_code)


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(error(code, message)))
        await websocket.close(close_code)
