"""``divedeck serve --processes 2`` hands every socket of a table to the process that owns it (processes.py): in
the steady state nothing is relayed through the bus, and the tables are spread over the processes."""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import create_engine, select

from divedeck.server.processes import home_of
from divedeck.server.routing import RELAYED_COUNT
from divedeck.server.storage import database_url as driver_url
from divedeck.server.storage import nodes_table
from tests.live_server import ServerProcess
from tests.server.test_restart import Client, TableRecord, close_all, run
from tests.services import Redis

from .conftest import stop_supervisor
from .test_processes import owner_pid
from .test_routing import FAST, play


def relayed(redis_server: Redis) -> int:
    client = redis.Redis.from_url(redis_server.url)
    try:
        return int(client.get(RELAYED_COUNT) or 0)
    finally:
        client.close()


@pytest.fixture
def two_processes(database_url: str, redis_server: Redis, tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "unused", tmp_path / "server.log",
                           (*FAST, "--processes", "2", "--bus", redis_server.url), db_url=database_url)
    try:
        server.start()
        wait_for_live_processes(server.database_url, 2)
        yield server
    finally:
        stop_supervisor(server)


def wait_for_live_processes(url: str, count: int) -> None:
    """Until ``count`` server processes have registered (the first one answers while the others may still be
    starting on a busy machine, and the parent hands a starting one nothing), and a moment for the last to say it
    is ready."""
    engine = create_engine(driver_url(url))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with engine.connect() as connection:
                if len(connection.execute(select(nodes_table.c.id)).all()) >= count:
                    time.sleep(0.5)
                    return
            time.sleep(0.05)
        raise AssertionError(f"fewer than {count} server processes registered within 60 s")
    finally:
        engine.dispose()


def test_every_socket_of_a_table_reaches_its_owner(two_processes: ServerProcess, redis_server: Redis) -> None:
    server = two_processes
    before = relayed(redis_server)

    async def scenario() -> list[str]:
        rng = random.Random(5)
        table_ids = []
        for _ in range(6):
            record = TableRecord(["human", "human"])
            status, answer = server.request("POST", "/api/tables", {"game": "snorkeling",
                                                                    "options": {"target_score": 1},
                                                                    "seats": [{"kind": "human"}] * 2})
            assert status == 201, answer
            record.id, record.tokens = answer["table"]["id"], answer["tokens"]
            table_ids.append(record.id)
            seats = {seat: await Client.open(server, record.id, record.tokens[seat], f"seat {seat}")
                     for seat in (0, 1)}
            spectator = await Client.open(server, record.id, None, "spectator")
            await play(record, seats, rng, 3)
            await close_all({**seats, 2: spectator})
        return table_ids

    table_ids = run(scenario)
    assert relayed(redis_server) == before, "a socket reached a process that does not own its table"
    owners = {table_id: owner_pid(server.database_url, table_id) for table_id in table_ids}
    # Each creation came on a connection of its own, handed to the processes in turn: both own tables, and a
    # table's home (where its sockets are handed) is the process that made and owns it.
    assert len(set(owners.values())) == 2, owners
    homes = {home_of(table_id, 2) for table_id in table_ids}
    assert homes == {0, 1}
    for home in homes:
        assert len({owners[t] for t in table_ids if home_of(t, 2) == home}) == 1, owners


def test_a_request_line_that_comes_in_pieces_is_still_served(two_processes: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", two_processes.port), timeout=30) as connection:
        for piece in (b"GET /api/ga", b"mes HTTP/1.1\r\nHost: 127.0"):
            connection.sendall(piece)
            with pytest.raises(TimeoutError):  # nothing comes back before the head is whole
                connection.settimeout(0.2)
                connection.recv(1)
        connection.settimeout(30)
        connection.sendall(b".0.1\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
