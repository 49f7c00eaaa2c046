"""A clock per move (issue 26, item 10), in the browser: the lobby offers it for a game that declares it (not for a
real-time one), everyone sees the countdown of the seat to play, a move whose time ran out is played by the seat's
stand-in bot, and its person takes the seat back. Desktop and a touch phone.

The server runs its clocks fast (``--move-clock-second-ms 100``: "Fast", 20 s a move and 60 s in reserve, lasts
2 + 6 s), so the test waits seconds, not minutes; what it checks is what the page shows, never how fast."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.browser.test_accessibility import blocking_violations
from tests.live_server import ServerProcess, running_server

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
MOVE = "#board .is-legal, #board [data-act=pass], #board [data-act=end]"
NO_SIDEWAYS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("clock"), "--bot-delay", "0.3", "--move-clock-second-ms",
                        "100") as server:
        yield server


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_offers_a_clock_only_where_the_game_has_one(browser: Any, live: ServerProcess, size: str,
                                                              artifacts: Path) -> None:
    page = browser.new_context(**SIZES[size]).new_page()
    page.goto(live.url)
    wait_until(page, "document.querySelector('#games input, #games button')", timeout=10)
    page.locator("#games").get_by_text("Snorkeling", exact=False).first.click()
    wait_until(page, "!document.querySelector('#clock-row').hidden")
    options = page.locator("#clock option").all_inner_texts()
    assert options[0] == "Off" and any(o.startswith("Fast: 20 s a move") for o in options)
    assert page.locator("#clock").input_value() == "off"  # off by default
    page.locator("#games").get_by_text("Bermuda", exact=False).first.click()
    wait_until(page, "document.querySelector('#clock-row').hidden")  # its dive keeps its own time
    page.locator("#games").get_by_text("Snorkeling", exact=False).first.click()
    wait_until(page, "!document.querySelector('#clock-row').hidden")
    page.locator("#clock").select_option("normal")
    page.locator("#clock-row").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "lobby-clock.png"))
    assert page.evaluate(NO_SIDEWAYS)
    page.locator("#create").click()
    wait_until(page, "!document.querySelector('#created').hidden", timeout=10)
    status, tables = live.request("GET", "/api/tables")
    assert status == 200 and tables["tables"][0]["clock"]["name"] == "normal"
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_countdown_the_stand_in_and_taking_the_seat_back(browser: Any, live: ServerProcess, size: str,
                                                             artifacts: Path) -> None:
    status, created = live.request("POST", "/api/tables", {
        "game": "snorkeling", "clock": "fast", "options": {"first_player": 0},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]})
    assert status == 201, created
    table_id, tokens = created["table"]["id"], created["tokens"]
    ann = browser.new_context(**SIZES[size]).new_page()
    ann.goto(f"{live.url}/table/{table_id}#seat=0&token={tokens[0]}")
    bo = browser.new_context(**SIZES[size]).new_page()
    bo.goto(f"{live.url}/table/{table_id}#seat=1&token={tokens[1]}")
    # Everyone sees Ann's time running: beside the turn, and on Ann's seat on Bo's board.
    wait_until(bo, "document.querySelector('#turn .clock-badge')", timeout=10)
    wait_until(bo, "document.querySelector('#board .clock-badge')")
    wait_until(ann, "document.querySelector('#turn.is-mine .clock-badge')", timeout=10)
    shown = bo.locator("#turn .clock-badge .notice-count").inner_text()
    assert shown.startswith("0:0"), shown  # Fast, run at 100 ms a second: 8 "seconds" at most
    ann.screenshot(path=str(artifacts / "ann-countdown.png"))
    bo.screenshot(path=str(artifacts / "bo-sees-ann-countdown.png"))
    assert ann.evaluate(NO_SIDEWAYS) and bo.evaluate(NO_SIDEWAYS)
    assert blocking_violations(bo) == []  # axe, with the countdown on the page
    # Ann does nothing: her time runs out, her stand-in bot plays her move, and everyone is told.
    wait_until(bo, "[...document.querySelectorAll('#board .presence-badge')].some((el) => "
                   "el.textContent.startsWith('out of time'))", timeout=15)
    wait_until(ann, "document.querySelector('.notice-mine .take-back')")
    assert "Your time ran out" in ann.locator(".notice-mine").inner_text()
    wait_until(bo, "[...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('Ann '))",
               timeout=10)
    ann.screenshot(path=str(artifacts / "ann-out-of-time.png"))
    assert blocking_violations(ann) == []  # axe, with the notice and its button
    bo.screenshot(path=str(artifacts / "bo-sees-the-stand-in.png"))
    # Ann takes her seat back: the bot stops, and her next turn is hers again, with her time running.
    ann.locator(".notice-mine .take-back").click()
    wait_until(ann, "!document.querySelector('.notice-mine')")
    wait_until(bo, "![...document.querySelectorAll('#board .presence-badge')].some((el) => "
                   "el.textContent.startsWith('out of time'))")
    # Bo plays until it is Ann's turn (Bo's own time runs too: he plays at once).
    for _ in range(40):
        if ann.locator("#turn.is-mine").count():
            break
        if bo.locator("#turn.is-mine").count() and bo.locator(MOVE).count():
            bo.locator(MOVE).first.click()
            if bo.locator("#board .is-target").count():
                bo.locator("#board .is-target").first.click()
        bo.wait_for_timeout(150)
    wait_until(ann, "document.querySelector('#turn.is-mine .clock-badge')", timeout=10)
    ann.screenshot(path=str(artifacts / "ann-back.png"))
    versions = ann.evaluate("() => document.querySelectorAll('#log li').length")
    ann.locator(MOVE).first.click()
    if ann.locator("#board .is-target").count():
        ann.locator("#board .is-target").first.click()
    wait_until(ann, f"document.querySelectorAll('#log li').length > {versions}")
    assert not ann.locator(".notice-mine").count()  # she played it herself
    ann.context.close()
    bo.context.close()
