"""Play a real-time game between bots by discrete events, in simulated time (no waiting, no clock read).

Every bot plans (``TimedBot.plan``: an action and a delay); the earliest planned action happens at its time,
stamped with ``game.at(action, t)``; a deadline of the game (``game.deadline``) that comes first fires as
``game.tick(t)`` applied for seat ``CLOCK``. After each change, every seat whose view changed plans again (its old
plan is dropped), as at a real table. Ties in time go to the clock first (a deadline fires before an input stamped
at or after it), then to the lower seat.

A turn-based bot (one with ``choose`` but no ``plan``) plays too: it acts ``TURN_BOT_PACE_MS`` after its previous
action. That is a baseline, not a player: the generic ``random`` bot breathes out at random, so in a game with a
countdown before the dive (Bermuda's ``countdown_ms``) it almost never lets the dive start; such a game stops at
``max_time_ms`` of simulated time with an error saying so.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ..bots.base import Decision
from ..engine.errors import DivedeckError, IllegalAction
from ..engine.game import CLOCK, Game
from ..engine.outcome import Outcome

TURN_BOT_PACE_MS = 1000
MAX_TIME_MS = 6 * 3600 * 1000  # six simulated hours: far beyond any real game
MAX_REFUSALS = 1000  # a bot whose planned actions keep being refused is broken


class _Seat:
    __slots__ = ("bot", "plan", "view", "ready_at")

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.plan: tuple[int, Any] | None = None  # (time, unstamped action)
        self.view: dict[str, Any] | None = None
        self.ready_at = 0  # a turn-based bot's next possible action


def play_realtime(game: Game[Any, Any], config: Any, seed: int, bots: Sequence[Any], *,
                  max_time_ms: int = MAX_TIME_MS) -> tuple[Outcome, int, int]:
    """Play one game from ``seed`` with one bot per seat; returns the outcome, the actions taken (ticks included)
    and the simulated time at the end (ms)."""
    state = game.new(config, seed)
    seats = [_Seat(bot) for bot in bots]
    now = 0
    actions = 0
    refusals = 0

    def replan(seat: int, view: dict[str, Any]) -> None:
        occupant = seats[seat]
        occupant.view = view
        occupant.plan = None
        legal = game.legal_actions(state, seat)
        if not legal:
            return
        decision = Decision(game, seat, view, legal, partial(game.determinize, state, seat), now)
        planner = getattr(occupant.bot, "plan", None)
        if planner is None:
            occupant.plan = (max(now, occupant.ready_at), occupant.bot.choose(decision))
            return
        planned = planner(decision)
        if planned is not None:
            delay, action = planned
            occupant.plan = (now + max(0, int(delay)), action)

    def replan_changed(actor: int | None) -> None:
        actors = game.actors(state)
        for seat, occupant in enumerate(seats):
            if seat not in actors:
                occupant.plan = None
                continue
            view = game.view(state, seat)
            if seat == actor or view != occupant.view:
                replan(seat, view)

    replan_changed(None)
    while (outcome := game.outcome(state)) is None:
        due = game.deadline(state)
        planned = [(occupant.plan[0], seat) for seat, occupant in enumerate(seats) if occupant.plan is not None]
        first = min(planned) if planned else None
        if due is not None and (first is None or due <= first[0]):
            seat, t, action = CLOCK, due, game.tick(due)
        elif first is not None:
            t, seat = first
            plan = seats[seat].plan
            assert plan is not None
            action = game.at(plan[1], t)
        else:
            raise DivedeckError("the game is stuck: no bot plans anything and the game has no deadline")
        if t > max_time_ms:
            raise DivedeckError(f"the game did not end within {max_time_ms // 60_000} simulated minutes (a "
                                "turn-based bot like random rarely lets a real-time game's countdown run out: use "
                                "the game's timed bots, or countdown_ms=0)")
        now = t
        try:
            game.apply(state, seat, action)
        except IllegalAction:
            refusals += 1
            if seat == CLOCK or refusals > MAX_REFUSALS:
                raise
            replan(seat, game.view(state, seat))
            continue
        actions += 1
        if seat != CLOCK:
            seats[seat].ready_at = now + TURN_BOT_PACE_MS
        replan_changed(seat if seat != CLOCK else None)
    return outcome, actions, now
