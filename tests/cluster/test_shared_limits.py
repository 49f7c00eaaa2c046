"""Per-address table limits (docs/server.md) hold across processes: the counts live in Redis (limits.py), so an
address that spreads its requests over processes gets no more than from one (issue 24, item 4)."""

from __future__ import annotations

from pathlib import Path

from tests.live_server import ServerProcess
from tests.services import Redis

from .conftest import FAST

TABLE = {"game": "snorkeling", "options": {"target_score": 1}, "seats": [{"kind": "human"}] * 2}


def start_two(database_url: str, redis_server: Redis, tmp_path: Path, *limits: str) -> list[ServerProcess]:
    import redis

    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()  # the counts of earlier tests on this Redis (same address, same minute) start at zero
    servers = [ServerProcess(tmp_path / "unused", tmp_path / f"limits{index}.log",
                             (*FAST, "--bus", redis_server.url, *limits), db_url=database_url) for index in range(2)]
    for server in servers:
        server.start()
    return servers


def test_new_tables_a_minute_are_counted_across_processes(database_url: str, redis_server: Redis,
                                                          tmp_path: Path) -> None:
    servers = start_two(database_url, redis_server, tmp_path, "--tables-per-minute", "3")
    try:
        codes = [server.request("POST", "/api/tables", TABLE)[0] for server in (servers[0], servers[1], servers[0])]
        assert codes == [201, 201, 201]
        for server in servers:  # each process alone would still allow one more
            status, answer = server.request("POST", "/api/tables", TABLE)
            assert (status, answer["error"]["code"]) == (429, "rate_limited"), answer
    finally:
        for server in servers:
            server.kill()


def test_unfinished_tables_of_an_address_are_counted_across_processes(database_url: str, redis_server: Redis,
                                                                      tmp_path: Path) -> None:
    servers = start_two(database_url, redis_server, tmp_path, "--open-tables-per-address", "2")
    try:
        assert [server.request("POST", "/api/tables", TABLE)[0] for server in servers] == [201, 201]
        for server in servers:
            status, answer = server.request("POST", "/api/tables", TABLE)
            assert (status, answer["error"]["code"]) == (429, "too_many_tables"), answer
    finally:
        for server in servers:
            server.kill()
