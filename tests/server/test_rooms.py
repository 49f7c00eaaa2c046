"""Rooms (server/rooms.py): codes, joining by code, the host's bots and start, refusals, restart."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from divedeck.engine.registry import get_game
from divedeck.server.rooms import ALPHABET, CODE_LENGTH, new_code, normal_code, qr_svg
from divedeck.sim.clock import ManualClock

from .clocked import run_clock
from .conftest import FAST, Harness, drive, running_app

BERMUDA = get_game("bermuda")
START = 1_000_000


def make_room(app: Harness, players: int = 2, options: dict[str, Any] | None = None) -> tuple[str, str, str]:
    response = app.client.post("/api/rooms", json={"game": "snorkeling", "options": options or FAST,
                                                   "players": players})
    assert response.status_code == 201, response.text
    answer = response.json()
    return answer["room"]["code"], answer["host"], answer["room"]["table"]["id"]


def join(app: Harness, code: str, name: str) -> Any:
    return app.client.post("/api/rooms/join", json={"code": code, "name": name})


def test_code_alphabet_and_length() -> None:
    assert len(ALPHABET) == 24 and not set("IO01") & set(ALPHABET)
    codes = {new_code() for _ in range(2000)}
    assert len(codes) > 1990  # 24**6 = 191 million codes
    assert all(len(code) == CODE_LENGTH and set(code) <= set(ALPHABET) for code in codes)
    assert normal_code("abc-def") == "ABCDEF" and normal_code("ABCDE0") is None and normal_code("ABCDEI") is None


def test_join_gives_a_working_token_and_start_lets_play(app: Harness) -> None:
    code, host, table_id = make_room(app)
    screen = app.connect(table_id, spectator=True)
    first = join(app, code.lower(), "Ann")
    assert first.status_code == 200, first.text
    second = join(app, code, "Bob").json()
    phones = {answer["seat"]: app.connect(table_id, answer["token"])
              for answer in (first.json(), second)}
    assert sorted(phones) == [0, 1]
    assert [s["name"] for s in phones[0].table["seats"]] == ["Ann", "Bob"]  # type: ignore[index]
    # Held until the host starts: no legal actions, an act is refused.
    assert all(not phone.legal for phone in phones.values())
    assert app.client.post(f"/api/rooms/{code}/start", json={"host": "wrong"}).status_code == 403
    assert app.client.post(f"/api/rooms/{code}/start", json={"host": host}).status_code == 200
    for phone in phones.values():
        phone.next("welcome")
    assert any(phone.legal for phone in phones.values())
    drive(phones, random.Random(1))
    assert app.live(table_id).finished
    # The screen, a spectator, saw the game end; the code is spent.
    screen.sync()
    assert join(app, code, "Cat").status_code == 404


def test_full_room_bots_and_names(app: Harness) -> None:
    code, host, table_id = make_room(app, players=3)
    assert join(app, code, "<b>Ann</b>").json()["seat"] == 0
    bot = app.client.post(f"/api/rooms/{code}/bots", json={"host": host, "seat": 1, "bot": "greedy"})
    assert bot.status_code == 200, bot.text
    assert app.client.post(f"/api/rooms/{code}/bots", json={"host": host, "seat": 0, "bot": "greedy"}).status_code \
        == 409  # a person's seat
    assert app.client.post(f"/api/rooms/{code}/start", json={"host": host}).json()["error"]["code"] == "seats_open"
    assert join(app, code, "x" * 41).json()["error"]["code"] == "bad_name"
    assert join(app, code, "Cy").json()["seat"] == 2
    full = join(app, code, "Dee")
    assert full.status_code == 409 and full.json()["error"]["code"] == "room_full"
    state = app.client.get(f"/api/rooms/{code}", headers={"x-room-host": host}).json()["room"]
    assert [s["kind"] for s in state["table"]["seats"]] == ["human", "bot", "human"]
    assert state["table"]["seats"][0]["name"] == "<b>Ann</b>"  # kept as text: the pages show it as text
    assert app.client.get(f"/api/rooms/{code}").status_code == 403


def test_wrong_codes_count_toward_a_limit(make_app: Any) -> None:
    app = make_app(room_code_failures_per_minute=3)
    code, _host, _table = make_room(app)
    wrong = "".join(reversed(code)) if code != code[::-1] else "ZZZZZZ"
    for _ in range(3):
        answer = join(app, wrong, "Ann")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_room"
    # Out of attempts: even the right code is refused now.
    limited = join(app, code, "Ann")
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"


def test_rejoin_with_the_phones_token_or_by_name_once_the_host_lets_it(app: Harness) -> None:
    code, host, table_id = make_room(app)
    first = join(app, code, "Ann").json()
    join(app, code, "Bob")
    phone = app.connect(table_id, first["token"])
    assert join(app, code, "ann").json()["error"]["code"] == "name_taken"
    app.client.post(f"/api/rooms/{code}/start", json={"host": host})
    app.close(phone)
    assert join(app, code, "Eve").json()["error"]["code"] == "started"
    assert join(app, code, "Ann").json()["error"]["code"] == "name_taken"  # a name alone is no seat
    # The phone that joined sends its token again (the join page keeps it): its seat, nothing changes.
    same = app.client.post("/api/rooms/join", json={"code": code, "name": "Ann", "token": first["token"]}).json()
    assert same == {"table": table_id, "seat": 0, "token": first["token"]}
    # Its phone died: the host lets seat 0 back in, and the name gives it back once, with a new token.
    let_in = app.client.post(f"/api/rooms/{code}/readmit", json={"host": host, "seat": 0})
    assert let_in.status_code == 200 and let_in.json()["room"]["readmitted"] == [0]
    again = join(app, code, "Ann").json()
    assert again["seat"] == 0 and again["token"] != first["token"]
    assert app.live(table_id).seat_for_token(first["token"]) is None  # the old token opens nothing now
    assert join(app, code, "Ann").json()["error"]["code"] == "name_taken"  # spent
    app.connect(table_id, again["token"])


def test_a_room_made_with_bots_seats_them_at_once(app: Harness) -> None:
    answer = app.client.post("/api/rooms", json={"game": "snorkeling", "options": FAST, "players": 3,
                                                 "bots": [None, "greedy"]})
    assert answer.status_code == 201, answer.text
    room = answer.json()["room"]
    assert [s["kind"] for s in room["table"]["seats"]] == ["human", "bot", "human"] and room["open_seats"] == [0, 2]
    bad = app.client.post("/api/rooms", json={"game": "snorkeling", "players": 2, "bots": ["nobody"]})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_seats"


def test_qr_code_is_an_svg_of_the_join_link(app: Harness) -> None:
    answer = app.client.get("/api/rooms/ABCDEF/qr.svg")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in answer.content and b"<script" not in answer.content
    assert answer.content == qr_svg("http://testserver/join#ABCDEF")  # segno's picture of the join link
    assert app.client.get("/api/rooms/ABC0EF/qr.svg").status_code == 404


def test_restart_keeps_the_room(tmp_path: Path) -> None:
    with running_app(tmp_path) as app:
        code, host, table_id = make_room(app, players=3)
        ann = join(app, code, "Ann").json()
        app.client.post(f"/api/rooms/{code}/bots", json={"host": host, "seat": 2, "bot": "greedy"})
    with running_app(tmp_path) as app:
        assert app.live(table_id).held
        phone = app.connect(table_id, ann["token"])
        assert not phone.legal
        state = app.client.get(f"/api/rooms/{code}", headers={"x-room-host": host}).json()["room"]
        assert state["open_seats"] == [1] and not state["started"]
        bob = join(app, code, "Bob").json()
        assert bob["seat"] == 1
        assert app.client.post(f"/api/rooms/{code}/start", json={"host": host}).status_code == 200
    with running_app(tmp_path) as app:
        assert not app.live(table_id).held
        phones = {0: app.connect(table_id, ann["token"]), 1: app.connect(table_id, bob["token"])}
        drive(phones, random.Random(2))
        assert app.live(table_id).finished


def test_a_bermuda_room_holds_its_clock_and_bots_until_the_start(make_app: Any) -> None:
    clock = ManualClock(START)
    app = make_app(clock=clock)
    response = app.client.post("/api/rooms", json={"game": "bermuda", "options": {"countdown_ms": 200},
                                                   "players": 3})
    assert response.status_code == 201, response.text
    code, host = response.json()["room"]["code"], response.json()["host"]
    for seat in (1, 2):
        added = app.client.post(f"/api/rooms/{code}/bots", json={"host": host, "seat": seat, "bot": "fast-diver"})
        assert added.status_code == 200, added.text
    ann = join(app, code, "Ann").json()
    table = app.live(ann["table"])
    phone = app.connect(ann["table"], ann["token"])
    assert phone.table is not None and phone.table["held"]
    assert phone.act("hold", version=None)["code"] == "not_started"
    run_clock(table, clock, 3000)
    assert table.version == 0  # no bot moved, no deadline passed
    app.close(phone)  # a lost connection is a breath in Bermuda, but not before the start
    assert table.version == 0
    phone = app.connect(ann["table"], ann["token"])
    assert app.client.post(f"/api/rooms/{code}/start", json={"host": host}).status_code == 200
    phone.next("welcome")
    assert phone.table is not None and not phone.table["held"] and "hold" in phone.legal
    assert phone.act("hold", version=None)["type"] == "ack"
    for _ in range(300):
        run_clock(table, clock, 100)
        if BERMUDA.view(table.match.state, 0)["phase"] == "dive":
            break
    else:
        raise AssertionError("the bots did not dive after the start")


def test_a_seat_claimed_whose_phone_never_came_goes_to_a_bot_after_the_claim_grace(make_app: Any) -> None:
    """Bob joins with the code but his phone never opens the table: after room_claim_grace the seat is treated
    like a player who dropped out (a bot plays it), so Ann's game goes on; Bob's phone can still take it back."""
    clock = ManualClock(START)
    app = make_app(clock=clock, room_claim_grace=2.0, grace_period=600.0)
    code, host, table_id = make_room(app)
    ann = join(app, code, "Ann").json()
    bob = join(app, code, "Bob").json()
    phone = app.connect(table_id, ann["token"])
    assert app.client.post(f"/api/rooms/{code}/start", json={"host": host}).status_code == 200
    table = app.live(table_id)
    run_clock(table, clock, 1500)
    assert table.seats[bob["seat"]].controller == "human"  # not yet
    run_clock(table, clock, 1000)
    deadline = time.monotonic() + 5  # the server's thread wakes for it
    while table.seats[bob["seat"]].controller != "bot":
        assert time.monotonic() < deadline, "the claimed seat was never handed to a bot"
        time.sleep(0.01)
    assert table.seats[ann["seat"]].controller == "human"  # Ann is here: hers stays hers
    late = app.connect(table_id, bob["token"])  # the phone comes after all: the seat is Bob's again
    assert late.table is not None
    assert table.seats[bob["seat"]].controller == "human"
    app.close(late)
    app.close(phone)


def test_a_mixed_room_invite_link_for_a_seat_and_spectators(app: Harness) -> None:
    code, host, table_id = make_room(app)
    assert app.client.post(f"/api/rooms/{code}/invite", json={"host": "wrong", "seat": 1}).status_code == 403
    invited = app.client.post(f"/api/rooms/{code}/invite", json={"host": host, "seat": 1})
    assert invited.status_code == 200, invited.text
    answer = invited.json()
    assert answer["room"]["open_seats"] == [0]  # kept for the remote player: no phone takes it with the code
    again = app.client.post(f"/api/rooms/{code}/invite", json={"host": host, "seat": 1})
    assert again.status_code == 409
    ann = join(app, code, "Ann").json()
    assert ann["seat"] == 0
    assert join(app, code, "Zed").json()["error"]["code"] == "room_full"
    remote = app.connect(table_id, answer["token"])  # the invite link's token opens seat 1
    assert remote.table is not None and remote.table["seats"][1]["name"] == "Guest 2"
    watcher = app.connect(table_id, spectator=True)
    assert app.client.post(f"/api/rooms/{code}/start", json={"host": host}).status_code == 200
    phones = {0: app.connect(table_id, ann["token"]), 1: remote}
    remote.next("welcome")  # the start's fresh welcome
    drive(phones, random.Random(3))
    assert app.live(table_id).finished
    watcher.sync()
