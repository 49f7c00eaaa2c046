"""``divedeck serve --processes N`` (issue 24, item 1): N processes on one port and one PostgreSQL; SQLite is
refused in one line; a killed process's table goes on in another, and the killed process is replaced."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import create_engine, select

from divedeck.server.storage import database_url as driver_url
from divedeck.server.storage import leases_table, nodes_table
from tests.live_server import ServerProcess
from tests.server.test_restart import Client, TableRecord, close_all, run
from tests.services import Redis

from .conftest import stop_supervisor
from .test_routing import FAST, play, reconnect


def serve(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "divedeck.cli", "serve", "--port", "1", *arguments],
                          capture_output=True, text=True, timeout=60)


def test_more_than_one_process_on_sqlite_is_refused_in_one_line(tmp_path: Path) -> None:
    for arguments in (("--processes", "2"), ("--processes", "3", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}")):
        result = serve(*arguments)
        assert result.returncode == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "postgresql://" in lines[0] and "SQLite" in lines[0], result.stderr
    assert not (tmp_path / "x.sqlite3").exists()


def owner_pid(url: str, table_id: str) -> int:
    engine = create_engine(driver_url(url))
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(nodes_table.c.pid).join(
                leases_table, leases_table.c.owner == nodes_table.c.id).where(
                leases_table.c.table_id == table_id)).scalar_one())
    finally:
        engine.dispose()


def test_two_processes_share_a_port_and_a_killed_ones_table_goes_on(database_url: str, redis_server: Redis,
                                                                     tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "unused", tmp_path / "server.log",
                           (*FAST, "--processes", "2", "--bus", redis_server.url), db_url=database_url)
    try:
        server.start()

        async def scenario() -> None:
            record = TableRecord(["human", "human"])
            status, answer = server.request("POST", "/api/tables", {"game": "snorkeling",
                                                                    "options": {"target_score": 1},
                                                                    "seats": [{"kind": "human"}] * 2})
            assert status == 201, answer
            record.id, record.tokens = answer["table"]["id"], answer["tokens"]
            seats = {seat: await Client.open(server, record.id, record.tokens[seat], f"seat {seat}")
                     for seat in (0, 1)}
            rng = random.Random(8)
            await play(record, seats, rng, 4)
            victim = owner_pid(server.database_url, record.id)
            started = re.findall(r"server process \d: pid (\d+)", server.log.read_text())
            assert str(victim) in started
            os.kill(victim, signal.SIGKILL)
            for client in seats.values():
                await client.wait_for(lambda c=client: c.closed or c.last is None, "the owner's sockets to drop",
                                      timeout=10)
            await close_all(seats)
            seats = {seat: await reconnect(server, record.id, record.tokens[seat], f"seat {seat} again")
                     for seat in (0, 1)}
            welcome = seats[0].welcome
            assert welcome is not None and welcome["version"] == 4
            await play(record, seats, rng, 4)
            await close_all(seats)
            assert owner_pid(server.database_url, record.id) != victim
            stored = server.stored(record.id)
            assert [(s, a) for s, a, _ in stored.actions] == [(s, a) for s, a, _ in record.acked]

        run(scenario)
        deadline = time.monotonic() + 20
        while len(re.findall(r"server process \d: pid", server.log.read_text())) < 3:
            assert time.monotonic() < deadline, server.log.read_text()
            time.sleep(0.2)  # the supervisor starts a process in the killed one's place
    finally:
        stop_supervisor(server)
