"""Connection of the others (issue 26, item 13): on the board, each other person's seat says whether its person is
connected now, and once they are away the time left before a bot plays for them; it changes as they come and go.
Snorkeling and Hold Your Breath!, desktop and a touch phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess, running_server

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
BADGES = "[...document.querySelectorAll('#board .presence-badge')].map((el) => el.textContent)"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("presence"), "--bot-delay", "0.3") as server:
        yield server


@pytest.mark.parametrize(("game", "size"), [("snorkeling", "desktop"), ("hold-your-breath", "phone")])
def test_each_seat_says_whether_its_person_is_here(browser: Any, live: ServerProcess, game: str, size: str) -> None:
    status, created = live.request("POST", "/api/tables", {
        "game": game, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]})
    assert status == 201, created
    table_id, tokens = created["table"]["id"], created["tokens"]
    ann = browser.new_context(**SIZES[size]).new_page()
    ann.goto(f"{live.url}/table/{table_id}#seat=0&token={tokens[0]}")
    wait_until(ann, f"{BADGES}.length === 1", timeout=10)
    assert ann.evaluate(BADGES) == ["offline"]  # Bo has not come yet
    bo = browser.new_context(**SIZES[size]).new_page()
    bo.goto(f"{live.url}/table/{table_id}#seat=1&token={tokens[1]}")
    wait_until(ann, f"{BADGES}.length === 0", timeout=10)  # Bo is here
    bo.context.close()  # Bo's page closes: away, with the time before a bot plays
    wait_until(ann, f"{BADGES}.some((t) => t.startsWith('offline · a bot in'))", timeout=10)
    ann.context.close()
