"""Every path of docs/protocol.md against an in-process server (TestClient with its lifespan running)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import sqlite3
import time
from typing import Any

import pytest

from divedeck.engine.registry import get_game
from divedeck.server.settings import ServerSettings
from divedeck.sim.clock import ManualClock

from .conftest import FAST, MESSAGE_TYPES, PROTOCOL, SNORKELING, Harness, Socket, drive, walk


def as_sent(event: Any, seat: int | None) -> dict[str, Any]:
    """An event as the wire carries it to ``seat``: its fields as that seat sees them, and its log line in parts."""
    return json.loads(json.dumps({**event.for_seat(seat), "parts": SNORKELING.log_parts(event, seat)}))


def records(app: Harness, table_id: str, seat: int) -> list[dict[str, Any]]:
    """The engine's legal actions of ``seat`` now, as the records the server must send."""
    state = app.live(table_id).match.state
    return [SNORKELING.action_record(state, seat, action) for action in SNORKELING.legal_actions(state, seat)]


def fingerprint(app: Harness, table_id: str) -> tuple[int, str]:
    """The table's version and full state: what an error must leave unchanged."""
    table = app.live(table_id)
    return table.version, SNORKELING.state_notation(table.match.state)


def public_table(app: Harness, table_id: str) -> dict[str, Any]:
    response = app.client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    return response.json()["table"]


def wait_for(condition: Any, timeout: float = 5.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def active_socket(sockets: dict[int, Socket]) -> tuple[int, Socket]:
    """The seat to act now and its socket (all seats human and held by the test)."""
    observer = next(iter(sockets.values()))
    assert observer.last is not None
    seat = observer.last["view"]["active"]
    mine = sockets[seat]
    mine.until_version(observer.last["version"])
    return seat, mine


def assert_refused(socket_: Socket, code: str, close_code: int) -> dict[str, Any]:
    error = socket_.next("error")
    assert error["type"] == "error" and error["code"] == code, error
    assert isinstance(error.get("message"), str) and error["message"]
    closed = socket_.next("_closed")
    assert closed["code"] == close_code, closed
    return error


# -- HTTP ------------------------------------------------------------------------------------------------------

def default_static(name: str) -> Any:
    game = get_game(name)
    return game.static_data(game.make_config())


def test_games_listing(app: Harness) -> None:
    response = app.client.get("/api/games")
    assert response.status_code == 200
    games = response.json()["games"]
    snorkeling = next(game for game in games if game["name"] == "snorkeling")
    assert snorkeling["title"] == "Snorkeling"
    assert snorkeling["min_players"] == 2 and snorkeling["max_players"] == 6
    assert snorkeling["min_players"] <= snorkeling["default_players"] <= snorkeling["max_players"]
    assert {"random", "greedy"} <= set(snorkeling["bots"])
    names = set()
    for option in snorkeling["options"]:
        assert {"name", "type", "default", "help"} <= set(option), option
        if option["type"] == "choice":
            assert option["default"] in option["choices"]
        names.add(option["name"])
    assert {"target_score", "expert_diving"} <= names
    assert "cards" not in names  # a file on the server's disk is never offered to the web
    assert "num_players" not in names  # the seats give the player count
    assert snorkeling["default_bot"] in snorkeling["bots"]
    assert "browser" in snorkeling["frontends"] and snorkeling["summary"] is not None
    for game in games:
        # each game's static data for its default config: what a page draws with before any table exists
        assert game["static"] == json.loads(json.dumps(default_static(game["name"]))), game["name"]


def test_create_table_gives_one_token_per_human_seat(app: Harness) -> None:
    response = app.client.post("/api/tables", json={
        "game": "snorkeling", "options": {"target_score": 3},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}]})
    assert response.status_code == 201, response.text
    answer = response.json()
    tokens = answer["tokens"]
    assert len(tokens) == 3 and tokens[1] is None
    assert all(isinstance(t, str) and len(t) >= 16 for t in (tokens[0], tokens[2])) and tokens[0] != tokens[2]
    table = answer["table"]
    assert {"id", "game", "title", "options", "seats", "status", "created", "hotseat", "rematch"} <= set(table)
    assert table["hotseat"] is False and table["rematch"] is None
    assert table["game"] == "snorkeling" and table["status"] == "waiting"
    assert table["options"]["target_score"] == 3 and table["options"]["num_players"] == 3
    kinds = [(s["seat"], s["kind"], s["bot"], s["controller"]) for s in table["seats"]]
    assert kinds == [(0, "human", None, "human"), (1, "bot", "random", "bot"), (2, "human", None, "human")]
    assert table["seats"][0]["name"] == "Ann"
    for seat in table["seats"]:
        assert {"seat", "kind", "bot", "name", "connected", "controller"} <= set(seat)
    assert public_table(app, table["id"])["id"] == table["id"]


def test_unknown_game_is_404(app: Harness) -> None:
    response = app.client.post("/api/tables", json={"game": "chess", "seats": [{"kind": "human"}] * 2})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_game"


@pytest.mark.parametrize("options", [{"target_score": 0}, {"no_such_option": 1}, {"opponent_play_limit": "lots"},
                                     {"first_player": 5}, {"target_score": "many"}])
def test_bad_option_is_bad_config(app: Harness, options: dict[str, Any]) -> None:
    response = app.client.post("/api/tables", json={"game": "snorkeling", "options": options,
                                                    "seats": [{"kind": "human"}] * 2})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_config" and error["message"]


def test_card_file_option_is_refused_from_the_web(app: Harness, tmp_path: Any) -> None:
    cards = tmp_path / "cards.toml"
    cards.write_text("not even toml [")
    for path in (str(cards), "/etc/passwd"):
        response = app.client.post("/api/tables", json={"game": "snorkeling", "options": {"cards": path},
                                                        "seats": [{"kind": "human"}] * 2})
        assert response.status_code == 400, response.text
        assert response.json()["error"]["code"] == "bad_config"
    assert app.client.get("/api/tables").json()["tables"] == []


def test_unknown_bot_is_bad_seats(app: Harness) -> None:
    response = app.client.post("/api/tables", json={
        "game": "snorkeling", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "skynet"}]})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_seats"


def test_learned_bot_at_a_table_it_was_not_trained_for_is_bad_seats(app: Harness) -> None:
    three = [{"kind": "human"}, {"kind": "bot", "bot": "learned"}, {"kind": "bot", "bot": "medium"}]
    response = app.client.post("/api/tables", json={"game": "snorkeling", "seats": three})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_seats"
    assert error["message"] == ("the learned bot plays Snorkeling with 2 players only (it was trained for that), "
                                "not with 3"), error
    two = [{"kind": "human"}, {"kind": "bot", "bot": "learned"}]
    assert app.client.post("/api/tables", json={"game": "snorkeling", "seats": two}).status_code in (200, 201)


def test_bad_seat_kind_is_bad_seats(app: Harness) -> None:
    response = app.client.post("/api/tables", json={
        "game": "snorkeling", "seats": [{"kind": "human"}, {"kind": "alien"}]})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_seats", response.json()


@pytest.mark.parametrize("count", [1, 7])
def test_impossible_seat_count_is_refused(app: Harness, count: int) -> None:
    response = app.client.post("/api/tables", json={"game": "snorkeling", "seats": [{"kind": "human"}] * count})
    assert response.status_code == 400
    assert response.json()["error"]["code"] in ("bad_seats", "bad_config")


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b'{"game": "snorkeling"}', b'"snorkeling"', b""])
def test_malformed_body_is_400_malformed(app: Harness, body: bytes) -> None:
    response = app.client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "malformed" and error["message"]
    assert app.client.get("/api/tables").json()["tables"] == []


def test_open_tables_newest_first_without_finished_ones(app: Harness) -> None:
    ids = [app.create()[0] for _ in range(3)]
    listed = [t["id"] for t in app.client.get("/api/tables").json()["tables"]]
    assert listed == ids[::-1]
    # A table of two bots plays to the end by itself (bot_delay 0) and leaves the list.
    finished, _, _ = app.create(["greedy", "random"])
    wait_for(lambda: public_table(app, finished)["status"] == "finished", what="the bots' game to end")
    listed = [t["id"] for t in app.client.get("/api/tables").json()["tables"]]
    assert finished not in listed and listed == ids[::-1]


def test_unknown_table_is_404_not_found(app: Harness) -> None:
    response = app.client.get("/api/tables/nope")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_no_token_or_token_hash_is_ever_published(app: Harness) -> None:
    table_id, tokens, table = app.create(["human", "greedy", "human"])
    secrets = [t for t in tokens if t is not None]
    secrets += [hashlib.sha256(t.encode()).hexdigest() for t in list(secrets)]
    seen = [json.dumps(table), app.client.get("/api/tables").text, app.client.get(f"/api/tables/{table_id}").text]
    sockets = {0: app.connect(table_id, tokens[0]), 2: app.connect(table_id, tokens[2])}
    spectator = app.connect(table_id, spectator=True)
    drive(sockets, random.Random(3), max_actions=6)
    spectator.drain()
    seen += app.client.get(f"/api/tables/{table_id}").text, app.client.get("/api/tables").text
    for socket_ in (*sockets.values(), spectator):
        socket_.drain()
        seen += socket_.raw
    for text in seen:
        for secret in secrets:
            assert secret not in text
        assert "token" not in text.lower()
    # The database keeps only a hash of each token.
    with contextlib.closing(sqlite3.connect(app.database)) as db:
        stored = json.dumps(db.execute("SELECT * FROM tables").fetchall())
    for token in tokens:
        if token is not None:
            assert token not in stored and hashlib.sha256(token.encode()).hexdigest() in stored


# -- opening a socket ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hello", [
    {"type": "hello", "protocol": PROTOCOL, "token": "not-a-real-token"},
    {"type": "hello", "protocol": PROTOCOL},
    {"type": "hello", "protocol": PROTOCOL, "spectator": False},
    {"type": "hello", "protocol": PROTOCOL, "token": None},
    {"type": "hello", "protocol": PROTOCOL, "token": 12345},
    {"type": "hello", "protocol": PROTOCOL, "token": ""},
    {"type": "hello", "protocol": PROTOCOL, "token": "x" * 300},
], ids=["wrong", "missing", "spectator-false", "null", "number", "empty", "long"])
def test_bad_token_closes_4401(app: Harness, hello: dict[str, Any]) -> None:
    table_id, _, _ = app.create()
    socket_ = app.open(table_id)
    socket_.send(hello)
    assert_refused(socket_, "bad_token", 4401)
    assert not any(s["connected"] for s in public_table(app, table_id)["seats"])


def test_token_of_another_table_is_bad_token(app: Harness) -> None:
    first, _, _ = app.create()
    _, tokens, _ = app.create()
    socket_ = app.open(first)
    socket_.send({"type": "hello", "protocol": PROTOCOL, "token": tokens[0]})
    assert_refused(socket_, "bad_token", 4401)


def test_unknown_table_closes_4404(app: Harness) -> None:
    socket_ = app.open("no-such-table")
    socket_.send({"type": "hello", "protocol": PROTOCOL, "spectator": True})
    assert_refused(socket_, "not_found", 4404)


@pytest.mark.parametrize("protocol", [2, 1, 0, 4, "3", None, 3.0, 1.5, True])
def test_wrong_protocol_closes_4400(app: Harness, protocol: Any) -> None:
    table_id, tokens, _ = app.create()
    socket_ = app.open(table_id)
    socket_.send({"type": "hello", "protocol": protocol, "token": tokens[0]})
    assert_refused(socket_, "bad_protocol", 4400)


def test_a_protocol_2_page_is_told_in_one_line_to_reload(app: Harness) -> None:
    """Protocol 3 changed what legal actions and events are: a page from before cannot read them, and the page
    comes from this same server, so reloading it always brings a client that speaks protocol 3."""
    table_id, tokens, _ = app.create()
    for who in ({"token": tokens[0]}, {"spectator": True}):
        hello = {"type": "hello", "protocol": 2, **who}
        old = app.open(table_id)
        old.send(hello)
        error = assert_refused(old, "bad_protocol", 4400)
        assert "\n" not in error["message"] and "reload" in error["message"] and "3" in error["message"]
        assert not any(m["type"] == "welcome" for m in old.messages)
    assert not any(s["connected"] for s in public_table(app, table_id)["seats"])


def test_updates_carry_the_public_table_only_when_it_changed(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    drive(sockets, random.Random(1), max_actions=3)
    sockets[0].until_version(3)
    updates = [m for m in sockets[0].messages if m["type"] == "update"]
    # the first action turns the table from waiting to playing; the next two change nothing public
    assert ["table" in m for m in updates[:3]] == [True, False, False]
    assert sockets[0].table is not None and sockets[0].table["status"] == "playing"


def test_missing_protocol_closes_4400(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    socket_ = app.open(table_id)
    socket_.send({"type": "hello", "token": tokens[0]})
    assert_refused(socket_, "bad_protocol", 4400)


@pytest.mark.parametrize("first", ['{"type": "ping"}', '{"type": "act", "client_id": "a", "action": "pass"}',
                                   "not json", "[]", '"hello"', "{}", "null"])
def test_first_message_not_hello_closes_4400(app: Harness, first: str) -> None:
    table_id, _, _ = app.create()
    socket_ = app.open(table_id)
    socket_.send_text(first)
    assert_refused(socket_, "malformed", 4400)
    assert fingerprint(app, table_id)[0] == 0


def test_binary_first_message_closes_4400(app: Harness) -> None:
    table_id, _, _ = app.create()
    socket_ = app.open(table_id)
    socket_.send_bytes(b'{"type": "hello", "protocol": PROTOCOL, "spectator": true}')
    assert_refused(socket_, "malformed", 4400)


def test_deeply_nested_hello_is_malformed(app: Harness) -> None:
    """A 4 KB hello nested 2000 deep must be refused like any other non-hello, not crash the handler."""
    table_id, _, _ = app.create()
    socket_ = app.open(table_id)
    socket_.send_text("[" * 2000 + "]" * 2000)
    message = socket_.recv()
    app.close(socket_)
    crashes, app.crashes[:] = list(app.crashes), []
    assert not crashes, f"the handler raised: {crashes!r}"
    assert message.get("type") == "error" and message.get("code") == "malformed", message


def test_oversized_hello_is_too_large(app: Harness) -> None:
    """The 4 KiB limit applies to every message, the hello too."""
    table_id, tokens, _ = app.create()
    socket_ = app.open(table_id)
    socket_.send({"type": "hello", "protocol": PROTOCOL, "token": tokens[0], "padding": "x" * 100_000})
    message = socket_.recv()
    assert message.get("type") == "error" and message.get("code") == "too_large", message
    assert socket_.next("_closed")["code"] == 1009


def test_no_hello_in_time_closes(make_app: Any) -> None:
    app = make_app(hello_timeout=0.2)
    table_id, _, _ = app.create()
    socket_ = app.open(table_id)
    error = socket_.next("error", timeout=3)
    assert error["type"] == "error" and error["code"] == "malformed"
    assert socket_.next("_closed")["type"] == "_closed"


def test_seat_welcome(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human", "greedy"], {**FAST, "first_player": 0})
    first = app.connect(table_id, tokens[0])
    second = app.connect(table_id, tokens[1])
    welcome = first.welcome
    assert welcome is not None
    assert welcome["type"] == "welcome" and welcome["protocol"] == PROTOCOL
    assert welcome["seat"] == 0 and welcome["version"] == 0 and welcome["outcome"] is None
    live = app.live(table_id)
    assert welcome["static"] == json.loads(json.dumps(SNORKELING.static_data(live.match.config)))
    # The log starts with the deal, as this seat sees it: its own hand only, and its line in parts.
    assert welcome["log"] == [as_sent(event, 0) for event in live.match.opening]
    assert all(event["parts"] for event in welcome["log"])
    assert welcome["log"] and welcome["log"][0]["hand"] == welcome["view"]["hand"]
    assert welcome["table"]["id"] == table_id and len(welcome["table"]["seats"]) == 3
    assert welcome["view"] == json.loads(json.dumps(SNORKELING.view(live.match.state, 0)))
    assert welcome["view"]["seat"] == 0 and len(welcome["view"]["hand"]) == 5
    # Legal actions as records: the notation to send back, and what the page shows without knowing a rule.
    assert welcome["legal"] == json.loads(json.dumps(records(app, table_id, 0))) and welcome["legal"]
    for record in welcome["legal"]:
        assert set(record) == {"notation", "kind", "cards", "target", "label"}, record
        assert isinstance(record["notation"], str) and record["label"] and isinstance(record["cards"], list)
    # Only its own hand: the view's and the deal's "hand" are the same cards.
    assert [value for key, value in walk(welcome) if key == "hand"] == [welcome["view"]["hand"]] * 2
    other = second.welcome
    assert other is not None
    assert other["seat"] == 1 and other["legal"] == []  # not seat 1's turn
    assert other["view"] == json.loads(json.dumps(SNORKELING.view(live.match.state, 1)))
    assert [s["connected"] for s in public_table(app, table_id)["seats"]] == [True, True, True]


def test_spectator_welcome_has_no_hand_anywhere(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human", "human"])
    sockets = {seat: app.connect(table_id, tokens[seat]) for seat in range(3)}
    drive(sockets, random.Random(5), max_actions=8)
    spectator = app.connect(table_id, spectator=True)
    welcome = spectator.welcome
    assert welcome is not None
    assert welcome["seat"] is None and welcome["legal"] == [] and welcome["view"]["seat"] is None
    assert welcome["version"] == app.live(table_id).version == 8
    assert "hand" not in [key for key, _ in walk(welcome)]
    assert welcome["log"], "the spectator sees the public history"
    assert all("card" not in event for event in welcome["log"] if event["kind"] == "draw")


# -- acting ----------------------------------------------------------------------------------------------------

MALFORMED = [
    "not json at all",
    "[1, 2, 3]",
    '"act"',
    "42",
    "null",
    "{}",
    '{"type": "dance"}',
    '{"type": 7}',
    '{"type": "act", "action": "pass"}',
    '{"type": "act", "client_id": "", "action": "pass"}',
    '{"type": "act", "client_id": 17, "action": "pass"}',
    '{"type": "act", "client_id": null, "action": "pass"}',
    '{"type": "act", "client_id": "' + "x" * 65 + '", "action": "pass"}',
    '{"type": "act", "client_id": "m-1"}',
    '{"type": "act", "client_id": "m-2", "action": 3}',
    '{"type": "act", "client_id": "m-3", "action": ["pass"]}',
    '{"type": "act", "client_id": "m-4", "action": ""}',
    '{"type": "act", "client_id": "m-5", "action": "fly away"}',
    '{"type": "act", "client_id": "m-6", "action": "c"}',
    '{"type": "act", "client_id": "m-7", "action": "c 33"}',
    '{"type": "act", "client_id": "m-8", "action": "p Y3>x"}',
    '{"type": "act", "client_id": "m-9", "action": "pass", "version": "0"}',
    '{"type": "act", "client_id": "m-10", "action": "pass", "version": 0.5}',
    '{"type": "act", "client_id": "m-11", "action": "pass", "version": true}',
    '{"type": "act", "client_id": "m-12", "action": "pass", "version": [0]}',
]


def test_malformed_messages(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    before = fingerprint(app, table_id)
    for text in MALFORMED:
        socket_.send_text(text)
        answers = [m for m in socket_.sync() if m["type"] != "table"]
        assert [(m["type"], m.get("code")) for m in answers] == [("error", "malformed")], (text, answers)
        assert answers[0]["message"]
        assert fingerprint(app, table_id) == before, text
    socket_.send_bytes(b'{"type": "ping"}')
    answers = socket_.sync()
    assert [(m["type"], m.get("code")) for m in answers] == [("error", "malformed")]
    # Still usable and still this seat's turn.
    assert socket_.act(socket_.legal[0])["type"] == "ack"


def test_not_your_turn(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    app.connect(table_id, tokens[0])
    second = app.connect(table_id, tokens[1])
    before = fingerprint(app, table_id)
    for action in ("pass", "end", "c Y3"):
        reply = second.act(action)
        assert reply["type"] == "error" and reply["code"] == "not_your_turn", reply
    assert fingerprint(app, table_id) == before


def test_illegal_action_names_its_rule(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    socket_ = app.connect(table_id, tokens[0])
    assert socket_.last is not None
    hand = socket_.last["view"]["hand"]
    candidates = ["end", *(f"c {card}" for card in hand), *(f"p {card}>1" for card in hand), "c Y9", "p Y3>7"]
    illegal = [action for action in candidates if action not in socket_.legal]
    assert illegal
    before = fingerprint(app, table_id)
    for action in illegal:
        reply = socket_.act(action)
        assert reply["type"] == "error", reply
        assert reply["code"] in ("illegal_action", "malformed"), reply
        if reply["code"] == "illegal_action":
            assert isinstance(reply.get("rule"), str) and reply["rule"].startswith("SNK-"), reply
    assert socket_.act("end")["code"] == "illegal_action"
    assert fingerprint(app, table_id) == before


def test_stale_version_is_refused(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"])
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    drive(sockets, random.Random(2), max_actions=2)
    _, mine = active_socket(sockets)
    before = fingerprint(app, table_id)
    assert before[0] == 2
    for old in (0, 1, -5):
        reply = mine.act(mine.legal[0], version=old)
        assert reply["type"] == "error" and reply["code"] == "stale", reply
    assert fingerprint(app, table_id) == before
    # The current version, or none at all, is accepted.
    assert mine.act(mine.legal[0], version=2)["version"] == 3


def test_spectator_cannot_act_or_check(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    seat = app.connect(table_id, tokens[0])
    spectator = app.connect(table_id, spectator=True)
    before = fingerprint(app, table_id)
    for action in seat.legal:
        reply = spectator.act(action, version=0)
        assert reply["type"] == "error" and reply["code"] == "spectator", reply
        answer = spectator.check(action)
        assert answer["type"] == "error" and answer["code"] == "spectator" and answer["check"] == action, answer
    spectator.send({"type": "leave"})
    assert [m.get("code") for m in spectator.sync() if m["type"] == "error"] == ["spectator"]
    assert fingerprint(app, table_id) == before


# -- "why not?": check ---------------------------------------------------------------------------------------

def test_check_answers_legal_for_every_legal_action_and_plays_nothing(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    socket_ = app.connect(table_id, tokens[0])
    other = app.connect(table_id, tokens[1])
    other.drain()
    before = fingerprint(app, table_id)
    for action in socket_.legal:
        assert socket_.check(action) == {"type": "check", "action": action, "legal": True}
    assert fingerprint(app, table_id) == before
    assert [m for m in other.drain() if m["type"] == "update"] == []  # nobody hears of a check


def test_check_of_an_illegal_action_gives_the_reason_and_the_rule(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    first = app.connect(table_id, tokens[0])
    second = app.connect(table_id, tokens[1])
    before = fingerprint(app, table_id)
    # "end" before any card is played (SNK-R7), and any move out of turn: refused with the rule that says so
    for socket_, action in ((first, "end"), (second, "pass"), (first, "c Y9")):
        answer = socket_.check(action)
        assert answer["type"] == "check" and answer["action"] == action and answer["legal"] is False, answer
        assert isinstance(answer["reason"], str) and answer["reason"]
        assert answer["rule"] is None or answer["rule"].startswith("SNK-"), answer
        # what an act would be told, without the act (out of turn, an act is refused before the rules are asked)
        reply = socket_.act(action)
        assert reply["type"] == "error"
        assert reply["message"] == answer["reason"] or reply["code"] == "not_your_turn", (reply, answer)
    assert first.check("end")["rule"] is not None
    assert fingerprint(app, table_id) == before


@pytest.mark.parametrize("action", ["fly away", "c", "c 33", "p Y3>x"])
def test_check_of_unreadable_notation_is_not_legal(app: Harness, action: str) -> None:
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    before = fingerprint(app, table_id)
    answer = socket_.check(action)
    assert answer["type"] == "check" and answer["legal"] is False and answer["reason"], answer
    assert fingerprint(app, table_id) == before


@pytest.mark.parametrize("action", ["", 3, None, ["pass"], "x" * 201])
def test_malformed_check_is_refused_and_names_the_action_when_it_can(app: Harness, action: Any) -> None:
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    before = fingerprint(app, table_id)
    socket_.send({"type": "check", "action": action})
    answers = [m for m in socket_.sync() if m["type"] != "table"]
    assert [(m["type"], m["code"]) for m in answers] == [("error", "malformed")], answers
    assert answers[0].get("check") == ("" if action == "" else None)
    assert fingerprint(app, table_id) == before


def test_check_never_changes_the_table_whatever_is_asked(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"])
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    rng = random.Random(13)
    for _ in range(6):
        seat, mine = active_socket(sockets)
        waiting = sockets[1 - seat]
        hand = mine.last["view"]["hand"] if mine.last else []
        before = fingerprint(app, table_id)
        sent = len(waiting.messages)
        for action in ["pass", "end", *(f"c {card}" for card in hand), *(f"p {card}>{1 - seat}" for card in hand)]:
            mine.check(action)
            waiting.check(action)
        assert fingerprint(app, table_id) == before
        assert all(m["version"] <= before[0] for m in waiting.messages[sent:] if m["type"] == "update")
        drive(sockets, rng, max_actions=1)


def test_a_rate_limited_check_is_named_by_its_action(make_app: Any) -> None:
    app = make_app(messages_per_second=ServerSettings.messages_per_second)
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    socket_.drain()
    for number in range(40):
        socket_.send({"type": "check", "action": f"c Y{number}"})
    answers = socket_.drain(quiet=0.3)
    limited = [m for m in answers if m["type"] == "error" and m["code"] == "rate_limited"]
    checked = [m for m in answers if m["type"] == "check"]
    assert limited and all(m["check"].startswith("c Y") for m in limited)
    assert len(limited) + len(checked) == 40  # every check is answered, one way or the other


def test_retried_client_id_is_applied_once(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    seat = app.connect(table_id, tokens[0])
    other = app.connect(table_id, tokens[1])
    action = seat.legal[0]
    first = seat.act(action, version=0, client_id="c-retry-1")
    assert first == {"type": "ack", "client_id": "c-retry-1", "version": 1}
    after = fingerprint(app, table_id)
    # The same message again (a retry after a dropped connection), on a new socket of the same seat.
    app.close(seat)
    again = app.connect(table_id, tokens[0])
    assert again.welcome is not None and again.welcome["version"] == 1
    for _ in range(2):
        assert again.act(action, version=0, client_id="c-retry-1") == first
    # Even a different action under the same client_id is the same, already applied, one.
    assert again.act("pass", version=None, client_id="c-retry-1") == first
    assert fingerprint(app, table_id) == after
    assert [m["version"] for m in other.drain() if m["type"] == "update"] == [1]


def test_oversized_message_is_too_large_and_closes_1009(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    before = fingerprint(app, table_id)
    socket_.send({"type": "act", "client_id": "big", "action": socket_.legal[0], "pad": "x" * 5000})
    error = socket_.next("error")
    assert error["code"] == "too_large", error
    assert socket_.next("_closed")["code"] == 1009
    assert fingerprint(app, table_id) == before
    assert public_table(app, table_id)["seats"][0]["connected"] is False


def test_oversized_binary_message_is_too_large(app: Harness) -> None:
    """"A message over 4 KiB" is any message: a binary frame too."""
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    socket_.send_bytes(b"x" * 5000)
    error = socket_.next("error")
    assert error["code"] == "too_large", error
    assert socket_.next("_closed")["code"] == 1009


def test_message_size_limit_counts_bytes(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    base = json.dumps({"type": "ping", "pad": ""})
    socket_.send_text(json.dumps({"type": "ping", "pad": "x" * (4096 - len(base))}))  # exactly 4096 bytes
    assert socket_.next("pong", "error")["type"] == "pong"
    socket_.send_text(json.dumps({"type": "ping", "pad": "é" * 2100}, ensure_ascii=False))  # 2100 chars, 4200 bytes
    assert socket_.next("error")["code"] == "too_large"
    assert socket_.next("_closed")["code"] == 1009


def test_rate_limit(make_app: Any) -> None:
    clock = ManualClock()
    app = make_app(messages_per_second=ServerSettings.messages_per_second, clock=clock)
    assert app.settings.messages_per_second == 20
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    socket_.drain()
    before = fingerprint(app, table_id)
    for _ in range(60):
        socket_.send({"type": "ping"})
    answers = socket_.drain(quiet=0.3)
    pongs = [m for m in answers if m["type"] == "pong"]
    limited = [m for m in answers if m["type"] == "error" and m["code"] == "rate_limited"]
    assert len(limited) == 1, answers  # one warning a second, not one per dropped message
    assert len(pongs) == 20  # the bucket holds a second's worth, and no time passed
    assert fingerprint(app, table_id) == before
    clock.advance(1000)  # the bucket refills: the socket is usable again
    assert socket_.sync(timeout=2) == []


def test_a_rate_limited_act_is_named_by_its_client_id(make_app: Any) -> None:
    app = make_app(messages_per_second=ServerSettings.messages_per_second)
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[1])  # not this seat's turn: every act that gets through is refused
    socket_.drain()
    before = fingerprint(app, table_id)
    for number in range(40):
        socket_.send({"type": "act", "client_id": f"flood-{number}", "action": "pass"})
    answers = socket_.drain(quiet=0.3)
    limited = [m for m in answers if m["type"] == "error" and m["code"] == "rate_limited"]
    refused = [m for m in answers if m["type"] == "error" and m["code"] == "not_your_turn"]
    assert limited and all(m["client_id"].startswith("flood-") for m in limited)
    assert len(limited) + len(refused) == 40  # every act is answered, one way or the other
    assert fingerprint(app, table_id) == before


def test_ping_pong(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    for socket_ in (app.connect(table_id, tokens[0]), app.connect(table_id, spectator=True)):
        socket_.drain()
        socket_.send({"type": "ping"})
        assert socket_.recv() == {"type": "pong"}


def test_every_message_type_is_documented(app: Harness) -> None:
    """A client written from docs/protocol.md must know every message the server sends."""
    table_id, tokens, _ = app.create(["human", "human"])
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    spectator = app.connect(table_id, spectator=True)
    drive(sockets, random.Random(9), max_actions=4)
    app.close(sockets[1])
    seen = {m["type"] for s in (sockets[0], spectator) for m in s.drain() + s.messages}
    assert seen <= MESSAGE_TYPES, f"undocumented message types: {sorted(seen - MESSAGE_TYPES)}"


def test_deeply_nested_message_is_malformed_not_a_crash(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    socket_.drain()
    socket_.send_text("[" * 2000 + "]" * 2000)  # 4000 bytes: under the size limit
    message = socket_.recv()
    alive = message.get("type") == "error" and socket_.poll(0.1) is None
    if alive:
        socket_.send({"type": "ping"})
        alive = socket_.recv().get("type") == "pong"
    app.close(socket_)
    crashes, app.crashes[:] = list(app.crashes), []
    assert not crashes, f"the socket handler raised: {crashes!r}"
    assert message.get("code") == "malformed", message
    assert alive


def test_odd_client_id_is_accepted_or_refused_never_a_storage_failure(app: Harness) -> None:
    """A client_id is 1 to 64 characters; a JSON-escaped lone surrogate is one. It must not reach the database
    as something it cannot store (that fails the whole group-commit batch, other tables' actions with it)."""
    table_id, tokens, _ = app.create()
    socket_ = app.connect(table_id, tokens[0])
    socket_.send_text(json.dumps({"type": "act", "client_id": "\ud800", "action": socket_.legal[0], "version": 0}))
    reply = socket_.next("ack", "error")
    assert reply["type"] == "ack" or reply.get("code") == "malformed", reply
    assert fingerprint(app, table_id)[0] == (1 if reply["type"] == "ack" else 0)


# -- sessions --------------------------------------------------------------------------------------------------

def test_reconnect_gets_the_current_version(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    drive(sockets, random.Random(4), max_actions=5)
    seen_events = [e for m in sockets[0].messages if m["type"] == "update" for e in m["events"]]
    app.close(sockets[0])
    assert public_table(app, table_id)["seats"][0]["connected"] is False
    again = app.connect(table_id, tokens[0])
    welcome = again.welcome
    assert welcome is not None
    assert welcome["seat"] == 0 and welcome["version"] == 5 == app.live(table_id).version
    live = app.live(table_id)
    assert welcome["view"] == json.loads(json.dumps(SNORKELING.view(live.match.state, 0)))
    opening = [as_sent(event, 0) for event in live.match.opening]
    assert welcome["log"] == opening + seen_events  # its own copy, oldest first
    assert public_table(app, table_id)["seats"][0]["connected"] is True


def test_welcome_log_keeps_the_most_recent_events(make_app: Any) -> None:
    app = make_app(log_length=7)
    table_id, tokens, _ = app.create()
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    drive(sockets, random.Random(6), max_actions=12)
    sockets[1].until_version(12)
    opening = [as_sent(event, 1) for event in app.live(table_id).match.opening]
    seen_events = opening + [e for m in sockets[1].messages if m["type"] == "update" for e in m["events"]]
    assert len(seen_events) > 7
    again = app.connect(table_id, tokens[1])
    assert again.welcome is not None and again.welcome["log"] == seen_events[-7:]


def test_two_sockets_on_one_seat_both_get_updates(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    first = app.connect(table_id, tokens[0])
    second = app.connect(table_id, tokens[0])
    other = app.connect(table_id, tokens[1])
    reply = first.act(first.legal[0])
    assert reply["type"] == "ack"
    updates = [s.until_version(1) for s in (first, second, other)]
    assert updates[0]["type"] == updates[1]["type"] == "update"
    assert updates[0] == updates[1]
    assert updates[2]["version"] == 1 and updates[2]["view"]["seat"] == 1
    # Either socket may act for the seat.
    if second.legal:
        assert second.act(second.legal[0])["version"] == 2
        assert first.until_version(2)["version"] == 2


def test_update_reaches_every_seat_and_spectator(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human", "human"], {**FAST, "first_player": 0})
    seats = [app.connect(table_id, token) for token in tokens]
    spectators = [app.connect(table_id, spectator=True) for _ in range(2)]
    for expected_version in range(1, 6):
        actor, mine = active_socket(dict(enumerate(seats)))
        action = mine.legal[0]
        already = len(mine.messages)
        assert mine.act(action)["version"] == expected_version
        # The actor gets the update first, then the ack.
        assert [m["type"] for m in mine.messages[already:] if m["type"] in ("update", "ack")] == ["update", "ack"]
        updates = [s.until_version(expected_version) for s in (*seats, *spectators)]
        for index, update in enumerate(updates):
            assert update["type"] == "update" and update["version"] == expected_version
            assert update["actor"] == actor and update["action"] == action
            assert update["outcome"] is None
            table = [*seats, *spectators][index].table
            assert table is not None and table["id"] == table_id and table["status"] == "playing"
            assert isinstance(update["events"], list) and update["events"]
            seat = index if index < 3 else None
            assert update["view"]["seat"] == seat
            assert ("hand" in update["view"]) == (seat is not None)
        live = app.live(table_id)
        for seat, update in enumerate(updates[:3]):
            assert update["view"] == json.loads(json.dumps(SNORKELING.view(live.match.state, seat)))
            assert update["legal"] == json.loads(json.dumps(records(app, table_id, seat)))
            assert bool(update["legal"]) == (seat in SNORKELING.actors(live.match.state))
        assert updates[3] == updates[4]
        assert all(u["legal"] == [] for u in updates[3:])
        # The same public events for everyone: only private fields (a drawn card) differ.
        kinds = {tuple(e["kind"] for e in u["events"]) for u in updates}
        assert len(kinds) == 1
        events = list(live.log)[-len(updates[0]["events"]):]
        for index, update in enumerate(updates):
            seat = index if index < 3 else None
            assert update["events"] == [as_sent(event, seat) for event in events]


def test_bots_move_until_a_human_turn(app: Harness) -> None:
    table_id, tokens, _ = app.create(["greedy", "random", "human"], {**FAST, "first_player": 0})
    human = app.connect(table_id, tokens[2])
    deadline = time.monotonic() + 5
    while not (human.last and human.last["legal"]):
        assert time.monotonic() < deadline, "the bots did not play up to the human's turn"
        human.recv(max(0.001, deadline - time.monotonic()))
    assert human.last["view"]["active"] == 2 and human.last["version"] >= 2
    assert {m["actor"] for m in human.messages if m["type"] == "update"} <= {0, 1}
    assert {seat for seat, _ in app.live(table_id).match.actions} == {0, 1}
    version = human.last["version"]
    assert [m for m in human.drain(0.2) if m["type"] == "update"] == []  # they wait for the human
    assert app.live(table_id).version == version
    # After the human's move the bots play on again, up to the human's next turn.
    assert human.act(human.legal[0])["type"] == "ack"
    drive({2: human}, random.Random(1), max_actions=3)


def test_whole_game_two_humans_and_a_bot(app: Harness) -> None:
    table_id, tokens, table = app.create(["human", "human", "greedy"], {"target_score": 3})
    assert table["status"] == "waiting"
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    spectator = app.connect(table_id, spectator=True)
    played = drive(sockets, random.Random(11))
    assert played
    final = sockets[0].last
    assert final is not None and final["outcome"] is not None
    outcome = final["outcome"]
    assert {"winners", "scores", "termination"} <= set(outcome)
    assert outcome["winners"] and len(outcome["scores"]) == 3
    assert final["table"]["status"] == "finished" and final["legal"] == []  # the last action changed the table
    version = final["version"]
    for socket_ in (sockets[1], spectator):
        last = socket_.until_version(version)
        assert last["outcome"] == outcome and last["legal"] == []
    assert public_table(app, table_id)["status"] == "finished"
    assert table_id not in [t["id"] for t in app.client.get("/api/tables").json()["tables"]]
    for socket_ in sockets.values():
        reply = socket_.act("pass", version=None)
        assert reply["type"] == "error" and reply["code"] == "game_over", reply
    assert app.live(table_id).version == version
    # A late spectator sees the result too.
    late = app.connect(table_id, spectator=True)
    assert late.welcome is not None and late.welcome["outcome"] == outcome and late.welcome["version"] == version
    # The database holds every action, in order.
    with contextlib.closing(sqlite3.connect(app.database)) as db:
        rows = db.execute("SELECT seq, seat, action FROM actions WHERE table_id = ? ORDER BY seq",
                          (table_id,)).fetchall()
    assert [r[0] for r in rows] == list(range(version))
    ours = {(seat, action, acked) for seat, action, acked in played}
    assert ours <= {(seat, action, seq + 1) for seq, seat, action in rows}


def test_rematch_gives_each_seat_its_own_new_token(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human", "greedy"])
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    extra = app.connect(table_id, tokens[0])  # a second tab of seat 0
    spectator = app.connect(table_id, spectator=True)
    early = sockets[0]
    early.send({"type": "rematch"})
    assert [m["type"] for m in early.sync() if m["type"] != "table"] == ["error"]  # not over yet
    drive(sockets, random.Random(12))
    sockets[1].send({"type": "rematch"})
    sockets[0].send({"type": "rematch"})  # the other person accepts: the rematch starts
    offers = {seat: s.next("rematch") for seat, s in sockets.items()}
    second_tab = extra.next("rematch")
    to_spectator = spectator.next("rematch")
    new_id = offers[0]["table"]
    assert new_id != table_id and all(o["table"] == new_id for o in offers.values())
    assert second_tab == offers[0]
    assert to_spectator == {"type": "rematch", "table": new_id}
    new_tokens = [offers[0]["token"], offers[1]["token"]]
    assert len(set(new_tokens)) == 2 and not set(new_tokens) & set(tokens)
    new = public_table(app, new_id)
    assert new["game"] == "snorkeling" and new["options"] == public_table(app, table_id)["options"]
    assert [(s["kind"], s["bot"]) for s in new["seats"]] == [("human", None), ("human", None), ("bot", "greedy")]
    for seat in (0, 1):
        welcome = app.connect(new_id, new_tokens[seat]).welcome
        assert welcome is not None and welcome["seat"] == seat and welcome["version"] == 0
        # The old token does not open the new table.
        refused = app.open(new_id)
        refused.send({"type": "hello", "protocol": PROTOCOL, "token": tokens[seat]})
        assert_refused(refused, "bad_token", 4401)
    # Someone coming back to the old table later is told too, after the welcome: a seat with its own token.
    late_seat = app.connect(table_id, tokens[1])
    assert late_seat.next("rematch") == offers[1]
    late_spectator = app.connect(table_id, spectator=True)
    told = late_spectator.next("rematch")
    assert told["table"] == new_id and not told.get("token")
    # Asking again does not make a second table.
    sockets[0].send({"type": "rematch"})
    sockets[0].drain(0.1)
    assert sum(1 for t in app.manager.tables.values() if t.id != table_id) == 1


def test_leave_hands_the_seat_to_a_bot_and_coming_back_takes_it_back(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"], {"first_player": 0})
    first = app.connect(table_id, tokens[0])
    second = app.connect(table_id, tokens[1])
    second.send({"type": "leave"})
    wait_for(lambda: public_table(app, table_id)["seats"][1]["controller"] == "bot", what="a bot for seat 1")
    seat = public_table(app, table_id)["seats"][1]
    assert seat["kind"] == "human" and seat["controller"] == "bot"
    app.close(second)
    # Seat 0 plays; the bot plays seat 1's turns by itself.
    deadline = time.monotonic() + 5
    while not any(m["type"] == "update" and m["actor"] == 1 for m in first.messages):
        assert time.monotonic() < deadline, "no bot played for seat 1"
        drive({0: first}, random.Random(7), max_actions=1)
    while first.last and first.last["view"]["active"] != 0 and first.last["outcome"] is None:
        first.next("update")
    # A game to 12 points lasts far longer than the one turn of each seat played here.
    assert first.last is None or first.last["outcome"] is None, "the game ended before seat 1 came back"
    # Coming back takes the seat back.
    back = app.connect(table_id, tokens[1])
    assert back.welcome is not None
    assert back.welcome["table"]["seats"][1]["controller"] == "human"
    assert public_table(app, table_id)["seats"][1]["controller"] == "human"
    # Now nobody plays seat 1 but the person.
    while first.last["view"]["active"] == 0 and first.last["outcome"] is None:
        drive({0: first}, random.Random(8), max_actions=1)
    if first.last["outcome"] is None:
        version = first.last["version"]
        assert [m for m in back.drain(0.3) if m["type"] == "update" and m["version"] > version] == []
        assert back.until_version(version)["legal"]
        assert back.act(back.legal[0])["type"] == "ack"


def test_away_seat_is_played_by_a_bot_after_the_grace_period(make_app: Any) -> None:
    clock = ManualClock()
    app = make_app(grace_period=0.2, clock=clock)
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    first = app.connect(table_id, tokens[0])
    # A short absence (a page reload) keeps the seat.
    quick = app.connect(table_id, tokens[1])
    app.close(quick)
    assert public_table(app, table_id)["seats"][1]["connected"] is False
    returned = app.connect(table_id, tokens[1])
    clock.advance(400)
    returned.sync()
    assert public_table(app, table_id)["seats"][1]["controller"] == "human"
    # A long one hands it to a bot, which then plays seat 1 to the end of the game.
    app.close(returned)
    wait_for(lambda: app.live(table_id).seats[1].away_task is not None, what="seat 1 to be away")
    clock.advance(199)
    first.sync()
    assert public_table(app, table_id)["seats"][1]["controller"] == "human"
    clock.advance(1)
    wait_for(lambda: public_table(app, table_id)["seats"][1]["controller"] == "bot", timeout=3,
             what="the grace period to hand seat 1 to a bot")
    played = drive({0: first}, random.Random(10))
    assert first.last is not None and first.last["outcome"] is not None
    assert any(m["type"] == "update" and m["actor"] == 1 for m in first.messages)
    assert played


def test_bots_cannot_be_stalled_by_a_client_id(app: Harness) -> None:
    """Client ids are the client's to choose: one that happens to look like the server's own ids for its bots
    ("bot:<version>") must not make the bot's move count as already done."""
    table_id, tokens, _ = app.create(["human", "greedy"], {**FAST, "first_player": 0})
    human = app.connect(table_id, tokens[0])
    assert human.last is not None
    while human.last["view"]["active"] == 0:
        version = human.last["version"]
        reply = human.act(human.legal[0], client_id=f"bot:{version + 1}")
        assert reply["type"] == "ack"
        human.until_version(reply["version"])
    turn_over = human.last["version"]
    deadline = time.monotonic() + 3
    bot_moved = None
    while bot_moved is None and time.monotonic() < deadline:
        message = human.poll(deadline - time.monotonic())
        if message is not None and message["type"] == "update":
            bot_moved = message
    assert bot_moved is not None, (f"the bot of seat 1 never moved at version {turn_over}: the server took its "
                                   f"move for a retry of the human's client_id 'bot:{turn_over}'")
    assert bot_moved["actor"] == 1 and bot_moved["version"] == turn_over + 1


def test_another_seats_client_id_does_not_swallow_an_action(app: Harness) -> None:
    """A retry is the same client resending; another seat choosing the same id means another action."""
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    sockets = {0: app.connect(table_id, tokens[0]), 1: app.connect(table_id, tokens[1])}
    first = sockets[0].act(sockets[0].legal[0], client_id="c-1")
    assert first["type"] == "ack"
    while sockets[0].last is not None and sockets[0].last["view"]["active"] == 0:
        assert sockets[0].act(sockets[0].legal[0])["type"] == "ack"
    seat, mine = active_socket(sockets)
    assert seat == 1
    version = app.live(table_id).version
    reply = mine.act(mine.legal[0], client_id="c-1")
    assert reply == {"type": "ack", "client_id": "c-1", "version": version + 1}
    assert app.live(table_id).version == version + 1
