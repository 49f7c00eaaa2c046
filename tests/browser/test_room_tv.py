"""The room's set-up page on a television (issue 26, item 9): at 1920x1080 it uses the screen's width, its buttons
are big enough to read and press across a room, and the options read in the game's words ("Num players: 3" was
its field name)."""

from __future__ import annotations

from typing import Any

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


def test_the_television_shows_a_feed_of_the_last_moves(browser: Any, server: ServerProcess, artifacts: Any) -> None:
    """The shared screen (a spectator) keeps a short feed of the last few moves, in the log's words, large enough to
    read across a room, beside the join corner; it never shows more than a spectator may see (its log is the
    spectator's), and a phone's move appears there."""
    from tests.browser.test_rooms import assert_screen_saw_only_spectator_views, join_by_phone, open_room_screen, start
    from tests.browser.test_snorkeling_web import take_one_step

    screen, code = open_room_screen(browser, server, "snorkeling", {"target_score": 3}, players=2, bots=[None, "greedy"])
    phone = join_by_phone(browser, server, code, "Ann", by_link=True)
    table_id = start(screen, "#board .snk-center, #board .card")
    moves = 0
    for _ in range(60):  # a few moves from the phone (the bot answers each)
        if moves >= 6 and screen.locator(".screen-feed li").count() >= 4:
            break
        moves += take_one_step(phone)
        phone.wait_for_timeout(150)
    feed = screen.locator(".screen-feed li")
    assert 3 <= feed.count() <= 5, feed.count()
    text = screen.locator(".screen-feed").inner_text()
    assert "Ann" in text and "you" not in text.split(), text  # names, never "you" on a shared screen
    size = screen.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.screen-feed li')).fontSize)")
    assert size >= 20, size
    box = screen.locator(".screen-feed").bounding_box()
    corner = screen.locator(".screen-corner").bounding_box()
    assert box and corner and box["x"] >= 0 and box["y"] + box["height"] <= 1080
    assert box["x"] + box["width"] <= corner["x"], (box, corner)  # beside the join corner, not under it
    screen.screenshot(path=str(artifacts / "tv-feed.png"))
    assert_screen_saw_only_spectator_views(server, screen, table_id)
    phone.context.close()
    screen.context.close()
