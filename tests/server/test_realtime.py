"""The server's clock for real-time games, tested with a toy game (tests/server/buzzer.py) so that no real
game's rules are involved: the server stamps actions with its own time, applies the game's timeout action at its
deadline, makes a lost connection the game's leave action, runs timed bots at their own pace, and never refuses a
real-time move for being based on an older version."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from divedeck.engine import registry

from .conftest import Harness, Socket, running_app

BUZZER = "test-buzzer"


@pytest.fixture(autouse=True)
def buzzer_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry._MODULES, BUZZER, "tests.server.buzzer")
    yield
    registry._loaded.pop(BUZZER, None)


def new_table(app: Harness, seats: tuple[str, ...] = ("human", "human"), length_ms: int = 400) -> tuple[str, list[Any]]:
    table_id, tokens, _ = app.create(seats, {"num_players": len(seats), "length_ms": length_ms}, game=BUZZER)
    return table_id, tokens


def wait_outcome(socket_: Socket, timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = socket_.next("update", timeout=timeout)
        if message["outcome"] is not None:
            return message
    raise AssertionError("the game did not end")


def test_actions_are_stamped_with_the_server_clock(app: Harness) -> None:
    table_id, tokens = new_table(app)
    socket_ = app.connect(table_id, tokens[0])
    before = int(time.time() * 1000)
    reply = socket_.act("press @1")  # a client's own time is replaced by the server's
    after = int(time.time() * 1000)
    assert reply["type"] == "ack", reply
    update = socket_.last
    assert update is not None
    stamp = int(re.fullmatch(r"press @(\d+)", update["action"]).group(1))  # type: ignore[union-attr]
    assert before <= stamp <= after


def test_the_deadline_fires_as_a_clock_action(app: Harness) -> None:
    table_id, tokens = new_table(app, length_ms=300)
    socket_ = app.connect(table_id, tokens[0])
    assert socket_.act("press")["type"] == "ack"
    final = wait_outcome(socket_)
    assert final["actor"] == -1 and final["action"].startswith("tick @")
    assert [event["kind"] for event in final["events"]] == ["time_up"]


def test_simultaneous_moves_are_not_refused_as_stale(app: Harness) -> None:
    table_id, tokens = new_table(app, length_ms=10_000)
    first, second = app.connect(table_id, tokens[0]), app.connect(table_id, tokens[1])
    assert first.act("press", version=0)["type"] == "ack"
    reply = second.act("press", version=0)  # sent before seeing the first press: both count
    assert reply["type"] == "ack" and reply["version"] == 2


def test_losing_the_connection_is_the_leave_action(app: Harness) -> None:
    table_id, tokens = new_table(app, length_ms=10_000)
    stayer, leaver = app.connect(table_id, tokens[0]), app.connect(table_id, tokens[1])
    assert stayer.act("press")["type"] == "ack"
    app.close(leaver)
    final = wait_outcome(stayer)
    assert final["actor"] == 1 and final["action"].startswith("quit @")


def test_timed_bots_play_at_their_own_pace(app: Harness) -> None:
    table_id, tokens = new_table(app, ("human", "steady"), length_ms=500)
    socket_ = app.connect(table_id, tokens[0])
    assert socket_.act("press")["type"] == "ack"
    final = wait_outcome(socket_)
    presses = final["view"]["presses"]
    # a press every 50 ms for 500 ms: clearly several, clearly not a busy loop
    assert 3 <= presses[1] <= 12, presses
    assert final["action"].startswith("tick @")


def test_a_restored_table_keeps_its_deadline(tmp_path: Path) -> None:
    with running_app(tmp_path) as app:  # bots only: a human's socket closing would end the game (its leave action)
        table_id, _ = new_table(app, ("steady", "steady"), length_ms=10_000)
        time.sleep(0.2)
        assert app.live(table_id).deadline_timer is not None
    with running_app(tmp_path) as restarted:
        table = restarted.live(table_id)
        assert table.deadline_timer is not None and not table.finished
        assert table.game.deadline(table.match.state) == table.match.state.started + 10_000
