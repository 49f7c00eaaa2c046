"""Accessibility of every page: axe-core on the lobby and each game's table (as a player, with bots where the game
offers them) at phone and desktop sizes, no serious or critical violation; the keyboard alone plays whole games,
with the focus on a control of the board after every move; the game-over heading is not under the sticky top bar;
card colours stay apart under simulated colour blindness (Machado et al. 2009), and every card keeps its letter.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess, running_server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
GAMES = ["snorkeling", "hold-your-breath", "bermuda", "hold-your-hat"]
# How many seats each game's table gets here: its largest common table.
PLAYERS = {"snorkeling": 6, "hold-your-breath": 4, "bermuda": 5, "hold-your-hat": 4}
BLOCKING = {"serious", "critical"}
# A control that makes a move when pressed (a deal may leave nothing to play but Pass).
MOVE = "#board .is-legal, #board [data-act=pass], #board [data-act=end]"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("a11y"), "--bot-delay", "0.2") as server:
        yield server


def declarations(server: ServerProcess) -> dict[str, dict[str, Any]]:
    status, body = server.request("GET", "/api/games")
    assert status == 200
    return {game["name"]: game for game in body["games"]}


def create_table(server: ServerProcess, game: str, players: int, options: dict[str, Any] | None = None,
                 people: int = 1) -> dict[str, Any]:
    """Seat 0 is a person; the others are the game's stand-in bot where it offers one, else people too."""
    bot = declarations(server)[game].get("default_bot")
    seats = [{"kind": "human", "name": f"Player {seat + 1}"} if seat < people or bot is None
             else {"kind": "bot", "bot": bot} for seat in range(players)]
    status, created = server.request("POST", "/api/tables", {"game": game, "seats": seats, "options": options or {}})
    assert status == 201, created
    return created


def open_as_player(browser: Any, server: ServerProcess, created: dict[str, Any], size: str, seat: int = 0) -> Any:
    page = browser.new_context(**SIZES[size]).new_page()
    page.goto(f"{server.url}/table/{created['table']['id']}#seat={seat}&token={created['tokens'][seat]}")
    page.wait_for_selector("#board > *", timeout=15000)
    page.wait_for_timeout(400)
    return page


def blocking_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
            for v in results.response["violations"] if v["impact"] in BLOCKING]


# -- axe on every page type ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_lobby_has_no_serious_accessibility_violation(browser: Any, live: ServerProcess, artifacts: Path,
                                                          size: str) -> None:
    page = browser.new_context(**SIZES[size]).new_page()
    page.goto(f"{live.url}/")
    page.wait_for_selector("form button[type=submit]", timeout=15000)
    page.screenshot(path=str(artifacts / f"lobby-{size}.png"), full_page=True)
    assert blocking_violations(page) == []
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("game", GAMES)
def test_a_table_has_no_serious_accessibility_violation(browser: Any, live: ServerProcess, artifacts: Path,
                                                        game: str, size: str) -> None:
    page = open_as_player(browser, live, create_table(live, game, PLAYERS[game]), size)
    page.screenshot(path=str(artifacts / f"{game}-{size}.png"))
    found = blocking_violations(page)
    # A choice under way (a card waiting for its destination, a use waiting for its player) draws other controls.
    chooser = {"snorkeling": "#board .card-btn.is-legal", "hold-your-breath": '#board .hyb-use.is-legal[data-use]'}
    if game in chooser and page.locator(chooser[game]).count():
        page.locator(chooser[game]).first.click()
        page.wait_for_timeout(600)
        page.screenshot(path=str(artifacts / f"{game}-{size}-after-a-move.png"))
        found += blocking_violations(page)
    assert found == []
    page.context.close()


@pytest.mark.parametrize("game", ["snorkeling", "hold-your-breath"])
def test_a_finished_table_has_no_serious_accessibility_violation(browser: Any, live: ServerProcess,
                                                                 artifacts: Path, game: str) -> None:
    options = {"target_score": 1} if game == "snorkeling" else {}
    bot = declarations(live)[game]["default_bot"]
    status, created = live.request("POST", "/api/tables", {
        "game": game, "options": options, "seats": [{"kind": "bot", "bot": bot}, {"kind": "bot", "bot": bot}]})
    assert status == 201
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(f"{live.url}/table/{created['table']['id']}")
    page.wait_for_selector("#gameover:visible", timeout=120000)
    page.wait_for_timeout(800)  # the smooth scroll to the result
    page.screenshot(path=str(artifacts / f"{game}-over.png"))
    assert blocking_violations(page) == []
    page.context.close()


# -- the keyboard alone --------------------------------------------------------------------------------------------

FOCUS = """() => {
  const board = document.getElementById("board");
  const a = document.activeElement;
  return {
    over: !document.getElementById("gameover").hidden,
    dialog: !document.getElementById("overlay").hidden,
    mine: document.getElementById("turn").classList.contains("is-mine"),
    control: board.contains(a) && a !== board && a.tagName === "BUTTON",
    focused: a === document.body ? "body" : `${a.tagName}.${a.className} ${a.dataset.key || ""}`,
    log: document.querySelectorAll("#log .log-line").length,
    last: document.querySelector("#log .log-line:last-child")?.textContent,
    turn: document.getElementById("turn").textContent,
    hint: document.querySelector("#board .hint")?.textContent,
    legal: document.querySelectorAll("#board .is-legal, #board [data-act=end], #board [data-act=pass]").length,
  };
}"""


def focus_first_legal_control(page: Any) -> None:
    """Tab from the top of the page to the first control a move can be made with, as a keyboard player does."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("(move) => document.activeElement.matches(move)", MOVE):
            return
    raise AssertionError("Tab never reached a control that makes a move")


def play_by_keyboard(page: Any, timeout: float) -> int:
    """Press Enter on whatever has the focus whenever it is our turn, and Enter to close a round's summary, until
    the game is over. Fails as soon as it is our turn and the focus is not on a control of the board, or when
    Enter stops making moves. Returns the number of moves pressed."""
    presses = 0
    deadline = time.monotonic() + timeout
    stalled_since = time.monotonic()
    last_log: tuple[int, str] | None = None
    while True:
        state = page.evaluate(FOCUS)
        if state["over"]:
            return presses
        assert time.monotonic() < deadline, f"the game did not end in time ({presses} moves by keyboard)"
        progress = (state["log"], state["last"])  # the page keeps the latest 120 lines
        if progress != last_log:
            last_log, stalled_since = progress, time.monotonic()
        assert time.monotonic() - stalled_since < 20, f"Enter stopped making moves: {state}"
        if state["dialog"]:
            page.keyboard.press("Enter")
        elif state["mine"]:
            page.wait_for_timeout(150)  # the update that made it our turn has been drawn
            state = page.evaluate(FOCUS)
            if state["mine"] and not state["over"] and not state["dialog"]:
                assert state["control"], f"after a move the focus is on {state['focused']}, not a board control"
                page.keyboard.press("Enter")
                presses += 1
        page.wait_for_timeout(120)


@pytest.mark.parametrize(("game", "options"), [("snorkeling", {"target_score": 3}), ("hold-your-breath", {})])
def test_a_whole_game_is_played_with_the_keyboard_alone(browser: Any, live: ServerProcess, artifacts: Path,
                                                        game: str, options: dict[str, Any]) -> None:
    page = open_as_player(browser, live, create_table(live, game, 2, options), "desktop")
    page.wait_for_selector(MOVE, timeout=15000)
    focus_first_legal_control(page)
    before = page.evaluate(FOCUS)["log"]
    page.keyboard.press("Enter")
    # Enter played (or chose a card whose destination is now focused), and the focus stayed on the board.
    page.wait_for_function("(n) => document.querySelectorAll('#log .log-line').length > n"
                           " || document.activeElement.matches('#board .is-target')", arg=before, timeout=10000)
    assert page.evaluate(FOCUS)["control"]
    moves = play_by_keyboard(page, timeout=240)
    assert moves > 5
    page.wait_for_timeout(900)  # the smooth scroll to the result
    page.screenshot(path=str(artifacts / f"{game}-over-by-keyboard.png"))
    # The result's heading is below the sticky top bar, not under it, and the focus is on its first button.
    heading = page.locator("#gameover-title").bounding_box()
    bar = page.locator(".topbar").bounding_box()
    assert heading is not None and bar is not None
    assert heading["y"] >= bar["y"] + bar["height"] - 1, (heading, bar)
    assert page.evaluate("document.activeElement.closest('#gameover') !== null"), page.evaluate(FOCUS)
    page.context.close()


def test_after_a_move_by_keyboard_the_focus_is_on_the_board_and_enter_plays_again(
        browser: Any, live: ServerProcess) -> None:
    page = open_as_player(browser, live, create_table(live, "snorkeling", 2), "desktop")
    page.wait_for_selector(MOVE, timeout=15000)
    focus_first_legal_control(page)
    for _ in range(4):
        # Our turn (again): Enter alone makes the next move, with no Tab in between.
        page.wait_for_selector("#turn.is-mine", timeout=20000)
        page.wait_for_timeout(200)
        state = page.evaluate(FOCUS)
        assert state["control"], f"the focus is on {state['focused']}, not a board control"
        page.keyboard.press("Enter")
        if page.evaluate("document.activeElement.matches('#board .is-target')"):
            page.keyboard.press("Enter")  # the card waits for its destination: the focus is on it already
        page.wait_for_function("(n) => document.querySelectorAll('#log .log-line').length > n", arg=state["log"],
                               timeout=10000)
        page.wait_for_timeout(300)
        state = page.evaluate(FOCUS)
        assert state["control"], f"after the move the focus dropped to {state['focused']}"
    page.context.close()


# -- colours -------------------------------------------------------------------------------------------------------

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}
MIN_DISTANCE = 0.10  # OKLab distance: about the gap between two clearly different swatches
MIN_LIGHTNESS = 0.04  # for red-green blindness the pair must differ in lightness too, not only in hue


def linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def oklab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    lms = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b,
           0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b,
           0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    l_, m_, s_ = (math.copysign(abs(x) ** (1 / 3), x) for x in lms)
    return (0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
            1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
            0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)


def seen(color: tuple[int, int, int], kind: str) -> tuple[float, float, float]:
    rgb = [linear(c / 255) for c in color]
    matrix = CVD[kind]
    out = [min(1.0, max(0.0, sum(matrix[i][j] * rgb[j] for j in range(3)))) for i in range(3)]
    return oklab((out[0], out[1], out[2]))


def confusions(colors: dict[str, tuple[int, int, int]]) -> list[str]:
    found = []
    for kind in CVD:
        for (a, ca), (b, cb) in itertools.combinations(colors.items(), 2):
            pa, pb = seen(ca, kind), seen(cb, kind)
            distance, lightness = math.dist(pa, pb), abs(pa[0] - pb[0])
            if distance < MIN_DISTANCE or (kind in ("protanopia", "deuteranopia") and lightness < MIN_LIGHTNESS):
                found.append(f"{a}/{b} under {kind}: distance {distance:.3f}, lightness {lightness:.3f}")
    return found


RGB = "(c) => { const m = c.match(/\\d+/g).map(Number); return [m[0], m[1], m[2]]; }"


def test_card_colours_stay_apart_under_colour_blindness_and_every_card_keeps_its_letter(
        browser: Any, live: ServerProcess) -> None:
    page = open_as_player(browser, live, create_table(live, "snorkeling", 2), "desktop")
    bands = page.evaluate("import('/static/js/cards.js').then((m) => Object.fromEntries("
                          "Object.entries(m.PALETTE).map(([name, ink]) => [name, ink.band])))")
    colors = {name: tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5)) for name, hex_ in bands.items()}
    assert len(colors) == 5
    assert confusions(colors) == []
    # Snorkeling: every reef card drawn shows its colour's letter (and a symbol) beside the colour.
    for card in page.locator("#board .card[data-card]:not([data-card=lanternfish])").all():
        label = card.get_attribute("data-card") or ""
        texts = card.evaluate("(el) => [...el.querySelectorAll('svg text')].map((t) => t.textContent)")
        assert label[0] in texts, (label, texts)
    # Hold Your Breath!: the kinds' colours on its cards and chips, as the page styles them.
    kinds = page.evaluate(f"""() => {{
      const rgb = {RGB};
      const link = document.querySelector('link[href$="hold-your-breath.css"]');
      const out = {{}};
      for (const kind of ["air", "swim", "shark", "kraken", "dolphin"]) {{
        const chip = document.createElement("span");
        chip.className = `chip hyb-chip hyb-${{kind}}`;
        const card = document.createElement("div");
        card.className = `hyb-card hyb-${{kind}}`;
        document.body.append(chip, card);
        out[kind] = [rgb(getComputedStyle(chip).backgroundColor), rgb(getComputedStyle(card).borderTopColor)];
        chip.remove();
        card.remove();
      }}
      return link ? out : null;
    }}""")
    assert kinds is not None
    for part, what in enumerate(["log chips", "card borders"]):
        assert confusions({kind: tuple(c[part]) for kind, c in kinds.items()}) == [], what
    page.context.close()
