"""What the outside attack of issue 23 found, each replayed as a hostile client: a room seat taken by name, the
forwarding header believed from anyone, a replay recomputed per request, an undone move applied again by its
client_id, sockets without a cap, and loose JSON types in the room API."""

from __future__ import annotations

import gc
import json
import random
import sqlite3
import urllib.error
import urllib.request
import weakref
from pathlib import Path
from typing import Any

import pytest

from divedeck.sim.clock import ManualClock
from tests.live_server import ServerProcess, running_server

from .conftest import FAST, Harness, drive, running_app, wait_for
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


# -- 1. nobody takes a room seat that is not theirs ----------------------------------------------------------------

def join(app: Harness, code: str, name: str, token: str | None = None) -> Any:
    body = {"code": code, "name": name} if token is None else {"code": code, "name": name, "token": token}
    return app.client.post("/api/rooms/join", json=body)


def test_a_room_seat_is_not_taken_by_its_name(app: Harness) -> None:
    """The attack: Anna's phone sleeps, and anyone who knows the code and her (public) name joined as "ANNA",
    got her seat and her hand, and locked her out. And a host's invite seat ("Guest 2") was taken the same way
    before its invitee opened the link."""
    code, host, table_id = make_room(app, players=3)
    anna = join(app, code, "Anna").json()
    ben = join(app, code, "Ben").json()
    invite = app.client.post(f"/api/rooms/{code}/invite", json={"host": host, "seat": 2}).json()
    assert app.client.post(f"/api/rooms/{code}/start", json={"host": host}).status_code == 200
    phone = app.connect(table_id, anna["token"])
    app.close(phone)  # the screen sleeps
    for name in ("ANNA", "anna", "Guest 3", "guest 3", "Ben"):
        taken = join(app, code, name)
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken", (name, taken.text)
    # A token of another table, or another seat's, gets nobody a seat by name either.
    assert join(app, code, "Anna", ben["token"]).json()["seat"] == ben["seat"]
    assert join(app, code, "Anna", "x" * 22).json()["error"]["code"] == "name_taken"
    live = app.live(table_id)
    assert live.seat_for_token(anna["token"]).index == anna["seat"]  # type: ignore[union-attr]
    assert app.connect(table_id, anna["token"]).welcome["seat"] == anna["seat"]  # type: ignore[index]
    guest = app.connect(table_id, invite["token"])  # the invite link still opens its seat
    assert guest.welcome["seat"] == 2  # type: ignore[index]


def test_the_host_lets_a_dead_phone_back_in_and_the_old_socket_loses_the_seat(make_app: Any) -> None:
    clock = ManualClock(1_000_000)
    app = make_app(clock=clock, room_readmit_window=60.0)
    code, host, table_id = make_room(app)
    anna = join(app, code, "Anna").json()
    join(app, code, "Ben")
    app.client.post(f"/api/rooms/{code}/start", json={"host": host})
    old = app.connect(table_id, anna["token"])  # still open: the phone died without closing it
    refused = app.client.post(f"/api/rooms/{code}/readmit", json={"host": "not the host", "seat": 0})
    assert refused.status_code == 403
    for seat in (5, -1):
        assert app.client.post(f"/api/rooms/{code}/readmit", json={"host": host, "seat": seat}).status_code == 409
    assert app.client.post(f"/api/rooms/{code}/readmit", json={"host": host, "seat": 0}).status_code == 200
    clock.advance(61_000)  # too late: ask the host again
    assert join(app, code, "Anna").json()["error"]["code"] == "name_taken"
    assert app.client.post(f"/api/rooms/{code}/readmit", json={"host": host, "seat": 0}).status_code == 200
    again = join(app, code, "anna").json()
    assert again["seat"] == 0 and again["token"] != anna["token"]
    assert old.next("error")["code"] == "bad_token"
    assert old.next("_closed")["code"] == 4401
    assert app.live(table_id).seat_for_token(anna["token"]) is None
    new = app.connect(table_id, again["token"])
    assert new.welcome["seat"] == 0 and "hand" in new.welcome["view"]  # type: ignore[index]
    # Let back in, but the phone came back with its token after all: the name no longer opens the seat.
    assert app.client.post(f"/api/rooms/{code}/readmit", json={"host": host, "seat": 0}).status_code == 200
    assert join(app, code, "Anna", again["token"]).json()["token"] == again["token"]
    assert join(app, code, "Anna").json()["error"]["code"] == "name_taken"


# -- 5. open sockets are capped per address and per table, and leave nothing behind -------------------------------

def refused_socket(app: Harness, table_id: str) -> int | None:
    """Open a socket expecting the cap: its error must say so, then it is closed; returns the close code."""
    socket_ = app.open(table_id, "one too many")
    message = socket_.next("error")
    assert message["code"] == "too_many_sockets", message
    return socket_.next("_closed")["code"]


def test_sockets_are_capped_per_address_and_per_table_and_forgotten_when_closed(make_app: Any) -> None:
    """The attack held 3,000 idle sockets from one address and 1,000 on one table. Every in-process client has
    one address here, so: 3 on table A (one of them silent: counted before its hello) fill A; 2 on B fill the
    address; once they close, the server keeps nothing of them and the same opens work again."""
    app = make_app(sockets_per_address=5, sockets_per_table=3)
    first, tokens, _ = app.create()
    second, _, _ = app.create()
    sockets = app.client.app.state.sockets  # type: ignore[attr-defined]
    for _ in range(2):
        opened = [app.connect(first, tokens[0]), app.connect(first, spectator=True), app.open(first, "silent")]
        assert refused_socket(app, first) == 1013  # the table is full
        opened += [app.connect(second, spectator=True), app.connect(second, spectator=True)]
        assert refused_socket(app, second) == 1013  # the address is full
        held = [weakref.ref(connection) for table_id in (first, second)
                for connection in app.live(table_id).connections()]
        assert len(held) == 4  # the silent socket has no connection yet
        for socket_ in opened:
            app.close(socket_)
        wait_for(lambda: not sockets.by_address and not sockets.by_table, "the socket counts to empty")
        wait_for(lambda: not app.manager.limits.address_buckets, "the address's message budget to be forgotten")
        assert all(not app.live(table_id).connections() for table_id in (first, second))
        gc.collect()
        assert [ref for ref in held if ref() is not None] == []  # no closed connection is kept alive


# -- 3. a finished table's replay is built once per viewer, and asked for within a budget ------------------------

def test_a_replay_is_built_once_per_viewer_and_each_address_has_a_budget(make_app: Any) -> None:
    """The attack fetched one 349-action replay over and over (75 ms and 206 KB each time): a quiet table's ping
    went from 0.7 to 73 ms. A finished game's replay never changes: it is computed once per seat or spectator,
    and each address may ask a bounded number a minute (benchmarks/bench_replay_load.py measures the ping)."""
    app = make_app(replays_per_minute=4)
    table_id, tokens, _ = app.create(["human", "greedy"])
    drive({0: app.connect(table_id, tokens[0])}, random.Random(4))
    replays = app.client.app.state.replays  # type: ignore[attr-defined]
    path = f"/api/tables/{table_id}/replay"
    watched = [app.client.get(path) for _ in range(2)]
    assert [answer.status_code for answer in watched] == [200, 200] and replays.builds == 1
    assert watched[0].content == watched[1].content and watched[0].json()["seat"] is None
    own = {"X-Seat-Token": str(tokens[0])}
    seen = [app.client.get(f"{path}?seat=0", headers=own) for _ in range(2)]
    assert [answer.json()["seat"] for answer in seen] == [0, 0] and replays.builds == 2
    assert "hand" in seen[0].json()["steps"][0]["view"] and "hand" not in watched[0].json()["steps"][0]["view"]
    # The fifth ask within the minute is refused, before anything is looked up or sent.
    limited = app.client.get(path)
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    assert replays.builds == 2
