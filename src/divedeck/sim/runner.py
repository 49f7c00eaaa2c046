"""Play many seeded games of bots against each other, over local processes.

Each game's seed is derived from the run's seed and the game's index, so a run gives the same results whatever the
number of workers and in whatever order the games finish.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..bots import decide, make_bot
from ..engine.errors import DivedeckError
from ..engine.game import Game
from ..engine.outcome import Outcome
from ..engine.registry import get_game
from .metrics import play_measured
from .realtime import play_realtime

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
    if spec.measure:  # a designer's report: the same game, its events kept for the game's metrics
        outcome, decisions, length, metrics = play_measured(spec.game, spec.options, seed, bots, index)
    else:
        outcome, decisions, length = play_numbered(spec.game, spec.options, seed, bots, index)
    details = dict(outcome.details) if length is None else {**outcome.details, "seconds": length / 1000}
    if spec.measure:
        details["metrics"] = metrics
    return GameResult(index, seating, outcome.winners, outcome.scores, decisions, details)


def _play_chunk(spec: SimulationSpec, indices: range) -> list[GameResult]:
    return [play_game(spec, index) for index in indices]


def _chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(start + size, games))


def simulate(spec: SimulationSpec, games: int, workers: int | None = None,
             progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Play ``games`` games; ``workers`` processes (default: every core; 1 plays in this process).

    ``progress`` is called with the number of games just finished. Results come back in game order.
    """
    game = get_game(spec.game)
    config = game.make_config(spec.options)  # fail early, in this process, on a bad config
    if len(spec.bots) != game.num_players(config):
        raise DivedeckError(f"{len(spec.bots)} bots for {game.num_players(config)} seats: give one bot per seat")
    for name in set(spec.bots):
        make_bot(spec.game, name, 0)
    workers = workers or os.cpu_count() or 1
    results: list[GameResult] = []
    if workers == 1:
        for index in range(games):
            results.append(play_game(spec, index))
            if progress:
                progress(1)
        return results
    chunk = max(1, min(50, games // (workers * 8) or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_play_chunk, spec, indices) for indices in _chunks(games, chunk)]
        for future in futures:
            part = future.result()
            results.extend(part)
            if progress:
                progress(len(part))
    return results
