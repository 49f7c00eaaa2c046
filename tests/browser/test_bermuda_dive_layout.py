"""Bermuda's guided game during the dive (issue 26, item 2): the Guide panel above the board and the last dive's
band leave the hand and the breath button on screen, whole, at 1366x800 and on a 390x844 touch phone, and no
status label runs off the right edge."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess, running_server

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
BOX = ("(s) => { const b = document.querySelector(s).getBoundingClientRect(); "
       "return [b.top, b.bottom, b.left, b.right]; }")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("dive"), "--bot-delay", "0.05") as live:
        yield live


@pytest.mark.parametrize("size", SIZES)
def test_the_hand_and_the_breath_button_stay_on_screen_in_the_guided_dive(browser: Any, server: ServerProcess,
                                                                          artifacts: Path, size: str) -> None:
    page = browser.new_context(**SIZES[size]).new_page()
    page.goto(f"{server.url}/")
    page.get_by_role("button", name="Learn to play Bermuda").click()
    page.locator("#guide .guide-text").wait_for(state="visible", timeout=10_000)
    pointer = "touch" if size == "phone" else "mouse"
    page.locator("#board .brm-breath-btn").dispatch_event("pointerdown", {
        "pointerId": 3, "pointerType": pointer, "isPrimary": True, "button": 0, "bubbles": True})
    wait_until(page, "document.querySelector('#board .brm-breath-btn').classList.contains('is-diving')", timeout=10)
    page.screenshot(path=str(artifacts / f"guided-dive-{size}.png"))
    width, height = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
    for part in ("#board .brm-hand", "#board .brm-breath-btn"):
        top, bottom, left, right = page.evaluate(BOX, part)
        assert top >= 0 and bottom <= height and left >= 0 and right <= width, (part, top, bottom, left, right)
    cut = page.evaluate("(w) => [...document.querySelectorAll('#board .brm-pills .pill')]"
                        ".filter((el) => el.getBoundingClientRect().right > w).map((el) => el.textContent)", width)
    assert cut == [], f"status labels run off the right edge: {cut}"
    if size == "phone":  # issue 26, item 9: "Point at column" was 22x22 px under a thumb
        sizes = page.evaluate("() => [...document.querySelectorAll('#board .brm-point')]"
                              ".map((el) => Math.min(el.offsetWidth, el.offsetHeight))")
        assert sizes and min(sizes) >= 44, sizes
    page.context.close()
