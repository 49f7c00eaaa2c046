"""Hot-seat (issue 15, item 4): when the device is passed on, the cover screen tells the next person, in words, what
the others did since that person's last move, and never a card only one seat may know (a draw shows as ??)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from tests.browser.test_snorkeling_web import create_table, take_one_step
from tests.live_server import ServerProcess

CODE = re.compile(r"\b[A-Z]\d+\b")
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def cover_for(page: Any) -> str:
    title = page.locator("#cover-title").inner_text()
    return title.removeprefix("Pass the device to ").strip()


def recap(page: Any) -> list[str]:
    return [str(line).strip() for line in page.locator("#cover .cover-recap li").all_inner_texts()]


def uncover(page: Any) -> None:
    deadline = time.monotonic() + 10
    while page.locator("#cover-ready:visible").count():
        assert time.monotonic() < deadline, "the cover did not open"
        page.locator("#cover-ready").click(timeout=2000)
        time.sleep(0.1)


def play_until_covered(page: Any, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not page.locator("#cover-ready:visible").count():
        assert time.monotonic() < deadline, "the device was never passed on"
        if not take_one_step(page):
            time.sleep(0.05)


def test_the_cover_tells_what_happened_since_your_last_move(browser: Any, server: ServerProcess,
                                                            artifacts: Path) -> None:
    created = create_table(server, [{"kind": "human", "name": "Cleo"}, {"kind": "human", "name": "Dan"},
                                    {"kind": "bot", "bot": "greedy"}], hotseat=True, target_score=12)
    table_id, tokens = created["table"]["id"], created["tokens"]
    page = browser.new_context(**PHONE).new_page()
    try:
        page.goto(f"{server.url}/")
        stored = {str(seat): token for seat, token in enumerate(tokens) if token}
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"divedeck.tokens.{table_id}", json.dumps(stored)])
        page.goto(f"{server.url}/table/{table_id}")
        page.wait_for_selector("#cover-ready:visible", timeout=15000)
        first = cover_for(page)
        uncover(page)
        play_until_covered(page)
        second = cover_for(page)
        assert {first, second} == {"Cleo", "Dan"}, (first, second)
        page.locator("#cover .cover-recap").wait_for(timeout=5000)
        page.screenshot(path=str(artifacts / "cover-recap-phone.png"))
        lines = recap(page)
        assert any(line.startswith(f"{first} played") or line.startswith(f"{first} passed") for line in lines), lines
        assert not any(line.startswith(second) for line in lines), lines  # nothing of the next person's own moves
        drew = [line for line in lines if line.startswith(f"{first} drew")]
        assert drew and all(line == f"{first} drew ??" for line in drew), lines  # the draw stays hidden
        assert not any(CODE.search(line) for line in lines), lines
        # The other person's turn: afterwards the first one hears of it (and of the bot's, if it played between).
        uncover(page)
        play_until_covered(page)
        assert cover_for(page) == first
        page.locator("#cover .cover-recap").wait_for(timeout=5000)
        again = recap(page)
        assert any(line.startswith(second) for line in again), again
        assert not any(line.startswith(first) for line in again), again
        page.set_viewport_size({"width": 1366, "height": 800})
        page.screenshot(path=str(artifacts / "cover-recap-desktop.png"))
    finally:
        page.context.close()
