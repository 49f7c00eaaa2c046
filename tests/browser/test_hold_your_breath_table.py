"""Hold Your Breath!'s table as a player sees it (issue 26, item 5): the cards played this turn lie on the table
(yours and the others') until the next turn plays, they fly there from the hand, the depth board spends its height
on the dive with an even scale, and the hand is drawn as cards with their icons.

Screenshots are saved in test-artifacts/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.browser.test_hold_your_breath_web import create_table
from tests.live_server import ServerProcess

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}


def open_seat(browser: Any, server: ServerProcess, size: str, motion: str = "reduce") -> tuple[Any, Any, str]:
    created = create_table(server, [{"kind": "human", "name": "Elizabeth"}, {"kind": "bot", "bot": "greedy"},
                                    {"kind": "bot", "bot": "greedy"}])
    table_id, tokens = created["table"]["id"], created["tokens"]
    context = browser.new_context(device_scale_factor=1, reduced_motion=motion, **SIZES[size])
    page = context.new_page()
    page.goto(f"{server.url}/table/{table_id}#seat=0&token={tokens[0]}")
    page.wait_for_selector("#board .hyb-hand", timeout=15000)
    return context, page, table_id


def play_a_value_card(page: Any) -> str:
    """Play the first legal Air use of the hand (else Swim); the card's label."""
    air = page.locator('#board .hyb-use.is-legal[data-act="use"][data-use="air"]')
    use = (air if air.count() else page.locator('#board .hyb-use.is-legal[data-act="use"][data-use="swim"]')).first
    use.wait_for(timeout=15000)
    card = use.get_attribute("data-card") or ""
    use.click()
    return card


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_cards_played_this_turn_stay_on_the_table_until_the_next_turn_plays(
        browser: Any, server: ServerProcess, artifacts: Path, size: str) -> None:
    context, page, table_id = open_seat(browser, server, size)
    try:
        page.screenshot(path=str(artifacts / f"{size}-start.png"))
        assert page.locator("#board .hyb-played").count() == 1  # the table's place for this turn's cards
        card = play_a_value_card(page)
        # Your card is on the table, drawn as a card, named in words, with the use it was played for.
        page.wait_for_selector(f'#board .hyb-played [data-card="{card}"]', timeout=5000)
        played = page.locator("#board .hyb-played")
        assert "you" in played.get_attribute("aria-label").lower() or "Elizabeth" in played.inner_text()
        assert page.locator("#board .hyb-played .hyb-card svg").count() >= 1
        page.screenshot(path=str(artifacts / f"{size}-played-one.png"))
        # End the turn: the bots play theirs, and what the last bot played lies on the table, named by its diver.
        page.locator('#board [data-act="end"]').click()
        # The end of the turn: a card laid face down if no Air was played, then keep the rest; then the bots.
        deadline = time.monotonic() + 30
        while not page.locator('#board .hyb-use.is-legal[data-act="use"]').count():
            assert time.monotonic() < deadline, "the turn did not come back"
            for choice in ('#board [data-act="single"]', '#board [data-act="keep"]'):
                if page.locator(choice).count():
                    page.locator(choice).first.click(timeout=2000)
                    break
            page.wait_for_timeout(100)
        text = played.inner_text()
        if page.locator("#board .hyb-played .hyb-card").count():
            assert "Elizabeth" not in text  # a bot's turn, not ours, is what lies there now
        page.screenshot(path=str(artifacts / f"{size}-after-the-bots.png"))
        # Nothing overflows sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        # A spectator sees the same played cards (public once played), never a hand.
        watcher = browser.new_page(viewport={"width": 1366, "height": 800})  # a browser without the seat's token
        watcher.goto(f"{server.url}/table/{table_id}")
        watcher.wait_for_selector("#board .hyb-played", timeout=15000)
        assert watcher.locator("#board .hyb-hand").count() == 0
        watcher.screenshot(path=str(artifacts / "spectator.png"))
        watcher.close()
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_hand_is_drawn_as_cards_with_their_icons_and_the_depth_board_scale_is_even(
        browser: Any, server: ServerProcess, artifacts: Path, size: str) -> None:
    context, page, _ = open_seat(browser, server, size)
    try:
        hand = page.locator("#board .hyb-hand .hyb-card")
        assert hand.count() == 5
        # Each card is a drawn card (SVG, like Snorkeling's), with its value and its icon's name in words.
        assert page.locator("#board .hyb-hand .hyb-card svg.hyb-card-svg").count() == 5
        for index in range(hand.count()):
            label = hand.nth(index).get_attribute("aria-label") or ""
            assert label and not label.isupper()
        # The scale's marks are evenly spaced (no 0, 5, 15, 20).
        marks = [int(t.strip().split()[0]) for t in page.locator("#board .hyb-mark").all_inner_texts()]
        steps = {b - a for a, b in zip(marks, marks[1:], strict=False)}
        assert len(steps) == 1 and marks[0] == 0, marks
        # The lanes fill the board's width: no lane wider than the board shared out.
        board = page.locator("#board .hyb-depth").bounding_box()
        lanes = page.locator("#board .hyb-lane")
        assert lanes.count() == 3
        assert lanes.first.bounding_box()["width"] < board["width"] / 2
        page.screenshot(path=str(artifacts / f"{size}-hand-and-board.png"))
    finally:
        context.close()


def test_a_card_played_flies_from_the_hand_to_the_table(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    context, page, _ = open_seat(browser, server, "desktop", motion="no-preference")
    try:
        # Every animation started on a card is noted, with where the card ended up.
        page.evaluate("""() => {
          window.flights = [];
          const animate = Element.prototype.animate;
          Element.prototype.animate = function (...args) {
            window.flights.push({ card: this.dataset.card || null, onTable: Boolean(this.closest('.hyb-played')) });
            return animate.apply(this, args);
          };
        }""")
        card = play_a_value_card(page)
        page.wait_for_selector(f'#board .hyb-played [data-card="{card}"]', timeout=5000)
        wait_until(page, f"window.flights.some((f) => f.card === {card!r} && f.onTable)", timeout=3.0)
    finally:
        context.close()
