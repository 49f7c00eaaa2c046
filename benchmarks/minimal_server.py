"""The floor for the server benchmark: a minimal Starlette app that speaks divedeck's protocol subset.

It does only the bare workload of a turn-based card table, so that the same load client drives it and
``divedeck serve`` and the difference between the two is what divedeck adds (engine, per-seat views from the
real game, presence messages, the durable log, rate limits, bounded outboxes):

* ``POST /api/tables`` with 4 human seats answers ``201 {"table": {"id", ...}, "tokens": [4 tokens]}``;
* ``/ws/tables/{id}``: a ``hello`` with a seat's token is answered by a ``welcome`` (view + legal moves);
* ``act``: a turn check and a tiny state (a version counter and whose turn it is); an accepted action sends each
  of the 4 seats its own ``update`` (one ``json.dumps`` per seat: a per-seat view of about the size of a
  Snorkeling view) and then the actor an ``ack``. A repeated ``client_id`` is acknowledged again, not applied.
* The game ends after ``GAME_LENGTH`` actions (a random 4-player game of Snorkeling takes about 228), so a load
  client that starts a new table at the end of each game churns tables at the same rate on both servers.

No persistence, no rate limit, no outbox: the sockets are written to directly. Run it with the same uvicorn
settings as ``divedeck serve`` (``cli.serve``):

    uv run python benchmarks/minimal_server.py --port 8001
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

GAME_LENGTH = int(os.environ.get("MINIMAL_GAME_LENGTH", "228"))
# "snorkeling": views and updates of about the size of divedeck's (~1 KB each), the default, so that the comparison
# measures divedeck's work rather than the size of its messages; "tiny": a view of 4 fields and no table in updates.
VIEWS = os.environ.get("MINIMAL_VIEWS", "snorkeling")
SEATS = 4
# A fixed small list of legal moves, as protocol 3's records (the size of divedeck's counts, not their meaning).
LEGAL = [{"notation": notation, "kind": kind, "cards": cards, "target": None, "label": label}
         for notation, kind, cards, label in (("pass", "pass", [], "pass"), ("c B1", "center", ["B1"], "play B1"),
                                              ("c P2", "center", ["P2"], "play P2"),
                                              ("c P3", "center", ["P3"], "play P3"))]
PROTOCOL = 3
HAND = ["G0", "B1", "B4", "P2", "P3"]
SEP = (",", ":")


class Table:
    __slots__ = ("id", "tokens", "sockets", "version", "active", "last_ids")

    def __init__(self) -> None:
        self.id = secrets.token_urlsafe(8)
        self.tokens = [secrets.token_urlsafe(16) for _ in range(SEATS)]
        self.sockets: list[WebSocket | None] = [None] * SEATS
        self.version = 0
        self.active = 0
        self.last_ids: list[tuple[str, int] | None] = [None] * SEATS  # (client_id, version) of each seat's last act

    @property
    def over(self) -> bool:
        return self.version >= GAME_LENGTH

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "game": "minimal", "title": "Minimal", "options": {},
                "seats": [{"seat": s, "kind": "human", "bot": None, "name": f"Player {s + 1}",
                           "connected": self.sockets[s] is not None, "controller": "human"} for s in range(SEATS)],
                "status": "finished" if self.over else "playing", "hotseat": False, "created": 0.0,
                "rematch": None}

    def view(self, seat: int) -> dict[str, Any]:
        """A per-seat view of about the size and shape of a Snorkeling view (the seat's own hand included)."""
        if VIEWS == "tiny":
            return {"seat": seat, "active": self.active, "version": self.version, "hand": HAND}
        return {"game": "minimal", "seat": seat, "players": SEATS, "round": 1, "phase": "center",
                "active": self.active, "version": self.version, "scores": [0, 0, 0, 0], "target_score": 12,
                "center": ["P0"], "deck_size": 54, "piles": [[], [], [], []], "pile_tops": [5, 5, 5, 5],
                "hand_sizes": [5, 5, 5, 5], "turn": {"center_played": 0, "targets": []}, "hand": HAND}

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return LEGAL if seat == self.active and not self.over else []

    def outcome(self) -> dict[str, Any] | None:
        return {"winners": [0], "scores": [12, 0, 0, 0], "termination": "score"} if self.over else None


TABLES: dict[str, Table] = {}


async def create_table(request: Request) -> JSONResponse:
    body = await request.json()
    if not isinstance(body, dict) or len(body.get("seats", ())) != SEATS:
        return JSONResponse({"error": {"code": "bad_seats", "message": f"{SEATS} seats"}}, status_code=400)
    table = Table()
    TABLES[table.id] = table
    return JSONResponse({"table": table.public(), "tokens": table.tokens}, status_code=201)


def error(code: str, message: str, client_id: Any = None) -> str:
    return json.dumps({"type": "error", "code": code, "message": message, "client_id": client_id}, separators=SEP)


async def play(websocket: WebSocket) -> None:
    await websocket.accept()
    table = TABLES.get(websocket.path_params["table_id"])
    if table is None:
        await websocket.send_text(error("not_found", "no such table"))
        await websocket.close(4404)
        return
    hello = json.loads(await websocket.receive_text())
    token = hello.get("token")
    seat = table.tokens.index(token) if token in table.tokens else -1
    if hello.get("type") != "hello" or hello.get("protocol") != PROTOCOL or seat < 0:
        await websocket.send_text(error("bad_token", "that token opens no seat"))
        await websocket.close(4401)
        return
    table.sockets[seat] = websocket
    await websocket.send_text(json.dumps(
        {"type": "welcome", "protocol": PROTOCOL, "table": table.public(), "seat": seat, "version": table.version,
         "static": {}, "view": table.view(seat), "legal": table.legal(seat), "log": [], "outcome": table.outcome()},
        separators=SEP))
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            data = json.loads(message["text"])
            kind = data.get("type")
            if kind == "ping":
                await websocket.send_text('{"type":"pong"}')
                continue
            if kind != "act":
                await websocket.send_text(error("malformed", f"unknown message type {kind!r}"))
                continue
            client_id = data.get("client_id")
            last = table.last_ids[seat]
            if last is not None and last[0] == client_id:  # a retry: acknowledge again, do not apply twice
                await websocket.send_text(json.dumps({"type": "ack", "client_id": client_id, "version": last[1]},
                                                     separators=SEP))
                continue
            if table.over:
                await websocket.send_text(error("game_over", "the game is over", client_id))
                continue
            if seat != table.active:  # the turn check
                await websocket.send_text(error("not_your_turn", "it is not your turn", client_id))
                continue
            action = data.get("action")
            table.version += 1  # the tiny state
            table.active = (table.active + 1) % SEATS
            table.last_ids[seat] = (client_id, table.version)
            # the public table goes along only when it changed (the first and the last action)
            changed = VIEWS != "tiny" and (table.version == 1 or table.over)
            extra = {"table": table.public()} if changed else {}
            events = [{"kind": "play", "seat": seat, "action": action,
                       "parts": [{"seat": seat}, {"text": f" played {action}"}]}]
            for other, socket in enumerate(table.sockets):  # four per-seat JSON views
                if socket is not None:
                    await socket.send_text(json.dumps(
                        {"type": "update", "version": table.version, "actor": seat, "action": action,
                         "events": events, "view": table.view(other), "legal": table.legal(other),
                         "outcome": table.outcome(), **extra}, separators=SEP))
            await websocket.send_text(json.dumps({"type": "ack", "client_id": client_id, "version": table.version},
                                                 separators=SEP))
    finally:
        if table.sockets[seat] is websocket:
            table.sockets[seat] = None
        if all(s is None for s in table.sockets):
            TABLES.pop(table.id, None)


app = Starlette(routes=[Route("/api/tables", create_table, methods=["POST"]),
                        WebSocketRoute("/ws/tables/{table_id}", play)])


def _log_gc_pauses() -> None:
    """Diagnostic (``BENCH_DIAGNOSE=1``): one line on stderr for every collector pass over 5 ms."""
    import gc
    import sys
    import time

    started: list[float] = []

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            took = (time.perf_counter() - started.pop()) * 1000
            if took > 5:
                print(f"diag gc gen{info['generation']} {took:.1f} ms collected {info['collected']}",
                      file=sys.stderr, flush=True)

    gc.callbacks.append(on_gc)


def freeze_periodically(seconds: float) -> None:
    """Diagnostic (``BENCH_GC_FREEZE=S``): ``gc.freeze()`` every S seconds from a daemon thread, so that full
    collections no longer walk every long-lived connection object (garbage cycles older than that are kept)."""
    import gc
    import threading
    import time

    def loop() -> None:
        while True:
            time.sleep(seconds)
            gc.freeze()

    threading.Thread(target=loop, name="gc-freeze", daemon=True).start()


def main() -> None:
    import uvicorn

    if os.environ.get("BENCH_DIAGNOSE") == "1":
        _log_gc_pauses()
    if os.environ.get("BENCH_GC_FREEZE"):
        freeze_periodically(float(os.environ["BENCH_GC_FREEZE"]))

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    # The same uvicorn settings as ``divedeck serve`` (src/divedeck/cli/serve.py).
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536)


if __name__ == "__main__":
    main()
