"""Pausing a real-time table whose one person plays against bots (the guided games among them): the server's
clock for the table stands still while paused (table time = server time - time paused), so the game's deadline,
the bots' pacing and every timestamp stop and go on; nobody acts while it is paused; the pause and the time paused
survive a restart. The server's clock is a manual one: each test moves time.

Hold your Hat's sand timer (HYH-C3) shows it on a real game; the toy game tests/server/buzzer.py shows the rest
without any real game's rules."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from divedeck.sim.clock import ManualClock

from . import buzzer_tables
from .buzzer_tables import START, new_buzzer_table
from .conftest import Harness, Socket, running_app, wait_for

# The buzzer's fixtures, by the names the tests ask for.
buzzer_registered, clock, app = buzzer_tables.buzzer_registered, buzzer_tables.clock, buzzer_tables.app


def buzzer(app: Harness, seats: tuple[str, ...] = ("human", "steady"), length_ms: int = 400) -> tuple[str, list[Any]]:
    return new_buzzer_table(app, seats, length_ms)


def set_paused(socket_: Socket, paused: bool) -> dict[str, Any]:
    """Ask for a pause (or a resume) and return the table message that says it happened."""
    socket_.send({"type": "pause" if paused else "resume"})
    while True:
        message = socket_.next("table", "error")
        if message["type"] == "error" or message.get("paused") is paused:
            return message


def refusal(socket_: Socket, kind: str) -> dict[str, Any]:
    socket_.send({"type": kind})
    return socket_.next("error")


def advance(app: Harness, table_id: str, clock: ManualClock, ms: int) -> None:
    """Move the server's clock on, and wait until the table applied what that made due on its own clock."""
    clock.advance(ms)
    table = app.live(table_id)

    def settled() -> bool:
        due = table.driver.due(table.match.state)
        later = due is None or table.paused or due.t > clock.now() - table.paused_ms
        return (later or table.finished) and not table.lock.locked()
    wait_for(settled, "the table applying what is due")


def test_a_paused_sand_timer_ends_the_turn_as_much_later_as_it_was_paused(app: Harness, clock: ManualClock) -> None:
    """HYH-C3: the sand timer runs out 90 s (the guided game's turn) after the start on the table's clock; paused
    for 5 s of the server's clock, the turn ends 5 s later on the server's clock, at the same table time."""
    paused_ms = 5_000
    response = app.client.post("/api/tables", json={"game": "hold-your-hat", "guide": True,
                                                         "seats": [{"kind": "human"}]})
    assert response.status_code == 201, response.text
    table_id, tokens = response.json()["table"]["id"], response.json()["tokens"]
    socket_ = app.connect(table_id, tokens[0])
    assert socket_.last is not None and socket_.last["table"]["pausable"] and socket_.last["paused"] is False
    assert socket_.act("start")["type"] == "ack"
    turn_ms = 90_000
    assert socket_.until_version(1)["view"]["timer"] == START + turn_ms
    advance(app, table_id, clock, 1_000)
    paused = set_paused(socket_, True)
    assert paused["clock"] == START + 1_000 and paused["table"]["paused"]
    for _ in range(5):
        advance(app, table_id, clock, paused_ms // 5)
        assert app.live(table_id).timer is None  # neither the sand timer nor the bots are waited for
    assert socket_.act("foul")["code"] == "paused"
    resumed = set_paused(socket_, False)
    assert resumed["clock"] == START + 1_000  # the table's clock stood still
    advance(app, table_id, clock, turn_ms - 1_000 - paused_ms)  # where the timer ran out unpaused: it runs on
    table = app.live(table_id)
    assert clock.now() == START + turn_ms and table.clock() == START + turn_ms - paused_ms
    assert table.match.state.phase == "main"
    advance(app, table_id, clock, paused_ms - 1)
    assert table.match.state.phase == "main"
    advance(app, table_id, clock, 1)
    wait_for(lambda: table.match.state.phase != "main", "the sand timer running out")
    tick = next(m for m in socket_.sync() if m.get("type") == "update" and m["actor"] == -1)
    assert [event["kind"] for event in tick["events"]][:2] == ["timeout", "turn_end"]
    assert tick["events"][0]["t"] == START + turn_ms
    assert tick["clock"] == START + turn_ms and clock.now() == START + turn_ms + paused_ms


def test_bots_do_not_act_while_paused_and_pace_on_after(app: Harness, clock: ManualClock) -> None:
    table_id, tokens = buzzer(app, length_ms=500)
    socket_ = app.connect(table_id, tokens[0])
    assert socket_.act("press")["type"] == "ack"
    advance(app, table_id, clock, 50)
    assert socket_.until_version(2)["actor"] == 1  # the steady bot presses every 50 ms
    assert set_paused(socket_, True)["clock"] == START + 50
    advance(app, table_id, clock, 1_000)
    assert [m for m in socket_.sync() if m.get("type") == "update"] == []
    assert app.live(table_id).version == 2
    assert set_paused(socket_, False)["clock"] == START + 50
    advance(app, table_id, clock, 50)
    update = socket_.until_version(3)
    assert update["actor"] == 1 and update["action"] == f"press @{START + 100}"  # the table's time: no jump


def test_actions_are_refused_while_paused(app: Harness) -> None:
    table_id, tokens = buzzer(app, length_ms=10_000)
    socket_ = app.connect(table_id, tokens[0])
    set_paused(socket_, True)
    reply = socket_.act("press")
    assert reply["type"] == "error" and reply["code"] == "paused" and reply["message"] == "the table is paused"
    assert app.live(table_id).version == 0


def test_pausing_twice_changes_nothing(app: Harness) -> None:
    table_id, tokens = buzzer(app, length_ms=10_000)
    socket_ = app.connect(table_id, tokens[0])
    set_paused(socket_, True)
    socket_.send({"type": "pause"})
    socket_.send({"type": "resume"})
    assert set_paused(socket_, False)["paused"] is False


def test_a_table_of_two_people_cannot_be_paused(app: Harness) -> None:
    table_id, tokens = buzzer(app, ("human", "human"))
    socket_ = app.connect(table_id, tokens[0])
    error = refusal(socket_, "pause")
    assert error["code"] == "not_pausable" and "one person" in error["message"]
    assert socket_.last is not None and socket_.last["table"]["pausable"] is False


def test_a_spectator_cannot_pause_or_resume(app: Harness) -> None:
    table_id, _ = buzzer(app)
    spectator = app.connect(table_id, spectator=True)
    for kind in ("pause", "resume"):
        assert refusal(spectator, kind)["code"] == "spectator"
    assert app.live(table_id).paused is False


def test_a_turn_based_table_has_no_clock_to_pause(app: Harness) -> None:
    table_id, tokens, _ = app.create(("human", "random"))
    socket_ = app.connect(table_id, tokens[0])
    assert refusal(socket_, "pause")["code"] == "not_pausable"
    assert "paused" not in socket_.last  # type: ignore[operator]


def test_a_person_who_leaves_a_paused_table_lets_it_go_on(app: Harness) -> None:
    """Their bot plays on: nobody is left to resume it, and it cannot be paused for the bot."""
    table_id, tokens = buzzer(app, length_ms=10_000)
    socket_ = app.connect(table_id, tokens[0])
    set_paused(socket_, True)
    socket_.send({"type": "leave"})
    while (message := socket_.next("table"))["paused"]:
        pass
    assert message["table"]["seats"][0]["controller"] == "bot" and not app.live(table_id).paused
    assert refusal(socket_, "pause")["code"] == "left"


def test_spectators_see_the_pause(app: Harness) -> None:
    table_id, tokens = buzzer(app)
    socket_ = app.connect(table_id, tokens[0])
    spectator = app.connect(table_id, spectator=True)
    set_paused(socket_, True)
    message = spectator.next("table")
    assert message["paused"] is True and message["table"]["paused"] is True and message["clock"] == START


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    from tests.services import postgres_available, running_postgres

    if not postgres_available():
        pytest.skip("PostgreSQL 15 is not installed")
    with running_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Settings for the table's storage: the default SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return {}
    return {"database_url": request.getfixturevalue("postgres").new_database()}


def test_the_pause_survives_a_restart(tmp_path: Path, database: dict[str, Any]) -> None:
    clock = ManualClock(START)
    with running_app(tmp_path, clock=clock, **database) as app:
        table_id, tokens = buzzer(app, length_ms=10_000)
        socket_ = app.connect(table_id, tokens[0])
        assert socket_.act("press")["type"] == "ack"
        set_paused(socket_, True)
        advance(app, table_id, clock, 1_000)
        set_paused(socket_, False)
        advance(app, table_id, clock, 100)  # the bot presses on the table's clock: START + 50, START + 100
        set_paused(socket_, True)  # paused again at the table's START + 100, 1000 ms paused before
        version = app.live(table_id).version
        clock.advance(500)
    clock.advance(5_000)  # the server was down
    with running_app(tmp_path, clock=clock, **database) as restarted:
        wait_for(lambda: restarted.live(table_id) is not None, "the table back")
        table = restarted.live(table_id)
        assert table.paused and table.paused_ms == 1_000 and table.timer is None
        socket_ = restarted.connect(table_id, tokens[0])
        welcome = socket_.last
        assert welcome is not None and welcome["paused"] is True and welcome["clock"] == START + 100
        assert set_paused(socket_, False)["clock"] == START + 100
        assert table.paused_ms == 1_000 + 5_500  # from the pause to the resume, on the server's clock
        advance(restarted, table_id, clock, 50)
        update = socket_.until_version(version + 1)
        assert update["action"] == f"press @{START + 150}"  # later than every stamp in the log
        # The game's deadline, on the table's clock, comes that much later on the server's
        assert table.timer is not None and table.game.deadline(table.match.state) == START + 10_000


def test_a_database_without_the_pause_column_gets_it(tmp_path: Path) -> None:
    """A database made before pauses existed: the column is added at start, and its tables were never paused."""
    import sqlite3

    clock = ManualClock(START)
    with running_app(tmp_path, clock=clock) as app:
        table_id, tokens = buzzer(app, length_ms=10_000)  # nobody connects: closing no socket ends it
    with sqlite3.connect(tmp_path / "t.sqlite3") as connection:
        connection.execute("ALTER TABLE tables DROP COLUMN pause")
    with running_app(tmp_path, clock=clock) as restarted:
        table = restarted.live(table_id)
        assert table is not None and not table.paused and table.paused_ms == 0
        socket_ = restarted.connect(table_id, tokens[0])
        assert set_paused(socket_, True)["paused"] is True
        with sqlite3.connect(tmp_path / "t.sqlite3") as connection:
            stored = connection.execute("SELECT pause FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
        assert json.loads(stored) == {"since": START, "total": 0}
