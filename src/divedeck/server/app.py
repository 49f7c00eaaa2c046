"""The HTTP and WebSocket routes of ``divedeck serve`` (see docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from ..bots import bot_names
from ..bots.registry import bot_descriptions
from ..engine.registry import game_names, get_game
from .bot_workers import BotWorkers
from .collector import tend_garbage_collector
from .connection import Connection
from .manager import TableError, TableManager
from .settings import ServerSettings
from .storage import Storage
from .table import PROTOCOL, PROTOCOLS, encodable, error, parse_json

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_BODY_BYTES = 16384
MAX_SEATS = 16  # seats at one table (Hold your Hat allows more players than a screen can show)


class SeatSpec(BaseModel):
    kind: str = Field(max_length=20)  # checked by the manager, which answers bad_seats
    bot: str | None = Field(default=None, max_length=40)
    name: str | None = Field(default=None, max_length=40)


class NewTable(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, str | int | bool | None] = Field(default_factory=dict, max_length=32)
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    hotseat: bool = False


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
            "default_bot": game.levels.stand_in if game.levels.stand_in in offered else None,
            "min_players": fewest, "max_players": most, "default_players": game.default_players(),
            "realtime": game.realtime, "frontends": sorted(game.frontends),
            "static": game.static_data(game.make_config())}


def problem(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app(settings: ServerSettings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.database_url)
        bot_workers = BotWorkers.for_settings(settings)
        manager = TableManager(settings, storage, bot_workers)
        manager.restore()
        manager.start()
        app.state.manager = manager
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
            await manager.close()
            bot_workers.close()
            storage.close()

    app = FastAPI(title="divedeck", lifespan=lifespan, docs_url=None, redoc_url=None)

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
        where = ".".join(str(part) for part in first.get("loc", ()))
        return problem(400, "malformed", f"{where}: {first.get('msg', 'invalid request')}")

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        return {"games": [game_declaration(name) for name in game_names()]}

    @app.post("/api/tables", status_code=201, response_model=None)
    async def create_table(body: NewTable, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            table, tokens = await manager_of(request).create(
                body.game, dict(body.options), [seat.model_dump() for seat in body.seats], body.hotseat)
        except TableError as failure:
            return problem(400 if failure.code != "unknown_game" else 404, failure.code, str(failure))
        return {"table": table.public(), "tokens": tokens}

    @app.get("/api/tables")
    async def open_tables(request: Request) -> dict[str, Any]:
        return {"tables": [table.public() for table in manager_of(request).open_tables()]}

    @app.get("/api/tables/{table_id}", response_model=None)
    async def one_table(table_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        table = manager_of(request).get(table_id)
        if table is None:
            return problem(404, "not_found", f"no table {table_id}")
        return {"table": table.public()}

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    app.mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static")

    # A plain Starlette route: FastAPI's dependency machinery would stay on the stack of every open socket (memory
    # per idle table is one of the server's numbers) and this endpoint has no dependencies to solve.
    @app.websocket_route("/ws/tables/{table_id}")
    async def play(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        await websocket.accept()
        table = manager_of(websocket).get(table_id)
        if table is None:
            await _refuse(websocket, "not_found", f"no table {table_id}", 4404)
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
        seat: int | None = None
        if hello.get("spectator") is not True:
            found = table.seat_for_token(hello.get("token"))
            if found is None:
                await _refuse(websocket, "bad_token", "that token opens no seat at this table", 4401)
                return
            seat = found.index
        connection = Connection(websocket, seat, settings.outbox_limit, settings.messages_per_second,
                                protocol=hello["protocol"], clock=settings.clock)
        table.join(connection)
        try:
            await _receive_loop(websocket, connection, table, settings)
        finally:
            table.leave(connection)
            await connection.flush_and_stop()

    return app


async def _receive_loop(websocket: WebSocket, connection: Connection, table: Any, settings: ServerSettings) -> None:
    while not connection.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text, data = message.get("text"), message.get("bytes")
        size = len(data) if text is None and data is not None else len((text or "").encode("utf-8", "replace"))
        if size > settings.max_message_bytes:
            connection.send(error("too_large", f"messages are at most {settings.max_message_bytes} bytes"))
            await connection.flush_and_stop()
            with contextlib.suppress(Exception):
                await websocket.close(1009)
            return
        if text is None:
            connection.send(error("malformed", "messages are JSON text, not binary"))
            continue
        if not connection.allow():
            # A dropped act is named by its client id, so the client knows which move to send again.
            # A dropped act or check is named (by client id, by action), so the client knows which went unanswered.
            dropped = parse_json(text)
            kind = dropped.get("type") if isinstance(dropped, dict) else None
            client_id = dropped.get("client_id") if kind == "act" else None
            check = dropped.get("action") if kind == "check" else None
            client_id = client_id if isinstance(client_id, str) else None
            check = check if isinstance(check, str) and encodable(check) else None
            if client_id is not None or check is not None or connection.should_warn_rate():
                connection.send(error("rate_limited", "too many messages: at most "
                                                      f"{settings.messages_per_second:g} a second",
                                      client_id=client_id, check=check))
            continue
        await table.handle(connection, text)


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(error(code, message)))
        await websocket.close(close_code)
