"""Bermuda in the terminal: a picture of a seat's view, and the real-time solo challenge (``play bermuda --solo``).

The solo loop is the only place here that reads a clock: the game never does. Each key press becomes an action
stamped with the milliseconds since the loop started (``game.at``), and the game's deadlines (the countdown before
the dive, an optional time limit) are let pass with ``game.tick`` as the clock reaches them. A terminal cannot tell
when a key is let go, so the breath is a toggle: SPACE takes a deep breath and holds it, SPACE again breathes out.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from ..engine.config import config_to_options
from ..engine.errors import ConfigError, IllegalAction, MalformedInput
from ..engine.events import Event
from ..engine.game import CLOCK
from ..engine.match import Match
from ..engine.registry import get_game

STATUS = {
    "hidden": ("face down", "dim"),
    "empty": ("empty: any card starts it", ""),
    "building": ("building", "cyan"),
    "complete": ("complete: exactly deep enough", "bold green"),
    "too_long": ("too long: lost", "bold red"),
    "broken": ("a bad step: lost", "bold red"),
}
REASONS = {"bad_step": "a bad step", "empty": "no card", "too_short": "too short", "too_long": "too long"}
HELP = ("SPACE: take a deep breath / breathe out   1-9: lay that card   s: sort (if allowed)   q: quit")


def _cards(cards: list[int], depth: int | None = None, bad: list[int] | None = None) -> Text:
    text = Text()
    for i, card in enumerate(cards, 1):
        if i > 1:
            text.append(" ")
        text.append(str(card), style="bold red" if bad and i in bad else "bold")
    if depth is not None and len(cards) < depth:
        text.append(("  " if cards else "") + " ".join("_" for _ in range(depth - len(cards))), style="dim")
    return text or Text("-", style="dim")


def _treasure(treasure: dict[str, Any] | None) -> Text:
    if treasure is None:
        return Text("? (face down)", style="dim")
    return Text.assemble((treasure["name"], "bold yellow"), f" {treasure['id']}")


def _score_line(view: dict[str, Any]) -> Text:
    if view["challenge"] == "chained":
        return Text(f"successful dives {view['dives']} · treasures {view['treasures_won']}", style="bold")
    if view["challenge"] == "one_round":
        return Text(f"treasures {view['treasures_won']}", style="bold")
    return Text(f"treasures won {view['treasures_won']} · Keeper's protection {view['protection']}", style="bold")


def render_bermuda(view: dict[str, Any], names: list[str]) -> RenderableType:
    """The columns under their treasures (depth, protection, cards, how they stand), scores, hand, last result."""
    challenge = {"chained": "single-breath challenge", "one_round": "single-breath round"}.get(view["challenge"] or "")
    header = Text("Bermuda", style="bold")
    header.append(f" · {challenge}" if challenge else f" · round {view['round']} of {view['rounds']}")
    header.append("  ")
    header.append_text(_score_line(view))
    table = Table(box=None, pad_edge=False, show_edge=False)
    for title in ("col", "treasure", "depth", "prot.", "cards (first laid first)", "stands"):
        table.add_column(title)
    for column in view["columns"]:
        treasure = column["treasure"]
        depth = treasure["depth"] if treasure else None
        status, style = STATUS[column["status"]]
        if column["status"] == "building":
            status += ": next " + " or ".join(map(str, column["accepts"]))
        table.add_row(str(column["column"]), _treasure(treasure), "?" if depth is None else str(depth),
                      "?" if treasure is None else str(treasure["protection"]), _cards(column["cards"], depth),
                      Text(status, style=style))
    parts: list[RenderableType] = [header, table]
    if view.get("hand") is not None:
        hand = Text("Your hand  ", style="bold")
        hand.append_text(_cards(view["hand"]) if view["hand"] else Text("(empty)", style="dim"))
        parts.append(hand)
    if view["players"] > 1:
        holding = " ".join(names[s] for s, held in enumerate(view["holding"]) if held) or "nobody"
        parts.append(Text(f"Holding their breath: {holding}", style="dim"))
    last = view["last_result"]
    if last:
        parts.append(Text("Last dive:", style="bold"))
        for column in last["columns"]:
            line = Text("  ")
            line.append_text(_treasure(column["treasure"]))
            line.append(f" (depth {column['treasure']['depth']})  ")
            line.append_text(_cards(column["cards"], None, column["bad_steps"]))
            if column["won"]:
                line.append("  won", style="bold green")
            else:
                line.append("  lost: " + ", ".join(REASONS[r] for r in column["reasons"]), style="bold red")
            parts.append(line)
    return Group(*parts)


def describe_bermuda_action(notation: str, names: list[str]) -> str:
    words = notation.split()
    verb = words[0]
    if verb == "lay":
        return f"lay a {words[1]} under column {words[2][1:]}"
    if verb == "signal":
        return f"point at column {words[1][1:]}"
    return {"hold": "take a deep breath and hold it", "release": "breathe out", "sort": "sort your hand",
            "tick": "the clock"}.get(verb, "")


# -- the solo challenge -----------------------------------------------------------------------------------------


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


class SoloGame:
    """One person alone against the Keeper (or the single-breath challenge), in real time.

    ``read_key(timeout)`` returns a key or ``None``; ``clock()`` returns seconds (``time.monotonic`` by default):
    tests give their own. Times given to the game are milliseconds since the loop started, never decreasing.
    """

    def __init__(self, match: Match, console: Console, read_key: Callable[[float], str | None],
                 clock: Callable[[], float] = time.monotonic, save_path: Path | None = None,
                 frame: float = 0.05) -> None:
        self.match = match
        self.game = match.game
        self.console = console
        self.read_key = read_key
        self.clock = clock
        self.save_path = save_path
        self.frame = frame
        self.started = clock()
        self.base = self.game.view(match.state, 0)["now"]
        self.last = self.base
        self.log: list[str] = []
        self.message = Text("")
        self.pending: int | None = None  # a card chosen, waiting for its column (only with several columns)

    def now(self) -> int:
        self.last = max(self.last, self.base + int((self.clock() - self.started) * 1000))
        return self.last

    def _apply(self, seat: int, action: Any) -> None:
        events = self.match.act(seat, action)
        self._note(events)
        if self.save_path is not None:
            self.match.save(self.save_path)

    def _note(self, events: list[Event]) -> None:
        for event in events:
            if event.kind not in ("hold", "lay"):
                self.log.append(self.game.format_event(event, 0))
        del self.log[:-5]

    def act(self, text: str) -> None:
        """Stamp and apply an action (notation) for the player; a refusal becomes the message shown."""
        try:
            action = self.game.at(self.game.parse_action(text), self.now())
            self._apply(0, action)
            self.message = Text("")
        except IllegalAction as error:
            self.message = Text(f"Not allowed: {error.reason} ({error.rule})", style="red")
        except MalformedInput as error:
            self.message = Text(str(error), style="red")

    def tick(self) -> None:
        """Let the game's deadlines pass as the clock reaches them."""
        due = self.game.deadline(self.match.state)
        if due is not None and self.now() >= due:
            self._apply(CLOCK, self.game.tick(self.now()))

    def key(self, key: str) -> bool:
        """Handle one key press; ``False`` to stop."""
        view = self.game.view(self.match.state, 0)
        if key in ("q", "Q", "\x04"):
            return False
        if view["phase"] == "over":
            return False
        if key == " ":
            self.pending = None
            self.act("release" if view["holding"][0] else "hold")
        elif key in ("s", "S"):
            self.act("sort")
        elif key.isdigit() and key != "0" and view["phase"] == "prepare":
            self.message = Text("Cards go down during the dive: take a deep breath first (SPACE).", style="cyan")
        elif key.isdigit() and key != "0":
            columns = len(view["columns"])
            if self.pending is not None:
                card, self.pending = self.pending, None
                self.act(f"lay {card} c{key}")
            elif columns == 1:
                self.act(f"lay {key} c1")
            else:
                self.pending = int(key)
                self.message = Text(f"Lay {key} under which column (1-{columns})?", style="cyan")
        return True

    def prompt(self, view: dict[str, Any]) -> Text:
        now = self.now()
        if view["phase"] == "over":
            return Text("Game over. Press any key.", style="bold")
        if view["phase"] == "dive":
            text = Text(f"DIVING {(now - view['t0']) / 1000:5.1f} s", style="bold reverse cyan")
            if view["deadline"] is not None:
                text.append(f" (time limit in {(view['deadline'] - now) / 1000:.1f} s)")
            text.append("  type a card's value to lay it · SPACE breathes out and ends the dive")
            return text
        if view["dive_at"] is not None:
            return Text(f"Holding your breath... the dive starts in {(view['dive_at'] - now) / 1000:.1f} s "
                        "(SPACE breathes out)", style="bold yellow")
        sort = " · s sorts your hand" if view["sorting_allowed"] and view["hand"] != sorted(view["hand"]) else ""
        return Text(f"Look at your hand. SPACE takes a deep breath and holds it{sort}.", style="bold")

    def picture(self) -> RenderableType:
        view = self.game.view(self.match.state, 0)
        parts: list[RenderableType] = [render_bermuda(view, ["you"]), Text(""), self.prompt(view), self.message]
        parts += [Text("  · " + line, style="dim") for line in self.log]
        parts.append(Text(HELP, style="dim"))
        return Group(*parts)

    def run(self) -> bool:
        """Play until the game is over (``True``) or the player quits (``False``)."""
        with Live(self.picture(), console=self.console, auto_refresh=False, transient=False) as live:
            while True:
                self.tick()
                key = self.read_key(self.frame)
                if key is not None and not self.key(key):
                    break
                live.update(self.picture(), refresh=True)
            live.update(self.picture(), refresh=True)
        outcome = self.game.outcome(self.match.state)
        if outcome is None:
            saved = f"; saved to {self.save_path}" if self.save_path is not None else ""
            self.console.print(f"Stopped{saved}.")
            return False
        self.console.print(Text(self.log[-1] if self.log else "Game over.", style="bold green"))
        return True


def play_solo(game_name: str, options: dict[str, Any], seed: int, console: Console,
              save_path: Path | None = None) -> bool:
    """``divedeck play bermuda --solo``: one seat, real time, at this terminal. ``False`` if the player quit."""
    game = get_game(game_name)
    if not game.realtime or game_name != "bermuda":
        raise ConfigError(f"--solo is Bermuda's real-time solo challenge; {game.title} is played with --seats")
    if str(options.setdefault("num_players", 1)) != "1":
        raise ConfigError("--solo is for one player: leave num_players out (or set it to 1)")
    match = Match.start(game, options, seed)
    if not sys.stdin.isatty():
        raise ConfigError("--solo reads single key presses: run it in a terminal")
    shown = config_to_options(match.config)
    console.print(f"{game.title} solo, seed {seed} (the same deal again: --seed {seed})"
                  + (f", options {shown}" if len(shown) > 1 else "") + ".")
    with raw_keys() as read_key:
        return SoloGame(match, console, read_key, save_path=save_path).run()
