"""The turn fits the screen: on a phone (390x844, touch) and a laptop (1366x800), the hand, every card of it and its
move buttons are on screen without scrolling, for the largest tables (6-diver Snorkeling, 4-diver Hold Your
Breath!), at the start of a turn and once the move buttons of the turn's end appear.

Tables are made through the server's `/api/tables` with bots in every other seat; seat 0 plays first.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess, running_server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
SIZES = {"phone": PHONE, "desktop": DESKTOP}

# What must be on screen: the hand's box, each card with its buttons, and the move bar's buttons.
HAND_PARTS = {
    "snorkeling": ["#board .hand-area", "#board .card-btn", "#board .snk-actions", "#board .snk-actions .btn"],
    "hold-your-breath": ["#board .hand-area", "#board .hyb-hand-card", "#board .hyb-use", "#board .hyb-actions",
                         "#board .hyb-actions .btn"],
}

OFF_SCREEN = """(selectors) => {
  const out = [];
  for (const selector of selectors) {
    for (const el of document.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) {
        out.push(`${selector} "${el.textContent.trim().slice(0, 24)}" at ${Math.round(r.left)},${Math.round(r.top)}`
          + `-${Math.round(r.right)},${Math.round(r.bottom)} (screen ${innerWidth}x${innerHeight})`);
      }
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # Slow bots: the page is measured while it is still the person's turn.
    # Every test here makes its own tables on this one server: more than the default ten a minute.
    with running_server(tmp_path_factory.mktemp("layout"), "--bot-delay", "0.3", "--tables-per-minute", "60") as server:
        yield server


def open_table(browser: Any, server: ServerProcess, game: str, players: int, size: str,
               options: dict[str, Any] | None = None) -> Any:
    seats = [{"kind": "human", "name": "Robin"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)
    status, created = server.request("POST", "/api/tables", {"game": game, "seats": seats, "options": options or {}})
    assert status == 201, created
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    page.goto(f"{server.url}/table/{created['table']['id']}#seat=0&token={created['tokens'][0]}")
    page.wait_for_selector("#board .hand-area.is-my-turn", timeout=15000)
    page.wait_for_timeout(300)  # fonts and the cards' lift settle
    return page


def assert_on_screen(page: Any, game: str, when: str) -> None:
    assert page.evaluate("window.scrollY") == 0, "the page must not have scrolled by itself"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], "sideways scroll"
    missing = [selector for selector in HAND_PARTS[game][:2] if not page.locator(selector).count()]
    assert not missing, f"nothing matches {missing}"
    off = page.evaluate(OFF_SCREEN, HAND_PARTS[game])
    assert off == [], f"{when}: off screen without scrolling: {off}"
    # The sticky hand keeps itself in view whatever happens; the table fits when it also hides nothing above it.
    covered = page.evaluate("""() => {
      const hand = document.querySelector("#board .hand-area");
      const above = hand.previousElementSibling;
      return above.getBoundingClientRect().bottom - hand.getBoundingClientRect().top;
    }""")
    assert covered <= 1, f"{when}: the hand covers {covered:.0f} px of the board above it"


def play_to_the_end_button(page: Any, game: str) -> None:
    """Play one card to the centre (Snorkeling) or for Air (Hold Your Breath!), so End turn / End play appears."""
    if game == "snorkeling":
        if not page.locator("#board .card-btn.is-legal").count():
            # A deal with nothing to play: Pass, in the bar already measured, is the whole turn.
            assert page.locator('#board [data-act="pass"]').count()
            return
        page.locator("#board .card-btn.is-legal").first.click()
        if page.locator("#board .is-target").count():  # a card with several destinations: the centre
            page.locator("#board .center.is-target, #board .is-target").first.click()
        page.wait_for_selector('#board [data-act="end"]', timeout=10000)
    else:
        if not page.locator('#board .hyb-use.is-legal[data-use="air"]').count():
            return  # a hand without Air (about 3 % of deals): its uses, already measured, are the turn
        page.locator('#board .hyb-use.is-legal[data-use="air"]').first.click()
        page.wait_for_selector('#board [data-act="end"]', timeout=10000)
    page.wait_for_timeout(300)


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize(("game", "players"), [("snorkeling", 6), ("snorkeling", 4), ("hold-your-breath", 4)])
def test_the_hand_and_its_moves_are_on_screen_without_scrolling(browser: Any, live: ServerProcess, artifacts: Path,
                                                                 game: str, players: int, size: str) -> None:
    page = open_table(browser, live, game, players, size)
    page.screenshot(path=str(artifacts / f"{game}-{players}-{size}-start.png"))
    assert_on_screen(page, game, "at the start of the turn")
    play_to_the_end_button(page, game)
    page.screenshot(path=str(artifacts / f"{game}-{players}-{size}-end-button.png"))
    assert_on_screen(page, game, "with the end-of-turn button")
    page.context.close()


def test_on_a_phone_the_seats_and_the_log_fold_and_the_log_still_shows_its_last_line(
        browser: Any, live: ServerProcess) -> None:
    page = open_table(browser, live, "snorkeling", 6, "phone")
    assert page.locator(".panel-seats").evaluate("el => el.open") is False
    assert page.locator(".panel-log").evaluate("el => el.open") is False
    peek = page.locator("#log-peek").inner_text()
    assert "round 1 begins" in peek
    page.locator(".panel-log summary").click()
    assert page.locator("#log").is_visible()
    page.context.close()
    page = open_table(browser, live, "snorkeling", 6, "desktop")
    assert page.locator(".panel-seats").evaluate("el => el.open") is True
    assert page.locator("#log").is_visible() and page.locator("#seats").is_visible()
    page.context.close()


def test_key_hints_show_with_a_keyboard_and_hide_on_a_touch_screen(browser: Any, live: ServerProcess) -> None:
    page = open_table(browser, live, "snorkeling", 2, "desktop")
    play_to_the_end_button(page, "snorkeling")
    assert page.locator("#board .snk-actions kbd").first.is_visible()
    assert page.locator(".keys-help").is_visible()
    page.context.close()
    page = open_table(browser, live, "snorkeling", 2, "phone")
    assert page.evaluate("matchMedia('(hover: none), (pointer: coarse)').matches")
    play_to_the_end_button(page, "snorkeling")
    assert not page.locator("#board .snk-actions kbd").first.is_visible()
    assert not page.locator(".keys-help").is_visible()
    page.context.close()


@pytest.mark.parametrize("game", ["hold-your-breath", "snorkeling"])
def test_on_a_phone_the_game_title_beside_the_rules_button_is_readable(browser: Any, live: ServerProcess,
                                                                      artifacts: Path, game: str) -> None:
    """The header's game title is shown whole on a 390 px phone, with the Rules button and the turn line beside it:
    the turn line gives way first."""
    page = open_table(browser, live, game, 2, "phone")
    page.locator("#rules-open").wait_for(state="visible", timeout=10000)
    page.screenshot(path=str(artifacts / f"{game}-phone-header.png"), clip={"x": 0, "y": 0, "width": 390, "height": 80})
    title = page.evaluate("""() => {
      const el = document.getElementById("game-title");
      return {text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth};
    }""")
    assert title["scroll"] <= title["client"] + 1, f"the title is cut: {title}"
    assert page.evaluate(OFF_SCREEN, ["#rules-open", "#game-title"]) == []
    page.context.close()


def test_a_hold_your_hat_clue_giver_mid_turn_has_the_word_and_its_buttons_on_a_phone_screen(
        browser: Any, live: ServerProcess, artifacts: Path) -> None:
    """Four players (the person and three word bots), the person gives the clues: once the turn runs, the word, the
    clue box and every move button (Got it, Foul, and Skip when dealt) are on a 390x844 phone screen unscrolled."""
    bot = {"kind": "bot", "bot": "words"}
    seats = [{"kind": "human", "name": "Robin"}, bot, bot, bot]
    options = {"deck_size": 4, "turn_seconds": 60, "rounds": 1, "first_team": 0, "clue_giver_rotation": "per_round"}
    status, created = live.request("POST", "/api/tables", {"game": "hold-your-hat", "seats": seats, "options": options})
    assert status == 201, created
    page = browser.new_context(**SIZES["phone"]).new_page()
    page.goto(f"{live.url}/table/{created['table']['id']}#seat=0&token={created['tokens'][0]}")
    page.locator('#board [data-action="start"]').click(timeout=15000)
    page.locator("#board .hyh-word-text").wait_for(timeout=10000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / "hold-your-hat-clue-giver-phone.png"))
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "sideways scroll"
    labels = page.locator('#board button[data-act="send"]').all_inner_texts()
    assert any("Got it" in label for label in labels), labels
    parts = ["#board .hyh-word-text", "#hyh-clue", '#board button[data-act="send"]', '#board [data-act="clue"]']
    assert page.evaluate(OFF_SCREEN, parts) == []
    # No part of a word breaks mid-word on the card: its letters are sized by its longest part ("microsco/pe" did).
    word = page.locator("#board .hyh-word-text")
    longest = max(len(part) for part in word.inner_text().split())
    assert word.evaluate("(e) => e.style.getPropertyValue('--longest')") == str(max(4, longest))
    lines = page.evaluate("""() => {
      const text = document.querySelector('#board .hyh-word-text');
      text.textContent = 'microscopically photosynthesis';
      text.style.setProperty('--longest', '15');
      const range = document.createRange();
      range.selectNodeContents(text);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }""")
    page.screenshot(path=str(artifacts / "hold-your-hat-long-word-phone.png"))
    assert lines <= 2, f"a 15-letter word broke across lines ({lines} lines for two words)"
    page.context.close()
