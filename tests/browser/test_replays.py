"""The replay page of every game (issue 26, item 1): the game's full look (its own style sheet), the move in words
in the header (never its notation, "hold @1796…"), no live control (a breath button, a mouse switch, a typing box)
and a stopped clock, with no serious accessibility violation, at 1366x800 and on a 390x844 touch phone.

Each game is finished by its bots alone (short options) on one server for the module."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess, running_server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# Short games, played by bots only: (options, seats, bot).
SHORT = {"snorkeling": ({"target_score": 1}, 2, "medium"), "hold-your-breath": ({}, 2, "medium"),
         "bermuda": ({"rounds": 1, "countdown_ms": 0, "max_dive_ms": 1500}, 2, "medium"),
         "hold-your-hat": ({"rounds": 1, "deck_size": 1, "turn_seconds": 30}, 4, "words-hard")}
LIVE_CONTROLS = ".brm-breath-btn, .brm-mode, #board input, #board textarea, #board button:not([disabled])"


Finished = tuple[ServerProcess, dict[str, str]]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Finished]:
    with running_server(tmp_path_factory.mktemp("replays"), "--bot-delay", "0.02") as server:
        tables = {}
        for game, (options, players, bot) in SHORT.items():
            status, created = server.request("POST", "/api/tables", {
                "game": game, "options": options, "seats": [{"kind": "bot", "bot": bot}] * players})
            assert status == 201, created
            tables[game] = created["table"]["id"]
        deadline = time.monotonic() + 90
        for table_id in tables.values():  # asked of the table, not its replay: replays are budgeted per address
            while server.request("GET", f"/api/tables/{table_id}")[1]["table"]["winners"] is None:
                assert time.monotonic() < deadline, "the bots did not finish in time"
                time.sleep(0.2)
        yield server, tables


def blocking_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", list(SHORT))
def test_a_replay_has_its_games_look_words_and_no_live_control(browser: Any, finished: Finished, artifacts: Path,
                                                               game: str, size: str) -> None:
    server, tables = finished
    page = browser.new_context(**SIZES[size]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/replay/{tables[game]}")
    wait_until(page, "document.querySelector('#step-text')?.dataset.step === '0'", timeout=10)
    for step in (1, 2, 3):
        page.locator("#replay-next").click()
        wait_until(page, f"document.querySelector('#step-text').dataset.step === '{step}'")
        header = page.locator("#step-text").inner_text()
        assert "@" not in header and header.split(" · ", 1)[-1].strip(), header  # words, never notation
        assert page.locator(LIVE_CONTROLS).count() == 0, page.locator(LIVE_CONTROLS).first.evaluate("e => e.outerHTML")
        if game == "hold-your-hat" and step == 2:  # the timer was started: it stands at the step's time
            clock = page.locator("#board .hyh-clock").inner_text()
            assert clock != "0:00", "the timer shows the time left now, not at the step"
            page.wait_for_timeout(1100)
            assert page.locator("#board .hyh-clock").inner_text() == clock
    # The game's own style sheet is on the page: its board is laid out, not stacked in the page's flow.
    sheets = page.evaluate("() => [...document.styleSheets].map((s) => s.href || '')")
    own = {"snorkeling": "snorkeling.css", "hold-your-breath": "hold-your-breath.css", "bermuda": "bermuda.css",
           "hold-your-hat": "hold-your-hat.css"}[game]
    assert any(href.endswith(own) for href in sheets), sheets
    if game == "snorkeling" and size == "desktop":
        tops = page.evaluate("() => [...document.querySelectorAll('#board .seat')]"
                             ".map((el) => el.getBoundingClientRect().top)")
        assert len(set(tops)) == 1, f"the seats stack one per row: {tops}"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size]["viewport"]["width"]
    page.screenshot(path=str(artifacts / f"replay-{game}-{size}.png"))
    assert blocking_violations(page) == []
    assert errors == []
    page.context.close()
