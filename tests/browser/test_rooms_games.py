"""Play in one room (issue 16), whole games from phones: Snorkeling and Hold Your Breath! from two phones (one
closed and joined again by code), Bermuda from a touch phone (one finger holds the breath, others lay cards) beside
two bots, and Hold your Hat from four phones (the word on the clue-giver's phone with Got it / Foul, the guess box
on the teammate's, THEFT and RAID on the other team's, each team's special cards on every phone). One 1920x1080
shared screen shows the table; every frame its socket received is the spectator view at its version (a replay of
the stored log), so it never carried a hidden card or word."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.browser.test_bermuda_touch import RECORD_POINTERS, Fingers, lay_some
from tests.browser.test_bermuda_web import phase, wait_for
from tests.browser.test_hold_your_breath_web import Player
from tests.browser.test_hold_your_hat_web import Table, game_over
from tests.browser.test_rooms import (
    PHONE,
    assert_screen_saw_only_spectator_views,
    join_again,
    join_by_phone,
    make_room_from_lobby,
    open_room_screen,
    play,
    start,
)
from tests.browser.test_snorkeling_web import game_over as snorkel_over
from tests.browser.test_snorkeling_web import take_one_step
from tests.live_server import ServerProcess

GAME_TIMEOUT = 240.0
HOLDER = 0  # the finger on the breath button


def test_a_bermuda_room_played_from_a_phone_one_finger_holding(browser: Any, server: ServerProcess,
                                                                 artifacts: Path) -> None:
    screen, code = open_room_screen(browser, server, "bermuda", {"rounds": 2, "countdown_ms": 300}, players=3,
                                    bots=[None, "fast-diver", "fast-diver"])
    phone = join_by_phone(browser, server, code, "Teo", by_link=True, init_script=RECORD_POINTERS)
    assert phone.locator("#board .brm-breath-btn").is_disabled()  # held until the start
    table_id = start(screen, "#board .brm-col, #board .brm-treasure")
    button = phone.locator("#board .brm-breath-btn")
    phone.wait_for_selector("#board .brm-breath-btn:not([disabled])", timeout=15000)
    box = button.bounding_box()
    assert box and box["width"] >= 150 and box["height"] >= 60, box  # a big target for a thumb
    assert box["y"] + box["height"] <= 844  # on screen without scrolling
    phone.screenshot(path=str(artifacts / "phone-bermuda-prepare.png"))
    screen.screenshot(path=str(artifacts / "screen-bermuda-prepare.png"))
    fingers = Fingers(phone)
    finger = iter(range(1, 10_000))
    deadline = time.monotonic() + GAME_TIMEOUT
    rounds = laid = 0
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        wait_for(phone, lambda: phase(phone) == "idle" or game_over(phone), timeout=30, what="the next round")
        if game_over(phone):
            break
        fingers.press(HOLDER, button)
        wait_for(phone, lambda: phase(phone) == "diving" or game_over(phone), timeout=30, what="a dive")
        laid += lay_some(phone, lambda locator: fingers.tap(next(finger), locator), 2.0)
        if rounds == 0:
            phone.screenshot(path=str(artifacts / "phone-bermuda-diving.png"))
            screen.screenshot(path=str(artifacts / "screen-bermuda-diving.png"))
        fingers.lift(HOLDER)
        rounds += 1
    assert rounds >= 2 and laid >= 1, (rounds, laid)
    log = phone.evaluate("window.pointerLog")
    holds = {pointer for kind, pointer, _, what in log if kind == "pointerdown" and what == "breath"}
    lays = {pointer for kind, pointer, _, what in log if kind == "pointerdown" and what in ("card", "column")}
    assert holds and lays and not holds & lays  # one finger held, others laid
    phone.screenshot(path=str(artifacts / "phone-bermuda-over.png"))
    wait_until(screen, "document.querySelector('#gameover') && !document.querySelector('#gameover').hidden",
               timeout=15)
    screen.screenshot(path=str(artifacts / "screen-bermuda-over.png"))
    assert screen.locator("#board .brm-breath-btn:not([disabled])").count() == 0  # a spectator cannot dive
    assert screen.locator("#board .brm-card").count() == 0  # and holds no hand
    assert_screen_saw_only_spectator_views(server, screen, table_id)


def test_a_hold_your_hat_room_played_from_four_phones(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    options = {"deck_size": 3, "turn_seconds": 30, "color": "blue", "start_with_raid": True}
    screen, code = open_room_screen(browser, server, "hold-your-hat", options, players=4)
    phones = [join_by_phone(browser, server, code, name, by_link=seat % 2 == 0)
              for seat, name in enumerate(("Ana", "Ben", "Cy", "Di"))]
    table_id = start(screen, "#board .hyh-stage")
    for page in phones:
        page.wait_for_selector("#board .hyh-stage", timeout=15000)
    table = Table(phones, artifacts)
    screen.screenshot(path=str(artifacts / "screen-hyh-start.png"))
    # Each team's special cards, on every phone and on the screen.
    for page in (phones[0], phones[2], screen):
        assert page.locator(".hyh-team[data-team='A'] .hyh-held").count() == 1
        assert "RAID" in page.locator(".hyh-team[data-team='B'] .hyh-held").inner_text()
    seen_controls = False
    deadline = time.monotonic() + GAME_TIMEOUT
    while not all(game_over(page) for page in phones):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not seen_controls:
            giver = [page for page in phones if page.locator(".hyh-word-text").count()]
            if giver:
                # The clue-giver's phone: the word, and Got it / Foul as big buttons, on screen (Skip too when
                # the team holds a SKIP card: it is a special card).
                for label in ("got", "foul"):
                    control = giver[0].locator(f'[data-act="send"][data-action^="{label}"]')
                    assert control.count(), label
                    found = control.first.bounding_box()
                    assert found and found["height"] >= 40 and found["y"] + found["height"] <= 844, (label, found)
                giver[0].screenshot(path=str(artifacts / "phone-hyh-clue-giver.png"))
                screen.screenshot(path=str(artifacts / "screen-hyh-turn.png"))
                assert screen.locator(".hyh-word-text").count() == 0  # the screen never shows the word
                seen_controls = True
        if not table.step():
            phones[0].wait_for_timeout(80)
    assert seen_controls and table.raids >= 1, table.raids
    wait_until(screen, "document.querySelector('#gameover') && !document.querySelector('#gameover').hidden",
               timeout=15)
    screen.screenshot(path=str(artifacts / "screen-hyh-over.png"))
    phones[1].screenshot(path=str(artifacts / "phone-hyh-over.png"))
    assert_screen_saw_only_spectator_views(server, screen, table_id)


def hyb_step(page: Any) -> bool:
    return Player(page).step()


GAMES = {"snorkeling": ({"target_score": "3"}, take_one_step, "#board"),
         "hold-your-breath": ({}, hyb_step, "#board .hyb-depth")}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_room_plays_a_game_from_two_phones(browser: Any, server: ServerProcess, artifacts: Path, game: str) -> None:
    options, step, board = GAMES[game]
    screen, code = make_room_from_lobby(browser, server, players=2, options=options, game=game)
    screen.screenshot(path=str(artifacts / "screen-room-empty.png"))
    ann = join_by_phone(browser, server, code, "Ann", by_link=True)
    bob = join_by_phone(browser, server, code, "<i>Bob</i>", by_link=False)
    wait_until(screen, "document.querySelectorAll('.room-seat[data-state=joined]').length === 2", timeout=10)
    assert "<i>Bob</i>" in screen.locator("#room-seats").inner_text()  # shown as text, not markup
    assert screen.locator("#room-seats i").count() == 0
    ann.screenshot(path=str(artifacts / "phone-before-start.png"))
    assert not step(ann)  # held until the start: nothing to press
    assert ann.locator("#turn").inner_text() == "Waiting for the room to start"
    screen.screenshot(path=str(artifacts / "screen-room-full.png"))
    screen.locator("#room-start").click()
    screen.wait_for_url("**/table/*?screen=*", timeout=15000)
    screen.wait_for_selector(".screen-corner .join-qr", timeout=15000)
    screen.wait_for_selector(board, state="attached", timeout=15000)
    table_id = screen.url.split("/table/")[1].split("?")[0]
    wait_until(ann, "document.getElementById('turn').textContent !== 'Waiting for the room to start'", timeout=10)
    assert screen.locator("#board [data-act='card']").count() == 0  # a spectator: no hand

    # A few moves, then Bob's phone joins again by code: with the token it kept, or after the screen let him in.
    clicks = 0
    deadline = time.monotonic() + 60
    while clicks < 6 and not snorkel_over(ann) and time.monotonic() < deadline:
        clicks += int(step(ann)) + int(step(bob))
    screen.screenshot(path=str(artifacts / "screen-playing.png"))
    ann.screenshot(path=str(artifacts / "phone-playing.png"))
    # The page is closed and opened again on the same phone: the token it kept gives the seat back.
    context = bob.context
    bob.close()
    bob = join_again(context, server, code, "<i>Bob</i>")
    # The phone dies: a new one is refused by name alone, until the screen lets Bob back in.
    bob.context.close()
    stranger = browser.new_context(**PHONE).new_page()
    stranger.goto(f"{server.url}/join#{code}")
    stranger.fill("#join-name", "<i>Bob</i>")
    stranger.locator("#join-button").click()
    stranger.wait_for_selector("#join-error:not([hidden])", timeout=10000)
    assert "let you back in" in stranger.locator("#join-error").inner_text()
    stranger.context.close()
    screen.locator(".screen-rejoin summary").click()
    screen.locator(".screen-readmit[data-seat='1']").click()
    screen.wait_for_selector(".screen-rejoin-said", timeout=10000)
    assert "<i>Bob</i> can join again" in screen.locator(".screen-rejoin-said").inner_text()
    screen.screenshot(path=str(artifacts / "screen-let-back-in.png"))
    bob = join_by_phone(browser, server, code, "<i>Bob</i>", by_link=True)
    play([ann, bob], until=lambda: snorkel_over(ann) and snorkel_over(bob), step=step)
    wait_until(screen, "document.querySelector('#gameover') && !document.querySelector('#gameover').hidden",
               timeout=15)
    screen.screenshot(path=str(artifacts / "screen-over.png"))
    bob.screenshot(path=str(artifacts / "phone-over.png"))

    # The screen's socket carried exactly the spectator view at every version.
    assert_screen_saw_only_spectator_views(server, screen, table_id)
    # The code is spent with the game.
    status, answer = server.request("POST", "/api/rooms/join", {"code": code, "name": "Late"})
    assert status == 404, answer
