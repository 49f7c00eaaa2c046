"""Hold your Hat for the team that is not guessing (issue 26, item 6): the clues of the other team's clue-giver and
the guesses it may read show as they come, never the word; at one shared screen the cover's button does not speak
of cards. Desktop and a touch phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.live_server import ServerProcess, running_server

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("hyh-follow"), "--bot-delay", "0.05") as server:
        yield server


@pytest.mark.parametrize("size", SIZES)
def test_the_other_team_sees_the_clues_as_they_come_and_never_the_word(browser: Any, live: ServerProcess,
                                                                        artifacts: Path, size: str) -> None:
    # HYH-R2: team B (seats 3 and 4, bots) starts; seat 1, a person of team A, watches their turn.
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "words-hard"}] + \
        [{"kind": "bot", "bot": "words-hard"}] * 2
    status, created = live.request("POST", "/api/tables", {
        "game": "hold-your-hat", "seats": seats, "options": {"first_team": 1, "turn_seconds": 60}})
    assert status == 201, created
    page = browser.new_context(**SIZES[size]).new_page()
    page.goto(f"{live.url}/table/{created['table']['id']}#seat=0&token={created['tokens'][0]}")
    wait_until(page, "document.querySelector('#board .hyh-clue-list li')", timeout=20)
    page.screenshot(path=str(artifacts / f"other-team-{size}.png"))
    assert "is guessing" in page.locator("#board .hyh-stage").inner_text()
    assert page.locator("#board .hyh-word").count() == 0  # the word stays the clue-giver's
    page.context.close()


def test_the_party_cover_does_not_speak_of_cards(browser: Any, live: ServerProcess) -> None:
    seats = [{"kind": "human", "name": name} for name in ("Ana", "Ben", "Cy", "Di")]
    status, created = live.request("POST", "/api/tables", {"game": "hold-your-hat", "seats": seats,
                                                           "hotseat": True, "options": {"party": True}})
    assert status == 201, created
    page = browser.new_context(**SIZES["phone"]).new_page()
    page.goto(f"{live.url}/table/{created['table']['id']}")
    for seat, token in enumerate(created["tokens"]):  # this screen holds every seat
        page.evaluate("([t, s, k]) => { const key = `divedeck.tokens.${t}`;"
                      " const all = JSON.parse(localStorage.getItem(key) || '{}'); all[s] = k;"
                      " localStorage.setItem(key, JSON.stringify(all)); }", [created["table"]["id"], seat, token])
    page.reload()
    page.wait_for_selector("#cover:not([hidden])", timeout=10_000)
    assert "cards" not in page.locator("#cover-ready").inner_text()
    page.context.close()
