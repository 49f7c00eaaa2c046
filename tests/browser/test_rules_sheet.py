"""The rules sheet at the table, in a real browser: the header's "Rules" button opens a dialog inside the page that
names every card kind of the game (as its static data lists them), the legend and the variant in play."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess

from .conftest import wait_until

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
TABLES: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {
    "snorkeling": ([{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}], {"expert_diving": True}),
    "hold-your-breath": ([{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}], {}),
    "bermuda": ([{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}], {"hidden_treasures": True}),
    "hold-your-hat": ([{"kind": "human", "name": f"P{i}"} for i in range(4)], {}),
}


def post(server: ServerProcess, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{server.url}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def expected_kinds(game: str, static: dict[str, Any]) -> list[str]:
    if game == "bermuda":
        return ["Diver card", "Treasure card", *(t["name"] for t in static["treasures"])]
    if game == "hold-your-breath":
        return [c["name"] for c in static["cards"]]
    if game == "hold-your-hat":
        return ["Word card", *(s["name"] for s in static["specials"])]
    return [*static["value_names"], static["lanternfish_name"]]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", TABLES)
def test_rules_sheet_opens_in_the_page(browser: Any, server: ServerProcess, artifacts: Path, game: str,
                                       size: str) -> None:
    seats, options = TABLES[game]
    created = post(server, "/api/tables", {"game": game, "options": options, "seats": seats})
    table_id, token = created["table"]["id"], created["tokens"][0]
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    try:
        page.goto(f"{server.url}/table/{table_id}#seat=0&token={token}")
        button = page.locator("#rules-open")
        button.wait_for(state="visible", timeout=10_000)
        assert button.inner_text().strip() == "Rules"
        url = page.url
        button.click()
        wait_until(page, "document.getElementById('rules').open")
        assert page.url == url, "the sheet opens inside the page"
        dialog = page.locator("#rules")
        text = dialog.inner_text()
        static = page.evaluate("() => fetch('/api/games').then((r) => r.json())")
        entry = next(g for g in static["games"] if g["name"] == game)
        for kind in expected_kinds(game, entry["static"]):
            assert kind in text, f"{game}: the rules sheet does not name {kind}"
        for heading in ("Goal", "The cards", "Symbols on the table", "At this table"):
            assert heading in text
        if entry.get("guide"):  # the guided first game is offered from the sheet too (on a phone: only there)
            assert dialog.get_by_role("button", name="Learn to play").count() == 1
        if game == "bermuda":
            assert "⇣" in text and "♆" in text and "face down" in text
        if game == "snorkeling":
            assert "Expert Diving:" in text
            assert all(c["symbol"] in text for c in entry["static"]["colors"])
        page.screenshot(path=str(artifacts / f"{game}-{size}.png"))
        page.keyboard.press("Escape")
        wait_until(page, "!document.getElementById('rules').open")
        button.click()
        page.locator("#rules .rules-close").click()
        wait_until(page, "!document.getElementById('rules').open")
    finally:
        context.close()


def test_lobby_labels_are_words_for_players(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """The lobby labels each option with the game's help line: no rule ids, no field names, no milliseconds; the
    advanced ones stay folded away."""
    import re

    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{server.url}/")
        for title in ("Snorkeling", "Hold Your Breath!", "Bermuda", "Hold your Hat"):
            page.locator(".game-option", has_text=title).click()
            wait_until(page, "document.querySelectorAll('#options label').length > 0")
            labels = page.evaluate("() => [...document.querySelectorAll('#options label')].map((l) => l.textContent)")
            text = page.evaluate("() => document.getElementById('options').textContent") + " ".join(labels)
            assert not re.search(r"\b[A-Z]{3}-[A-Z]*\d+\b", text), f"{title}: rule ids in the options"
            assert not re.search(r"\bms\b|_", text), f"{title}: field names or milliseconds in the options"
            assert all(label[:1].isupper() and len(label.split()) >= 2 for label in labels), labels
            assert page.locator(".options-advanced").count() <= 1
            summary = page.locator(".game-option", has_text=title).inner_text()
            assert re.search(r"\d", summary), f"{title}: no player count in the lobby line"
        page.locator(".options > summary").click()
        page.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)
    finally:
        page.close()
