"""Cards in words wherever a person reads them (issue 15, item 3): the log's card chips, Hold Your Breath!'s discard
pile chip and the seat list say "yellow 0" or "Air 10 (Panic)", never a notation code like `Y0` or `A10P`.

A spectator watches a table of bots only, so the log fills fast without any clicking."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess

DESKTOP = {"viewport": {"width": 1366, "height": 800}}
# A notation code: a letter or two then digits, maybe letters after (Y0, P4, A10P, S5X), or Hold Your Breath!'s
# bare specials (DO, DX).
CODE = re.compile(r"\b(?:[A-Z]{1,2}\d+[A-Z]*|D[OX])\b")
READ = """() => [...document.querySelectorAll('#log .log-line, .chip, #seats .seat-row-last, .hyb-discard-pill')]
  .map((el) => [el.textContent, el.getAttribute('aria-label') || ''].join(' | '))"""


def watch(browser: Any, server: ServerProcess, game: str, bots: int) -> Any:
    status, answer = server.request("POST", "/api/tables", {
        "game": game, "options": {}, "seats": [{"kind": "bot", "bot": "greedy"} for _ in range(bots)]})
    assert status == 201, answer
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(f"{server.url}/table/{answer['table']['id']}")
    return page


def codes_in(texts: list[str]) -> list[str]:
    return [text for text in texts if CODE.search(text)]


def test_snorkeling_log_chips_name_cards_in_words(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    page = watch(browser, server, "snorkeling", 3)
    try:
        wait_until(page, "document.querySelectorAll('#log .log-line .chip').length >= 6", timeout=30)
        page.screenshot(path=str(artifacts / "snorkeling-log.png"))
        texts = page.evaluate(READ)
        chips = page.evaluate("() => [...document.querySelectorAll('#log .chip')].map((el) => el.textContent)")
        assert all(re.fullmatch(r"[a-z]+ \d+", chip.strip()) for chip in chips if chip != "??"), chips
        assert not codes_in(texts), codes_in(texts)[:5]
    finally:
        page.context.close()


def test_hold_your_breath_discard_chip_and_log_name_cards_in_words(browser: Any, server: ServerProcess,
                                                                  artifacts: Path) -> None:
    page = watch(browser, server, "hold-your-breath", 3)
    try:
        wait_until(page, "document.querySelector('.hyb-discard-pill .chip')", timeout=60)
        wait_until(page, "document.querySelectorAll('#log .log-line .chip').length >= 6", timeout=30)
        page.screenshot(path=str(artifacts / "hold-your-breath-log.png"))
        texts = page.evaluate(READ)
        top = page.locator(".hyb-discard-pill .chip").first.inner_text()
        assert re.search(r"[a-z]", top) and not CODE.search(top), top
        assert "unknown" not in (page.locator(".hyb-discard-pill .chip").first.get_attribute("class") or "")
        assert not codes_in(texts), codes_in(texts)[:5]
    finally:
        page.context.close()
