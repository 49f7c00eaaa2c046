"""Limits on what creating tables can make the server hold (issue 13, item 2): a rate and a count of open tables
per client address, a cap per server, the expiry of tables nobody came to, and no bots for seats nobody opened."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from divedeck.sim.clock import ManualClock

from .conftest import FAST, Harness, running_app, wait_for

HUMANS = {"game": "snorkeling", "options": FAST, "seats": [{"kind": "human"}, {"kind": "human"}]}


def post(app: Harness, body: dict[str, Any] = HUMANS) -> Any:
    return app.client.post("/api/tables", json=body)


def test_one_address_creates_at_most_its_rate_of_tables(make_app: Any) -> None:
    clock = ManualClock()
    app = make_app(tables_per_minute=3, clock=clock)
    assert [post(app).status_code for _ in range(3)] == [201, 201, 201]
    refused = post(app)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert "3 new tables a minute" in refused.json()["error"]["message"]
    clock.advance(20_000)  # a third of a minute: one more
    assert post(app).status_code == 201
    assert post(app).status_code == 429


def test_one_address_holds_at_most_its_count_of_open_tables(make_app: Any) -> None:
    app = make_app(open_tables_per_address=2)
    bots = {**HUMANS, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}
    by_bots = post(app, bots).json()["table"]["id"]
    assert post(app).status_code == 201
    wait_for(lambda: app.live(by_bots).finished, "the bots' game to end")
    assert post(app).status_code == 201  # a finished table no longer counts
    refused = post(app)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_tables"
    assert "at most 2 unfinished tables" in refused.json()["error"]["message"]


def test_the_server_holds_at_most_its_cap_of_open_tables(make_app: Any) -> None:
    app = make_app(max_open_tables=2)
    assert [post(app).status_code for _ in range(2)] == [201, 201]
    refused = post(app)
    assert refused.status_code == 503
    assert refused.json()["error"] == {"code": "server_full",
                                       "message": "this server already has 2 unfinished tables: try again later"}


def test_a_finished_table_frees_its_place_under_the_servers_cap(make_app: Any) -> None:
    app = make_app(max_open_tables=2)
    bots = {**HUMANS, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}
    by_bots = post(app, bots).json()["table"]["id"]
    assert post(app).status_code == 201
    assert post(app).status_code == 503
    wait_for(lambda: app.live(by_bots).finished, "the bots' game to end")
    assert post(app).status_code == 201  # the finished table, still in memory for its viewers, no longer counts
    assert post(app).status_code == 503


def expired_in_storage(database: Path, table_id: str) -> Any:
    with sqlite3.connect(database) as db:
        return db.execute("select expired from tables where id = ?", (table_id,)).fetchone()[0]


def test_a_table_nobody_came_to_expires_and_stays_gone_after_a_restart(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_app(tmp_path, clock=clock, unclaimed_table_expiry=60.0) as app:
        abandoned = post(app).json()["table"]["id"]
        opened_body = post(app).json()
        opened, token = opened_body["table"]["id"], opened_body["tokens"][0]
        watcher = app.connect(abandoned, spectator=True)  # watching is not coming to play
        socket_ = app.connect(opened, token)
        app.close(socket_)
        clock.advance(59_000)
        assert app.client.get(f"/api/tables/{abandoned}").status_code == 200
        clock.advance(1_000)
        wait_for(lambda: abandoned not in app.manager.tables, "the unclaimed table to expire")
        assert watcher.next("_closed")["code"] == 1001
        assert app.client.get(f"/api/tables/{abandoned}").json()["error"]["code"] == "not_found"
        listed = [t["id"] for t in app.client.get("/api/tables").json()["tables"]]
        assert listed == [opened]
        wait_for(lambda: expired_in_storage(app.database, abandoned) is not None, "the expiry to be stored")
        assert expired_in_storage(app.database, opened) is None
    with running_app(tmp_path, clock=ManualClock()) as app:
        assert set(app.manager.tables) == {opened}
        assert app.client.get(f"/api/tables/{abandoned}").status_code == 404


def test_no_bot_takes_a_seat_nobody_ever_opened(make_app: Any) -> None:
    clock = ManualClock()
    app = make_app(clock=clock, grace_period=1.0, unclaimed_table_expiry=3600.0)
    table_id = post(app).json()["table"]["id"]
    clock.advance(10_000)
    time.sleep(0.05)
    table = app.live(table_id)
    assert [s.controller for s in table.seats] == ["human", "human"] and table.version == 0


def test_after_a_restart_only_seats_a_person_opened_go_to_bots(tmp_path: Path) -> None:
    with running_app(tmp_path) as app:
        body = post(app, {**HUMANS, "options": {**FAST, "first_player": 1}}).json()
        table_id, tokens = body["table"]["id"], body["tokens"]
        app.close(app.connect(table_id, tokens[1]))  # seat 1's person came, seat 0's never did
        wait_for(lambda: app.live(table_id).seats[1].joined, "seat 1 to be opened")
        time.sleep(0.1)  # the joined flag is written by the storage thread
    clock = ManualClock()
    with running_app(tmp_path, clock=clock, grace_period=1.0) as app:
        table = app.live(table_id)
        assert [s.joined for s in table.seats] == [False, True]
        clock.advance(1_000)
        wait_for(lambda: table.seats[1].controller == "bot", "seat 1's bot")
        wait_for(lambda: table.version > 0 and 0 in actors(table), "seat 1's bot to play its turn")
        clock.advance(60_000)
        time.sleep(0.05)
        assert table.seats[0].controller == "human"
        assert 0 in actors(table)  # the game waits for seat 0's person


def actors(table: Any) -> set[int]:
    return set(table.game.actors(table.match.state))
