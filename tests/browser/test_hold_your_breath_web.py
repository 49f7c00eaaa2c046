"""Hold Your Breath! in a real browser: a person plays a whole game through the page on a phone-sized screen
against two bots, while a spectator watches the same table on a desktop.

The person here only looks at the page and clicks what it offers (a card's legal use, a highlighted player or
hindrance, End play, Keep the rest), so a game reaching its end proves the board, the socket client and the server
work together. Screenshots are saved in test-artifacts/.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess, running_server

GAME_TIMEOUT = 240.0


def create_table(server: ServerProcess, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
                 hotseat: bool = False) -> dict[str, Any]:
    body = json.dumps({"game": "hold-your-breath", "options": options or {}, "seats": seats,
                       "hotseat": hotseat}).encode()
    request = urllib.request.Request(f"{server.url}/api/tables", data=body,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        created: dict[str, Any] = json.load(response)
    return created


# In order: dialogs, a player or hindrance being chosen, uses that need a target (so choosing one is exercised),
# a Dolphin's menu, any other legal use, the end-of-turn choices, End play.
STEPS = (
    "#cover-ready:visible", "#overlay-close:visible", "#board .is-target", '#board [data-act="keep"]:enabled',
    '#board [data-act="single"]:enabled',
    '#board .hyb-use.is-legal[data-use="panic"]', '#board .hyb-use.is-legal[data-use="shark"]',
    '#board .hyb-use.is-legal[data-use="calm"]', '#board .hyb-use.is-legal[data-use="discard"]',
    '#board .hyb-use.is-legal[data-act="open"]', '#board .hyb-use.is-legal[data-act="use"]',
    '#board [data-act="end"]:enabled',
)


# The first selector with an element a person could press now (shown, not disabled, the page not sending a move).
FIRST_OFFERED = """(selectors) => {
  const shown = (el) => el.offsetParent !== null || getComputedStyle(el).position === "fixed";
  for (const selector of selectors) {
    const bare = selector.replace(/:visible$/, "").replace(/:enabled$/, "");
    const el = [...document.querySelectorAll(bare)].find((e) => shown(e) && !e.disabled);
    if (el) return selector;
  }
  return null;
}"""


class Player:
    """Clicks through one page, counting what it did."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.clicks: dict[str, int] = {}
        self.recent: deque[str] = deque(maxlen=12)  # the latest clicks, for a game that does not end

    def step(self) -> bool:
        """Do the first useful thing the page offers; ``True`` if something was clicked.

        The page is asked once which of STEPS it offers (an enabled, visible element), then that element is clicked
        like a person would. The page re-renders on every update, so an element found a moment ago may be gone: a
        click that fails quickly is skipped.
        """
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        found = self.page.evaluate(FIRST_OFFERED, list(STEPS))
        if found is None:
            return False
        try:
            self.page.locator(found).first.click(timeout=500)
        except PlaywrightTimeout:
            return False
        self.clicks[found] = self.clicks.get(found, 0) + 1
        self.recent.append(found)
        return True

    def over(self) -> bool:
        return bool(self.page.locator("#gameover:visible").count())


def play_until_over(players: list[Player], timeout: float = GAME_TIMEOUT, on_step: Any = None) -> int:
    clicks = 0
    deadline = time.monotonic() + timeout
    while not all(player.over() for player in players):
        assert time.monotonic() < deadline, (
            f"the game did not end in time; clicks {[player.clicks for player in players]}, the latest "
            f"{[list(player.recent) for player in players]}")
        acted = False
        for player in players:
            if not player.over() and player.step():
                clicks += 1
                acted = True
                if on_step:
                    on_step(player)
        if not acted:
            players[0].page.wait_for_timeout(60)
    return clicks


def test_a_person_on_a_phone_plays_a_whole_game_against_two_bots_and_a_spectator_watches(
        browser: Any, server: ServerProcess, artifacts: Path) -> None:
    # The server deals from a fresh random seed: a deal where the game ends before the Ascent (an immediate win in
    # the Descent) cannot show it, so such a game is followed by another table, at most three in all.
    shots = {"ascent": False, "target": False, "explained": False}
    for attempt in range(3):
        created = create_table(server, [{"kind": "human", "name": "Elizabeth"}, {"kind": "bot", "bot": "greedy"},
                                        {"kind": "bot", "bot": "random"}])
        table_id, tokens = created["table"]["id"], created["tokens"]
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True,
                                      has_touch=True)
        page = context.new_page()
        page.goto(f"{server.url}/table/{table_id}#seat=0&token={tokens[0]}")
        page.wait_for_selector("#board .hyb-hand", timeout=15000)
        assert tokens[0] not in page.url
        page.screenshot(path=str(artifacts / "phone-start.png"), full_page=True)
        # Nothing overflows sideways on a phone.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.locator("#board .hyb-lane").count() == 3
        assert page.locator("#board .hyb-seat").count() == 3
        # A spectator on a desktop watches the same table.
        watcher = browser.new_page(viewport={"width": 1280, "height": 900})
        watcher.goto(f"{server.url}/table/{table_id}")
        watcher.wait_for_selector("#board .hyb-depth", state="attached", timeout=15000)
        player = Player(page)

        def look(current: Player, page: Any = page, watcher: Any = watcher) -> None:
            from playwright.sync_api import TimeoutError as PlaywrightTimeout

            p = current.page
            if not shots["target"] and p.locator("#board .is-target").count():
                shots["target"] = True
                p.screenshot(path=str(artifacts / "phone-choosing-a-target.png"), full_page=True)
            if not shots["ascent"] and p.locator("#board .hyb-anchor").count():
                shots["ascent"] = True
                p.screenshot(path=str(artifacts / "phone-ascent.png"))
                watcher.screenshot(path=str(artifacts / "spectator-desktop-ascent.png"))
            explain = p.locator('#board .hyb-use[data-act="explain"]')
            if not shots["explained"] and explain.count() and not p.locator("#board .is-target").count():
                # A use the rules forbid now: the server explains why, naming the rule. (The button is aria-disabled,
                # which Playwright takes for disabled; a person can still press it.)
                # The turn can move on while the answer travels; the page then takes the stale "why not?" away at
                # once (or the move became legal), so an answer not seen is asked again at a later step: the end of
                # the test checks that one was seen.
                explain.first.click(timeout=1000, force=True)
                try:
                    why = p.wait_for_function("() => document.querySelector('.toast-why')?.innerText", timeout=3000)
                except PlaywrightTimeout:
                    return
                assert "HYB-" in why.json_value()
                shots["explained"] = True

        clicks = play_until_over([player], on_step=look)
        page.screenshot(path=str(artifacts / "phone-over.png"), full_page=True)
        reached_ascent = "total distance" in page.locator("#gameover").inner_text().lower()
        if (reached_ascent and all(shots.values())) or attempt == 2:
            break
        print(f"table {attempt + 1} ended without showing {[name for name, shown in shots.items() if not shown]}"
              f"{'' if reached_ascent else ' (no Ascent)'}: another table")
        context.close()
        watcher.close()
    assert clicks > 10
    assert shots["ascent"] and shots["target"] and shots["explained"]
    assert player.clicks.get("#board .is-target", 0) > 0
    text = page.locator("#gameover").inner_text().lower()
    assert "won" in text and "total distance" in text
    page.locator(".panel-log summary").click()  # folded on a phone, so the board keeps the height
    log = page.locator("#log").inner_text()
    assert "game over:" in log and "you ended play with Air" in log  # the page keeps the latest 120 lines
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}", timeout=10) as response:
        assert json.load(response)["table"]["status"] == "finished"
    watcher.wait_for_selector("#gameover", timeout=15000)
    watcher.screenshot(path=str(artifacts / "spectator-desktop-over.png"), full_page=True)
    # The spectator sees every pirate, anchor and Swim Pile but no hand; a face-down Panic shows only its back.
    assert watcher.locator("#board .hyb-anchor").count() == 3
    assert watcher.locator("#board .hyb-hand").count() == 0
    assert watcher.locator('#board [data-act="use"]').count() == 0
    for back in watcher.locator("#board .hyb-back").all():
        assert "unknown" in (back.get_attribute("aria-label") or "")


@pytest.fixture
def dealing_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server that lets one address deal as many tables as a test looking for a particular hand needs (the
    default allows 10 a minute and 20 unfinished)."""
    with running_server(tmp_path, "--bot-delay", "0.05", "--tables-per-minute", "1000",
                        "--open-tables-per-address", "1000") as live:
        yield live


def test_on_a_phone_a_dolphin_played_as_a_shark_leaves_the_players_to_choose_in_reach(
        browser: Any, dealing_server: ServerProcess, artifacts: Path) -> None:
    """A Dolphin's menu (HYB-R13: it is declared as any one card) makes the hand, sticky at the bottom of a phone's
    screen, as tall as a short screen (a phone with its toolbars shown, here 480 px; two Dolphins open together
    filled even 844 px). Choosing one of its uses that needs a player closes the menu, so the highlighted players
    are not under the hand and a tap reaches them."""
    for _ in range(40):  # the server deals at random: tables until the first hand offers a Dolphin as a Shark
        created = create_table(dealing_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
        context = browser.new_context(viewport={"width": 390, "height": 480}, device_scale_factor=1, is_mobile=True,
                                      has_touch=True)
        page = context.new_page()
        page.goto(f"{dealing_server.url}/table/{created['table']['id']}#seat=0&token={created['tokens'][0]}")
        page.wait_for_selector("#board .hyb-hand", timeout=15000)
        page.wait_for_selector("#board .hyb-use.is-legal", state="attached", timeout=15000)  # its turn
        dolphin = page.locator('#board .hyb-use.is-legal[data-act="open"]')
        if dolphin.count():
            dolphin.first.click()
            shark = page.locator('#board .hyb-use.is-legal[data-use="shark"]')
            if shark.count():
                break
        context.close()
    else:
        raise AssertionError("no deal of 40 gave the first hand a Dolphin that can be a Shark")
    shark.first.click()
    assert "choose a highlighted player" in page.locator("body").inner_text()
    target = page.locator("#board .is-target").first
    target.click(trial=True, timeout=3000)  # visible, and no other element (the hand) would take the tap
    page.screenshot(path=str(artifacts / "phone-dolphin-shark-target.png"))
    target.click(timeout=3000)
    page.wait_for_selector("#board .is-target", state="detached", timeout=10000)  # the move went: no more choosing
    context.close()
