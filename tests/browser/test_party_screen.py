"""Hold your Hat at a party screen (issue 26, item 6): a table made in the lobby for one screen, its seats left
unnamed, asks once who is playing before the game (the seats were "Player 1-4" for the whole game); the cover
between turns names the person and reveals a screen, not cards; the clue-giver's box says clues are spoken.
At 1366x800 and on a 390x844 touch phone. Screenshots in test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_lobby import DESKTOP, PHONE, pick_game, public_table
from tests.live_server import ServerProcess


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_party_screen_asks_who_plays_once_and_names_every_seat(browser: Any, server: ServerProcess,
                                                                  artifacts: Path, size: str) -> None:
    context = browser.new_context(**(DESKTOP if size == "desktop" else PHONE))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server.url}/")
        pick_game(page, "Hold your Hat")
        page.get_by_role("button", name="Party (one screen)").click()  # every seat at this screen, no names typed
        page.locator("#create").click()
        play = page.get_by_role("link", name="Play at this screen (4 seats)")
        play.wait_for(timeout=10000)
        table_id = str(play.get_attribute("href")).rsplit("/", 1)[-1]
        play.click()
        dialog = page.locator("#names-dialog")
        dialog.wait_for(timeout=10000)
        assert dialog.locator("input").count() == 4
        page.screenshot(path=str(artifacts / f"{size}-who-plays.png"))
        for seat, name in enumerate(("Ana", "Ben", "Cy", "Di")):
            page.locator(f"#seat-name-{seat}").fill(name)
        page.locator("#names-start").click()
        page.wait_for_selector("#cover-ready:visible", timeout=15000)
        assert "Ana" in page.locator("#cover-title").inner_text()
        ready = page.locator("#cover-ready").inner_text()
        assert "Ana" in ready and "cards" not in ready, ready
        page.screenshot(path=str(artifacts / f"{size}-cover.png"))
        names = [seat["name"] for seat in public_table(server, table_id)["seats"]]
        assert names == ["Ana", "Ben", "Cy", "Di"], names
        page.wait_for_timeout(750)  # the cover ignores a press in its first moments
        page.locator("#cover-ready").click()
        page.locator('[data-action="start"]').first.click(timeout=10000)
        page.wait_for_selector("#hyh-clue", timeout=10000)
        box = page.locator("#board").inner_text()
        assert "everyone sees it" not in box
        assert "Say your clues" in box
        page.screenshot(path=str(artifacts / f"{size}-clue-giver.png"))
        # A reload does not ask again.
        page.reload()
        page.wait_for_selector("#cover-ready:visible", timeout=10000)
        assert page.locator("#names-dialog").count() == 0
        assert not errors, errors
    finally:
        context.close()
