"""The test-only real-time game ``test-buzzer`` (tests/server/buzzer.py) registered for a test, and a server on a
manual clock to play it: the fixtures a test module imports to use them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from divedeck.engine import registry
from divedeck.sim.clock import ManualClock

from .conftest import Harness

BUZZER = "test-buzzer"
START = 1_000_000  # the manual clock's start (ms): far from 0, so a stamp taken from a client would show


@pytest.fixture(autouse=True)
def buzzer_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry._MODULES, BUZZER, "tests.server.buzzer")
    yield
    registry._loaded.pop(BUZZER, None)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def app(make_app: Callable[..., Harness], clock: ManualClock) -> Harness:
    return make_app(clock=clock)


def new_buzzer_table(app: Harness, seats: tuple[str, ...], length_ms: int = 400) -> tuple[str, list[Any]]:
    """A buzzer table with ``seats`` (``human`` or a bot name); its id and seat tokens."""
    table_id, tokens, _ = app.create(seats, {"num_players": len(seats), "length_ms": length_ms}, game=BUZZER)
    return table_id, tokens
