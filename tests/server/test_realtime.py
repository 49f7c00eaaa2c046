"""The server's clock for real-time games, tested with a toy game (tests/server/buzzer.py) so that no real
game's rules are involved: the server stamps actions with its own time, applies the game's timeout action at its
deadline, makes a lost connection the game's leave action, runs timed bots at their own pace, and never refuses a
real-time move for being based on an older version. The server's clock is a manual one: each test moves time."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from divedeck.sim.clock import ManualClock

from . import buzzer_tables
from .buzzer_tables import START, new_buzzer_table
from .conftest import Harness, Socket, running_app

# The buzzer's fixtures, by the names the tests ask for.
buzzer_registered, clock, app = buzzer_tables.buzzer_registered, buzzer_tables.clock, buzzer_tables.app


def new_table(app: Harness, seats: tuple[str, ...] = ("human", "human"), length_ms: int = 400) -> tuple[str, list[Any]]:
    return new_buzzer_table(app, seats, length_ms)


def stamp(update: dict[str, Any]) -> int:
    return int(re.fullmatch(r"\w+ @(\d+)", update["action"]).group(1))  # type: ignore[union-attr]


def wait_outcome(socket_: Socket) -> dict[str, Any]:
    while (message := socket_.next("update"))["outcome"] is None:
        pass
    return message


def test_actions_are_stamped_with_the_server_clock(app: Harness, clock: ManualClock) -> None:
    table_id, tokens = new_table(app)
    socket_ = app.connect(table_id, tokens[0])
    clock.advance(25)
    reply = socket_.act("press @1")  # a client's own time is replaced by the server's
    assert reply["type"] == "ack", reply
    assert socket_.last is not None and stamp(socket_.last) == START + 25


def test_the_deadline_fires_as_a_clock_action_when_the_clock_reaches_it(app: Harness, clock: ManualClock) -> None:
    table_id, tokens = new_table(app, length_ms=300)
    socket_ = app.connect(table_id, tokens[0])
    assert socket_.act("press")["type"] == "ack"
    clock.advance(299)
    assert socket_.sync() == []  # not yet: nothing happens before the deadline
    clock.advance(1)
    final = wait_outcome(socket_)
    assert final["actor"] == -1 and final["action"] == f"tick @{START + 300}"
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
    assert final["actor"] == 1 and final["action"] == f"quit @{START}"


def test_timed_bots_play_at_their_own_pace_and_the_deadline_wins_a_tie(app: Harness, clock: ManualClock) -> None:
    table_id, tokens = new_table(app, ("human", "steady"), length_ms=500)
    socket_ = app.connect(table_id, tokens[0])
    assert socket_.act("press")["type"] == "ack"
    version = 1
    for _ in range(9):  # a press every 50 ms: the bot's plan comes due each time the clock reaches it
        clock.advance(50)
        version += 1
        update = socket_.until_version(version)
        assert update["actor"] == 1 and stamp(update) == START + 50 * (version - 1)
    clock.advance(50)  # the bot's next plan and the deadline fall at the same instant: the clock goes first
    final = wait_outcome(socket_)
    assert final["action"] == f"tick @{START + 500}" and final["view"]["presses"] == [1, 9]


def test_a_restored_table_keeps_its_deadline(tmp_path: Path) -> None:
    clock = ManualClock(START)
    with running_app(tmp_path, clock=clock) as app:  # bots only: a human's socket closing would end the game
        table_id, _ = new_table(app, ("steady", "steady"), length_ms=10_000)
        watcher = app.connect(table_id, spectator=True)
        clock.advance(50)
        watcher.until_version(1)
        assert app.live(table_id).timer is not None
    with running_app(tmp_path, clock=clock) as restarted:
        table = restarted.live(table_id)
        assert table.timer is not None and not table.finished
        assert table.game.deadline(table.match.state) == START + 50 + 10_000
