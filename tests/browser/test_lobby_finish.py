"""The lobby's finish (issue 26, item 8): a bot choice is never cut (its description in full under the seat);
"Table ready" leaves no gap above "Open tables"; the creator is not asked their name again at the table; "Learn to
play" in a table still in play asks before leaving the game. Desktop (1366x800) and a 390x844 touch phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess, running_server

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("lobby"), "--bot-delay", "0.3") as server:
        yield server


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_from_choosing_seats_to_playing(browser: Any, live: ServerProcess, artifacts: Path,
                                                  size: str) -> None:
    page = browser.new_context(**SIZES[size]).new_page()
    page.goto(f"{live.url}/")
    page.wait_for_selector("#seat-1", timeout=10_000)
    # Every bot choice reads in full: a short name in the list, its description whole under the seat.
    shown = page.evaluate("() => [...document.querySelectorAll('#seat-choices select')]"
                          ".map((s) => s.options[s.selectedIndex].text)")
    assert all(len(text) <= 16 for text in shown if text.startswith("Bot")), shown
    about = page.locator("#seat-choices .seat-choice-about:visible")
    assert about.count() >= 1 and "(" not in about.first.inner_text()
    assert about.first.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    page.locator("#create").click()  # seat 1 a person at this screen, no name typed
    page.wait_for_selector("#created:not([hidden])")
    page.wait_for_timeout(600)  # the scroll to "Table ready"
    page.screenshot(path=str(artifacts / f"created-{size}.png"), full_page=True)
    if size == "desktop":
        gap = page.evaluate("() => document.querySelector('.lobby-open').getBoundingClientRect().top"
                            " - document.querySelector('#created').getBoundingClientRect().bottom")
        assert gap <= 24, f"{gap} px between Table ready and Open tables"
    page.locator("#created .created-play a").first.click()
    wait_until(page, "document.querySelector('#turn').textContent.length > 0", timeout=10)
    assert page.locator("#name-dialog").count() == 0, "the creator was asked their name again"
    # Learn to play from a game in play asks first; saying no keeps the game.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.locator(".guide-start:visible").first.click() if size == "desktop" else (
        page.locator("#rules-open").click(), page.locator("#rules .guide-start").click())
    page.wait_for_timeout(300)
    assert asked and "Leave this game" in asked[0]
    assert "/table/" in page.url
    page.context.close()
