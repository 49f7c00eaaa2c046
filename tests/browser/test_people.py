"""People at the table in a real browser (issue 14, item 4): a name typed on joining, the notice and countdown
when a friend drops out, and the rematch question as a dialog. Screenshots at 1366x800 and 390x844."""

from __future__ import annotations

import contextlib
import json
import random
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.live_server import ServerProcess, running_server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
GRACE = 6


@pytest.fixture
def graced(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server whose grace period is short enough to watch it run out."""
    with running_server(tmp_path, "--bot-delay", "0.05", "--grace", str(GRACE)) as live:
        yield live


def create(server: ServerProcess, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
           ) -> tuple[str, list[str | None]]:
    status, answer = server.request("POST", "/api/tables", {"game": game, "options": options or {}, "seats": seats})
    assert status == 201, answer
    return answer["table"]["id"], answer["tokens"]


def public_table(server: ServerProcess, table_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}", timeout=10) as response:
        table: dict[str, Any] = json.load(response)["table"]
    return table


def seat_page(browser: Any, server: ServerProcess, table_id: str, seat: int, token: str, size: dict[str, Any]) -> Any:
    page = browser.new_context(**size).new_page()
    page.goto(f"{server.url}/table/{table_id}#seat={seat}&token={token}")
    return page



def serious_violations(page: Any, *parts: str) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (in ``parts`` only, when named: the
    game boards are other tests' to check)."""
    from axe_playwright_python.sync_playwright import Axe

    context = {"include": [[part] for part in parts]} if parts else None
    found = Axe().run(page, context=context).response["violations"]
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in found if v["impact"] in ("serious", "critical")]


def play_to_the_end(server: ServerProcess, table_id: str, tokens: list[str | None]) -> None:
    """Random legal moves for every person's seat, over the wire, until the game is over."""
    rng = random.Random(4)
    with contextlib.ExitStack() as stack:
        sockets = {seat: stack.enter_context(connect(f"{server.ws_url}/ws/tables/{table_id}"))
                   for seat, t in enumerate(tokens) if t}
        _play(sockets, tokens, rng)


def _play(sockets: dict[int, Any], tokens: list[str | None], rng: random.Random) -> None:
    """Play until one of the seats sees the outcome."""
    latest: dict[int, dict[str, Any]] = {}
    for seat, socket_ in sockets.items():
        socket_.send(json.dumps({"type": "hello", "protocol": 3, "token": tokens[seat]}))
        latest[seat] = json.loads(socket_.recv(10))
    for n in range(2000):
        mover = next((s for s, m in latest.items() if m["legal"]), None)
        if any(m.get("outcome") for m in latest.values()):
            return
        if mover is not None:
            action = rng.choice(latest[mover]["legal"])["notation"]
            sockets[mover].send(json.dumps({"type": "act", "client_id": f"p-{n}", "action": action,
                                            "version": latest[mover]["version"]}))
        for seat, socket_ in sockets.items():  # read until every seat has seen the latest version
            while True:
                try:
                    message = json.loads(socket_.recv(0.2 if seat != mover else 10))
                except TimeoutError:
                    break
                if message["type"] in ("welcome", "update"):
                    latest[seat] = {**latest[seat], **message}
                if message["type"] == "ack" or (seat != mover and message["type"] == "update"):
                    break
    raise AssertionError("the game did not end")


def test_a_name_typed_on_joining_shows_in_the_seat_list_and_the_log(browser: Any, server: ServerProcess,
                                                                     artifacts: Path) -> None:
    table_id, tokens = create(server, "hold-your-hat", [{"kind": "human", "name": "Ana"}, {"kind": "human"},
                                                        {"kind": "human", "name": "Cy"}, {"kind": "human"}])
    host = seat_page(browser, server, table_id, 0, str(tokens[0]), DESKTOP)
    host.wait_for_selector("#board .hyh-stage", timeout=15000)
    assert "Seat 2 · Player 2" in host.locator("#seats").text_content()
    for seat, typed, size, options in ((1, "  Bo <b>Jo</b> ", "desktop", DESKTOP), (3, "Di", "phone", PHONE)):
        guest = seat_page(browser, server, table_id, seat, str(tokens[seat]), options)
        prompt = guest.get_by_role("dialog", name="Your name at this table")
        prompt.wait_for(timeout=10000)
        assert guest.locator("#board .hyh-stage").count() == 0  # the seat is not taken before the name
        guest.screenshot(path=str(artifacts / f"name-prompt-{size}.png"))
        assert serious_violations(guest) == []
        guest.locator("#name-input").fill(typed)
        guest.get_by_role("button", name="Take my seat").click()
        guest.wait_for_selector("#board .hyh-stage", timeout=15000)
        guest.screenshot(path=str(artifacts / f"named-guest-{size}.png"))
        guest.context.close()
    # Named once, the seat's link asks no more (the name is the person's, as a name the creator gave is).
    again = seat_page(browser, server, table_id, 1, str(tokens[1]), DESKTOP)
    again.wait_for_selector("#board .hyh-stage", timeout=15000)
    assert again.locator("#name-dialog").count() == 0
    again.context.close()
    # Shown as text, never as markup, the same in the seat list and the log, numbered from 1.
    row = host.locator("#seats li", has_text="Seat 2")
    row.filter(has_text="Bo <b>Jo</b>").wait_for(timeout=10000)
    assert host.locator("#seats b").count() == 0 and host.locator("#log b").count() == 0
    log = host.locator("#log").text_content()
    assert re.search(r"team A: you, Bo <b>Jo</b>; team B: Cy, Di", log, re.IGNORECASE), log
    assert public_table(server, table_id)["seats"][1]["name"] == "Bo <b>Jo</b>"
    host.screenshot(path=str(artifacts / "named-host-desktop.png"), full_page=True)
    # The name typed is offered again for the next invite in this browser.
    other_id, other_tokens = create(server, "snorkeling", [{"kind": "human", "name": "Ana"}, {"kind": "human"}])
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(f"{server.url}/")
    page.evaluate("localStorage.setItem('divedeck.name', 'Bo')")
    page.goto(f"{server.url}/table/{other_id}#seat=1&token={other_tokens[1]}")
    assert page.locator("#name-input").input_value() == "Bo"


def test_a_friend_dropping_out_shows_a_notice_with_a_countdown_then_that_a_bot_plays(
        browser: Any, graced: ServerProcess, artifacts: Path) -> None:
    people = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}]
    table_id, tokens = create(graced, "snorkeling", people, {"target_score": 5})
    for size, options in (("desktop", DESKTOP), ("phone", PHONE)):
        me = seat_page(browser, graced, table_id, 0, str(tokens[0]), options)
        friend = seat_page(browser, graced, table_id, 1, str(tokens[1]), DESKTOP)
        me.locator("#seats li", has_text="Ben").locator(".presence.is-on").wait_for(state="attached", timeout=15000)
        friend.context.close()  # Ben's phone goes to sleep
        notice = me.locator(".notice-away", has_text="Ben dropped out")
        notice.wait_for(timeout=10000)
        first = notice.locator(".notice-count").inner_text()
        assert re.fullmatch(r"0:0[0-7]", first), first  # (the message took a moment to arrive)
        me.screenshot(path=str(artifacts / f"dropped-{size}.png"))
        assert serious_violations(me, "#notices", "#seats") == []
        me.wait_for_function("(t) => document.querySelector('.notice-away .notice-count')?.textContent < t",
                             arg=first, timeout=5000)
        assert "away · a bot in" in me.locator("#seats").text_content()
        me.locator(".notice-bot", has_text="A bot now plays for Ben").wait_for(timeout=(GRACE + 5) * 1000)
        assert me.locator(".notice-away").count() == 0
        assert "away · a bot plays" in me.locator("#seats").text_content()
        me.screenshot(path=str(artifacts / f"bot-took-over-{size}.png"))
        # Ben comes back: the seat is his again, and the page says so.
        back = seat_page(browser, graced, table_id, 1, str(tokens[1]), DESKTOP)
        me.locator(".notice-back", has_text="Ben is back").wait_for(timeout=10000)
        back.context.close()
        me.context.close()


def test_the_rematch_asks_each_player_in_a_dialog(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    for size, options in (("desktop", DESKTOP), ("phone", PHONE)):
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}, {"kind": "bot", "bot": "greedy"}]
        table_id, tokens = create(server, "snorkeling", seats, {"target_score": 1})
        play_to_the_end(server, table_id, tokens)
        ana = seat_page(browser, server, table_id, 0, str(tokens[0]), options)
        ben = seat_page(browser, server, table_id, 1, str(tokens[1]), DESKTOP)
        watcher = browser.new_context(**DESKTOP).new_page()
        watcher.goto(f"{server.url}/table/{table_id}")
        for page in (ana, ben, watcher):
            page.wait_for_selector("#gameover:visible", timeout=15000)
        assert watcher.locator("#rematch").count() == 0  # a spectator cannot ask
        ana.locator("#rematch").click()
        dialog = ben.get_by_role("dialog", name="Ana asks for a rematch")
        dialog.wait_for(timeout=10000)
        assert ana.get_by_role("dialog").count() == 0 or not ana.get_by_role("dialog").is_visible()
        ana.locator(".vote-list", has_text="Seat 2 · Ben: waiting").wait_for(timeout=10000)
        ben.screenshot(path=str(artifacts / f"rematch-dialog-{size}-ben.png"))
        assert serious_violations(ben, "#rematch-dialog") == [] and serious_violations(ana, "#gameover") == []
        ana.screenshot(path=str(artifacts / f"rematch-asked-{size}-ana.png"), full_page=True)
        watcher.locator(".vote-list", has_text="Seat 1 · Ana: accepted").wait_for(timeout=10000)
        assert watcher.get_by_role("dialog").filter(has_text="asks for a rematch").count() == 0
        if size == "desktop":
            # Ben accepts: both move to the new table, the spectator stays and may watch it.
            assert ben.locator("#rematch-accept").evaluate("el => el === document.activeElement")
            ben.locator("#rematch-accept").click()
            ana.wait_for_url(re.compile(r"/table/(?!" + re.escape(table_id) + r")"), timeout=10000)
            ben.wait_for_url(re.compile(r"/table/(?!" + re.escape(table_id) + r")"), timeout=10000)
            assert ana.url.split("/")[-1] == ben.url.split("/")[-1]
            watcher.get_by_role("link", name="Watch the rematch").wait_for(timeout=10000)
            assert table_id in watcher.url
        else:
            # Ben declines: Ana moves on alone with a bot in Ben's seat; Ben stays, and may watch.
            ben.locator("#rematch-decline").click()
            ana.locator(".vote-list", has_text="Seat 2 · Ben: declined").wait_for(timeout=10000)
            ana.get_by_role("button", name=re.compile("Start now with 1")).click()
            ana.wait_for_url(re.compile(r"/table/(?!" + re.escape(table_id) + r")"), timeout=10000)
            new_id = ana.url.split("/")[-1]
            assert [s["kind"] for s in public_table(server, new_id)["seats"]] == ["human", "bot", "bot"]
            ben.get_by_role("link", name="Watch the rematch").wait_for(timeout=10000)
            assert table_id in ben.url
            ana.wait_for_selector("#board", timeout=10000)
            ana.screenshot(path=str(artifacts / f"rematch-started-{size}.png"))
        for page in (ana, ben, watcher):
            page.context.close()
