"""The terminal loop as people meet it: a shared keyboard hides everything between turns, a stop never loses the
game, the prompt edits lines, and ``help`` speaks the game's own move syntax."""

from __future__ import annotations

import builtins
import importlib.util
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from divedeck.bots import make_bot
from divedeck.engine import Match, get_game
from divedeck.tui import Seat, TerminalSession
from divedeck.tui import session as session_module


def scripted(*answers: str | type[BaseException]) -> Callable[[str], str]:
    """A keyboard typing ``answers`` in turn (an exception class is raised instead: Ctrl-C, end of input)."""
    queue = list(answers)

    def read(prompt: str) -> str:
        answer = queue.pop(0) if queue else EOFError
        if isinstance(answer, type):
            raise answer
        return answer

    return read


def terminal() -> tuple[Console, io.StringIO]:
    written = io.StringIO()
    return Console(file=written, force_terminal=True, width=120, color_system=None), written


def test_passing_the_keyboard_erases_the_screen_and_its_scrollback(monkeypatch: pytest.MonkeyPatch) -> None:
    match = Match.start("snorkeling", {"num_players": 2}, 3)
    console, written = terminal()
    passes: list[str] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Pass the keyboard"):
            passes.append(written.getvalue())
            return ""
        raise EOFError

    TerminalSession(match, [Seat("player 1"), Seat("player 2")], console, read=read).run()
    assert passes, "the first person was never handed the keyboard"
    cleared = passes[0]
    assert cleared.endswith("\x1b[2J\x1b[H\x1b[3J"), repr(cleared[-40:])  # screen, then scrollback


@pytest.mark.skipif(importlib.util.find_spec("readline") is None, reason="no readline on this system")
def test_the_prompt_reads_through_input_with_readline_loaded_so_lines_edit_and_keep_a_history() -> None:
    import readline

    assert "readline" in sys.modules and session_module.readline is readline
    match = Match.start("snorkeling", {"num_players": 2}, 3)
    session = TerminalSession(match, [Seat("you"), Seat("greedy 1", make_bot("snorkeling", "greedy", 1))])
    assert session.read is builtins.input


@pytest.mark.skipif(importlib.util.find_spec("readline") is None, reason="no readline on this system")
def test_passing_the_keyboard_forgets_the_typed_moves() -> None:
    """With a history, the next person would press Up and read what the last one typed (a face-down card)."""
    import readline

    match = Match.start("snorkeling", {"num_players": 2}, 3)
    readline.add_history("gasp S5D")
    console, _ = terminal()
    TerminalSession(match, [Seat("player 1"), Seat("player 2")], console, read=scripted("", EOFError)).run()
    assert readline.get_current_history_length() == 0


@pytest.mark.parametrize("game", ["snorkeling", "hold-your-breath"])
def test_help_shows_the_move_syntax_the_game_declares(game: str) -> None:
    declared = get_game(game)
    match = Match.start(game, {"num_players": 2}, 3)
    console, written = terminal()
    TerminalSession(match, [Seat("you"), Seat("bot 1", make_bot(game, "random", 1))], console,
                    read=scripted("help", "quit")).run()
    shown = written.getvalue().replace("\n", " ")
    assert declared.action_help and " ".join(declared.action_help.split()) in " ".join(shown.split())
    other = "snorkeling" if game != "snorkeling" else "hold-your-breath"
    assert get_game(other).action_help not in shown


def test_every_example_in_a_games_move_syntax_is_a_move_it_reads() -> None:
    for game in ("snorkeling", "hold-your-breath"):
        declared = get_game(game)
        for example in declared.action_help.split("'")[1::2]:
            declared.parse_action(example)


def stopped_session(path: Path, read: Callable[[str], str], every_move: bool = False,
                    match: Match | None = None) -> tuple[TerminalSession, str]:
    match = match or Match.start("snorkeling", {"num_players": 2}, 5)
    match.seats = ["you", "greedy"]
    console, written = terminal()
    session = TerminalSession(match, [Seat("you"), Seat("greedy 1", make_bot("snorkeling", "greedy", 1))],
                              console, read=read, save_path=path, save_every_move=every_move)
    assert session.run() is False
    return session, written.getvalue()


@pytest.mark.parametrize("every_move", [False, True])
def test_quitting_before_the_first_move_says_saved_only_because_it_is(tmp_path: Path, every_move: bool) -> None:
    path = tmp_path / "game.json"
    session, shown = stopped_session(path, scripted("quit"), every_move)
    assert "Stopped (quit) after 0 moves; saved to" in shown
    assert session.saved and Match.load(path).actions == []


@pytest.mark.parametrize("stop", [KeyboardInterrupt, EOFError])
def test_ctrl_c_or_the_end_of_input_keeps_the_game_and_says_where(tmp_path: Path,
                                                                 stop: type[BaseException]) -> None:
    path = tmp_path / "nested" / "game.json"
    session, shown = stopped_session(path, scripted("1", "1", "1", stop))
    moves = len(session.match.actions)
    assert moves >= 3
    assert f"after {moves} moves; saved to {path}" in shown.replace("\n", "")
    loaded = Match.load(path)
    assert len(loaded.actions) == moves and loaded.seats == ["you", "greedy"]


def test_ctrl_c_in_the_middle_of_a_move_keeps_the_moves_that_were_finished(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The interrupt lands after the rules changed the state but before the move was logged: the save holds
    the logged moves, and loads (its digest is that of their state)."""
    game = type(get_game("snorkeling"))
    apply = game.apply
    calls = {"n": 0}

    def interrupted(self: Any, state: Any, seat: int, action: Any, at: int | None = None) -> Any:
        calls["n"] += 1
        events = apply(self, state, seat, action, at)
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return events

    monkeypatch.setattr(game, "apply", interrupted)
    path = tmp_path / "game.json"
    _, shown = stopped_session(path, scripted(*["1"] * 50))
    assert "Stopped (Ctrl-C) after 3 moves; saved to" in shown
    assert len(Match.load(path).actions) == 3


def test_a_failed_save_is_told_and_the_stop_message_says_not_saved(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    path = blocker / "game.json"  # its folder is a file
    _, shown = stopped_session(path, scripted("1", "quit"), every_move=True)
    assert "Could not save to" in shown
    assert "; not saved: " in shown and "saved to" not in shown
