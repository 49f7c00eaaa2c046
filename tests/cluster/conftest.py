"""Fixtures for the cluster tests: a real PostgreSQL and a real Redis (tests/services.py), one of each per test
worker, and a fresh database per test."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import ServerProcess
from tests.services import Postgres, Redis, postgres_available, running_postgres, running_redis

LEASE = 3.0  # the default: the machine running the tests may be busy, and a late renewal loses every table
FAST = ("--bot-delay", "0", "--grace", "600", "--lease-seconds", str(LEASE), "--bot-workers", "0",
        "--address-messages-per-second", "100000", "--seat-messages-per-second", "100000",
        "--messages-per-second", "100000", "--tables-per-minute", "100000", "--open-tables-per-address", "100000")


def require(what: str, present: bool) -> None:
    # CI installs them (.ci/run): there a missing server fails the run instead of skipping it.
    if not present:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is not installed: .ci/run installs it")
        pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    require("PostgreSQL 15", postgres_available())
    with running_postgres() as server:
        yield server


@pytest.fixture
def database_url(postgres: Postgres) -> str:
    return postgres.new_database()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    import shutil

    require("redis-server", shutil.which("redis-server") is not None)
    with running_redis() as server:
        yield server


@pytest.fixture
def three_servers(database_url: str, redis_server: Redis, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    servers = [ServerProcess(tmp_path / "unused", tmp_path / f"server{index}.log",
                             (*FAST, "--bus", redis_server.url), db_url=database_url) for index in range(3)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.kill()


def stop_supervisor(server: ServerProcess) -> None:
    """Stop ``divedeck serve --processes N`` as an operator would: SIGTERM to the parent, which stops its processes
    (killed only if it has not finished within 30 s)."""
    if server.process is not None and server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
