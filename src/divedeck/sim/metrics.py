"""A designer's per-game metrics: each game declares them (``Game.metrics``, in ``games/<game>/metrics.py``); this
module plays a game with its events recorded and asks the game's declaration what it measured.

The game loop is the runner's own (``runner.play_bots``): the game it plays is wrapped so that ``new`` and
``apply`` keep every event, and everything else goes straight to the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.errors import DivedeckError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.outcome import Outcome
from ..engine.registry import get_game
from .drama import DramaRecorder


class RecordingGame:
    """``game`` as the runner sees it, keeping the state it made and every event since the deal."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self._game = game
        self.events: list[Event] = []
        self.state: Any = None
        self.drama: DramaRecorder | None = None
        self.plays: list[dict[str, int]] | None = None  # per seat, {kind: plays} (``Metrics.card_kinds``)
        self._kinds_of: Any = None

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._game, name)
        setattr(self, name, value)  # looked up once: later calls go straight to the game's bound method
        return value

    def new(self, config: Any, seed: int) -> Any:
        self.state, events = self._game.new_with_events(config, seed)
        self.events = list(events)
        metrics = self._game.metrics
        if metrics is not None and metrics.standing is not None:
            self.drama = DramaRecorder(metrics, config, self._game.num_players(config))
            self.drama.start(self.state)
        if metrics is not None and metrics.card_kinds is not None:
            self.plays = [{} for _ in range(self._game.num_players(config))]
            of_action = metrics.card_kinds.of_action
            self._kinds_of = lambda action: of_action(config, action)
        return self.state

    def apply(self, state: Any, seat: int, action: Any, at: int | None = None) -> list[Event]:
        events = self._game.apply(state, seat, action, at)
        self.events.extend(events)
        if self.plays is not None and seat >= 0:
            played = self.plays[seat]
            for kind in self._kinds_of(action):
                played[kind] = played.get(kind, 0) + 1
        if self.drama is not None:
            self.drama.after(state, events)
        return events


def measure(game: Game[Any, Any], state: Any, outcome: Outcome, events: Sequence[Event]) -> dict[str, Any]:
    """The game's declared metrics of one finished game, and how it ended."""
    measured = {"ending": str(outcome.termination)}
    if game.metrics is not None:
        measured.update(game.metrics.measure(state, outcome, events))
    return measured


def play_measured(game_name: str, options: dict[str, Any], seed: int, bots: Sequence[Any],
                  index: int) -> tuple[Outcome, int, int | None, dict[str, Any]]:
    """``runner.play_numbered`` with the game's metrics of the game played."""
    from .runner import play_bots

    game = get_game(game_name)
    recording = RecordingGame(game)
    try:
        outcome, decisions, length = play_bots(recording, game.make_config(options), seed, bots)  # type: ignore[arg-type]
    except DivedeckError as error:
        raise DivedeckError(f"game {index}: {error}") from None
    measured = measure(game, recording.state, outcome, recording.events)
    if recording.drama is not None:
        measured["drama"] = recording.drama.result(outcome.winners)
    if recording.plays is not None:
        measured["plays"] = recording.plays
    return outcome, decisions, length, measured
