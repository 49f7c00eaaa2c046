"""The phone's top bar (issue 26, item 7): on a 390x844 touch screen nothing in it is cut ("Y…" once Undo came
in Hold Your Breath!, "Team B's t…", "Waiting for th…"), in every game, and "Leave the table" shows while the
Seats panel is folded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess, running_server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
PLAYERS = {"snorkeling": 3, "hold-your-breath": 3, "bermuda": 3, "hold-your-hat": 4}
# Every element of the bar whose text overflows its box, or whose box leaves the screen (the connection's words
# are hidden on purpose: a screen reader reads them, the dot shows them).
CUT = """() => [...document.querySelectorAll('.topbar *')]
  .filter((el) => el.offsetParent && el.id !== 'conn-text' && (el.scrollWidth > el.clientWidth + 1
    || el.getBoundingClientRect().right > innerWidth || el.getBoundingClientRect().left < 0))
  .map((el) => `${el.id || el.className}: ${el.textContent}`)"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("topbar"), "--bot-delay", "0.3") as server:
        yield server


@pytest.mark.parametrize("game", list(PLAYERS))
def test_nothing_in_the_phone_top_bar_is_cut(browser: Any, live: ServerProcess, artifacts: Path, game: str) -> None:
    _, games = live.request("GET", "/api/games")
    bot = "words" if game == "hold-your-hat" else next(g for g in games["games"] if g["name"] == game)["default_bot"]
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": bot}] * (PLAYERS[game] - 1)
    status, created = live.request("POST", "/api/tables", {"game": game, "seats": seats})
    assert status == 201, created
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live.url}/table/{created['table']['id']}#seat=0&token={created['tokens'][0]}")
    wait_until(page, "document.querySelector('#turn').textContent.length > 0", timeout=10)
    if game == "hold-your-breath":  # a card played: Undo comes into the bar beside the turn line
        wait_until(page, "document.querySelector('#board .is-legal')", timeout=10)
        page.locator("#board .is-legal").first.tap()
        if page.locator("#board .is-target").count():
            page.locator("#board .is-target").first.tap()
        wait_until(page, "!document.querySelector('#undo').hidden")
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / f"topbar-{game}.png"), clip={"x": 0, "y": 0, "width": 390, "height": 140})
    assert page.evaluate(CUT) == []
    assert page.locator(".panel-seats").evaluate("el => el.open") is False  # folded on a phone
    assert page.locator("#leave").is_visible()
    page.context.close()
