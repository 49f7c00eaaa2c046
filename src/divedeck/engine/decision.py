"""What a bot is given and what it returns: the one question every bot answers, for any game.

A bot sees a ``Decision``: its seat, that seat's view and legal actions, and a ``determinize`` that samples a full
state consistent with what the seat knows (for search). It never receives the true state, so it cannot read
another seat's hand. It lives in the engine, beside the contract, so that a game's own bots need nothing from the
layers above it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Decision:
    game: Game[Any, Any]
    seat: int
    view: dict[str, Any]
    legal: Sequence[Any]
    # rng -> a full state consistent with this seat's information, hidden cards sampled with rng.
    determinize: Callable[[random.Random], Any] = field(repr=False)
    # The caller's clock (ms) in a real-time game, else None.
    now: int | None = None


class Bot(Protocol):
    name: str

    def choose(self, decision: Decision) -> Any:
        """One of ``decision.legal``."""
        ...


class TimedBot(Protocol):
    """A bot for a real-time game: it says what it will do and after how long, like a person at the table."""

    name: str

    def plan(self, decision: Decision) -> tuple[int, Any] | None:
        """``(delay_ms, action)``: take ``action`` (unstamped, one of ``decision.legal``) ``delay_ms`` after
        ``decision.now`` unless the seat's view changes first (then the caller asks again); ``None``: nothing to do
        until the view changes."""
        ...

    # Optional (the driver looks for it): ``notice(events) -> bool``, given the events of an action by someone else
    # since the bot's last plan, says whether that plan may have changed; ``False`` keeps it (its action and time)
    # without building the seat's view. A bot reads of each event only what ``event.for_seat(its seat)`` shows.


def decision_for(game: Game[Any, Any], state: Any, seat: int, now: int | None = None) -> Decision:
    """The decision ``seat`` faces in ``state``: its view, its legal actions and a determinizer of its knowledge."""
    return Decision(game, seat, game.view(state, seat), game.legal_actions(state, seat),
                    partial(game.determinize, state, seat), now)


def decide(bot: Bot, game: Game[Any, Any], state: Any, seat: int) -> Any:
    """Ask ``bot`` for ``seat``'s action, giving it only what that seat may know."""
    return bot.choose(decision_for(game, state, seat))
