"""Play in one room (issue 16) in a real browser: one 1920x1080 shared screen, phones (390x844, touch) joining by
code. The screen makes the room from the lobby, the phones join (one by the QR link, one by typing the code), the
screen starts, the phones play Snorkeling to the end while the screen shows the table, one phone is closed and
joins again by code; every frame the screen's socket received is compared with the spectator view at its version
(a replay of the stored log), so it never carried a hidden card. Another room gets a bot from the screen."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from divedeck.engine.match import Match
from tests.browser.conftest import wait_until
from tests.browser.test_snorkeling_web import game_over, take_one_step
from tests.live_server import ServerProcess

SCREEN = {"viewport": {"width": 1920, "height": 1080}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
GAME_TIMEOUT = 240.0


def record_frames(page: Any) -> None:
    """Keep every frame ``page``'s sockets receive, as text, in ``page.frames_received``."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode())))
    page.frames_received = frames


def make_room_from_lobby(browser: Any, server: ServerProcess, players: int, options: dict[str, str],
                         game: str = "snorkeling") -> tuple[Any, str]:
    """The screen: the lobby, ``game`` with ``players`` and ``options`` (typed into the form), "Play in this
    room"; returns the page and the code."""
    screen = browser.new_context(**SCREEN).new_page()
    record_frames(screen)
    screen.goto(f"{server.url}/")
    screen.wait_for_selector(f"#game-{game}", timeout=15000)
    screen.locator(f"#game-{game}").check()
    screen.select_option("#players", str(players))
    for name, value in options.items():
        screen.evaluate("([id, value]) => { document.getElementById(id).value = value; }", [f"opt-{name}", value])
    screen.locator("#create-room").click()
    screen.wait_for_url("**/room/*", timeout=15000)
    screen.wait_for_selector(".join-code[data-code]", timeout=15000)
    code = screen.locator(".join-code").get_attribute("data-code")
    assert code and len(code) == 6
    return screen, code


def open_room_screen(browser: Any, server: ServerProcess, game: str, options: dict[str, Any], players: int,
                     bots: list[str | None] | None = None) -> tuple[Any, str]:
    """A room made through the API (as the lobby makes it) and its screen opened, as the lobby opens it."""
    status, answer = server.request("POST", "/api/rooms", {"game": game, "options": options, "players": players,
                                                          "bots": bots or []})
    assert status == 201, answer
    code = answer["room"]["code"]
    screen = browser.new_context(**SCREEN).new_page()
    record_frames(screen)
    screen.goto(f"{server.url}/room/{code}#host={answer['host']}")
    screen.wait_for_selector(".join-code[data-code]", timeout=15000)
    return screen, code


def start(screen: Any, board: str) -> str:
    """Start from the screen once everyone is there; returns the table's id when the screen shows the table."""
    wait_until(screen, "!document.getElementById('room-start').disabled", timeout=10)
    screen.locator("#room-start").click()
    screen.wait_for_url("**/table/*?screen=*", timeout=15000)
    screen.wait_for_selector(".screen-corner .join-qr", timeout=15000)
    screen.wait_for_selector(board, state="attached", timeout=15000)
    return str(screen.url.split("/table/")[1].split("?")[0])


def assert_screen_saw_only_spectator_views(server: ServerProcess, screen: Any, table_id: str) -> None:
    """Every view the screen's socket carried is exactly the spectator view at its version: byte for byte what a
    replay of the stored log shows a spectator, so no hidden card or word ever reached it."""
    views = spectator_views(server, table_id)
    checked = 0
    for text in screen.frames_received:
        message = json.loads(text)
        if message.get("type") not in ("welcome", "update"):
            continue
        assert message.get("seat") is None
        assert message["view"] == views[message["version"]], f"version {message['version']}"
        checked += 1
    assert checked > 5, checked


def join_by_phone(browser: Any, server: ServerProcess, code: str, name: str, *, by_link: bool,
                  init_script: str | None = None) -> Any:
    context = browser.new_context(**PHONE)
    if init_script is not None:
        context.add_init_script(init_script)
    return join_again(context, server, code, name, by_link=by_link)


def join_again(context: Any, server: ServerProcess, code: str, name: str, *, by_link: bool = True) -> Any:
    """A new page of the phone ``context`` joins the room (its localStorage holds what earlier joins kept)."""
    phone = context.new_page()
    phone.goto(f"{server.url}/join#{code}" if by_link else f"{server.url}/join")
    if not by_link:
        phone.fill("#join-code", code.lower())
    assert phone.input_value("#join-code").upper() == code
    phone.fill("#join-name", name)
    phone.locator("#join-button").click()
    phone.wait_for_url("**/table/*", timeout=15000)
    phone.wait_for_selector("#board", timeout=15000)
    return phone


def play(pages: list[Any], until: Any, step: Any = take_one_step, timeout: float = GAME_TIMEOUT) -> int:
    clicks = 0
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in pages:
            if not game_over(page) and step(page):
                clicks += 1
                acted = True
        if not acted:
            pages[0].wait_for_timeout(60)
    return clicks


def spectator_views(server: ServerProcess, table_id: str) -> dict[int, Any]:
    """The spectator view after each version of the table, from a replay of its stored log."""
    with sqlite3.connect(server.database) as db:
        game, options, seed = db.execute("SELECT game, options, seed FROM tables WHERE id = ?", (table_id,)).fetchone()
        actions = db.execute("SELECT seat, action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)).fetchall()
    match = Match.start(game, json.loads(options), seed)
    views = {0: json.loads(json.dumps(match.game.view(match.state, None)))}
    for version, (seat, action) in enumerate(actions, 1):
        match.act(seat, action)
        views[version] = json.loads(json.dumps(match.game.view(match.state, None)))
    return views


def test_the_screen_adds_a_bot_and_a_full_room_says_so(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    screen, code = make_room_from_lobby(browser, server, players=2, options={"target_score": "1"})
    screen.wait_for_selector(".room-seat[data-seat='1'] .room-add-bot", timeout=10000)
    screen.locator(".room-seat[data-seat='1'] .room-add-bot").click()
    wait_until(screen, "document.querySelector(\".room-seat[data-seat='1']\").dataset.state === 'bot'", timeout=10)
    phone = join_by_phone(browser, server, code, "Ann", by_link=True)
    late = browser.new_context(**PHONE).new_page()
    late.goto(f"{server.url}/join#{code}")
    late.fill("#join-name", "Zed")
    late.locator("#join-button").click()
    late.wait_for_selector("#join-error:not([hidden])", timeout=10000)
    assert "full" in late.locator("#join-error").inner_text()
    late.screenshot(path=str(artifacts / "phone-room-full.png"))
    wait_until(screen, "!document.getElementById('room-start').disabled", timeout=10)
    screen.screenshot(path=str(artifacts / "screen-with-bot.png"))
    screen.locator("#room-start").click()
    screen.wait_for_url("**/table/*?screen=*", timeout=15000)
    play([phone], until=lambda: game_over(phone))
    wait_until(screen, "document.querySelector('#gameover') && !document.querySelector('#gameover').hidden",
               timeout=15)


def test_a_room_survives_a_server_restart(browser: Any, tmp_path: Path, artifacts: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The server is killed mid-game and started again on the same address: the screen (a spectator) and the
    phones reconnect by themselves, and the game is played to its end."""
    import tests.live_server as live_server

    with live_server.running_server(tmp_path, "--bot-delay", "0.05") as server:
        screen, code = make_room_from_lobby(browser, server, players=2, options={"target_score": "1"})
        ann = join_by_phone(browser, server, code, "Ann", by_link=True)
        bob = join_by_phone(browser, server, code, "Bob", by_link=True)
        wait_until(screen, "!document.getElementById('room-start').disabled", timeout=10)
        screen.locator("#room-start").click()
        screen.wait_for_url("**/table/*?screen=*", timeout=15000)
        deadline = time.monotonic() + 60
        clicks = 0
        while clicks < 4 and time.monotonic() < deadline:
            clicks += int(take_one_step(ann)) + int(take_one_step(bob))
        port = server.port
        server.kill()
        wait_until(screen, "document.getElementById('conn').dataset.status !== 'open'", timeout=15)
        monkeypatch.setattr(live_server, "free_port", lambda: port)
        server.start()
        for page in (screen, ann, bob):
            wait_until(page, "document.getElementById('conn').dataset.status === 'open'", timeout=30)
        screen.screenshot(path=str(artifacts / "screen-after-restart.png"))
        play([ann, bob], until=lambda: game_over(ann) and game_over(bob))
        wait_until(screen, "document.querySelector('#gameover') && !document.querySelector('#gameover').hidden",
                   timeout=15)


def test_a_mixed_room_an_invite_link_for_a_remote_seat_and_a_spectator_link(
        browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """The screen makes an invite link for seat 2 (a player who is not in the room opens it on their own
    computer) and shows a spectator link; a phone takes seat 1 by code; the game is played to the end."""
    screen, code = open_room_screen(browser, server, "snorkeling", {"target_score": 1}, players=2)
    screen.locator(".room-seat[data-seat='1'] .room-invite").click()
    screen.wait_for_selector(".room-seat[data-seat='1'] .room-invite-link", timeout=10000)
    invite = screen.locator(".room-invite-link").input_value()
    watch = screen.locator(".room-spectator-link").input_value()
    assert "#seat=1&token=" in invite and watch.split("/table/")[1] == invite.split("/table/")[1].split("#")[0]
    screen.screenshot(path=str(artifacts / "screen-invite.png"))
    phone = join_by_phone(browser, server, code, "Ann", by_link=True)
    assert phone.url.split("#")[0].endswith(invite.split("#")[0].split("/table/")[1])
    remote = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
    remote.goto(invite)
    remote.wait_for_selector("#board", timeout=15000)
    watcher = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
    watcher.goto(watch)
    watcher.wait_for_selector("#board", timeout=15000)
    start(screen, "#board")
    play([phone, remote], until=lambda: game_over(phone) and game_over(remote))
    for page in (screen, watcher):
        wait_until(page, "document.querySelector('#gameover') && !document.querySelector('#gameover').hidden",
                   timeout=15)
    assert watcher.locator("#board [data-act='card']").count() == 0  # the spectator link holds no hand


def test_before_the_start_the_room_page_lets_a_dead_phone_back_in(browser: Any, server: ServerProcess,
                                                                  artifacts: Path) -> None:
    """Ann's phone dies before the start: a new phone typing "Ann" is refused (a name is public), until the room
    page's "Let back in" beside Ann; then the new phone joins as Ann, in Ann's seat, and the old page loses it."""
    screen, code = open_room_screen(browser, server, "snorkeling", {"target_score": 1}, players=2)
    old = join_by_phone(browser, server, code, "Ann", by_link=True)
    wait_until(screen, "document.querySelectorAll('.room-seat[data-state=joined]').length === 1", timeout=10)
    stranger = browser.new_context(**PHONE).new_page()
    stranger.goto(f"{server.url}/join#{code}")
    stranger.fill("#join-name", "ann")
    stranger.locator("#join-button").click()
    stranger.wait_for_selector("#join-error:not([hidden])", timeout=10000)
    assert "let you back in" in stranger.locator("#join-error").inner_text()
    screen.locator(".room-seat[data-seat='0'] .room-readmit").click()
    wait_until(screen, "document.querySelector(\".room-seat[data-seat='0'] .room-seat-tag\").textContent"
                       ".includes('may join again')", timeout=10)
    screen.screenshot(path=str(artifacts / "room-let-back-in.png"))
    stranger.locator("#join-button").click()
    stranger.wait_for_url("**/table/*", timeout=15000)
    stranger.wait_for_selector("#board", timeout=15000)
    wait_until(stranger, "document.getElementById('conn').dataset.status === 'open'", timeout=15)
    assert "Seat 1" in (stranger.locator("#seats .badge-you").locator("xpath=..").text_content() or "")  # Ann's
    # The old page was told its seat went to another phone, and stops.
    wait_until(old, "document.getElementById('conn').dataset.status !== 'open'", timeout=15)
    wait_until(screen, "document.querySelector(\".room-seat[data-seat='0'] .room-seat-tag\").textContent === 'here'",
               timeout=10)
