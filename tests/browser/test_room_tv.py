"""The room's set-up page on a television (issue 26, item 9): at 1920x1080 it uses the screen's width, its buttons
are big enough to read and press across a room, and the options read in the game's words ("Num players: 3" was
its field name)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.live_server import ServerProcess

TV = {"viewport": {"width": 1920, "height": 1080}}


def test_the_room_set_up_fills_a_television(browser: Any, server: ServerProcess, artifacts: Any) -> None:
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
    # Each bot choice shows its whole text (it read "Medium: plays by rules of").
    cut = page.evaluate("""() => [...document.querySelectorAll('.room select')].filter((select) => {
      const span = document.createElement('span');
      span.style.font = getComputedStyle(select).font;
      span.style.whiteSpace = 'nowrap';
      span.textContent = select.selectedOptions[0].text;
      document.body.append(span);
      const fits = span.offsetWidth + 30 <= select.clientWidth;
      span.remove();
      return !fits;
    }).map((select) => select.selectedOptions[0].text)""")
    assert cut == [], cut
    page.screenshot(path=str(artifacts / "tv-set-up.png"))
    page.context.close()


FEED_GAMES = {"snorkeling": ({"target_score": 3}, "#board .card"), "hold-your-breath": ({}, "#board .hyb-depth")}
# Board content the feed would hide: cards, piles, seats and the like (not the board's own empty frame).
UNDER_FEED = """() => {
  const feed = document.querySelector('.screen-feed').getBoundingClientRect();
  const content = '#board .seat, #board .card, #board .hyb-card, #board .hyb-lane, #board .pill, #board .hyh-team, '
    + '#board tr';
  return [...document.querySelectorAll(content)]
    .map((el) => el.getBoundingClientRect())
    .filter((b) => b.width && b.bottom > feed.top && b.top < feed.bottom && b.left < feed.right && b.right > feed.left)
    .length;
}"""


@pytest.mark.parametrize("game", sorted(FEED_GAMES))
def test_the_television_shows_a_feed_of_the_last_moves(browser: Any, server: ServerProcess, artifacts: Any,
                                                       game: str) -> None:
    """The shared screen (a spectator) keeps a short feed of the last few moves, in the log's words, large enough to
    read across a room, beside the join corner and over none of the table; it never shows more than a spectator
    may see (its log is the spectator's), and a phone's move appears there."""
    from tests.browser.test_rooms import assert_screen_saw_only_spectator_views, join_by_phone, open_room_screen, start
    from tests.browser.test_rooms_games import GAMES

    options, board = FEED_GAMES[game]
    step = GAMES[game][1]
    screen, code = open_room_screen(browser, server, game, options, players=2, bots=[None, "greedy"])
    phone = join_by_phone(browser, server, code, "Ann", by_link=True)
    table_id = start(screen, board)
    moves, seen = 0, []
    for _ in range(80):  # a few moves from the phone (the bot answers each)
        if moves >= 10 and screen.locator(".screen-feed li").count() >= 4 and any("Ann" in t for t in seen):
            break
        moves += step(phone)
        phone.wait_for_timeout(150)
        seen.append(screen.evaluate("() => document.querySelector('.screen-feed')?.innerText || ''"))
    feed = screen.locator(".screen-feed li")
    assert 3 <= feed.count() <= 5, feed.count()
    text = screen.locator(".screen-feed").inner_text()
    assert any("Ann" in t for t in seen), seen  # the phone's moves appeared there, by name
    assert all("you" not in t.split() for t in seen), seen  # never "you" on a shared screen
    assert "Last moves" in text
    size = screen.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.screen-feed li')).fontSize)")
    assert size >= 20, size
    box = screen.locator(".screen-feed").bounding_box()
    corner = screen.locator(".screen-corner").bounding_box()
    assert box and corner and box["x"] >= 0 and box["y"] + box["height"] <= 1080
    assert box["x"] + box["width"] <= corner["x"], (box, corner)  # beside the join corner, not under it
    screen.screenshot(path=str(artifacts / "tv-feed.png"))
    assert screen.evaluate(UNDER_FEED) == 0  # the table stays whole above it
    assert_screen_saw_only_spectator_views(server, screen, table_id)
    phone.context.close()
    screen.context.close()
