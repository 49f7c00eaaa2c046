"""Pausing a real-time table in a real browser: in Hold your Hat's guided game a new hint that suggests a move
pauses the table while the person reads it, so the sand timer (HYH-C3) stands still on screen; "Continue" lets it
run on. The top bar's Pause / Resume does the same by hand."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess

from .conftest import wait_until
from .test_accessibility import blocking_violations

SIZES: dict[str, dict[str, Any]] = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
CLOCK = "document.querySelector('.hyh-clock')?.textContent"


def seconds_left(page: Any) -> int:
    minutes, seconds = page.evaluate(f"() => {CLOCK}").split(":")
    return int(minutes) * 60 + int(seconds)


def stands_still(page: Any, for_seconds: float) -> None:
    """The sand timer's display does not move for ``for_seconds`` (it ticks every fifth of a second when it runs)."""
    shown = page.evaluate(f"() => {CLOCK}")
    deadline = time.monotonic() + for_seconds
    while time.monotonic() < deadline:
        assert page.evaluate(f"() => {CLOCK}") == shown, "the sand timer moved while the table was paused"
        time.sleep(0.1)


@pytest.mark.parametrize("size", SIZES)
def test_a_hint_pauses_the_sand_timer_while_it_is_read(browser: Any, server: ServerProcess, artifacts: Path,
                                                       size: str) -> None:
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server.url}/")
        page.get_by_role("button", name="Learn to play Hold your Hat").click()
        page.wait_for_url("**/table/**", timeout=10_000)
        # The first hint (turn the sand timer) pauses the table too: its Continue, then the hinted move.
        page.locator("#guide .guide-play[data-notation='start']").wait_for(state="visible", timeout=10_000)
        page.locator("#guide .guide-play").click()
        # The next hint (the word and a clue to give) is new: the table pauses while it is read.
        page.locator("#guide .guide-continue").wait_for(state="visible", timeout=10_000)
        wait_until(page, "document.getElementById('turn').textContent === 'Paused'")
        wait_until(page, "document.querySelector('.hyh-timer-label')?.textContent === 'Paused'")
        assert page.get_by_role("button", name="Resume").is_visible()
        left = seconds_left(page)
        assert 80 <= left <= 90
        stands_still(page, 2.0)
        page.screenshot(path=str(artifacts / f"hint-paused-{size}.png"))
        assert blocking_violations(page) == []  # the paused panel, its Continue and the top bar's Resume
        if size == "desktop":  # a spectator (or a room's shared screen) sees the pause too, and no countdown
            watcher = context.new_page()
            watcher.goto(page.url.split("#")[0] + "#watch")
            wait_until(watcher, "document.getElementById('turn').textContent === 'Paused'", timeout=10.0)
            assert not watcher.locator("#pause").is_visible()
            assert watcher.evaluate(f"() => {CLOCK}") == page.evaluate(f"() => {CLOCK}")
            stands_still(watcher, 1.0)
            watcher.close()
        page.locator("#guide .guide-continue").click()
        wait_until(page, "document.getElementById('turn').textContent !== 'Paused'")
        assert not page.locator("#guide .guide-continue").count()
        wait_until(page, f"{CLOCK} !== '{page.evaluate(f'() => {CLOCK}')}'", timeout=3.0)
        assert seconds_left(page) < left  # it runs on, from where it stood
        page.screenshot(path=str(artifacts / f"hint-resumed-{size}.png"))
        # By hand: the top bar's Pause stops it, Resume lets it go on.
        page.locator("#pause").click()
        wait_until(page, "document.getElementById('turn').textContent === 'Paused'")
        stands_still(page, 1.0)
        page.locator("#pause").click()
        wait_until(page, "document.getElementById('turn').textContent !== 'Paused'")
        wait_until(page, f"{CLOCK} !== '{page.evaluate(f'() => {CLOCK}')}'", timeout=3.0)
        assert not errors, errors
    finally:
        context.close()
