"""Bermuda in the terminal: the picture of a view, and the real-time loop with Bermuda's keys, driven by scripted
keys and a manual clock."""

from __future__ import annotations

import io
from collections import deque
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.engine import Match
from divedeck.sim.clock import ManualClock
from divedeck.tui.bermuda import BermudaKeys
from divedeck.tui.realtime import RealtimeLoop
from divedeck.tui.renderers import render

from .helpers import GAME, diving, play


def text_of(renderable: Any) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_the_picture_shows_columns_depths_cards_how_they_stand_the_hand_and_the_last_dive() -> None:
    state = diving("3579?2/?6", "T05,T21", columns="9123,-")
    shown = text_of(render("bermuda", GAME.view(state, 0), ["you", "bot"]))
    assert "Pearl necklace T05" in shown and "Chest of doubloons T21" in shown
    assert "9 1 2 3  _ _" in shown and "building: next 2 or 4" in shown
    assert "Your hand  3 5 7 9" in shown
    play(state, "1 release @5")
    shown = text_of(render("bermuda", GAME.view(state, 0), ["you", "bot"]))
    assert "Last dive:" in shown and "lost: too short" in shown and "lost: no card" in shown


class Script:
    """Keys to press at given clock times (seconds); the clock moves on by each read's timeout (stopping at the
    next key's time)."""

    def __init__(self, keys: list[tuple[float, str]]) -> None:
        self.keys = deque((int(at * 1000), key) for at, key in keys)
        self.clock = ManualClock()

    def read_key(self, timeout: float) -> str | None:
        now = self.clock.now()
        if self.keys and self.keys[0][0] <= now:
            return self.keys.popleft()[1]
        step = int(timeout * 1000)
        self.clock.set(min(now + step, self.keys[0][0]) if self.keys else now + step)
        return None if self.keys else "q"


def solo(match: Match, script: Script) -> RealtimeLoop:
    return RealtimeLoop(match, Console(file=io.StringIO(), width=100), script.read_key, BermudaKeys(0), script.clock)


def test_the_solo_loop_holds_counts_down_dives_lays_and_breathes_on_its_own_clock() -> None:
    match = Match.start("bermuda", {"num_players": 1}, 7)
    hand = GAME.view(match.state, 0)["hand"]
    keys = [(0.5, " "), (0.6, str(hand[0])), (3.6, str(hand[0])), (4.0, str(hand[1])), (9.0, " "), (9.5, "q")]
    assert solo(match, Script(keys)).run() is False  # quit before the end
    log = [(seat, GAME.format_action(action)) for seat, action in match.actions]
    assert log[0] == (0, "hold @500")
    assert log[1] == (-1, "tick @3500")  # the countdown's deadline, applied as the clock reached it
    assert log[2] == (0, f"lay {hand[0]} c1 @3600")
    assert log[3] == (0, f"lay {hand[1]} c1 @4000")
    assert log[4] == (0, "release @9000")
    assert GAME.view(match.state, 0)["round"] == 2
    assert Match.from_record(match.to_record()).digest() == match.digest()


def test_a_key_pressed_before_the_dive_is_refused_with_a_hint() -> None:
    match = Match.start("bermuda", {"num_players": 1}, 3)
    loop = solo(match, Script([]))
    loop.key("5")
    assert "take a deep breath first" in str(loop.message)
    assert match.actions == []


def test_play_bermuda_needs_solo_and_solo_needs_a_terminal() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["play", "bermuda"])
    assert result.exit_code != 0 and "real-time" in str(result.exception)
    result = runner.invoke(app, ["play", "bermuda", "--solo", "-o", "num_players=3"])
    assert "for one player" in str(result.exception)
    result = runner.invoke(app, ["play", "bermuda", "--solo"])
    assert "terminal" in str(result.exception)
    result = runner.invoke(app, ["play", "snorkeling", "--solo"])
    assert "--solo is for real-time games" in str(result.exception)


def test_a_game_without_the_terminal_front_end_is_sent_to_the_browser_in_one_line() -> None:
    """Hold your Hat declares no terminal front end: no circle between --solo and --seats."""
    for args in (["play", "hold-your-hat"], ["play", "hold-your-hat", "--solo"],
                 ["play", "hold-your-hat", "--seats", "you,medium,medium,medium"]):
        result = CliRunner().invoke(app, args)
        message = str(result.exception)
        assert result.exit_code != 0 and "divedeck serve" in message and "\n" not in message, args
        assert "--solo" not in message and "--seats" not in message
