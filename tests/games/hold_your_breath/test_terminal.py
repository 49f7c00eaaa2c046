"""Hold Your Breath! at the terminal and from the command line: ``divedeck play`` and ``divedeck simulate``."""

from __future__ import annotations

import io
import json
import sys

import pytest
from rich.console import Console

from divedeck import cli
from divedeck.tui.renderers import describe_action, render

from .helpers import GAME, act, position


def run_cli(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            stdin: str = "") -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["divedeck", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    return int(stopped.value.code or 0), capsys.readouterr().out


def shown(view: dict[str, object], names: list[str]) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(render("hold-your-breath", view, names))
    return console.export_text()


def test_play_a_whole_game_against_bots_by_always_taking_the_first_move(monkeypatch, capsys) -> None:
    code, out = run_cli(["play", "hold-your-breath", "--seats", "you,greedy,random", "--seed", "4", "--delay", "0"],
                        monkeypatch, capsys, stdin="1\n" * 3000)
    assert code == 0
    assert "Game over. Winner:" in out
    assert "Your moves:" in out and "Your hand" in out and "Ascent (racing up)" in out


def test_play_refuses_illegal_moves_with_the_rule(monkeypatch, capsys) -> None:
    code, out = run_cli(["play", "hold-your-breath", "--seats", "you,greedy", "--seed", "4", "--delay", "0"],
                        monkeypatch, capsys, stdin="panic A5P>0\nfly\nquit\n")
    assert code == 1
    assert "Not allowed:" in out and "HYB-R" in out
    assert "Not understood" in out


def test_the_board_shows_depths_anchors_swim_piles_and_the_hand_with_each_cards_uses() -> None:
    state = position("round=ascent hands=A5D,DO,SH/?5 anchors=60,40 depths=30,0 surfaced=1 piles=dS10C,hKR/- "
                     "air=5 deck=?")
    text = shown(GAME.view(state, 0), ["Ana", "Ben"])
    assert "Ascent (racing up)" in text and "Ana: playing cards" in text
    assert "Ben ↑1" in text
    assert "0:Panic▮(S10C) 1:Shark(KR)" in text.replace("  ", " ")
    assert "A5D Air 5 or Draw" in text and "DO any card" in text and "SH Shark" in text
    assert "this turn: Air 5 · Swim 0 → move 0 ft" in text
    spectator = shown(GAME.view(state, None), ["Ana", "Ben"])
    assert "S10C" not in spectator and "Panic▮" in spectator and "Your hand" not in spectator


def test_each_move_is_described_in_words() -> None:
    names = ["Ana", "Ben", "Cy"]
    assert describe_action("hold-your-breath", "air DO 10", names) == "breathe with Dolphin as Air 10"
    assert describe_action("hold-your-breath", "panic A5P>2", names) == "put Air 5 (Panic) on Cy as a Panic"
    assert describe_action("hold-your-breath", "calm S5C 1>1", names) == ("use Swim 5 (Calm) to calm the Shark "
                                                                         "(hindrance 1) onto Ben")
    assert describe_action("hold-your-breath", "mass KR", names).startswith("use Kraken as the Kraken")
    assert describe_action("hold-your-breath", "gasp S5D", names) == ("lay Swim 5 (Draw) face down in your Swim "
                                                                     "Pile as a Panic")


def test_the_kraken_phase_names_who_it_waits_for() -> None:
    state = position("hands=KR,A5D,A5X,S5C,S5D,A10D/S10P,S10C,S10D,S10X,A10C deck=?")
    act(state, "mass KR")
    text = shown(GAME.view(state, 1), ["Ana", "Ben"])
    assert "The Kraken waits for: Ana, Ben" in text


def test_simulate_plays_bots_and_reports_win_rates(monkeypatch, capsys) -> None:
    code, out = run_cli(["simulate", "hold-your-breath", "--games", "6", "--seats", "greedy,random", "--workers",
                         "1", "--json"], monkeypatch, capsys)
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 6 and len(summary["seats"]) == 2
    assert sum(row["wins"] for row in summary["seats"]) >= 6
