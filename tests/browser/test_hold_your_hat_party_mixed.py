"""Hold your Hat in party mode (one shared screen) with mixed teams: people and word bots in one team (issue 19,
item 6). The rule that makes it possible is HYH-A29: at a party table clues and guesses may be typed besides the
spoken ones, so a team can play with players who are not in the room.

- A person at the screen gives typed clues to a bot guesser, against a bot team: the screen never shows the word
  while the bot team plays, shows the clue box on the person's turn, and the bot guesser solves a word.
- A shared screen with two people (hot-seat): one gives clues to a bot guesser, the other guesses a bot
  clue-giver's clues. On the bot clue-giver's turn the screen passes to the person guessing: a guess box and the
  clues, no word. The test types the right word, read from the server's stored log (never from the page).

Each runs on a desktop (1366x800) and on a phone (390x844, touch); the games are cut short once the point is made.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.test_hold_your_hat_bots import BOT, COLOR, entries, person_gives_clues, token
from tests.browser.test_hold_your_hat_web import click_first, create_table
from tests.live_server import ServerProcess

TIMEOUT = 45.0
DEVICES = {
    "desktop": {"viewport": {"width": 1366, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}


@pytest.fixture
def device(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    """The screen a test runs on: a party screen on a laptop, or a phone passed around (one size a test keeps the
    suite short; both sizes were looked at when this was built)."""
    name = str(request.param)
    return name, DEVICES[name]


LAPTOP = pytest.mark.parametrize("device", ["desktop"], indirect=True)
PHONE = pytest.mark.parametrize("device", ["phone"], indirect=True)


def current_word(server: ServerProcess, table_id: str) -> str | None:
    """The word being clued now, from the server's side: the stored log replayed, the clue-giver's view."""
    from divedeck.engine.match import Match

    stored = server.stored(table_id)
    match = Match.start(stored.game, stored.options, stored.seed)
    for seat, notation, _ in stored.actions[:len(stored.actions) - stored.undone]:
        match.act(seat, match.game.parse_action(notation))
    word = match.game.view(match.state, match.state.clue_giver()).get("word")
    return None if word is None else str(word["text"])


def log_text(page: Any) -> str:
    """The log's lines, also where a phone folds the log away (``textContent``, not the rendered text)."""
    return str(page.evaluate("() => [...document.querySelectorAll('#log li')].map((li) => li.textContent).join('\\n')"))


def on_screen(page: Any, selector: str) -> None:
    """``selector`` is visible and, scrolled to, lies within the viewport (nothing cut off at the sides)."""
    box = page.locator(selector).first
    box.scroll_into_view_if_needed()
    rect = box.bounding_box()
    size = page.viewport_size
    assert rect is not None and size is not None
    assert rect["x"] >= 0 and rect["x"] + rect["width"] <= size["width"] + 1, (selector, rect, size)
    assert rect["y"] >= 0 and rect["y"] + rect["height"] <= size["height"] + 1, (selector, rect, size)


def screen(browser: Any, server: ServerProcess, options: dict[str, Any]) -> tuple[Any, list[str]]:
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


@LAPTOP
def test_a_person_gives_typed_clues_to_a_bot_guesser_at_a_party_screen(
        browser: Any, server: ServerProcess, artifacts: Path, device: tuple[str, dict[str, Any]]) -> None:
    """HYH-A29: party table; team A is the person (clue-giver all round) and a bot guesser, team B two bots and
    starts. While team B plays, the screen shows no word (a bot gives the clues); on team A's turn the person has
    the word and the clue box, types clues, and the bot guesser solves a word by typing it."""
    name, options = device
    known = entries()
    created = create_table(server, {"party": True, "deck_size": 5, "turn_seconds": 8, "rounds": 1, "color": COLOR,
                                    "first_team": 1, "clue_giver_rotation": "per_round"},
                           [{"kind": "human", "name": "Ana"}, BOT, BOT, BOT])
    table_id = created["table"]["id"]
    page, errors = screen(browser, server, options)
    page.goto(f"{server.url}/table/{table_id}#seat=0&token={token(created, 0)}")
    page.wait_for_selector("#board .hyh-stage", timeout=15000)
    given: dict[str, float] = {}
    bot_team_seen = shot = False
    deadline = time.monotonic() + TIMEOUT
    while "team A won" not in log_text(page):
        assert time.monotonic() < deadline, log_text(page)
        active = page.evaluate("() => document.querySelector('.hyh-lead')?.innerText || ''")
        if active.startswith("Team B"):
            bot_team_seen = True
            assert not page.locator(".hyh-word-text").count(), "the word shows while a bot gives the clues"
            assert not page.locator("#hyh-clue").count()
            if "“" in log_text(page) and not shot:
                page.screenshot(path=str(artifacts / f"{name}-bot-team.png"), full_page=True)
                shot = True
        if click_first(page, "#overlay-close:visible") or click_first(page, '[data-action="start"]:enabled') \
                or click_first(page, '[data-action="end"]:enabled'):
            continue
        if page.locator("#hyh-clue").count() and not given:
            on_screen(page, "#hyh-clue")
            page.screenshot(path=str(artifacts / f"{name}-clue-box.png"))
        if not person_gives_clues(page, known, given):
            page.wait_for_timeout(80)
    page.screenshot(path=str(artifacts / f"{name}-won.png"), full_page=True)
    log = log_text(page)
    assert bot_team_seen and given, log
    assert "you: “" in log, log  # the person's typed clue, in the log as online
    assert "guessed “" in log, log  # the bot guesser's typed guess
    assert not errors, errors


@PHONE
def test_a_shared_screen_passes_to_the_person_guessing_a_bot_clue_givers_clues(
        browser: Any, server: ServerProcess, artifacts: Path, device: tuple[str, dict[str, Any]]) -> None:
    """HYH-A29 on a hot-seat party screen with two people: Cy gives clues for team B (with a bot guesser), Ben
    guesses for team A, whose clue-giver is a bot. Team B starts: the screen shows Cy's word and clue box. On
    team A's turn the screen passes to Ben (the clue-giver is not at this screen): the guess box and the bot's
    clues, never the word. The test types the word (read from the server) and team A scores it."""
    name, options = device
    known = entries()
    created = create_table(server, {"party": True, "deck_size": 5, "turn_seconds": 8, "rounds": 1, "color": COLOR,
                                    "first_team": 1, "clue_giver_rotation": "per_round"},
                           [BOT, {"kind": "human", "name": "Ben"}, {"kind": "human", "name": "Cy"}, BOT],
                           hotseat=True)
    table_id = created["table"]["id"]
    page, errors = screen(browser, server, options)
    page.goto(f"{server.url}/")
    stored = {str(seat): token(created, seat) for seat in (1, 2)}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"divedeck.tokens.{table_id}", json.dumps(stored)])
    page.goto(f"{server.url}/table/{table_id}")
    given: dict[str, float] = {}
    typed: list[str] = []
    shots: set[str] = set()
    deadline = time.monotonic() + TIMEOUT
    while "team A won" not in log_text(page):
        assert time.monotonic() < deadline, log_text(page)
        if page.locator("#cover-ready:visible").count():
            page.wait_for_timeout(750)  # the cover ignores a press in its first moments
            click_first(page, "#cover-ready:visible")
            continue
        if click_first(page, "#overlay-close:visible") or click_first(page, '[data-action="start"]:enabled') \
                or click_first(page, '[data-action="end"]:enabled'):
            continue
        lead = page.evaluate("() => document.querySelector('.hyh-lead')?.innerText || ''")
        if lead.startswith("Team B"):  # Cy's turn at the screen: the word and the clue box
            if page.locator("#hyh-clue").count() and "cy" not in shots:
                on_screen(page, "#hyh-clue")
                page.screenshot(path=str(artifacts / f"{name}-cy-clues.png"))
                shots.add("cy")
            # Cy clues the first word only: with every word clued, team B's bot could win the whole deck in its
            # first turn, and team A would never play.
            # One read: a count then a get_attribute waited 30 s when the turn ended between the two (CI).
            text = page.evaluate("() => document.querySelector('.hyh-word-text')?.dataset.word ?? null")
            if (given and text not in given) or not person_gives_clues(page, known, given):
                page.wait_for_timeout(80)
            continue
        if not lead.startswith("Team A") or not page.locator("#hyh-guess").count():
            page.wait_for_timeout(80)
            continue
        assert not page.locator(".hyh-word-text").count(), "the word shows on the guesser's screen"
        if not page.locator(".hyh-clues li").count():  # the bot's first clue, on the stage
            page.wait_for_timeout(80)
            continue
        if "ben" not in shots:
            on_screen(page, "#hyh-guess")
            page.screenshot(path=str(artifacts / f"{name}-ben-guesses.png"))
            shots.add("ben")
        word = current_word(server, table_id)
        if word is None or word in typed[-1:]:
            page.wait_for_timeout(80)
            continue
        try:  # the box goes when the turn ends or the word is won meanwhile: look again
            page.locator("#hyh-guess").fill(word, timeout=2000)
            page.locator('[data-act="guess"]').click(timeout=2000)
        except PlaywrightTimeout:
            continue
        typed.append(word)
        page.wait_for_timeout(1050)  # one typed guess a second (HYH-A26)
    page.screenshot(path=str(artifacts / f"{name}-a-won.png"), full_page=True)
    log = log_text(page)
    assert {"cy", "ben"} <= shots, shots
    assert typed and "team A won" in log, log
    assert any(f"Ben guessed “{word}”: right!" in log for word in typed), log
    assert not errors, errors
