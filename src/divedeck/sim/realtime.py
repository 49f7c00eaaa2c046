"""Play a real-time game between bots in simulated time: no waiting, no clock read.

The driver (``driver.py``) says what happens next; the simulation jumps to that time and applies it (a deadline as
``game.tick`` for seat ``CLOCK``, a bot's plan stamped with ``game.at``). A turn-based bot plays too, at the
driver's untimed pace. That is a baseline, not a player: the generic ``random`` bot breathes out at random, so in a
game with a countdown before the dive (Bermuda's) it almost never lets the dive start; such a game stops at
``max_time_ms`` of simulated time with an error saying so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.errors import DivedeckError, IllegalAction
from ..engine.game import CLOCK, Game
from ..engine.outcome import Outcome
from .driver import RealtimeDriver

MAX_TIME_MS = 6 * 3600 * 1000  # six simulated hours: far beyond any real game
MAX_REFUSALS = 1000  # a bot whose planned actions keep being refused is broken


def play_realtime(game: Game[Any, Any], config: Any, seed: int, bots: Sequence[Any], *,
                  max_time_ms: int = MAX_TIME_MS) -> tuple[Outcome, int, int]:
    """Play one game from ``seed`` with one bot per seat; returns the outcome, the actions taken (ticks included)
    and the simulated time at the end (ms)."""
    state = game.new(config, seed)
    driver = RealtimeDriver(game)
    for seat, bot in enumerate(bots):
        driver.seat_bot(seat, bot, state, 0)
    now = actions = refusals = 0
    while (outcome := game.outcome(state)) is None:
        due = driver.due(state)
        if due is None:
            raise DivedeckError("the game is stuck: no bot plans anything and the game has no deadline")
        if due.t > max_time_ms:
            raise DivedeckError(f"the game did not end within {max_time_ms // 60_000} simulated minutes (a "
                                "turn-based bot like random rarely lets a real-time game's countdown run out: use "
                                "the game's timed bots, or countdown_ms=0)")
        now = due.t
        try:
            events = game.apply(state, due.seat, due.action)
        except IllegalAction:
            refusals += 1
            if due.seat == CLOCK or refusals > MAX_REFUSALS:
                raise
            driver.refused(state, due.seat, now)
            continue
        actions += 1
        driver.applied(state, due.seat, now, events)
    return outcome, actions, now
