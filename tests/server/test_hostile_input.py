"""Smaller holes of issue 13, item 8, against an in-process server: superscript digits, a spectator's rematch, the
table re-sent for every spectator, the HTTP headers and error format, the Host check, and data file messages."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from divedeck.engine.data import read_data_text
from divedeck.engine.errors import ConfigError, MalformedInput
from divedeck.engine.registry import game_names, get_game

from .conftest import FAST, Harness, drive

UNICODE_NUMBERS = ["p Y3>²", "c Y²", "p Y³>1", "p R2>¹", "air DO ²", "panic A5P>²", "calm A5P ²>1", "calm A5P 1>²",
                   "lay ² c1", "order ²,1", "c Y٣", "p R2>١"]


@pytest.mark.parametrize("game_name", game_names())
def test_superscript_digits_are_malformed_not_a_crash(game_name: str) -> None:
    game = get_game(game_name)
    for text in UNICODE_NUMBERS:
        try:
            game.parse_action(text)
        except MalformedInput as problem:
            assert "\n" not in str(problem)


def test_superscript_target_is_answered_malformed_and_the_socket_stays(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    socket_ = app.connect(table_id, tokens[0])
    reply = socket_.act("p Y3>²")
    assert reply["type"] == "error" and reply["code"] == "malformed"
    assert socket_.check("p Y3>²")["legal"] is False
    assert socket_.sync() == []


def test_only_a_seated_player_starts_a_rematch(make_app: Any) -> None:
    app = make_app()
    table_id, tokens, _ = app.create(["human", "random"])
    seat = app.connect(table_id, tokens[0])
    watcher = app.connect(table_id, spectator=True)
    drive({0: seat}, random.Random(3))
    watcher.send({"type": "rematch"})
    refusal = watcher.next("error", "rematch")
    assert refusal["type"] == "error" and refusal["code"] == "spectator"
    assert app.live(table_id).rematch_id is None
    seat.send({"type": "rematch"})
    assert seat.next("rematch")["table"] == app.live(table_id).rematch_id


def test_a_spectator_joining_does_not_resend_the_table_to_everyone(app: Harness) -> None:
    table_id, tokens, _ = app.create()
    seat = app.connect(table_id, tokens[0])
    seat.drain()
    for _ in range(5):
        app.connect(table_id, spectator=True)
    assert [m for m in seat.drain(0.1) if m["type"] == "table"] == []
    # A seat's connection changing is news, once.
    other = app.connect(table_id, tokens[1])
    assert [m["table"]["seats"][1]["connected"] for m in seat.drain(0.1) if m["type"] == "table"] == [True]
    app.connect(table_id, tokens[1])  # a second socket on a connected seat changes nothing shown
    assert [m for m in seat.drain(0.1) if m["type"] == "table"] == []
    app.close(other)
    assert [m for m in seat.drain(0.1) if m["type"] == "table"] == []


EXPECTED_HEADERS = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


@pytest.mark.parametrize("path", ["/", "/table/abc", "/static/js/table.js", "/api/games", "/api/tables/nope",
                                  "/nowhere"])
def test_security_headers_on_every_response(app: Harness, path: str) -> None:
    response = app.client.get(path)
    for name, value in EXPECTED_HEADERS.items():
        assert response.headers[name] == value
    policy = response.headers["content-security-policy"]
    for directive in ("script-src 'self'", "style-src 'self'", "frame-ancestors 'none'",
                      "connect-src 'self' ws://testserver wss://testserver", "default-src 'none'"):
        assert directive in policy


def test_the_pages_need_no_inline_script_or_style_element() -> None:
    """What the policy forbids, the pages do not use: no <style>, no inline script, no on...= handlers."""
    web = Path(__file__).resolve().parents[2] / "src" / "divedeck" / "web"
    for page in web.glob("*.html"):
        text = page.read_text()
        assert "<style" not in text and not re.search(r"\son[a-z]+\s*=", text), page.name
        assert all(re.match(r'[^>]*\ssrc="/static/', tag) for tag in text.split("<script")[1:]), page.name


def test_openapi_is_not_public(app: Harness) -> None:
    for path in ("/openapi.json", "/docs", "/redoc"):
        response = app.client.get(path)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/nowhere", 404, "not_found"), ("GET", "/static/none.js", 404, "not_found"),
    ("DELETE", "/api/tables", 405, "method_not_allowed"), ("PUT", "/api/games", 405, "method_not_allowed")])
def test_http_errors_use_the_documented_format(app: Harness, method: str, path: str, status: int,
                                               code: str) -> None:
    response = app.client.request(method, path, content=b"{}" if method in ("PUT",) else None)
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == code and error["message"]


@pytest.mark.parametrize("body", [b"\xff\xfe{", b'{"game": "\xc3\x28"}', b'{"game": "snork\xed\xa0\x80"}'])
def test_a_body_that_is_not_utf8_is_malformed(app: Harness, body: bytes) -> None:
    response = app.client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed"


@pytest.mark.parametrize("host", ["evil.example", "localhost.evil.example", "127.0.0.1.nip.io"])
def test_a_foreign_host_is_refused(app: Harness, host: str) -> None:
    response = app.client.get("/api/games", headers={"host": host})
    assert response.status_code == 400
    assert response.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "testserver"])
def test_local_hosts_are_served(app: Harness, host: str) -> None:
    assert app.client.get("/api/games", headers={"host": host}).status_code == 200


def test_allowed_hosts_and_the_listening_address_are_served(make_app: Any) -> None:
    app = make_app(host="192.0.2.7", allowed_hosts=("divedeck.example", "testserver"))
    for host in ("192.0.2.7:8000", "divedeck.example"):
        assert app.client.get("/api/games", headers={"host": host}).status_code == 200
    assert app.client.get("/api/games", headers={"host": "other.example"}).status_code == 400


def test_missing_special_and_unreadable_files_get_one_message(tmp_path: Path) -> None:
    unreadable = tmp_path / "secret.toml"
    unreadable.write_text("x = 1")
    unreadable.chmod(0)
    messages = set()
    paths = [tmp_path / "missing.toml", tmp_path, Path("/dev/zero"), "bad\0path"]
    if os.geteuid() != 0:  # root reads anything
        paths.append(unreadable)
    for path in paths:
        with pytest.raises(ConfigError) as refused:
            read_data_text("divedeck.games.snorkeling", "deck.toml", str(path), "the deck")
        messages.add(str(refused.value).replace(str(path), "PATH"))
    assert len(messages) == 1, messages
