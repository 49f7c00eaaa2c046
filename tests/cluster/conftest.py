"""Fixtures for the cluster tests: a real PostgreSQL and a real Redis (tests/services.py), one of each per test
worker, and a fresh database per test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.services import Postgres, Redis, postgres_available, running_postgres, running_redis


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
