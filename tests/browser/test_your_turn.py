"""Your turn, even in another tab (issue 26, item 12): the tab's title and icon say it is your turn, and with the
player's permission a browser notification comes when the turn comes while the page is not looked at. Desktop and
a touch phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess, running_server

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
# Counts the notifications the page makes, and lets the test say the page is not being looked at.
SPY = """
window.__notes = [];
window.__hidden = false;
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) { super(title, options); window.__notes.push(title); }
};
Object.defineProperty(window.Notification, 'permission', { get: () => Real.permission });
window.Notification.requestPermission = (...a) => Real.requestPermission(...a);
Object.defineProperty(document, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
"""
MOVE = "#board .is-legal, #board [data-act=pass], #board [data-act=end]"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("turn"), "--bot-delay", "0.3") as server:
        yield server


@pytest.mark.parametrize("size", SIZES)
def test_the_title_the_icon_and_a_notification_say_it_is_your_turn(browser: Any, live: ServerProcess,
                                                                   size: str) -> None:
    status, created = live.request("POST", "/api/tables", {
        "game": "snorkeling", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]})
    assert status == 201, created
    context = browser.new_context(**SIZES[size], permissions=["notifications"])
    page = context.new_page()
    page.add_init_script(SPY)
    page.goto(f"{live.url}/table/{created['table']['id']}#seat=0&token={created['tokens'][0]}")
    wait_until(page, "document.querySelector('#turn.is-mine')", timeout=10)
    assert page.title().startswith("▶ Your turn")
    assert page.locator('link[rel="icon"]').get_attribute("href").endswith("icon-turn.svg")
    page.locator("#notify").click()
    wait_until(page, "document.querySelector('#notify').getAttribute('aria-pressed') === 'true'")
    page.evaluate("() => { window.__hidden = true; }")  # the player went to another tab
    while page.locator("#turn.is-mine").count():
        page.locator(MOVE).first.click()
        if page.locator("#board .is-target").count():
            page.locator("#board .is-target").first.click()
        page.wait_for_timeout(150)
    assert page.locator('link[rel="icon"]').get_attribute("href").endswith("icon.svg")
    assert not page.title().startswith("▶")
    wait_until(page, "window.__notes.length > 0 || document.querySelector('#gameover:not([hidden])')", timeout=10)
    assert page.evaluate("() => window.__notes")[0].startswith("Your turn")
    context.close()
