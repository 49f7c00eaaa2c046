"""The room's set-up page on a television (issue 26, item 9): at 1920x1080 it uses the screen's width, its buttons
are big enough to read and press across a room, and the options read in the game's words ("Num players: 3" was
its field name)."""

from __future__ import annotations

from typing import Any

from tests.live_server import ServerProcess

TV = {"viewport": {"width": 1920, "height": 1080}}


def test_the_room_set_up_fills_a_television(browser: Any, server: ServerProcess) -> None:
    status, answer = server.request("POST", "/api/rooms", {"game": "snorkeling", "options": {"target_score": 20},
                                                          "players": 3, "bots": []})
    assert status == 201, answer
    page = browser.new_context(**TV).new_page()
    page.goto(f"{server.url}/room/{answer['room']['code']}#host={answer['host']}")
    page.wait_for_selector(".room-add-bot", timeout=15000)
    page.wait_for_timeout(300)
    options = page.locator("#room-options").inner_text()
    assert "Num players" not in options and "Target score" not in options, options
    assert "20" in options
    width = page.evaluate("() => document.querySelector('.room').getBoundingClientRect().width")
    assert width >= 0.85 * 1920, width
    heights = page.evaluate("() => [...document.querySelectorAll('.room .btn, .room select')]"
                            ".filter((el) => el.offsetParent).map((el) => el.offsetHeight)")
    assert heights and min(heights) >= 44, heights
    page.context.close()
