"""The terminal play loop, the same for every game: render the view, list the legal moves, read a move.

It speaks only the engine contract: legality comes from ``legal_actions`` and rejections from ``IllegalAction``,
so the terminal never re-implements a rule.

A stopped game (``quit``, Ctrl-C, the end of the input) is always saved and the person told where, so stopping
never loses a game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import readline  # input() then edits the line and keeps a history of it
except ImportError:  # no readline on Windows: input() still reads, without editing
    readline = None  # type: ignore[assignment]

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..bots import Bot, decide
from ..engine.errors import IllegalAction, MalformedInput
from ..engine.events import Event
from ..engine.game import Game
from ..engine.match import Match
from .renderers import render
from .saving import save, save_stopped

# Erases the scrollback, which clearing the screen keeps: the next person must not scroll up to the last hand.
ERASE_SCROLLBACK = "\x1b[3J"


def help_text(game: Game[Any, Any]) -> str:
    written = f": {game.action_help}" if game.action_help else ""
    return (f"Type the number of a move, or the move itself{written}.\n"
            "Other commands: 'board' shows the table again, 'log' the recent moves, 'help' this text, "
            "'quit' stops (the game is saved, and you are told how to carry on).")


@dataclass
class Seat:
    name: str
    bot: Bot | None = None  # None: a person at this terminal

    @property
    def human(self) -> bool:
        return self.bot is None


class Quit(Exception):
    """The person at the keyboard stopped the game."""


class TerminalSession:
    def __init__(self, match: Match, seats: list[Seat], console: Console | None = None,
                 read: Callable[[str], str] = input, delay: float = 0.0, save_path: Path | None = None,
                 opening: list[Event] | None = None, save_every_move: bool = True) -> None:
        """``save_path`` is where the game is saved when it stops, and after every move with
        ``save_every_move``."""
        self.match = match
        self.game = match.game
        self.seats = seats
        self.console = console or Console(highlight=False)
        self.read = read
        self.delay = delay
        self.save_path = save_path
        self.save_every_move = save_every_move
        self.saved = False  # whether the game, once stopped, is in ``save_path``
        self.names = [seat.name for seat in seats]
        humans = [i for i, seat in enumerate(seats) if seat.human]
        # With one person, the log is written from their seat; with several sharing a screen (or none, watching),
        # only what everyone may see is written.
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.shared_screen = len(humans) > 1
        self.last_human: int | None = None
        self.log: list[str] = []
        for event in opening or []:
            self._note(event)

    # -- output ----------------------------------------------------------------------------------------------
    def _note(self, event: Event) -> None:
        line = self.game.format_event(event, self.viewer, self.names)
        self.log.append(line)
        self.console.print(Text("  · " + line, style="dim" if event.kind in ("draw", "no_draw") else ""))

    def show_board(self, seat: int | None) -> None:
        self.console.print(Rule(style="dim"))
        self.console.print(render(self.game.name, self.game.view(self.match.state, seat), self.names))

    # -- one decision ----------------------------------------------------------------------------------------
    def clear(self) -> None:
        """Clear the screen, its scrollback and the typed moves' history: the next person sees none of it."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(ERASE_SCROLLBACK)
            self.console.file.flush()
        if readline is not None:
            readline.clear_history()

    def _human_action(self, seat: int) -> Any:
        if self.shared_screen and self.last_human != seat:
            self.clear()
            self.read(f"Pass the keyboard to {self.names[seat]}, then press Enter (others look away) ")
            self.clear()
        self.last_human = seat
        self.show_board(seat)
        legal = self.game.legal_actions(self.match.state, seat)
        self.console.print(Text("Your moves:", style="bold"))
        for number, action in enumerate(legal, 1):
            record = self.game.action_record(self.match.state, seat, action)
            label = record["label"] if record["label"] != record["notation"] else ""
            self.console.print(f"  {number:>2}  {record['notation']:<10} {label}")
        while True:
            answer = self.read(f"{self.names[seat]}> ").strip()
            command = answer.lower()
            if not answer:
                continue
            if command in ("q", "quit", "exit"):
                raise Quit
            if command in ("h", "help", "?"):
                self.console.print(help_text(self.game))
                continue
            if command == "board":
                self.show_board(seat)
                continue
            if command == "log":
                self.console.print("\n".join(self.log[-20:]) or "(nothing yet)")
                continue
            if answer.isdigit():
                if 1 <= int(answer) <= len(legal):
                    return legal[int(answer) - 1]
                self._complain(f"No move {answer}: choose 1 to {len(legal)}.")
                continue
            try:
                action = self.game.parse_action(answer)
                self.game.check(self.match.state, seat, action)
            except MalformedInput as error:
                self._complain(f"Not understood: {error}. Type 'help' for how to write a move.")
                continue
            except IllegalAction as error:
                self._complain(f"Not allowed: {error.reason}{f' (rule {error.rule})' if error.rule else ''}.")
                continue
            return action

    def _complain(self, message: str) -> None:
        self.console.print(Text(message, style="red"))

    def step(self) -> None:
        """Let every seat that may act now act once."""
        for seat in sorted(self.game.actors(self.match.state)):
            occupant = self.seats[seat]
            if occupant.human:
                action = self._human_action(seat)
            else:
                assert occupant.bot is not None
                if self.delay:
                    time.sleep(self.delay)
                action = decide(occupant.bot, self.game, self.match.state, seat)
            for event in self.match.act(seat, action):
                self._note(event)
            if self.save_every_move and self.save_path is not None:
                problem = save(self.match, self.save_path)
                if problem is not None:  # the game goes on: it is saved again when it stops
                    self._complain(f"Could not save to {self.save_path}: {problem}.")

    def stop(self, how: str) -> None:
        self.saved = save_stopped(self.match, self.save_path, self.console, how)

    def run(self) -> bool:
        """Play to the end; ``False`` if the person stopped first (the game is then saved, see ``stop``)."""
        watching = self.viewer is None and not self.shared_screen
        previous: frozenset[int] = frozenset()
        try:
            while not self.match.over:
                actors = self.game.actors(self.match.state)
                if watching and actors != previous:
                    self.show_board(None)
                previous = actors
                self.step()
        except Quit:
            self.stop("quit")
            return False
        except EOFError:
            self.console.print()
            self.stop("end of input")
            return False
        except KeyboardInterrupt:
            # Ctrl-C may land in the middle of a move: keep the moves that were finished, as the log has them.
            self.match = self.match.replayed()
            self.console.print()
            self.stop("Ctrl-C")
            return False
        self.show_board(self.viewer)
        outcome = self.game.outcome(self.match.state)
        assert outcome is not None
        winners = ", ".join(self.names[w] for w in outcome.winners) or "nobody"
        scores = "  ".join(f"{name} {score:g}" for name, score in zip(self.names, outcome.scores, strict=True))
        self.console.print(Text(f"Game over. Winner: {winners}.  Final scores: {scores}", style="bold green"))
        return True
