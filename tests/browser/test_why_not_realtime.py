""""Why not?" in Bermuda (issue 15, item 1): a Diver card tapped when it cannot be laid asks the server, and the
page shows the reason with its rule, as in the turn-based games; nothing is played."""

from __future__ import annotations

from typing import Any

from tests.browser.test_bermuda_web import create_table, open_seat, server_actions
from tests.live_server import ServerProcess


def test_a_card_tapped_before_the_dive_says_why_not(browser: Any, server: ServerProcess) -> None:
    created = create_table(server, [{"kind": "human", "name": "Ina"}, {"kind": "human", "name": "Olu"}])
    page = open_seat(browser, server, created, viewport={"width": 390, "height": 844}, has_touch=True,
                     is_mobile=True)
    try:
        page.locator("#board .brm-card").first.tap()
        page.wait_for_selector(".toast-error", timeout=5000)
        told = page.locator(".toast-error").last.inner_text()
        assert "rule BRM-A16" in told and "dive" in told, told
        assert server_actions(server, created["table"]["id"]) == []  # a question, not a move
        assert page.errors == []
    finally:
        page.context.close()
