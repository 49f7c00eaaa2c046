"""Bermuda where people play it (issue 14): on a touch phone with two fingers (one holds the breath, the other lays
cards), on a desktop with a mouse alone (the breath button clicked on, then off), and a board that never moves
under the fingers when a breath is held or the dive starts, with the hand and the breath button on screen.

Touches are real ones, sent through the browser's DevTools protocol (``Input.dispatchTouchEvent``): each finger is
its own touch point, so the page gets pointer events with distinct pointerIds and, for the second finger, no
click, as on a phone."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tests.browser.test_bermuda_web import (
    create_table,
    open_seat,
    phase,
    server_actions,
    until,
    wait_for,
    wait_for_result,
)
from tests.live_server import ServerProcess

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
GAME_TIMEOUT = 180.0
HOLDER = 0  # the finger on the breath button

# Every pointer event the page gets, as (type, pointerId, pointerType, what it landed on).
RECORD_POINTERS = """
window.pointerLog = [];
for (const type of ["pointerdown", "pointerup", "pointercancel", "click"]) {
  document.addEventListener(type, (event) => {
    const target = event.target.closest ? event.target.closest("[data-act], [data-breath]") : null;
    const what = target ? (target.dataset.breath ? "breath" : target.dataset.act) : "";
    window.pointerLog.push([type, event.pointerId ?? null, event.pointerType ?? null, what]);
  }, true);
}
"""


class Fingers:
    """Touch points on the page's screen: ``press`` puts a finger down on an element's middle, ``lift`` takes it
    away; the other fingers stay where they are."""

    def __init__(self, page: Any) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.down: dict[int, tuple[float, float]] = {}

    def _send(self, kind: str, finger: int) -> None:
        x, y = self.down[finger]
        self.cdp.send("Input.dispatchTouchEvent",
                      {"type": kind, "touchPoints": [{"x": x, "y": y, "id": finger, "radiusX": 6, "radiusY": 6}]})

    def press(self, finger: int, locator: Any) -> None:
        box = locator.bounding_box(timeout=2000)
        assert box is not None
        self.down[finger] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self._send("touchStart", finger)

    def lift(self, finger: int) -> None:
        self._send("touchEnd", finger)
        del self.down[finger]

    def tap(self, finger: int, locator: Any) -> None:
        self.press(finger, locator)
        self.lift(finger)


def hand_size(page: Any) -> int:
    return int(page.locator("#board .brm-card").count())


def lay_some(page: Any, act: Any, seconds: float) -> int:
    """For ``seconds`` of the dive, lay cards that keep a column winnable: ``act(locator)`` presses a card, then
    the column that fits (the page marks both). Returns how many cards left the hand."""
    laid = 0
    started = time.monotonic()
    while time.monotonic() - started < seconds and phase(page) == "diving":
        card = page.locator("#board .brm-card.is-fit")
        if not card.count():
            page.wait_for_timeout(150)
            continue
        before = hand_size(page)
        try:
            act(card.first)
            column = page.locator("#board button.brm-col.is-fit")
            if page.locator("#board .brm-col").count() > 1 and column.count():
                act(column.first)
        except (AssertionError, PlaywrightError):  # the board changed under the finger (a bot's card landed)
            page.wait_for_timeout(100)
        if until(page, lambda before=before: hand_size(page) < before, 1.5):
            laid += 1
    return laid


def most_lays_in_one_breath(server: ServerProcess, created: dict[str, Any]) -> int:
    """The most cards seat 0 laid between taking a breath and letting it go, from the server's log (a lay is only
    accepted during a dive, and a dive ends at the first release: several lays in one breath mean the pointer
    that laid them did not let the breath go)."""
    best = count = 0
    for seat, action in server_actions(server, created["table"]["id"]):
        if seat == 0 and action.startswith(("hold", "release")):
            count = 0
        elif seat == 0 and action.startswith("lay "):
            count += 1
            best = max(best, count)
    return best


def round_number(page: Any) -> int:
    """The round the server says is being played ("Round 2 of 5" in the status line): it moves on when a dive
    ends, whoever ended it, so it tells rounds apart where the breath button's look cannot (a toggled breath may
    already be held, or a new dive begun, by the time the page is looked at)."""
    text = page.locator("#board .brm-pills").inner_text()
    found = re.search(r"Round (\d+) of", text)
    assert found, text
    return int(found.group(1))


def play_to_the_end(page: Any, breathe_in: Any, breathe_out: Any, act: Any, artifacts: Path, prefix: str) -> int:
    """Whole rounds until the game is over: hold, lay for a couple of seconds beside the bots, breathe (or, if a
    bot breathed first, just let go), then wait for the server to count the round as played."""
    deadline = time.monotonic() + GAME_TIMEOUT
    rounds = laid = 0

    def over() -> bool:
        return page.locator("#gameover:visible").count() > 0

    while not over():
        assert time.monotonic() < deadline, "the game did not end in time"
        playing = round_number(page)
        breathe_in()
        wait_for(page, lambda playing=playing: over() or phase(page) == "diving" or round_number(page) != playing,
                 timeout=30, what="a dive")
        laid += lay_some(page, act, 2.5)
        if rounds == 0:
            page.screenshot(path=str(artifacts / f"{prefix}-diving.png"))
        breathe_out()
        wait_for(page, lambda playing=playing: over() or round_number(page) != playing, timeout=30,
                 what="the next round")
        rounds += 1
        if rounds == 1:
            page.screenshot(path=str(artifacts / f"{prefix}-after-round1.png"))
    page.screenshot(path=str(artifacts / f"{prefix}-game-over.png"))
    summary = page.locator("#gameover").inner_text()
    assert "treasure(s) against" in summary and "protection point(s)" in summary
    assert rounds >= 4, rounds  # the bots may have ended a round by breathing first; the game has five
    return laid


def test_a_whole_game_on_a_touch_phone_one_finger_holds_the_breath_another_lays(
        browser: Any, server: ServerProcess, artifacts: Path) -> None:
    created = create_table(server, [{"kind": "human", "name": "Teo"}, {"kind": "bot", "bot": "fast-diver"},
                                    {"kind": "bot", "bot": "fast-diver"}], countdown_ms=300)
    page = open_seat(browser, server, created, init_script=RECORD_POINTERS, **PHONE)
    page.screenshot(path=str(artifacts / "phone-prepare.png"))
    assert not page.locator("#board .brm-mode").is_visible()  # the mouse's choice is not a touch screen's
    fingers = Fingers(page)
    button = page.locator("#board .brm-breath-btn")
    finger = iter(range(1, 10_000))

    def tap(locator: Any) -> None:
        fingers.tap(next(finger), locator)

    laid = play_to_the_end(page, lambda: fingers.press(HOLDER, button), lambda: fingers.lift(HOLDER), tap,
                           artifacts, "phone")
    assert laid >= 3
    log = page.evaluate("window.pointerLog")
    holds = {pointer for kind, pointer, kind_, what in log if kind == "pointerdown" and what == "breath"}
    lays = {pointer for kind, pointer, kind_, what in log if kind == "pointerdown" and what in ("card", "column")}
    assert all(kind_ == "touch" for kind, _, kind_, _ in log if kind.startswith("pointer"))
    assert holds and lays and not holds & lays  # cards were laid by other fingers than the one holding
    assert not [entry for entry in log if entry[0] == "click" and entry[3] in ("card", "column")]  # and no click
    assert most_lays_in_one_breath(server, created) >= 2  # taps laid cards while the breath stayed held
    assert page.errors == []


def test_a_whole_game_with_a_mouse_alone_clicking_the_breath_on_and_off(
        browser: Any, server: ServerProcess, artifacts: Path) -> None:
    created = create_table(server, [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "fast-diver"},
                                    {"kind": "bot", "bot": "fast-diver"}], countdown_ms=300)
    page = open_seat(browser, server, created, **DESKTOP)
    page.locator("#board .brm-mode-btn[data-mode='hold']").click()
    assert page.evaluate("localStorage.getItem('divedeck.bermuda.mouse-breath')") == "hold"
    page.locator("#board .brm-mode-btn[data-mode='toggle']").click()
    assert page.locator("#board .brm-mode-btn[data-mode='toggle']").get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#board .brm-breath-btn:not([disabled])", timeout=15000)
    assert page.locator("#board .brm-mode-btn[data-mode='toggle']").get_attribute("aria-pressed") == "true"
    button = page.locator("#board .brm-breath-btn")
    assert "Click to hold" in button.inner_text()
    page.screenshot(path=str(artifacts / "desktop-toggle-prepare.png"))

    def click(locator: Any) -> None:
        locator.click(timeout=1000)

    def breathe_in() -> None:
        if phase(page) == "idle":
            button.click()
        wait_for(page, lambda: phase(page) in ("holding", "countdown", "diving"), what="the held breath")

    def breathe_out() -> None:
        if phase(page) == "diving":  # a bot may have breathed first: then the dive is over already
            button.click()

    laid = play_to_the_end(page, breathe_in, breathe_out, click, artifacts, "desktop-toggle")
    assert laid >= 3
    assert most_lays_in_one_breath(server, created) >= 2  # clicking cards did not let the breath go
    assert page.errors == []


BOXES = """() => [...document.querySelectorAll(
  '#board .brm-card, #board .brm-col, #board .brm-breath-btn, #board .brm-hand-area, #board .brm-columns')]
  .map((el) => { const r = el.getBoundingClientRect();
    return [el.dataset.key || el.className.split(" ")[0], r.left, r.top + scrollY, r.width, r.height]; })"""


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on Bermuda's board as it is now (the page around it, log and
    seats, is every game's and checked with every game)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context="#board")
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}x, e.g. {v['nodes'][0]['target']})"
            for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]


def test_nothing_moves_under_the_fingers_and_the_hand_is_on_screen_with_five_divers(
        browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """At 390x844 (touch) and 1366x800, five divers, the second round (the last dive's band is on the board): the
    hand, the columns and the breath button are inside the screen before the dive, and none of their boxes moves
    between before holding, holding (the count of three) and the dive's start. axe-core finds nothing serious
    before the dive or in it."""
    for label, context in (("phone", PHONE), ("desktop", DESKTOP)):
        created = create_table(server, [{"kind": "human", "name": "Mia"}]
                               + [{"kind": "bot", "bot": "slow-diver"}] * 4, countdown_ms=1000)
        page = open_seat(browser, server, created, **context)
        page.keyboard.down(" ")  # a quick first dive, so that the second has a last dive to show
        wait_for(page, lambda page=page: phase(page) == "diving", what="the first dive")
        page.keyboard.up(" ")
        wait_for_result(page)
        # the bots take their breath in their own time: wait until they all have, so only this seat changes
        wait_for(page, lambda page=page: page.locator("#board .brm-diver.is-holding").count() == 4, what="the bots")
        width, height = context["viewport"]["width"], context["viewport"]["height"]
        # The new round's hand may still be settling (its cards fly in): measure once two looks agree.
        before, settled = page.evaluate(BOXES), None
        for _ in range(30):
            page.wait_for_timeout(100)
            before, settled = page.evaluate(BOXES), before
            if before == settled:
                break
        page.screenshot(path=str(artifacts / f"{label}-1-before-holding.png"))
        for key, left, top, w, h in before:
            assert left >= 0 and top >= 0 and left + w <= width + 0.5 and top + h <= height + 0.5, \
                f"{label}: {key} is off the screen at ({left}, {top}, {w}x{h})"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert serious_violations(page) == [], label
        page.keyboard.down(" ")
        wait_for(page, lambda page=page: phase(page) == "countdown", what="the count of three")
        holding = page.evaluate(BOXES)
        page.screenshot(path=str(artifacts / f"{label}-2-holding.png"))
        wait_for(page, lambda page=page: phase(page) == "diving", what="the dive")
        diving = page.evaluate(BOXES)
        page.screenshot(path=str(artifacts / f"{label}-3-dive-start.png"))
        problems = serious_violations(page)
        assert len(before) == len(holding) == len(diving) == 12 + 5 + 3
        for when, boxes in (("holding", holding), ("at the dive start", diving)):
            moved = [(a, b) for a, b in zip(before, boxes, strict=True) if a != b]
            assert not moved, f"{label}: moved {when}: {moved[:4]}"
        assert problems == [], f"{label}, diving"
        page.keyboard.up(" ")
        assert page.errors == []
        page.context.close()
