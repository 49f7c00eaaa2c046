"""Hold your Hat with word bots in a real browser (issue 19): a person giving typed clues to a bot guesser, a
person guessing a bot clue-giver's clues, and a party (one screen) with a bot team.

The games are short (one round, a few words, short turns) and the bots play at ``hard``, their quickest level.
The scripted person reads only their own page: the word off the clue-giver's card, the clues off the log. To give
a clue they type the entry's clue words from the association data (one typed line, unlike the bot's own script,
and checked by the game like any clue); to guess they type the entry whose association a clue is (a person who
knows the deck).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from divedeck.games.hold_your_hat.associations import load_associations
from divedeck.games.hold_your_hat.words import COLORS, load_words
from tests.browser.conftest import wait_until
from tests.browser.test_hold_your_hat_web import click_first, create_table, game_over, open_seat
from tests.live_server import ServerProcess

GAME_TIMEOUT = 60.0
BOT = {"kind": "bot", "bot": "words-hard"}
COLOR = "blue"


def entries() -> dict[str, Any]:
    """The shipped deck's entries in ``COLOR`` with their associations."""
    associations = load_associations()
    color = COLORS.index(COLOR)
    out = {}
    for card in load_words(None).cards:
        found = associations.get(card.entries[color].text)
        assert found is not None
        out[card.entries[color].text] = found
    return out


def log_text(page: Any) -> str:
    return str(page.locator("#log").inner_text())


def clues_in(log: str, who: str) -> list[str]:
    """The typed clues ``who`` gave, in the log's order (a log line ``Name: “text”``)."""
    return re.findall(rf"{re.escape(who)}: “([^”]+)”", log)


def token(created: dict[str, Any], seat: int) -> str:
    tokens = created["tokens"]
    return str(tokens[str(seat)] if isinstance(tokens, dict) else tokens[seat])


def person_gives_clues(page: Any, known: dict[str, Any], given: dict[str, float]) -> bool:
    """The person's word on their card, clued once (its clue words typed in one line), again after 5 s (the
    description). ``True`` if a clue was typed."""
    # Read in one step in the page: the card goes the moment the bot guesser wins the word or the turn ends, and a
    # second look would wait for a card that may never come back.
    text = page.evaluate("""() => {
        const word = document.querySelector('.hyh-word-text');
        return word && document.querySelector('#hyh-clue') ? word.dataset.word : null;
    }""")
    if text is None:
        return False
    since = given.get(text)
    if since is not None and time.monotonic() - since < 5:
        return False
    found = known[text]
    clue = " ".join(found.clues) if since is None else found.describe
    try:  # the box goes with the card: then it was too late for this word
        page.locator("#hyh-clue").fill(clue, timeout=2000)
        page.locator('[data-act="clue"]').click(timeout=2000)
    except PlaywrightTimeout:
        return True
    given[text] = time.monotonic()
    return True


def run_until_over(page: Any, step: Any) -> None:
    deadline = time.monotonic() + GAME_TIMEOUT
    while not game_over(page):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not step():
            page.wait_for_timeout(80)


def test_a_person_gives_typed_clues_to_a_bot_guesser_against_a_bot_team(browser: Any, server: ServerProcess,
                                                                        artifacts: Path) -> None:
    """Team A: the person (clue-giver all round) and a bot guesser; team B: two bots. Team B starts: the person
    watches the bot's clues arrive in the log; then gives typed clues on their own turn, which the bot guesser
    solves. Played to the end of round 1 (a one-round game)."""
    known = entries()
    options = {"deck_size": 6, "turn_seconds": 12, "rounds": 1, "color": COLOR, "first_team": 1,
               "clue_giver_rotation": "per_round"}
    created = create_table(server, options, [{"kind": "human", "name": "Ana"}, BOT, BOT, BOT])
    page = open_seat(browser, server, created["table"]["id"], 0, token(created, 0))
    seats = created["table"]["seats"]
    bot_giver = str(seats[2].get("name") or "")
    # Team B's bot clue-giver types its first clue: the description of its word, on the person's screen.
    wait_until(page, "document.querySelector('#log').innerText.includes('“')", timeout=15)
    described = {found.describe for found in known.values()}
    assert any(clue in described for clue in clues_in(log_text(page), bot_giver)), log_text(page)
    page.screenshot(path=str(artifacts / "bot-team-clues.png"), full_page=True)
    given: dict[str, float] = {}

    def step() -> bool:
        return (click_first(page, "#overlay-close:visible") or click_first(page, '[data-action="start"]:enabled')
                or click_first(page, '[data-action="end"]:enabled') or person_gives_clues(page, known, given))

    run_until_over(page, step)
    page.screenshot(path=str(artifacts / "over.png"), full_page=True)
    log = log_text(page)
    assert given, "the person never had a word to clue"
    assert clues_in(log, "you"), "no typed clue of the person's in the log"
    assert "team A won" in log, log  # the bot guesser solved the person's clues
    assert "round 1 over" in log or "game over" in page.locator("#gameover").inner_text().lower()


def test_a_person_guesses_a_bot_clue_givers_clues_in_the_guess_box(browser: Any, server: ServerProcess,
                                                                   artifacts: Path) -> None:
    """Team A: a bot clue-giver (all round) and the person, its only guesser; team B: two bots. The person reads
    each clue off the log and types the entry it describes into the guess box; the game judges it right."""
    known = entries()
    by_clue: dict[str, str] = {}
    for text, found in known.items():
        by_clue.setdefault(found.describe, text)
    options = {"deck_size": 4, "turn_seconds": 12, "rounds": 1, "color": COLOR, "clue_giver_rotation": "per_round"}
    created = create_table(server, options, [BOT, {"kind": "human", "name": "Ben"}, BOT, BOT])
    page = open_seat(browser, server, created["table"]["id"], 1, token(created, 1))
    giver = str(created["table"]["seats"][0].get("name") or "")
    answered: set[int] = set()
    typed: list[str] = []

    def step() -> bool:
        if click_first(page, "#overlay-close:visible") or click_first(page, '[data-action="end"]:enabled'):
            return True
        if not page.locator("#hyh-guess").count():
            return False
        clues = clues_in(log_text(page), giver)
        for index, clue in enumerate(clues):
            if index in answered or clue not in by_clue:
                continue
            answered.add(index)
            try:  # the box goes when the turn ends or the word is won (a bot's THEFT): then it was too late
                page.locator("#hyh-guess").fill(by_clue[clue], timeout=2000)
                page.locator('[data-act="guess"]').click(timeout=2000)
            except PlaywrightTimeout:
                return True
            typed.append(by_clue[clue])
            page.wait_for_timeout(1050)  # one typed guess a second (HYH-A26)
            return True
        return False

    run_until_over(page, step)
    page.screenshot(path=str(artifacts / "over.png"), full_page=True)
    log = log_text(page)
    assert typed, "no bot clue to guess"
    assert re.search(r"you guessed “[^”]+”: right!", log), log
    assert "team A won" in log, log


def test_a_party_on_one_screen_with_a_bot_team(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """Party mode (one shared screen, as the lobby's "Party (one screen)" preset sets it): team A is two people at
    this screen, team B two bots. Team B's turn: its bot types clues (seen on the screen's log) and its bot
    guesser types guesses (HYH-A29); then team A's turn at the screen as in any party (start, Got it)."""
    options = {"party": True, "deck_size": 6, "turn_seconds": 10, "rounds": 1, "color": COLOR, "first_team": 1}
    created = create_table(server, options, [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"},
                                             BOT, BOT], hotseat=True)
    table_id = created["table"]["id"]
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/")
    stored = {str(seat): token(created, seat) for seat in (0, 1)}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"divedeck.tokens.{table_id}", json.dumps(stored)])
    page.goto(f"{server.url}/table/{table_id}")
    bot_giver = str(created["table"]["seats"][2].get("name") or "")
    confirmed = 0
    clue_shot = False
    deadline = time.monotonic() + GAME_TIMEOUT
    while not game_over(page):
        assert time.monotonic() < deadline, "the party game did not end in time"
        if not clue_shot and clues_in(log_text(page), bot_giver):
            page.screenshot(path=str(artifacts / "party-bot-clues.png"), full_page=True)
            clue_shot = True
        if page.locator("#cover-ready:visible").count():
            page.wait_for_timeout(750)  # the cover ignores a press in its first moments
            click_first(page, "#cover-ready:visible")
        elif any(click_first(page, selector) for selector in (
                "#overlay-close:visible", '[data-action="start"]:enabled', '[data-action="end"]:enabled')):
            continue
        elif page.locator('[data-act="send"][data-action="got A"]:enabled').count():
            page.wait_for_timeout(400)  # the room says the word
            if click_first(page, '[data-act="send"][data-action="got A"]:enabled'):
                confirmed += 1
        else:
            page.wait_for_timeout(60)
    page.screenshot(path=str(artifacts / "party-over.png"), full_page=True)
    log = log_text(page)
    assert not errors, errors
    assert clues_in(log, bot_giver), log  # the bot typed its clues at the party table
    assert "team B won" in log, log  # and won words by them
    assert confirmed >= 1 and "team A won" in log, log  # the people's turn at the screen
