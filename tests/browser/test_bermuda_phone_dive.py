"""Bermuda on a touch phone while a finger holds the breath button (issue 26, item 9): the treasures' names stay
on screen above the columns (the page does not scroll them off the top), and every "Point at column" button is a
touch target of at least 44x44 px. Five divers, so the columns take two rows. Screenshots in test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.test_bermuda_touch import Fingers, lay_some
from tests.browser.test_bermuda_web import create_table, open_seat, phase, wait_for
from tests.live_server import ServerProcess

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
NAMES = """() => [...document.querySelectorAll('#board .brm-treasure')].map((el) => {
  const b = el.getBoundingClientRect();
  return [el.textContent.trim().slice(0, 24), Math.round(b.top), Math.round(b.bottom)];
})"""
TARGETS = """() => [...document.querySelectorAll('#board .brm-point')].map((el) => {
  const b = el.getBoundingClientRect();
  return [Math.round(b.width), Math.round(b.height)];
})"""


def test_the_treasure_names_stay_on_screen_while_a_finger_holds_the_breath_and_pointing_is_thumb_sized(
        browser: Any, server: ServerProcess, artifacts: Path) -> None:
    created = create_table(server, [{"kind": "human", "name": "Teo"}] + [{"kind": "bot", "bot": "fast-diver"}] * 4,
                           countdown_ms=300)
    page = open_seat(browser, server, created, **PHONE)
    try:
        page.screenshot(path=str(artifacts / "phone-before-the-dive.png"))
        fingers = Fingers(page)
        button = page.locator("#board .brm-breath-btn")
        fingers.press(0, button)
        wait_for(page, lambda: phase(page) == "diving", timeout=30, what="a dive")
        taps = iter(range(1, 1000))
        lay_some(page, lambda locator: fingers.tap(next(taps), locator), 1.5)
        page.screenshot(path=str(artifacts / "phone-holding.png"))
        names = page.evaluate(NAMES)
        assert names, "no treasure shown"
        off = [name for name in names if name[1] < 0 or name[2] > 844]
        assert not off, f"treasure names off screen while holding: {off} (scrolled {page.evaluate('scrollY')})"
        sizes = page.evaluate(TARGETS)
        assert sizes and min(min(size) for size in sizes) >= 44, sizes
        # The hand and the button stay on screen too.
        box = button.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844
        fingers.lift(0)
        assert page.errors == []
    finally:
        page.context.close()
