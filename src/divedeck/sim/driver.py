"""The one real-time driver: what happens next at a real-time table, and when. The simulator, the server, the
terminal and tournaments all use it, each with its own clock.

It is a pure scheduler over one table's state. Every seat a bot plays has a plan (``TimedBot.plan``: a delay and an
action); after each applied action every such seat whose view changed (and the one that acted) plans again and its
old plan is dropped, as at a real table. A bot with a ``notice`` method is told the action's events instead (when the
caller passes them to ``applied``), narrowed to what its seat may see (``events_seen_by``), and plans again only if
it says its plan may have changed: its planned action and time stand until an event changes what it is planning
from, or its time comes, and its view is not even built. The game's next deadline is a tick for seat ``CLOCK``.
``due`` names the earliest of them (ties: the clock first, so a deadline fires before an input stamped at or after
it, then the seat that has waited longest since it last acted, so no seat wins every same-millisecond race by its
number); the caller waits until then on its clock (a simulation jumps there), applies it, and
reports back with ``applied`` (or ``refused``).

A bot without a sense of time (``choose`` but no ``plan``) acts ``untimed_pace_ms`` after it was seated and after
each of its own actions: a baseline at a human pace, never as fast as the loop can turn. A bot whose planned move
was refused (it went out of date) plans again, and acts no sooner than ``RETRY_MS`` later.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..engine.decision import Decision
from ..engine.events import events_seen_by
from ..engine.game import CLOCK, Game

UNTIMED_PACE_MS = 1000
MIN_UNTIMED_PACE_MS = 250
RETRY_MS = 200


@dataclass(frozen=True, slots=True)
class Due:
    """What happens next: ``action`` (stamped ``t``) for ``seat`` (``CLOCK`` for the game's deadline)."""

    t: int
    seat: int
    action: Any


class _BotSeat:
    __slots__ = ("bot", "timed", "notice", "plan", "view", "ready_at", "acted")

    def __init__(self, bot: Any, ready_at: int) -> None:
        self.bot = bot
        self.timed = callable(getattr(bot, "plan", None))
        notice = getattr(bot, "notice", None) if self.timed else None
        self.notice = notice if callable(notice) else None
        self.plan: tuple[int, Any] | None = None  # (time, unstamped action)
        self.view: dict[str, Any] | None = None  # the view its plan was made from
        self.ready_at = ready_at  # it acts no sooner than this
        self.acted = -1  # when it last acted, in the driver's count of applied actions (-1: not yet)


class RealtimeDriver:
    """The plans of one real-time table's bot seats and its game's deadline."""

    def __init__(self, game: Game[Any, Any], untimed_pace_ms: int = UNTIMED_PACE_MS) -> None:
        self.game = game
        self.untimed_pace_ms = max(MIN_UNTIMED_PACE_MS, untimed_pace_ms)
        self.seats: dict[int, _BotSeat] = {}
        self.applied_count = 0

    def seat_bot(self, seat: int, bot: Any, state: Any, now: int) -> None:
        """``bot`` plays ``seat`` from ``now`` on."""
        occupant = _BotSeat(bot, now)
        if not occupant.timed:
            occupant.ready_at = now + self.untimed_pace_ms
        self.seats[seat] = occupant
        self._plan(state, seat, now)

    def unseat(self, seat: int) -> None:
        """A person plays ``seat`` again: its bot's plan is dropped."""
        self.seats.pop(seat, None)

    def plan(self, seat: int) -> tuple[int, Any] | None:
        """``seat``'s plan: (time, unstamped action), or ``None``."""
        occupant = self.seats.get(seat)
        return None if occupant is None else occupant.plan

    def due(self, state: Any) -> Due | None:
        """The next thing to happen, or ``None`` if nothing will until someone acts."""
        deadline = self.game.deadline(state)
        planned = min(((occupant.plan[0], occupant.acted, seat) for seat, occupant in self.seats.items()
                       if occupant.plan is not None), default=None)
        if deadline is not None and (planned is None or deadline <= planned[0]):
            return Due(deadline, CLOCK, self.game.tick(deadline))
        if planned is None:
            return None
        t, _, seat = planned
        plan = self.seats[seat].plan
        assert plan is not None
        return Due(t, seat, self.game.at(plan[1], t))

    def applied(self, state: Any, seat: int, now: int, events: Sequence[Any] | None = None) -> None:
        """``seat`` (anyone, the clock included) acted at ``now``, with ``events`` if the caller has them: replan
        the bot seats whose view changed (a bot that notices events: whose plan those events may change)."""
        self.applied_count += 1
        occupant = self.seats.get(seat)
        if occupant is not None:
            occupant.acted = self.applied_count
            if not occupant.timed:
                occupant.ready_at = now + self.untimed_pace_ms
        self.replan(state, now, (seat,), events)

    def refused(self, state: Any, seat: int, now: int) -> None:
        """``seat``'s planned action was refused at ``now`` (it went out of date): it thinks again shortly."""
        occupant = self.seats.get(seat)
        if occupant is not None:
            occupant.ready_at = max(occupant.ready_at, now + RETRY_MS)
            self._plan(state, seat, now)

    def replan(self, state: Any, now: int, also: Iterable[int] = (), events: Sequence[Any] | None = None) -> None:
        """Ask every bot seat whose view changed (and those in ``also``) for a new plan; with ``events``, a bot that
        notices them is asked only if it says they may change its plan."""
        game = self.game
        actors = game.actors(state)
        view_of = game.view
        again = set(also)
        # Most actions' events hold no secret: then every seat is told the same records, narrowed by nobody.
        secret = events is not None and events_seen_by(events, None) is not events
        for seat, occupant in self.seats.items():
            if seat not in actors:
                occupant.plan = occupant.view = None
                continue
            if events is not None and occupant.notice is not None and occupant.view is not None \
                    and seat not in again:
                if occupant.notice(events_seen_by(events, seat) if secret else events):
                    self._plan(state, seat, now, None, actors)
                continue
            view = view_of(state, seat)
            if seat in again or view != occupant.view:
                self._plan(state, seat, now, view, actors)

    def _plan(self, state: Any, seat: int, now: int, view: dict[str, Any] | None = None,
              actors: frozenset[int] | None = None) -> None:
        game = self.game
        occupant = self.seats[seat]
        occupant.plan = None
        occupant.view = view = game.view(state, seat) if view is None else view
        if actors is None:
            actors = game.actors(state)
        legal = game.legal_actions(state, seat) if seat in actors else []
        if not legal:
            return
        decision = Decision(game, seat, view, legal, partial(game.determinize, state, seat), now)
        if not occupant.timed:
            occupant.plan = (max(now, occupant.ready_at), occupant.bot.choose(decision))
            return
        planned = occupant.bot.plan(decision)
        if planned is not None:
            delay, action = planned
            occupant.plan = (max(now + max(0, int(delay)), occupant.ready_at), action)
