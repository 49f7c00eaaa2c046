"""A table that feels alive, in a real browser (issue 15, items 4 and 5): a card played is taken back with Undo,
table talk shows markup as text, cards fly unless the system asks for reduced motion, and a finished game is
stepped through on the replay page. Screenshots at 1366x800 and 390x844."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser.test_people import play_to_the_end
from tests.live_server import ServerProcess

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
# Counts every Web Animation the page starts (an init script runs before the page's own modules, CSP or not).
COUNT_FLIGHTS = """
window.__flights = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__flights += 1; return animate.apply(this, args); };
"""


def get(server: ServerProcess, path: str) -> Any:
    with urllib.request.urlopen(f"{server.url}{path}", timeout=10) as response:
        return json.load(response)


def create(server: ServerProcess, seats: list[dict[str, Any]]) -> tuple[str, list[str | None]]:
    status, answer = server.request("POST", "/api/tables", {"game": "snorkeling", "options": {"target_score": 1},
                                                           "seats": seats})
    assert status == 201, answer
    return answer["table"]["id"], answer["tokens"]


def open_seat(browser: Any, server: ServerProcess, size: dict[str, Any], **context: Any) -> tuple[Any, str]:
    """Seat 0 of a new table against a bot, on its own page, at the point where a card can be played."""
    for _ in range(20):
        table_id, tokens = create(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
        page = browser.new_context(**size, **context).new_page()
        page.add_init_script(COUNT_FLIGHTS)
        page.goto(f"{server.url}/table/{table_id}#seat=0&token={tokens[0]}")
        page.wait_for_function("() => document.querySelector('#turn.is-mine')", timeout=10000)
        if page.locator('#board [data-act="card"].is-legal').count():
            return page, table_id
        page.context.close()  # only a pass to start with: another deal
    raise AssertionError("no deal with a card to play")


def play_a_card(page: Any) -> None:
    """Click a playable card, and the place to play it if the page asks where (a card with one use goes at once)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.locator('#board [data-act="card"].is-legal').first.click()
    with contextlib.suppress(PlaywrightTimeout):
        page.locator("#board .is-target").first.click(timeout=1000)


def hand(page: Any) -> list[str]:
    return list(page.evaluate("() => [...document.querySelectorAll('#board [data-act=\"card\"]')]"
                              ".map((el) => el.dataset.card || el.querySelector('[data-card]')?.dataset.card)"))


def test_undo_takes_a_card_back_and_talk_is_text(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    page, _ = open_seat(browser, server, DESKTOP)
    before = hand(page)
    play_a_card(page)
    page.wait_for_function("() => !document.querySelector('#undo').hidden")
    assert len(hand(page)) == len(before) - 1
    page.screenshot(path=str(artifacts / "undo-desktop.png"))
    page.locator("#undo").click()
    page.wait_for_function("() => document.querySelector('#undo').hidden")
    page.wait_for_function("(n) => document.querySelectorAll('#board [data-act=\"card\"]').length === n",
                           arg=len(before))
    assert sorted(hand(page)) == sorted(before)
    # Talk: markup stays text.
    hostile = '<img src=x onerror="window.__xss=1"><b>bold</b>'
    page.fill(".talk-input", hostile)
    page.locator(".talk-form button").click()
    page.wait_for_function("(t) => [...document.querySelectorAll('.talk-line')]"
                           ".some((li) => li.textContent.includes(t))", arg=hostile)
    page.locator('.talk-emote[data-emote="nice"]').click()
    page.wait_for_function("() => [...document.querySelectorAll('.talk-line')].some((li) => "
                           "li.textContent.includes('Nice!'))")
    assert page.locator("#talk img, #talk b").count() == 0
    assert page.evaluate("() => window.__xss") is None
    # The sound switch holds across reloads.
    page.locator("#mute").click()
    assert page.locator("#mute").get_attribute("aria-pressed") == "true"
    page.screenshot(path=str(artifacts / "talk-desktop.png"))
    page.context.close()

    phone, _ = open_seat(browser, server, PHONE)
    play_a_card(phone)
    phone.wait_for_function("() => !document.querySelector('#undo').hidden")
    phone.screenshot(path=str(artifacts / "undo-phone.png"), full_page=True)
    phone.context.close()


def test_cards_fly_unless_reduced_motion_is_asked_for(browser: Any, server: ServerProcess) -> None:
    for motion, flies in (("no-preference", True), ("reduce", False)):
        page, _ = open_seat(browser, server, DESKTOP, reduced_motion=motion)
        page.evaluate("() => { window.__flights = 0; }")
        play_a_card(page)
        page.wait_for_function("() => !document.querySelector('#undo').hidden")
        page.wait_for_timeout(50)
        flights = page.evaluate("() => window.__flights")
        assert (flights > 0) == flies, (motion, flights)
        if not flies:
            assert page.evaluate("() => document.getAnimations().filter((a) => a.playState === 'running').length") == 0
        page.context.close()


def test_a_finished_game_is_stepped_through(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    table_id, tokens = create(server, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    play_to_the_end(server, table_id, tokens)
    request = urllib.request.Request(f"{server.url}/api/tables/{table_id}/replay?seat=0",
                                     headers={"X-Seat-Token": str(tokens[0])})
    with urllib.request.urlopen(request, timeout=10) as response:
        replay = json.load(response)
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = browser.new_context(**size).new_page()
        page.goto(f"{server.url}/table/{table_id}#seat=0&token={tokens[0]}")  # the browser now holds seat 0's token
        page.wait_for_function("(key) => localStorage.getItem(key) !== null", arg=f"divedeck.tokens.{table_id}",
                               timeout=15000)
        page.goto(f"{server.url}/replay/{table_id}#seat=0")
        page.wait_for_function("() => document.querySelector('#step-text').dataset.step === '0'")
        assert sorted(hand(page)) == sorted(replay["steps"][0]["view"]["hand"])
        for step in range(1, 4):
            page.locator("#replay-next").click()
            page.wait_for_function("(n) => document.querySelector('#step-text').dataset.step === String(n)", arg=step)
            assert sorted(hand(page)) == sorted(replay["steps"][step]["view"]["hand"]), step
            assert page.locator('#board [data-act="card"].is-legal').count() == 0  # nothing to play in a replay
        page.screenshot(path=str(artifacts / f"replay-{name}.png"), full_page=name == "phone")
        page.locator("#replay-last").click()
        last = len(replay["steps"]) - 1
        page.wait_for_function("(n) => document.querySelector('#step-text').dataset.step === String(n)", arg=last)
        page.select_option("#replay-seat", "")
        page.wait_for_function("() => !location.hash")
        assert page.locator("#step-text").get_attribute("data-step") == str(last)
        page.context.close()


def test_the_depth_board_is_scaled_to_the_deepest_dive(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """Hold Your Breath!'s depth board ends a little below the deepest pirate or anchor, not at the board's full
    depth. Watched as a spectator: 20 ft at a table whose first player (a person) has not come yet, so nobody has
    dived; just below the deepest pirate at a table of two bots once one has dived."""
    board = """() => ({
      bottom: Math.max(...[...document.querySelectorAll('#board .hyb-mark')]
        .map((el) => parseInt(el.textContent) || 0)),
      deepest: Math.max(0, ...[...document.querySelectorAll('#board .hyb-pirate, #board .hyb-anchor')]
        .map((el) => parseInt(el.title.replace(/[^0-9]/g, '')) || 0)),
    })"""
    page = browser.new_context(**DESKTOP).new_page()
    try:
        for seats in ([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
                      [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]):
            status, answer = server.request("POST", "/api/tables", {"game": "hold-your-breath", "seats": seats})
            assert status == 201, answer
            page.goto(f"{server.url}/table/{answer['table']['id']}")
            page.locator("#board .hyb-mark").last.wait_for(timeout=10000)
            if seats[0]["kind"] == "human":  # Ann starts the Descent and never comes: nobody dives
                page.wait_for_timeout(300)
                assert page.evaluate(board) == {"bottom": 20, "deepest": 0}
                continue
            deadline = time.monotonic() + 30
            while (seen := page.evaluate(board))["deepest"] == 0:
                assert time.monotonic() < deadline, "nobody dived"
                page.wait_for_timeout(30)
            reached, bottom = seen["deepest"], seen["bottom"]
            assert reached < bottom <= reached + 20 and bottom < 150, seen
            page.screenshot(path=str(artifacts / "depth-board.png"))
    finally:
        page.context.close()


def test_the_other_seats_last_move_is_told_in_words(browser: Any, server: ServerProcess) -> None:
    """The seat list's "last move" of the bot is its log line (player words, the bot's name), not its notation."""
    page, _ = open_seat(browser, server, DESKTOP)
    try:
        play_a_card(page)
        end = page.locator('#board [data-act="end"]')
        if end.count():
            end.first.click(timeout=2000)
        page.locator("#seats .seat-row-last").first.wait_for(timeout=15000)
        # Both as text content with white space folded: a card chip lays itself out as a block of its own.
        last = " ".join(str(page.locator("#seats .seat-row-last").first.text_content()).split())
        lines = page.evaluate("() => [...document.querySelectorAll('#log .log-line')].map((el) => el.textContent)")
        assert any(" ".join(line.split()) == last for line in lines), (last, lines[-5:])
        assert " " in last and any(word.isalpha() and len(word) > 3 for word in last.split()), last
    finally:
        page.context.close()
