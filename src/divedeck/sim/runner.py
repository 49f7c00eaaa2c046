"""Play many seeded games of bots against each other, in this process, over local processes or over a Ray cluster
(``backends.py``), with a checkpoint to resume a stopped run from (``checkpoint.py``).

Each game's seed is derived from the run's seed and the game's index, so a run gives the same results whatever the
number of workers, wherever its games are played and in whatever order they finish; a resumed run gives the same
results as one that was never stopped.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bots import check_bot_players, decide, make_bot
from ..engine.errors import DivedeckError
from ..engine.game import Game
from ..engine.outcome import Outcome
from ..engine.registry import get_game
from .metrics import play_measured
from .realtime import play_realtime

if TYPE_CHECKING:
    from .backends import Backend
    from .checkpoint import Checkpoint

_SEED_MASK = (1 << 63) - 1


def game_seed(run_seed: int, index: int) -> int:
    """A well-spread seed for game ``index`` of a run (splitmix-style multiply, kept within 63 bits)."""
    return (run_seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 1) & _SEED_MASK


@dataclass(frozen=True)
class SimulationSpec:
    game: str
    bots: tuple[str, ...]  # one bot name per seat
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    rotate: bool = False  # shift the bots one seat per game, to balance seat advantage between bots
    measure: bool = False  # also record the game's declared metrics (details["metrics"]; sim/metrics.py)
    # (seats, kind): the bots in these seats are barred from a kind of card the game declares (sim/impact.py)
    barred: tuple[tuple[int, ...], str] | None = None

    def seating(self, index: int) -> tuple[str, ...]:
        """Bot name in each seat for game ``index``."""
        if not self.rotate:
            return self.bots
        shift = index % len(self.bots)
        return self.bots[-shift:] + self.bots[:-shift] if shift else self.bots


@dataclass(frozen=True)
class GameResult:
    index: int
    seating: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    decisions: int
    details: dict[str, Any]


def play_bots(game: Game[Any, Any], config: Any, seed: int, bots: Sequence[Any],
              max_decisions: int = 1_000_000) -> tuple[Outcome, int, int | None]:
    """The simulator's game loop, for every game: one bot per seat from ``seed`` to the end. Returns the outcome,
    the actions taken and, for a real-time game (played on a simulated clock, ``realtime.py``), its length in ms."""
    if game.realtime:
        return play_realtime(game, config, seed, bots)
    state = game.new(config, seed)
    decisions = 0
    while (outcome := game.outcome(state)) is None:
        for seat in sorted(game.actors(state)):
            game.apply(state, seat, decide(bots[seat], game, state, seat))
            decisions += 1
        if decisions > max_decisions:
            raise DivedeckError(f"the game did not end within {max_decisions} decisions")
    return outcome, decisions, None


def play_numbered(game_name: str, options: dict[str, Any], seed: int, bots: Sequence[Any],
                  index: int) -> tuple[Outcome, int, int | None]:
    """``play_bots`` for game ``index`` of a run, whose number a failure names."""
    game = get_game(game_name)
    try:
        return play_bots(game, game.make_config(options), seed, bots)
    except DivedeckError as error:
        raise DivedeckError(f"game {index}: {error}") from None


def play_game(spec: SimulationSpec, index: int) -> GameResult:
    seed = game_seed(spec.seed, index)
    seating = spec.seating(index)
    bots = [make_bot(spec.game, name, game_seed(seed, seat + 1)) for seat, name in enumerate(seating)]
    if spec.barred is not None:
        from .impact import barred_bots

        bots = barred_bots(spec.game, spec.options, bots, spec.barred)
    if spec.measure:  # a designer's report: the same game, its events kept for the game's metrics
        outcome, decisions, length, metrics = play_measured(spec.game, spec.options, seed, bots, index)
    else:
        outcome, decisions, length = play_numbered(spec.game, spec.options, seed, bots, index)
    details = dict(outcome.details) if length is None else {**outcome.details, "seconds": length / 1000}
    if spec.measure:
        details["metrics"] = metrics
    return GameResult(index, seating, outcome.winners, outcome.scores, decisions, details)


class Interrupted(KeyboardInterrupt):  # noqa: N818 (a KeyboardInterrupt, caught as one)
    """A run stopped by Ctrl-C (SIGINT) or SIGTERM: its workers are ended, and ``finished`` games of ``games``
    are kept in ``checkpoint`` (when there is one), from which ``--resume`` carries on. Inside a session, the
    counts are the session's (every ``simulate`` call of a sweep); ``games`` is None when the session's total is
    not known in advance (tuning drops candidates as it goes)."""

    def __init__(self, signal_name: str, finished: int, games: int | None, checkpoint: Path | None) -> None:
        super().__init__(signal_name)
        self.signal_name = signal_name
        self.finished = finished
        self.games = games
        self.checkpoint = checkpoint

    @property
    def exit_code(self) -> int:
        return 128 + (signal.SIGTERM if self.signal_name == "SIGTERM" else signal.SIGINT)


class Terminated(KeyboardInterrupt):  # noqa: N818 (raised by the SIGTERM handler, handled as a Ctrl-C)
    """SIGTERM, turned into an exception so that the run ends its workers and keeps its finished games."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated("SIGTERM")


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises ``Terminated`` (in the main thread, where no one else has claimed it)."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


Track = Callable[[SimulationSpec, int], Callable[[int], None]]


@dataclass
class Session:
    """What every ``simulate`` call inside ``with runs(...)`` uses when it is not given its own: one backend
    (started once, for all the calls), one checkpoint, and a progress display (``track(spec, games)`` returns
    the call's progress callback).

    ``planned`` is the games of every call together when the command knows it in advance (a sweep: games times
    variants), set by the command; ``done`` counts the games of the calls that have ended. An interruption
    reports the session's finished games of ``planned``."""

    workers: int | None = None
    ray: str | None = None
    checkpoint: Checkpoint | None = None
    track: Track | None = None
    planned: int | None = None
    done: int = 0
    _backend: Backend | None = None

    def interrupted(self, stop: KeyboardInterrupt, finished: int = 0, games: int | None = None,
                    checkpoint: Checkpoint | None = None) -> Interrupted:
        """The ``Interrupted`` of this session stopped by ``stop``, ``finished`` games of a call of ``games``
        being under way (none between calls), kept in ``checkpoint`` (default: the session's)."""
        if isinstance(stop, Interrupted):
            return stop
        if self.planned is not None:
            games = self.planned
        elif self.done:
            games = None
        checkpoint = checkpoint or self.checkpoint
        kept = checkpoint.path if checkpoint is not None else None
        return Interrupted("SIGTERM" if isinstance(stop, Terminated) else "SIGINT", self.done + finished, games,
                           kept)

    def backend(self) -> Backend:
        if self._backend is None:
            from .backends import make_backend

            self._backend = make_backend(self.workers, self.ray)
        return self._backend

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
            self._backend = None


_SESSION: ContextVar[Session | None] = ContextVar("divedeck_simulation_session", default=None)


@contextmanager
def runs(workers: int | None = None, ray: str | None = None, checkpoint: Checkpoint | None = None,
         track: Track | None = None) -> Iterator[Session]:
    """A session for several ``simulate`` calls (a command's whole work): they share one backend (``ray``: a Ray
    cluster, ``auto`` or an address; else ``workers`` local processes), checkpoint to ``checkpoint`` and report to
    ``track``. SIGTERM inside it stops the run as a Ctrl-C does; a Ctrl-C or SIGTERM anywhere in the block (in a
    ``simulate`` call or between two) raises ``Interrupted`` with the session's counts. The checkpoint is closed at
    the end (and removed, if it was not asked for, when the block ended normally)."""
    session = Session(workers, ray, checkpoint, track)
    token = _SESSION.set(session)
    finished = False
    try:
        try:
            with _sigterm_raises():
                yield session
        except KeyboardInterrupt as stop:
            raise session.interrupted(stop) from None
        finished = True
    finally:
        _SESSION.reset(token)
        try:
            session.close()
        finally:
            if checkpoint is not None:
                checkpoint.close(finished)


def simulate(spec: SimulationSpec, games: int, workers: int | None = None,
             progress: Callable[[int], None] | None = None, *, backend: Backend | None = None,
             checkpoint: Checkpoint | None = None) -> list[GameResult]:
    """Play ``games`` games; ``workers`` processes (default: every core; 1 plays in this process).

    ``progress`` is called with the number of games just finished. Results come back in game order.

    ``backend`` plays the games somewhere else (``backends.py``: local processes, a Ray cluster); ``checkpoint``
    first gives back the games it holds of this run, then records each game as it arrives. Inside ``with
    runs(...)`` the session's backend, checkpoint and progress display are used unless these are given. A Ctrl-C
    or SIGTERM ends the workers at once and raises ``Interrupted`` (the finished games are in the checkpoint).
    """
    game = get_game(spec.game)
    config = game.make_config(spec.options)  # fail early, in this process, on a bad config
    if len(spec.bots) != game.num_players(config):
        raise DivedeckError(f"{len(spec.bots)} bots for {game.num_players(config)} seats: give one bot per seat")
    for name in set(spec.bots):
        make_bot(spec.game, name, 0)
    check_bot_players(spec.game, spec.bots, len(spec.bots))
    session = _SESSION.get()
    reports = [progress] if progress else []
    if session is not None:
        if backend is None:
            backend = session.backend()
        checkpoint = checkpoint or session.checkpoint
        if session.track is not None:
            reports.append(session.track(spec, games))
    finished = {index: result for index, result in (checkpoint.finished(spec) if checkpoint else {}).items()
                if index < games}
    for report in reports:
        if finished:
            report(len(finished))
    remaining = [index for index in range(games) if index not in finished]
    from .backends import chunked, local_backend

    owned = backend is None
    playing = local_backend(workers) if backend is None else backend
    completed = False
    try:
        with _sigterm_raises():
            if remaining:
                chunks = chunked(remaining, playing.chunk_size(len(remaining)), playing.workers)
                for batch in playing.play(spec, chunks):
                    # Kept before counted: a signal landing between the two may leave a game kept but not
                    # counted (a resume finds it), never counted as kept when it was not written.
                    if checkpoint is not None:
                        checkpoint.record(spec, batch)
                    for result in batch:
                        finished[result.index] = result
                    for report in reports:
                        report(len(batch))
        completed = True
    except KeyboardInterrupt as stop:
        playing.stop()
        if session is not None:
            raise session.interrupted(stop, len(finished), games, checkpoint) from None
        kept = checkpoint.path if checkpoint is not None else None
        raise Interrupted("SIGTERM" if isinstance(stop, Terminated) else "SIGINT", len(finished), games,
                          kept) from None
    finally:
        if not completed:
            playing.stop()
        elif owned:
            playing.close()
    if session is not None:
        session.done += games
    return [finished[index] for index in range(games)]
