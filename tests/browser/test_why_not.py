""""Why not?" in player words (issue 26, item 4): a Snorkeling card that cannot be played is explained with card
names ("yellow 1 (School of Fish)"), never card codes ("Y1"), the rule ID small beside; the explanation leaves at
the next move; the centre pile says "turn start", not the jargon "T0". Desktop and a touch phone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_table_life import DESKTOP, PHONE, create
from tests.live_server import ServerProcess

CODE = re.compile(r"\b[A-Z]\d{1,2}\b")  # a card code such as Y1 or G4


def seat_with_a_refused_card(browser: Any, server: ServerProcess, size: dict[str, Any]) -> Any:
    """Seat 0 against a bot, on its turn, holding a card it may play to the centre and one it may not."""
    for _ in range(30):
        table_id, tokens = create(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
        page = browser.new_context(**size).new_page()
        page.goto(f"{server.url}/table/{table_id}#seat=0&token={tokens[0]}")
        page.wait_for_function("() => document.querySelector('#turn.is-mine')", timeout=10000)
        legal = page.locator('#board [data-act="card"].is-legal')
        refused = page.locator('#board [data-act="card"]:not(.is-legal)')
        if legal.count() and refused.count():
            return page
        page.context.close()
    raise AssertionError("no deal with a playable and an unplayable card")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_why_not_speaks_in_card_names_and_leaves_at_the_next_move(browser: Any, server: ServerProcess,
                                                                   artifacts: Path, size: str) -> None:
    page = seat_with_a_refused_card(browser, server, DESKTOP if size == "desktop" else PHONE)
    refused = page.locator('#board [data-act="card"]:not(.is-legal)').first
    (refused.tap if size == "phone" else refused.click)()
    page.wait_for_selector(".toast-why", timeout=5000)
    told = page.locator(".toast-why").inner_text()
    page.screenshot(path=str(artifacts / f"why-not-{size}.png"))
    assert re.search(r"rule SNK-\w+", told), told
    reason = page.locator(".toast-why .toast-text > span").first.inner_text()
    assert not CODE.search(reason) and "(" in reason, reason  # "yellow 1 (School of Fish)", never "Y1"
    legal = page.locator('#board [data-act="card"].is-legal').first
    (legal.tap if size == "phone" else legal.click)()
    if page.locator("#board .is-target").count():
        page.locator("#board .is-target").first.click()
    page.wait_for_selector(".toast-why", state="detached", timeout=3000)
    page.wait_for_function("() => !document.querySelector('#undo').hidden || !document.querySelector('#turn.is-mine')")
    assert "T0" not in page.locator("#board").inner_text()
    page.context.close()
