"""Real-time play in the terminal, the same loop for every real-time game (``divedeck play <game> --solo``).

The loop is the only place in the terminal that reads a clock: the game never does. Each key press becomes an
action stamped with the clock's time (``game.at``); the game's deadlines are applied by the real-time driver
(``sim/driver.py``) as the clock reaches them. What a key means and what the prompt says are the game's key
bindings (``KeyPlay``, found by ``renderers.realtime_keys``); the picture is the game's renderer.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.text import Text

from ..engine.config import config_to_options
from ..engine.errors import ConfigError, IllegalAction, MalformedInput
from ..engine.events import Event
from ..engine.match import Match
from ..engine.registry import get_game
from ..sim.clock import Clock, WallClock
from ..sim.driver import RealtimeDriver
from .renderers import realtime_keys, render
from .saving import save, save_stopped

QUIT_KEYS = ("q", "Q", "\x04")
LOG_LINES = 5


class KeyPlay(Protocol):
    """A real-time game's keys at the terminal, for the person at ``seat``."""

    help: str  # one line: what the keys do
    quiet: frozenset[str]  # kinds of event not worth a log line (the person's own key presses)

    def press(self, view: dict[str, Any], key: str) -> tuple[str | None, Text | None]:
        """What ``key`` does: an action to play (its notation), a message to show, or both ``None``."""
        ...

    def prompt(self, view: dict[str, Any], now: int) -> Text:
        """The line saying what is going on and what to do, at ``now`` ms."""
        ...


@contextlib.contextmanager
def raw_keys() -> Iterator[Callable[[float], str | None]]:
    """Single key presses from the terminal, without Enter: a ``read_key(timeout)`` that gives one or ``None``."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)

    def read_key(timeout: float) -> str | None:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return None
        data = os.read(fd, 1)
        if not data:
            raise EOFError
        return data.decode("utf-8", "replace")

    try:
        yield read_key
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


class RealtimeLoop:
    """One person at seat 0, in real time. ``read_key(timeout)`` returns a key or ``None``; ``clock`` gives the
    milliseconds stamped on actions (tests give a manual one)."""

    seat = 0

    def __init__(self, match: Match, console: Console, read_key: Callable[[float], str | None], keys: KeyPlay,
                 clock: Clock | None = None, save_path: Path | None = None, frame: float = 0.05) -> None:
        self.match = match
        self.game = match.game
        self.console = console
        self.read_key = read_key
        self.keys = keys
        self.clock = clock or WallClock()
        self.save_path = save_path
        self.frame = frame
        self.driver = RealtimeDriver(self.game)
        self.log: list[str] = []
        self.message = Text("")

    def _apply(self, seat: int, action: Any, t: int) -> None:
        events = self.match.act(seat, action)
        self.driver.applied(self.match.state, seat, t, events)
        self._note(events)
        if self.save_path is not None and (problem := save(self.match, self.save_path)) is not None:
            self.message = Text(f"Could not save to {self.save_path}: {problem}", style="red")

    def _note(self, events: list[Event]) -> None:
        self.log += [self.game.format_event(event, self.seat) for event in events if event.kind not in self.keys.quiet]
        del self.log[:-LOG_LINES]

    def act(self, notation: str) -> None:
        """Stamp and apply the person's action; a refusal becomes the message shown."""
        try:
            t = self.clock.now()
            self._apply(self.seat, self.game.at(self.game.parse_action(notation), t), t)
            self.message = Text("")
        except IllegalAction as error:
            self.message = Text(f"Not allowed: {error.reason} ({error.rule})", style="red")
        except MalformedInput as error:
            self.message = Text(str(error), style="red")

    def catch_up(self) -> None:
        """Apply everything due by now (the game's deadlines), in order."""
        while (due := self.driver.due(self.match.state)) is not None and due.t <= self.clock.now():
            self._apply(due.seat, due.action, due.t)

    def _wait(self) -> float:
        """How long to wait for a key: a frame, or less if something falls due sooner."""
        due = self.driver.due(self.match.state)
        return self.frame if due is None else min(self.frame, max(0, due.t - self.clock.now()) / 1000)

    def key(self, key: str) -> bool:
        """Handle one key press; ``False`` to stop."""
        if key in QUIT_KEYS or self.match.over:
            return False
        notation, message = self.keys.press(self.game.view(self.match.state, self.seat), key)
        if notation is not None:
            self.act(notation)
        if message is not None:
            self.message = message
        return True

    def picture(self) -> RenderableType:
        view = self.game.view(self.match.state, self.seat)
        prompt = Text("Game over. Press any key.", style="bold") if self.match.over else \
            self.keys.prompt(view, self.clock.now())
        parts: list[RenderableType] = [render(self.game.name, view, ["you"]), Text(""), prompt, self.message]
        parts += [Text("  · " + line, style="dim") for line in self.log]
        parts.append(Text(self.keys.help + "   q: quit", style="dim"))
        return Group(*parts)

    def run(self) -> bool:
        """Play until the game is over (``True``) or the player quits (``False``)."""
        how = "quit"
        with Live(self.picture(), console=self.console, auto_refresh=False, transient=False) as live:
            try:
                while True:
                    self.catch_up()
                    key = self.read_key(self._wait())
                    if key is not None and not self.key(key):
                        break
                    live.update(self.picture(), refresh=True)
            except KeyboardInterrupt:  # it may land in the middle of a move: keep those finished, as logged
                self.match, how = self.match.replayed(), "Ctrl-C"
            except EOFError:
                how = "end of input"
            live.update(self.picture(), refresh=True)
        if not self.match.over:
            save_stopped(self.match, self.save_path, self.console, how)
            return False
        self.console.print(Text(self.log[-1] if self.log else "Game over.", style="bold green"))
        return True


def play_solo(game_name: str, options: dict[str, Any], seed: int, console: Console,
              save_path: Path | None = None) -> bool:
    """``divedeck play <game> --solo``: one seat of a real-time game, at this terminal. ``False`` if the player
    quit."""
    game = get_game(game_name)
    keys = realtime_keys(game, RealtimeLoop.seat)
    if keys is None:
        raise ConfigError(f"{game.title} has no keys for the terminal yet: play it in the browser (divedeck serve)")
    alone = game.with_players(options, 1)
    if any(str(alone[name]) != str(value) for name, value in options.items() if name in alone):
        raise ConfigError("--solo is for one player: leave the number of players out (or make it 1)")
    match = Match.start(game, alone, seed)
    if not sys.stdin.isatty():
        raise ConfigError("--solo reads single key presses: run it in a terminal")
    shown = config_to_options(match.config)
    console.print(f"{game.title} solo, seed {seed} (the same deal again: --seed {seed})"
                  + (f", options {shown}" if len(shown) > 1 else "") + ".")
    with raw_keys() as read_key:
        return RealtimeLoop(match, console, read_key, keys, save_path=save_path).run()
