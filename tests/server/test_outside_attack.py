"""What the outside attack of issue 23 found, each replayed as a hostile client: a room seat taken by name, the
forwarding header believed from anyone, a replay recomputed per request, an undone move applied again by its
client_id, sockets without a cap, and loose JSON types in the room API."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess, running_server

from .conftest import FAST, Harness, running_app
from .test_undo import a_plain_play, dealt, seat_to_move, undo


def make_room(app: Harness, players: int = 2) -> tuple[str, str, str]:
    response = app.client.post("/api/rooms", json={"game": "snorkeling", "options": FAST, "players": players})
    assert response.status_code == 201, response.text
    answer = response.json()
    return answer["room"]["code"], answer["host"], answer["room"]["table"]["id"]


# -- 6. the room API takes only its declared types ----------------------------------------------------------------

@pytest.mark.parametrize("seat", [True, "0", 1.0, "1"])
def test_a_room_seat_must_be_a_whole_number(app: Harness, seat: Any) -> None:
    code, host, table_id = make_room(app)
    for path, extra in ((f"/api/rooms/{code}/bots", {"bot": "greedy"}), (f"/api/rooms/{code}/invite", {})):
        answer = app.client.post(path, json={"host": host, "seat": seat, **extra})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed", answer.text
    assert all(s["kind"] == "human" and not s["named"] for s in app.live(table_id).public()["seats"])


@pytest.mark.parametrize("body", [{"game": "snorkeling", "players": "2"}, {"game": "snorkeling", "players": 2.0},
                                  {"game": "snorkeling", "players": True}, {"game": "snorkeling", "players": 2,
                                                                            "bots": [0]}])
def test_a_new_room_takes_only_declared_types(app: Harness, body: dict[str, Any]) -> None:
    answer = app.client.post("/api/rooms", json=body)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed", answer.text


@pytest.mark.parametrize("body", [{"code": 123456, "name": "Ann"}, {"code": "ABCDEF", "name": 7},
                                  {"code": ["ABCDEF"], "name": "Ann"}])
def test_joining_takes_only_text(app: Harness, body: dict[str, Any]) -> None:
    answer = app.client.post("/api/rooms/join", json=body)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed", answer.text
    host_as_number = app.client.post("/api/rooms/ABCDEF/start", json={"host": 1})
    assert host_as_number.status_code == 400 and host_as_number.json()["error"]["code"] == "malformed"


def test_a_table_takes_only_declared_types(app: Harness) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    for body in ({"game": "snorkeling", "seats": seats, "hotseat": "true"},
                 {"game": "snorkeling", "seats": seats, "hotseat": 1},
                 {"game": "snorkeling", "seats": seats, "options": {"target_score": 3.0}}):
        answer = app.client.post("/api/tables", json=body)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed", answer.text


# -- 4. a client_id is never applied twice, an undone move's neither ---------------------------------------------

def test_an_undone_move_is_not_applied_again_by_its_client_id(tmp_path: Path) -> None:
    """docs/protocol.md, "Acting": a repeated client_id is answered with the first ack. The attack re-sent an
    undone move's id and it was applied again (acked as version 3, two stored rows with one id)."""
    with running_app(tmp_path) as app:
        table_id, tokens = dealt(app)
        sockets = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}
        mover = seat_to_move(sockets)
        move = a_plain_play(sockets[mover])
        first = sockets[mover].act(move, client_id="once")
        assert first["type"] == "ack" and first["version"] == 1
        answer = undo(sockets[mover])
        assert answer["type"] == "undone"
        sockets[mover].last = answer
        again = sockets[mover].act(move, version=None, client_id="once")
        assert again == first  # the first time's ack
        assert app.live(table_id).version == answer["version"] and not app.live(table_id).match.actions
    with running_app(tmp_path) as app:  # and after a restart, which rebuilds what was answered from storage
        socket_ = app.connect(table_id, tokens[mover])
        assert socket_.act(move, version=None, client_id="once") == first
        assert socket_.act(move, version=None, client_id="twice")["version"] == answer["version"] + 1
        assert socket_.act("pass", version=None, client_id="twice")["version"] == answer["version"] + 1
    rows = [client_id for _, _, client_id in app_stored(tmp_path, table_id)]
    assert rows.count("once") == 1 and rows.count("twice") == 1


def app_stored(directory: Path, table_id: str) -> list[tuple[int, str, str | None]]:
    """Every stored action row of a table, taken back or not: (seat, action, client id)."""
    with sqlite3.connect(directory / "t.sqlite3") as db:
        return db.execute("SELECT seat, action, client_id FROM actions WHERE table_id = ? ORDER BY seq",
                          (table_id,)).fetchall()


# -- 2. forwarding headers only from the proxies the operator names ----------------------------------------------

def post_table(server: ServerProcess, forwarded_for: str) -> int:
    body = json.dumps({"game": "snorkeling", "seats": [{"kind": "human"}, {"kind": "human"}]}).encode()
    request = urllib.request.Request(f"{server.url}/api/tables", data=body, method="POST", headers={
        "content-type": "application/json", "x-forwarded-for": forwarded_for})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as refusal:
        return int(refusal.code)


def test_x_forwarded_for_is_believed_only_from_a_named_proxy(tmp_path: Path) -> None:
    """The attack connected from 127.0.0.1, which uvicorn trusts by default, and chose its address with every
    request: 15 tables past both per-address limits. By default nobody's header counts; with --trusted-proxy the
    proxy's does, and a client cannot hide behind an address it writes in front of the one the proxy appends."""
    (tmp_path / "plain").mkdir()
    (tmp_path / "proxied").mkdir()
    with running_server(tmp_path / "plain", "--tables-per-minute", "2") as server:
        answers = [post_table(server, f"198.51.100.{n}") for n in range(3)]
        assert answers == [201, 201, 429], answers
    with running_server(tmp_path / "proxied", "--tables-per-minute", "2", "--trusted-proxy", "127.0.0.1") as server:
        assert [post_table(server, f"198.51.100.{n}") for n in range(3)] == [201, 201, 201]  # three clients
        answers = [post_table(server, f"198.51.100.{n}, 203.0.113.9") for n in range(10, 13)]
        assert answers == [201, 201, 429], answers  # one client, whatever it wrote before the proxy's entry
