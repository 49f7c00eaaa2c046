"""The one contract every divedeck game implements, and every caller (bots, terminal, server, simulator, RL) uses.

A game is plain data plus pure rules: it never reads a clock, never uses module-level randomness and knows nothing
of terminals or sockets. Callers hold a state, ask who may act and what is legal, apply an action, and read each
seat's redacted view.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from .config import build_config, describe_options
from .errors import IllegalAction
from .events import Event
from .outcome import Outcome


class GameState(Protocol):
    """What the engine needs of every state: a cheap deep copy that shares nothing mutable."""

    def clone(self) -> Any: ...


S = TypeVar("S", bound=GameState)

# The seat that the caller's clock acts for: timeout actions (``Game.tick``) are applied with this seat number.
CLOCK = -1
A = TypeVar("A")


class Game(ABC, Generic[S, A]):
    """A game's rules. Instances are stateless; all game data lives in the state."""

    name: ClassVar[str]
    title: ClassVar[str]
    config_type: ClassVar[type]
    # A real-time game's actions carry a timestamp in integer milliseconds, given by the caller (``at``); the game
    # exposes its next deadline and the caller applies ``tick`` for seat ``CLOCK`` when it passes. Turn-based games
    # keep the defaults below and never see a time.
    realtime: ClassVar[bool] = False

    # -- configuration ---------------------------------------------------------------------------------------
    def make_config(self, options: Mapping[str, Any] | None = None) -> Any:
        """A validated config from loose option values; raises ``ConfigError`` with the reason."""
        return build_config(self.config_type, options or {})

    def options(self) -> list[dict[str, Any]]:
        return describe_options(self.config_type)

    @abstractmethod
    def num_players(self, config: Any) -> int: ...

    # -- play ------------------------------------------------------------------------------------------------
    @abstractmethod
    def new(self, config: Any, seed: int) -> S:
        """A new game set up from ``config``; every shuffle comes from the state's RNG seeded with ``seed``."""

    def new_with_events(self, config: Any, seed: int) -> tuple[S, list[Event]]:
        """``new`` and the events of the setup (a deal, say), so logs can start with the first hands."""
        return self.new(config, seed), []

    @abstractmethod
    def actors(self, state: S) -> frozenset[int]:
        """The seats that may act now (empty once the game is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every action ``seat`` may take now, in a stable order (empty if it may not act)."""

    @abstractmethod
    def check(self, state: S, seat: int, action: A) -> None:
        """Raise ``IllegalAction`` (with the rule ID) if ``seat`` may not take ``action`` now."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> list[Event]:
        """Validate, then perform ``action``; a rejected action raises and leaves ``state`` untouched."""

    def is_legal(self, state: S, seat: int, action: A) -> bool:
        try:
            self.check(state, seat, action)
        except IllegalAction:
            return False
        return True

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    # -- information -----------------------------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """A JSON-safe picture of the game as ``seat`` may see it (``None``: a spectator)."""

    @abstractmethod
    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with everything ``seat`` knows, hidden cards sampled with ``rng``.

        The result depends only on ``seat``'s information and ``rng``, never on the true hidden cards, and
        its own RNG is reseeded from ``rng`` so future shuffles cannot be foreseen either.
        """

    # -- search --------------------------------------------------------------------------------------------------
    def random_playout(self, state: S, random_float: Callable[[], float], max_actions: int,
                       stop_events: frozenset[str] = frozenset()) -> int:
        """Play ``state`` on with uniformly random legal actions; return how many actions were taken.

        The rollout of a search bot. The lowest seat in ``actors`` acts; with two legal actions or more it takes
        ``legal[int(random_float() * len(legal))]``, with one it takes it without a draw. The playout stops when the
        game is over, after ``max_actions`` actions, or right after an action whose events include a kind in
        ``stop_events`` while the game goes on. A game may override this with a faster loop of its own, which must
        take the same actions for the same draws and leave the same state (its tests compare the two).
        """
        actors = self.actors
        legal_actions = self.legal_actions
        apply = self.apply
        steps = 0
        movers = actors(state)
        while movers and steps < max_actions:
            seat = min(movers)
            legal = legal_actions(state, seat)
            action = legal[int(random_float() * len(legal))] if len(legal) > 1 else legal[0]
            events = apply(state, seat, action)
            steps += 1
            movers = actors(state)
            if stop_events and movers and any(event.kind in stop_events for event in events):
                break
        return steps

    # -- notation --------------------------------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written as ``text``; raises ``MalformedInput`` if it is not one."""

    @abstractmethod
    def format_action(self, action: A) -> str: ...

    def public_action(self, action: A, seat: int | None, actor: int) -> str:
        """``actor``'s action as ``seat`` may read it (a typed guess may be the secret word: only its author sees it
        before it is judged). Most games hide nothing in an action."""
        return self.format_action(action)

    @abstractmethod
    def state_notation(self, state: S) -> str:
        """The whole state in text (every hidden card shown): for tests, logs and bug reports."""

    @abstractmethod
    def seat_notation(self, state: S, seat: int | None) -> str:
        """The state as ``seat`` sees it (``None``: a spectator): every card it cannot see written as unknown."""

    @abstractmethod
    def parse_state(self, text: str, config: Any | None = None) -> S:
        """The state written as ``text`` (raises ``MalformedInput``)."""

    def format_event(self, event: Event, seat: int | None = None) -> str:
        """One readable log line for ``event`` as ``seat`` may see it."""
        shown = event.for_seat(seat)
        kind = shown.pop("kind")
        return f"{kind} " + " ".join(f"{k}={v}" for k, v in shown.items())

    # -- time (real-time games only) ----------------------------------------------------------------------------
    def at(self, action: A, t: int) -> A:
        """``action`` taking place at ``t`` ms (legal actions are listed unstamped; the caller stamps its choice)."""
        return action

    def deadline(self, state: S) -> int | None:
        """The time (ms) at which the caller must apply ``tick`` for seat ``CLOCK``, if any."""
        return None

    def tick(self, t: int) -> A:
        """The timeout action at ``t`` ms: it only lets deadlines up to ``t`` fire."""
        raise NotImplementedError(f"{self.name} has no clock")

    def leave_action(self, state: S, seat: int, t: int) -> A | None:
        """What ``seat`` does by losing its connection at ``t`` (a real-time game may say: it breathes)."""
        return None

    def card_count(self, state: S) -> int | None:
        """How many cards the state holds in all, for conservation checks (``None``: not a card game)."""
        return None
