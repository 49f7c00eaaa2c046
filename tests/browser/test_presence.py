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


@pytest.mark.parametrize(("game", "size"), [("bermuda", "desktop"), ("bermuda", "phone"),
                                            ("hold-your-hat", "desktop"), ("hold-your-hat", "phone")])
def test_real_time_games_say_who_is_here_too(browser: Any, live: ServerProcess, game: str, size: str,
                                             artifacts: Any) -> None:
    """Bermuda's divers and Hold your Hat's teams say, for each other person, whether they are connected now, and
    once they are away the time before a bot plays for them (these games keep their own clocks: no clock per
    move)."""
    status, games = live.request("GET", "/api/games")
    assert status == 200
    players = max(2, next(g for g in games["games"] if g["name"] == game)["min_players"])
    status, created = live.request("POST", "/api/tables", {
        "game": game, "seats": [{"kind": "human", "name": name} for name in ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
                                [:players]]})
    assert status == 201, created
    table_id, tokens = created["table"]["id"], created["tokens"]
    ann = browser.new_context(**SIZES[size]).new_page()
    ann.goto(f"{live.url}/table/{table_id}#seat=0&token={tokens[0]}")
    # Nobody else has come: every other seat says so.
    wait_until(ann, f"{BADGES}.filter((t) => t === 'offline').length === {players - 1}", timeout=10)
    bo = browser.new_context(**SIZES[size]).new_page()
    bo.goto(f"{live.url}/table/{table_id}#seat=1&token={tokens[1]}")
    wait_until(ann, f"{BADGES}.filter((t) => t === 'offline').length === {players - 2}", timeout=10)
    ann.screenshot(path=str(artifacts / f"{game}-{size}-bo-here.png"))
    bo.context.close()  # Bo's page closes: away, with the time before a bot plays
    wait_until(ann, f"{BADGES}.some((t) => t.startsWith('offline · a bot in'))", timeout=10)
    ann.screenshot(path=str(artifacts / f"{game}-{size}-bo-away.png"))
    assert ann.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    ann.context.close()
