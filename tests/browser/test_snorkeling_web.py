"""Snorkeling in a real browser: people playing whole games through the page, as they would.

The players here only look at the page and click what it offers (legal cards, a pile, Pass, End turn), so a
game reaching its end proves the page, the socket client and the server work together.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.live_server import ServerProcess

GAME_TIMEOUT = 240.0


def create_table(server: ServerProcess, seats: list[dict[str, Any]], hotseat: bool = False,
                 target_score: int = 5) -> dict[str, Any]:
    # A short race (first to 5 points: one or two rounds) keeps a whole game through the page under a minute.
    options = {"target_score": target_score}
    body = json.dumps({"game": "snorkeling", "options": options, "seats": seats, "hotseat": hotseat}).encode()
    request = urllib.request.Request(f"{server.url}/api/tables", data=body,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        created: dict[str, Any] = json.load(response)
    return created


STEPS = ("#cover-ready:visible", "#overlay-close:visible", "#board .is-target",
         '#board [data-act="card"].is-legal', '#board [data-act="end"]:enabled', '#board [data-act="pass"]:enabled')


def take_one_step(page: Any) -> bool:
    """Do the first useful thing the page offers; ``True`` if something was clicked.

    The page re-renders whenever the server sends an update, so what was there a moment ago may be gone: a click
    that finds nothing within a second is simply not taken.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for selector in STEPS:
        candidate = page.locator(selector)
        if candidate.count():
            try:
                candidate.first.click(timeout=1000)
            except PlaywrightTimeout:
                return False
            return True
    return False


def game_over(page: Any) -> bool:
    return bool(page.locator("#gameover:visible").count())


def play_until_over(pages: list[Any], timeout: float = GAME_TIMEOUT) -> int:
    """Click through every page until each shows the game-over summary; returns the number of clicks."""
    clicks = 0
    deadline = time.monotonic() + timeout
    while not all(game_over(page) for page in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in pages:
            if not game_over(page) and take_one_step(page):
                clicks += 1
                acted = True
        if not acted:
            pages[0].wait_for_timeout(60)
    return clicks


def test_two_people_in_two_browsers_play_a_whole_game_with_two_bots(browser: Any, server: ServerProcess,
                                                                     artifacts: Path) -> None:
    created = create_table(server, [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"},
                                    {"kind": "human", "name": "Ben"}, {"kind": "bot", "bot": "random"}])
    table_id, tokens = created["table"]["id"], created["tokens"]
    pages = []
    for seat in (0, 2):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{server.url}/table/{table_id}#seat={seat}&token={tokens[seat]}")
        page.wait_for_selector("#board .hand", timeout=15000)
        assert tokens[seat] not in page.url, "the token must leave the address bar"
        pages.append(page)
    pages[0].screenshot(path=str(artifacts / "start-seat0.png"))
    clicks = play_until_over(pages)
    assert clicks > 10
    for seat, page in zip((0, 2), pages, strict=True):
        page.screenshot(path=str(artifacts / f"over-seat{seat}.png"))
        assert "won" in page.locator("#gameover").inner_text().lower()
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}", timeout=10) as response:
        assert json.load(response)["table"]["status"] == "finished"


def test_a_spectator_sees_the_table_but_no_hand(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    created = create_table(server, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(f"{server.url}/table/{created['table']['id']}")
    page.wait_for_selector("#board .center", timeout=15000)
    page.screenshot(path=str(artifacts / "spectator-phone.png"))
    assert page.locator('#board [data-act="card"]').count() == 0


def test_hot_seat_two_people_share_one_screen_with_a_cover_between_turns(browser: Any, server: ServerProcess,
                                                                        artifacts: Path) -> None:
    created = create_table(server, [{"kind": "human", "name": "Cleo"}, {"kind": "human", "name": "Dan"},
                                    {"kind": "bot", "bot": "greedy"}], hotseat=True,
                           # one round: every change of player waits out the cover's guard, so rounds are slow here
                           target_score=1)
    table_id, tokens = created["table"]["id"], created["tokens"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/")
    stored = {str(seat): token for seat, token in enumerate(tokens) if token}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"divedeck.tokens.{table_id}", json.dumps(stored)])
    page.goto(f"{server.url}/table/{table_id}")
    page.wait_for_selector("#cover-ready:visible", timeout=15000)
    page.screenshot(path=str(artifacts / "cover.png"))
    assert page.locator("#board .card-btn").count() == 0, "no hand may show under the cover"
    play_until_over([page])
    page.screenshot(path=str(artifacts / "over.png"))
    # everyone is at the screen at the end: the result shows, the last player's hand does not
    assert page.locator("#gameover").is_visible()
    assert page.locator("#board .card-btn").count() == 0


def test_the_lobby_creates_a_table_with_bots_and_opens_it(browser: Any, server: ServerProcess,
                                                          artifacts: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/")
    page.wait_for_selector("form", timeout=15000)
    page.screenshot(path=str(artifacts / "lobby.png"))
    page.locator("form button[type=submit]").first.click()
    page.wait_for_selector("a[href*='/table/']", timeout=15000)
    page.screenshot(path=str(artifacts / "created.png"))
    with urllib.request.urlopen(f"{server.url}/api/tables", timeout=10) as response:
        assert len(json.load(response)["tables"]) == 1
