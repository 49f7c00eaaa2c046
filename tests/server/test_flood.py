"""Floods (issue 13, item 5): budgets per socket, per seat and per address; a socket that keeps exceeding its
budget is cut off; a refused message is not read; and a real server under a full-speed flood keeps answering the
other tables."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
import websockets

from divedeck.sim.clock import ManualClock
from tests.live_server import running_server

from .conftest import Harness

RATE = 20
ALLOWANCE = 40


def flood_app(make_app: Any, **limits: Any) -> Harness:
    # The clock stands still: no bucket refills while the test floods.
    values = {"messages_per_second": RATE, "flood_allowance": ALLOWANCE, "clock": ManualClock(), **limits}
    app: Harness = make_app(**values)
    return app


def test_a_socket_that_keeps_flooding_is_cut_off_with_a_last_error(make_app: Any) -> None:
    app = flood_app(make_app)
    table_id, tokens, _ = app.create()
    flooder = app.connect(table_id, tokens[0])
    flooder.drain()
    for _ in range(RATE + ALLOWANCE + 50):
        flooder.send({"type": "ping"})
    answers = flooder.drain(quiet=0.3)
    assert answers[-1] == {"type": "_closed", "code": 1008}
    assert answers[-2]["type"] == "error" and answers[-2]["code"] == "flooding"
    assert sum(1 for m in answers if m["type"] == "pong") == RATE
    # The other seat, on the same table and address, is not cut off with it.
    other = app.connect(table_id, tokens[1])
    assert other.sync(timeout=2) == []


def test_sockets_of_one_seat_share_its_budget(make_app: Any) -> None:
    app = flood_app(make_app, seat_messages_per_second=RATE)
    table_id, tokens, _ = app.create()
    sockets = [app.connect(table_id, tokens[0]) for _ in range(3)]
    for socket_ in sockets:
        socket_.drain()
        for _ in range(RATE // 2):
            socket_.send({"type": "ping"})
    pongs = sum(1 for socket_ in sockets for m in socket_.drain(quiet=0.2) if m["type"] == "pong")
    assert pongs == RATE


def test_sockets_of_one_address_share_its_budget(make_app: Any) -> None:
    app = flood_app(make_app, address_messages_per_second=30)
    sockets = []
    for _ in range(3):
        table_id, tokens, _ = app.create()
        sockets.append(app.connect(table_id, tokens[0]))
    for socket_ in sockets:
        socket_.drain()
        for _ in range(RATE):
            socket_.send({"type": "ping"})
    pongs = sum(1 for socket_ in sockets for m in socket_.drain(quiet=0.2) if m["type"] == "pong")
    assert pongs == 30


def test_a_refused_message_is_not_read_beyond_the_flood_allowance(make_app: Any, monkeypatch: Any) -> None:
    import divedeck.server.app as server_app

    parsed: list[str] = []
    real_parse = server_app.parse_json
    monkeypatch.setattr(server_app, "parse_json", lambda text: parsed.append(text) or real_parse(text))
    app = flood_app(make_app)
    table_id, tokens, _ = app.create()
    flooder = app.connect(table_id, tokens[0])
    flooder.drain()
    parsed.clear()
    big = json.dumps({"type": "act", "client_id": "x", "action": "pass", "pad": "y" * 3000})
    for _ in range(RATE + ALLOWANCE + 200):
        flooder.send_text(big)
    assert flooder.drain(quiet=0.3)[-1] == {"type": "_closed", "code": 1008}
    # Refused messages are named only within the allowance; past it nothing is read and the socket is gone.
    assert len(parsed) <= ALLOWANCE


async def _flood_and_watch(ws_url: str, flood: dict[str, Any],
                           calm: dict[str, Any]) -> tuple[int, list[dict[str, Any]], int, list[float]]:
    """Flood one table from one socket while another table's socket pings 20 times a second; returns how many
    messages the flooder sent before it saw the close, what it received, its close code, and the other socket's
    ping times."""
    hello = {"type": "hello", "protocol": 3}
    async with websockets.connect(f"{ws_url}/ws/tables/{flood['table']['id']}") as flooder, \
            websockets.connect(f"{ws_url}/ws/tables/{calm['table']['id']}") as watcher:
        await flooder.send(json.dumps({**hello, "token": flood["tokens"][0]}))
        await watcher.send(json.dumps({**hello, "token": calm["tokens"][0]}))
        await flooder.recv()
        await watcher.recv()
        sent = 0
        received: list[dict[str, Any]] = []

        async def pour() -> None:
            nonlocal sent
            ping = json.dumps({"type": "ping"})
            with pytest.raises(websockets.ConnectionClosed):
                while sent < 20_000:
                    await flooder.send(ping)
                    sent += 1
                    if sent % 100 == 0:
                        await asyncio.sleep(0)  # let the reader see the close
                await flooder.wait_closed()

        async def drain() -> None:
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    received.append(json.loads(await flooder.recv()))

        async def watch() -> list[float]:
            times = []
            for _ in range(20):
                start = time.monotonic()
                await watcher.send(json.dumps({"type": "ping"}))
                while json.loads(await watcher.recv())["type"] != "pong":
                    pass
                times.append(time.monotonic() - start)
                await asyncio.sleep(0.05)
            return times

        async with asyncio.timeout(20):
            _, _, times = await asyncio.gather(pour(), drain(), watch())
        assert flooder.close_code is not None
        return sent, received, flooder.close_code, times


def test_a_real_server_cuts_a_full_speed_pinger_off_and_keeps_answering_others(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        tables = []
        for _ in range(2):
            status, created = server.request("POST", "/api/tables", {
                "game": "snorkeling", "seats": [{"kind": "human"}, {"kind": "human"}]})
            assert status == 201
            tables.append(created)
        sent, received, code, times = asyncio.run(_flood_and_watch(server.ws_url, *tables))
        assert code == 1008 and received[-1]["code"] == "flooding"
        assert sent < 20_000  # cut off, not finished
        # Answered: its burst, what its rate refilled meanwhile, and the drops it was told of (one a second).
        assert sum(1 for m in received if m["type"] == "pong") <= 40 and len(received) <= 50
        assert max(times) < 1.0 and sorted(times)[len(times) // 2] < 0.1
        assert "Traceback" not in server.log.read_text(errors="replace")
