"""Guided first games in a real browser: "Learn to play" in the lobby opens a fixed deal, and a player who does only
what the guide's hints say (its "Play this move" button, and Continue between rounds) finishes the game."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess

from .conftest import wait_until

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
GUIDED = {"snorkeling": "Snorkeling", "hold-your-breath": "Hold Your Breath!", "bermuda": "Bermuda",
          "hold-your-hat": "Hold your Hat"}


def follow_the_hints(page: Any, artifacts: Path, name: str, timeout: float = 180.0) -> int:
    """Click only what the guide offers until the game is over; returns how many hinted moves were played."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    played, deadline = 0, time.monotonic() + timeout
    hints: set[str] = set()
    shot: set[str] = set()  # the kinds of hinted move already photographed (the first word of their notation)
    while not page.locator("#gameover:visible").count():
        assert time.monotonic() < deadline, f"the guided game did not end; hints seen: {len(hints)}"
        for selector in ("#overlay-close:visible", "#guide .guide-play:enabled"):
            button = page.locator(selector)
            if button.count():
                # Every look is short: a real-time game moves on between two looks, and the guide it showed may
                # never come back (the game ended), so a long wait for it would fail a game that went well.
                try:
                    if "guide" in selector:
                        hints.add(page.locator("#guide .guide-text").inner_text(timeout=1000))
                        kind = (button.first.get_attribute("data-notation", timeout=1000) or "").split(" ")[0]
                        if kind not in shot:
                            page.screenshot(path=str(artifacts / (f"{name}-{kind}.png" if shot else f"{name}.png")))
                            shot.add(kind)
                    button.first.click(timeout=1000)
                except PlaywrightTimeout:
                    break
                played += "guide" in selector
                break
        else:
            time.sleep(0.1)
    assert all("Good move:" in text for text in hints if text)
    return played


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GUIDED)
def test_guided_game_plays_to_its_end_by_the_hints(browser: Any, server: ServerProcess, artifacts: Path,
                                                   game: str, size: str) -> None:
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    try:
        page.goto(f"{server.url}/")
        page.get_by_role("button", name=f"Learn to play {GUIDED[game]}").click()
        page.wait_for_url("**/table/**", timeout=10_000)
        page.locator("#guide .guide-text").wait_for(state="visible", timeout=10_000)
        assert page.locator("#rules-open").is_visible()
        played = follow_the_hints(page, artifacts, f"{game}-{size}")
        assert played >= 3
        wait_until(page, "document.getElementById('guide').textContent.includes('over')")
        page.screenshot(path=str(artifacts / f"{game}-{size}-over.png"))
    finally:
        context.close()


def test_hint_needs_the_seats_token_and_a_guide(server: ServerProcess) -> None:
    """The hint route answers only a seat's token; a game without a guided game refuses to start one."""
    import json
    import urllib.error
    import urllib.request

    def call(path: str, body: dict[str, Any] | None = None, token: str | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"content-type": "application/json", **({"x-seat-token": token} if token else {})}
        request = urllib.request.Request(f"{server.url}{path}", data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as failure:
            return failure.code, json.load(failure)

    status, created = call("/api/tables", {"game": "snorkeling", "guide": True, "seats": [{"kind": "human"}]})
    assert status == 201 and len(created["tokens"]) == 2 and created["tokens"][1] is None
    table_id, token = created["table"]["id"], created["tokens"][0]
    status, answer = call(f"/api/tables/{table_id}/hint", token=token)
    assert status == 200 and answer["hint"]["notation"] and "Good move:" in answer["hint"]["text"]
    assert call(f"/api/tables/{table_id}/hint")[0] == 403
    assert call(f"/api/tables/{table_id}/hint", token="nope")[0] == 403
    status, again = call("/api/tables", {"game": "snorkeling", "guide": True, "seats": [{"kind": "human"}]})
    assert call(f"/api/tables/{again['table']['id']}/hint", token=again["tokens"][0])[1]["hint"] == answer["hint"]
    assert call("/api/tables", {"game": "no-such-game", "guide": True, "seats": [{"kind": "human"}]})[0] == 404


def test_the_snorkeling_guide_numbers_seats_from_one_as_the_seat_list(browser: Any, server: ServerProcess,
                                                                      artifacts: Path) -> None:
    """A hint that plays onto Coach's pile names it by the number the seat list gives Coach, once (issue 26,
    item 3: it said "seat 2's pile shows 5 … onto seat 1's pile" of one pile)."""
    import re

    page = browser.new_context(**SIZES["desktop"]).new_page()
    page.goto(f"{server.url}/")
    page.get_by_role("button", name="Learn to play Snorkeling").click()
    page.locator("#guide .guide-text").wait_for(state="visible", timeout=10_000)
    coach = page.locator("#seats li", has_text="Coach").locator(".seat-row-num").inner_text()  # "Seat 2"
    deadline = time.monotonic() + 60
    while "'s pile" not in (text := page.locator("#guide .guide-text").inner_text()):
        assert time.monotonic() < deadline and not page.locator("#gameover:visible").count(), "no hint onto a pile"
        for selector in ("#overlay-close:visible", "#guide .guide-play:enabled"):
            if page.locator(selector).count():
                page.locator(selector).first.click()
                break
        page.wait_for_timeout(100)
    page.screenshot(path=str(artifacts / "pile-hint.png"))
    named = set(re.findall(r"seat (\d+)'s pile", text))
    assert named == {coach.split()[-1]}, text
    page.context.close()
