"""The restart test: a real ``divedeck serve`` is killed (SIGKILL) mid-play and started again on its database.

Four tables (some with a bot) are played partway through websocket clients; every acknowledged action is
recorded, then one more action per table is sent and the server is killed before it can answer. After the
restart, no acknowledged action may be missing (an action in flight may or may not be there), every seat's
welcome must show exactly the state a replay of the stored log from the stored seed gives, a retried in-flight
action must be applied at most once, and every game must play on to its end.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import random
import sqlite3
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from divedeck.engine.match import Match
from tests.live_server import ServerProcess

from .conftest import PROTOCOL, SNORKELING

OPTIONS = {"target_score": 1}
TABLES = [["human", "human"], ["human", "human", "human"], ["human", "greedy", "human"],
          ["human", "human", "random", "human"]]
PARTWAY = 10  # actions by the test's players on each table before the crash
SENDS_PER_SECOND = 15  # under the server's limit of 20 messages a second per socket
TIMEOUT = 10.0
# Seconds between sending each table's last action and the next step; the kill follows the last one at once.
KILL_DELAYS = (0.02, 0.002, 0.0005, 0.0)
_ids = itertools.count(1)


class Client:
    """A websocket client of the real server: a reader task files every message; sends are paced."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.messages: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None
        self.replies: dict[str, dict[str, Any]] = {}
        self.closed = False
        self.opened_with: tuple[ServerProcess, str, str | None] | None = None  # to open it again
        self._changed = asyncio.Event()
        self._sent: collections.deque[float] = collections.deque()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, server: ServerProcess, table_id: str, token: str | None, name: str) -> Client:
        ws = await connect(f"{server.ws_url}/ws/tables/{table_id}", max_size=None, open_timeout=TIMEOUT)
        client = cls(ws, name)
        client.opened_with = (server, table_id, token)
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL}
        hello.update({"token": token} if token is not None else {"spectator": True})
        await client.send(hello)
        await client.wait_for(lambda: client.welcome is not None or client.closed, "a welcome")
        assert client.welcome is not None, f"{name}: no welcome: {client.messages}"
        return client

    @classmethod
    async def open_raw(cls, server: ServerProcess, table_id: str, token: str | None) -> tuple[str, int | None]:
        """Say hello and return the first error's code and the close code (for a socket the server refuses)."""
        ws = await connect(f"{server.ws_url}/ws/tables/{table_id}", max_size=None, open_timeout=TIMEOUT)
        try:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}))
            first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            with contextlib.suppress(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            return first.get("code", first["type"]), ws.close_code
        finally:
            await ws.close()

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                self.messages.append(message)
                if message["type"] in ("welcome", "update") and (
                        self.last is None or message["version"] >= self.last["version"]):
                    self.last = message
                if message["type"] == "welcome":
                    self.welcome = message
                if message["type"] in ("ack", "error") and message.get("client_id"):
                    self.replies[message["client_id"]] = message
                self._wake()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._wake()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, condition: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"{self.name}: timed out waiting for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def send(self, message: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            while self._sent and now - self._sent[0] > 1.0:
                self._sent.popleft()
            if len(self._sent) < SENDS_PER_SECOND:
                break
            await asyncio.sleep(1.0 - (now - self._sent[0]) + 0.01)
        self._sent.append(loop.time())
        await self.ws.send(json.dumps(message))

    async def act_message(self, action: str) -> dict[str, Any]:
        assert self.last is not None
        message = {"type": "act", "client_id": f"r-{next(_ids)}", "action": action, "version": self.last["version"]}
        await self.send(message)
        return message

    async def reply(self, client_id: str) -> dict[str, Any]:
        await self.wait_for(lambda: client_id in self.replies or self.closed, f"the answer to {client_id}")
        assert client_id in self.replies, f"{self.name}: closed before answering {client_id}"
        return self.replies[client_id]

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 2)
        self._reader.cancel()
        with contextlib.suppress(BaseException):
            await self._reader


@dataclass
class TableRecord:
    seats: list[str]
    id: str = ""
    tokens: list[str | None] = field(default_factory=list)
    acked: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, action, version) acknowledged
    observed: dict[int, tuple[int, str]] = field(default_factory=dict)  # version -> (actor, action) from updates
    in_flight: tuple[int, dict[str, Any]] | None = None  # (seat, act message) sent just before the kill

    @property
    def humans(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.seats) if kind == "human"]


async def open_seats(server: ServerProcess, record: TableRecord) -> dict[int, Client]:
    return {seat: await Client.open(server, record.id, record.tokens[seat], f"{record.id} seat {seat}")
            for seat in record.humans}


async def close_all(clients: dict[int, Client]) -> None:
    await asyncio.gather(*(client.close() for client in clients.values()))


async def next_turn(clients: dict[int, Client]) -> tuple[int, Client] | None:
    """Wait until one of ``clients`` may act (None once the game is over); returns its seat and client."""
    observer = next(iter(clients.values()))

    def ready() -> bool:
        last = observer.last
        return last is not None and (last["outcome"] is not None or last["view"]["active"] in clients)

    await observer.wait_for(ready, "a human's turn or the end of the game")
    assert observer.last is not None
    if observer.last["outcome"] is not None:
        return None
    seat, version = observer.last["view"]["active"], observer.last["version"]
    mine = clients[seat]
    await mine.wait_for(lambda: mine.last is not None and mine.last["version"] >= version, f"version {version}")
    assert mine.last is not None and mine.last["version"] == version and mine.last["legal"]
    return seat, mine


async def play(record: TableRecord, clients: dict[int, Client], rng: random.Random, count: int | None) -> None:
    """Random legal moves for the humans until ``count`` were acknowledged (or the game is over)."""
    played = 0
    while count is None or played < count:
        turn = await next_turn(clients)
        if turn is None:
            return
        seat, mine = turn
        assert mine.last is not None
        message = await mine.act_message(rng.choice(mine.last["legal"])["notation"])
        reply = await mine.reply(message["client_id"])
        assert reply["type"] == "ack", reply
        record.acked.append((seat, message["action"], reply["version"]))
        played += 1


def observe(record: TableRecord, clients: dict[int, Client]) -> None:
    for client in clients.values():
        for message in client.messages:
            if message["type"] == "update":
                entry = (message["actor"], message["action"])
                assert record.observed.setdefault(message["version"], entry) == entry


def stored(database: Path, table_id: str) -> tuple[int, dict[str, Any], list[tuple[int, int, str, str | None]]]:
    """The server's own record of a table, read straight from its SQLite file: seed, options, actions."""
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        seed, options = db.execute("SELECT seed, options FROM tables WHERE id = ?", (table_id,)).fetchone()
        rows = db.execute("SELECT seq, seat, action, client_id FROM actions WHERE table_id = ? ORDER BY seq",
                          (table_id,)).fetchall()
    return int(seed), json.loads(options), rows


def replayed(database: Path, table_id: str, version: int) -> tuple[Match, list[Any]]:
    """The match after the first ``version`` stored actions, and every event on the way (the deal first)."""
    seed, options, rows = stored(database, table_id)
    assert len(rows) >= version, f"{table_id}: the welcome says version {version}, storage has {len(rows)}"
    assert [row[0] for row in rows] == list(range(len(rows)))
    match = Match.start("snorkeling", options, seed)
    events = list(match.opening)
    for _, seat, action, _ in rows[:version]:
        events += match.act(seat, action)
    return match, events


def jsonish(value: Any) -> Any:
    return json.loads(json.dumps(value))


def run(coroutine: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """``asyncio.run`` on a thread of its own: another test's tooling may leave a loop running on this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(coroutine())).result()


@dataclass
class Crash:
    server: ServerProcess
    tables: list[TableRecord]


async def play_then_crash(server: ServerProcess) -> list[TableRecord]:
    records = [TableRecord(seats) for seats in TABLES]
    for record in records:
        specs = [{"kind": "human"} if k == "human" else {"kind": "bot", "bot": k} for k in record.seats]
        status, answer = server.request("POST", "/api/tables", {"game": "snorkeling", "options": OPTIONS,
                                                                "seats": specs})
        assert status == 201, answer
        record.id, record.tokens = answer["table"]["id"], answer["tokens"]
    clients = [await open_seats(server, record) for record in records]
    rngs = [random.Random(index) for index in range(len(records))]
    await asyncio.gather(*(play(r, c, rng, PARTWAY) for r, c, rng in zip(records, clients, rngs, strict=True)))
    # One more action on every table, sent a moment apart, and the server is killed without waiting for them:
    # the first ones are usually stored (acknowledged or not), the last ones usually not.
    for record, table_clients, rng, delay in zip(records, clients, rngs, KILL_DELAYS, strict=True):
        turn = await next_turn(table_clients)
        if turn is not None:
            seat, mine = turn
            assert mine.last is not None
            record.in_flight = seat, await mine.act_message(rng.choice(mine.last["legal"])["notation"])
            if delay:
                await asyncio.sleep(delay)
    server.kill()
    for record, table_clients in zip(records, clients, strict=True):
        await close_all(table_clients)
        observe(record, table_clients)
        if record.in_flight is not None:  # answered before the kill: then it is acknowledged like any other
            seat, message = record.in_flight
            reply = table_clients[seat].replies.get(message["client_id"])
            if reply is not None and reply["type"] == "ack":
                record.acked.append((seat, message["action"], reply["version"]))
        assert len(record.acked) >= PARTWAY
    return records


@pytest.fixture(scope="module")
def crash(real_server: ServerProcess) -> Crash:
    records = run(lambda: play_then_crash(real_server))
    real_server.start()  # the same database, a new process
    return Crash(real_server, records)


def test_tables_are_back_after_the_restart(crash: Crash) -> None:
    status, answer = crash.server.request("GET", "/api/tables")
    assert status == 200
    listed = {table["id"]: table for table in answer["tables"]}
    for record in crash.tables:
        assert record.id in listed, f"table {record.id} was not restored"
        assert [s["kind"] for s in listed[record.id]["seats"]] == [
            "human" if k == "human" else "bot" for k in record.seats]


def test_no_acknowledged_action_is_lost(crash: Crash) -> None:
    async def check() -> None:
        for record in crash.tables:
            clients = await open_seats(crash.server, record)
            try:
                welcome = clients[record.humans[0]].welcome
                assert welcome is not None
                acked_versions = [version for _, _, version in record.acked]
                assert welcome["version"] >= max(acked_versions) >= len(record.acked)
                assert welcome["version"] >= max(record.observed)  # an update is sent only after storage
                _, _, rows = stored(crash.server.database, record.id)
                log = {seq + 1: (seat, action) for seq, seat, action, _ in rows}
                for seat, action, version in record.acked:
                    assert log.get(version) == (seat, action), f"{record.id}: acknowledged action {version} lost"
                for version, entry in record.observed.items():
                    assert log.get(version) == entry, f"{record.id}: action {version} differs from its update"
            finally:
                await close_all(clients)

    run(check)


def test_every_seat_sees_exactly_the_replayed_state(crash: Crash) -> None:
    async def check() -> None:
        for record in crash.tables:
            clients = await open_seats(crash.server, record)
            spectator = await Client.open(crash.server, record.id, None, f"{record.id} spectator")
            try:
                for seat, client in [*clients.items(), (None, spectator)]:
                    welcome = client.welcome
                    assert welcome is not None and welcome["seat"] == seat
                    match, _ = replayed(crash.server.database, record.id, welcome["version"])
                    where = f"{record.id} seat {seat} at version {welcome['version']}"
                    assert welcome["view"] == jsonish(SNORKELING.view(match.state, seat)), where
                    legal = ([SNORKELING.action_record(match.state, seat, action)
                              for action in SNORKELING.legal_actions(match.state, seat)]
                             if seat is not None and seat in SNORKELING.actors(match.state) else [])
                    assert welcome["legal"] == jsonish(legal), where
                    outcome = SNORKELING.outcome(match.state)
                    assert welcome["outcome"] == (None if outcome is None else jsonish(outcome.to_dict()))
            finally:
                await close_all({**clients, -1: spectator})

    run(check)


def test_recent_events_survive_the_restart(crash: Crash) -> None:
    """A welcome's `log` is the seat's most recent events (docs/protocol.md), after a restart too."""
    async def check() -> None:
        for record in crash.tables:
            clients = await open_seats(crash.server, record)
            try:
                for seat, client in clients.items():
                    welcome = client.welcome
                    assert welcome is not None
                    _, events = replayed(crash.server.database, record.id, welcome["version"])
                    expected = jsonish([{**event.for_seat(seat), "parts": SNORKELING.log_parts(event, seat)}
                                        for event in events][-200:])
                    assert welcome["log"] == expected, (
                        f"{record.id} seat {seat}: {len(welcome['log'])} events in the log after the restart, "
                        f"{len(expected)} expected")
            finally:
                await close_all(clients)

    run(check)


def test_a_retried_in_flight_action_is_applied_at_most_once(crash: Crash) -> None:
    async def check() -> None:
        retried = 0
        for record in crash.tables:
            if record.in_flight is None:
                continue
            seat, message = record.in_flight
            _, _, before = stored(crash.server.database, record.id)
            was_stored = [row for row in before if row[3] == message["client_id"]]
            client = await Client.open(crash.server, record.id, record.tokens[seat], f"{record.id} retry")
            try:
                await client.send(message)  # the same client_id, as a page does after reconnecting
                reply = await client.reply(message["client_id"])
            finally:
                await client.close()
            _, _, after = stored(crash.server.database, record.id)
            rows = [row for row in after if row[3] == message["client_id"]]
            assert len(rows) == 1, f"{record.id}: the in-flight action is stored {len(rows)} times"
            seq, stored_seat, action, _ = rows[0]
            assert (stored_seat, action) == (seat, message["action"])
            assert reply == {"type": "ack", "client_id": message["client_id"], "version": seq + 1}
            if was_stored:
                assert seq == was_stored[0][0]
            else:
                assert seq == message["version"] == len(before)
            record.acked.append((seat, message["action"], seq + 1))
            retried += 1
        assert retried

    run(check)


def test_every_game_plays_on_to_its_end(crash: Crash) -> None:
    async def finish(record: TableRecord, rng: random.Random) -> None:
        clients = await open_seats(crash.server, record)
        try:
            await play(record, clients, rng, None)
            last = next(iter(clients.values())).last
            assert last is not None and last["outcome"] is not None
            assert {"winners", "scores", "termination"} <= set(last["outcome"])
            match, _ = replayed(crash.server.database, record.id, last["version"])
            assert match.over and jsonish(SNORKELING.outcome(match.state).to_dict()) == last["outcome"]
        finally:
            await close_all(clients)

    async def check() -> None:
        await asyncio.gather(*(finish(record, random.Random(100 + index))
                               for index, record in enumerate(crash.tables)))

    run(check)
    for record in crash.tables:
        status, answer = crash.server.request("GET", f"/api/tables/{record.id}")
        assert status == 200 and answer["table"]["status"] == "finished"
