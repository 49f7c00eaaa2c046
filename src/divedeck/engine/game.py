"""The one contract every divedeck game implements, and every caller (bots, terminal, server, simulator, RL) uses.

A game is plain data plus pure rules: it never reads a clock, never uses module-level randomness and knows nothing
of terminals or sockets. Callers hold a state, ask who may act and what is legal, apply an action, and read each
seat's redacted view.

The engine is the frame: ``apply`` and ``check`` are final. They check once, for every game, that the seat exists,
that the game is not over and that the seat may act now (and stamp a real-time action with the caller's time), and
only then call the game's hooks ``validate`` and ``perform``. ``new`` is ``new_with_events`` without the events.
What a game declares about itself for the layers above (bots, levels, front ends, player range, options) is read
from the class attributes and methods under "declarations".
"""

from __future__ import annotations

import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Generic, Protocol, TypeVar, final

from .config import build_config, describe_options, option_bounds
from .declaration import BotEntry, DataFile, Frontend, Levels, Metrics, Preset
from .errors import ConfigError, IllegalAction
from .events import Event
from .hidden import concealed
from .moves import MoveTable
from .observation import ObservationEncoder
from .outcome import Outcome
from .records import ActionRecord, LogPart, render_parts


class GameState(Protocol):
    """What the engine needs of every state: a cheap deep copy that shares nothing mutable."""

    def clone(self) -> Any: ...


S = TypeVar("S", bound=GameState)

# The seat that the caller's clock acts for: timeout actions (``Game.tick``) are applied with this seat number.
CLOCK = -1
A = TypeVar("A")


# The frame's methods: a game implements the hooks they call, never these.
_FINAL = ("apply", "check", "new", "is_legal", "public_action")


class Game(ABC, Generic[S, A]):
    """A game's rules. Instances are stateless; all game data lives in the state."""

    name: ClassVar[str]
    title: ClassVar[str]
    config_type: ClassVar[type]
    # A real-time game's actions carry a timestamp in integer milliseconds, given by the caller (``at``); the game
    # exposes its next deadline and the caller applies ``tick`` for seat ``CLOCK`` when it passes. Turn-based games
    # keep the defaults below and never see a time.
    realtime: ClassVar[bool] = False
    # Whether a clock per move (the server's, chosen when a table is made: docs/protocol.md, "The clock") makes
    # sense for the game: its turns are decisions one seat at a time. A game with its own clocks (a real-time dive,
    # a sand timer) leaves it False, and a table of it is never offered one.
    move_clock: ClassVar[bool] = False
    # Whether ``action_record(state, seat, action)`` depends on the config, the seat and the action only, never on
    # the rest of the state: then a server keeps each record it made and sends the same one again.
    records_fixed: ClassVar[bool] = False

    # -- declarations ----------------------------------------------------------------------------------------
    # The rules the frame cites when it refuses an action: no such seat, not this seat's turn, the game is over.
    seat_rule: ClassVar[str | None] = None
    turn_rule: ClassVar[str | None] = None
    over_rule: ClassVar[str | None] = None
    # The game's own bots by name (the generic ones, random and the levels, come from ``bots/``).
    bots: ClassVar[Mapping[str, BotEntry]] = {}
    levels: ClassVar[Levels] = Levels()
    frontends: ClassVar[frozenset[Frontend]] = frozenset({Frontend.BROWSER})
    # Set-ups a lobby offers in one step (seats and options together), in the order it lists them.
    presets: ClassVar[tuple[Preset, ...]] = ()
    # What a designer's report measures in each game, its human pace, whether the seats are one team (sim/).
    metrics: ClassVar[Metrics | None] = None
    # A line for people choosing a game: what it is, how many play, how long it takes.
    summary: ClassVar[str] = ""
    # How a person types a move, with examples: shown by the terminal's ``help``.
    action_help: ClassVar[str] = ""
    # A guided first game, for a lobby's "Learn to play": a fixed deal (``seed``), its ``seats`` (as a table is
    # created with) and ``options``; the hints come from ``guide_hint``. ``None``: the game offers none.
    guide: ClassVar[Mapping[str, Any] | None] = None
    # The data files a designer may edit (a deck, treasures, a word list): shown and checked by `divedeck data`.
    data_files: ClassVar[tuple[DataFile, ...]] = ()
    # The fixed-size numeric observation learners get (``engine/observation.py``; ``divedeck.rl`` reads it):
    # ``observation(game, config)`` makes the encoder (a class). ``None``: the game offers none.
    observation: ClassVar[type[ObservationEncoder] | None] = None
    # The batched form of the rules for learning (pure JAX, pgx's Env API), as "module:Class", imported only when
    # asked for (``divedeck.rl.jax``; it needs the jax extra): ``Class(config)`` is the environment. It is never the
    # reference: a differential test plays it against the rules. ``None``: the game has none.
    batched: ClassVar[str | None] = None
    # Trained policies the ``learned`` bot plays (``bots/learned.py``): player count -> a ``.npz`` file in the game's
    # ``data/`` folder. The bot is offered for those player counts only. Empty: the game ships none.
    learned: ClassVar[Mapping[int, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        overridden = [name for name in _FINAL if name in vars(cls)]
        if overridden:
            raise TypeError(f"{cls.__name__} overrides {', '.join(overridden)}: a game implements the hooks "
                            "(new_with_events, validate, perform), the engine's frame does the rest; an action "
                            "hides a field from the other seats by naming it in private_fields")
        fast = _bound_apply(cls)
        if fast is not None:
            cls.apply = fast  # type: ignore[misc,method-assign]  # the frame specialises itself; games still may not override it

    def player_range(self, options: Mapping[str, Any] | None = None) -> range:
        """How many may play with these options (the other options as given, ``num_players`` left free)."""
        base = {k: v for k, v in (options or {}).items() if k.replace("-", "_") != "num_players"}
        low, high = option_bounds(self.config_type, "num_players")
        fits = []
        for count in range(low if low is not None else 1, (high if high is not None else 16) + 1):
            try:
                self.make_config({**base, "num_players": count})
            except ConfigError:
                continue
            fits.append(count)
        return range(fits[0], fits[-1] + 1) if fits else range(0)

    def with_players(self, options: Mapping[str, Any], count: int) -> dict[str, Any]:
        """``options`` for a table of ``count`` seats (the player count is itself an option where a game has it)."""
        names = {row["name"] for row in self.options()}
        return {**options, "num_players": count} if "num_players" in names else dict(options)

    def default_players(self) -> int:
        """How many seats the default config has."""
        return self.num_players(self.make_config())

    def file_options(self) -> list[str]:
        """The options that name a file on the machine that runs the game (a server refuses them unless told)."""
        return [row["name"] for row in self.options() if row.get("file")]

    # -- configuration ---------------------------------------------------------------------------------------
    def make_config(self, options: Mapping[str, Any] | None = None) -> Any:
        """A validated config from loose option values; raises ``ConfigError`` with the reason."""
        return build_config(self.config_type, options or {})

    def options(self) -> list[dict[str, Any]]:
        return describe_options(self.config_type)

    @abstractmethod
    def num_players(self, config: Any) -> int: ...

    # -- play ------------------------------------------------------------------------------------------------
    @final
    def new(self, config: Any, seed: int) -> S:
        """A new game set up from ``config``; every shuffle comes from the state's RNG seeded with ``seed``."""
        return self.new_with_events(config, seed)[0]

    @abstractmethod
    def new_with_events(self, config: Any, seed: int) -> tuple[S, list[Event]]:
        """A new game and the events of its setup (a deal, say), so logs can start with the first hands."""

    @abstractmethod
    def actors(self, state: S) -> frozenset[int]:
        """The seats that may act now (empty once the game is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every action ``seat`` may take now, in a stable order (empty if it may not act)."""

    @final
    def check(self, state: S, seat: int, action: A, at: int | None = None) -> None:
        """Raise ``IllegalAction`` (with the rule ID) if ``seat`` may not take ``action`` now (at ``at`` ms)."""
        if at is not None:
            action = self.at(action, at)
        self._admit(state, seat)
        self.validate(state, seat, action)

    @final
    def apply(self, state: S, seat: int, action: A, at: int | None = None) -> list[Event]:
        """Validate, then perform ``action`` (stamped ``at`` ms in a real-time game); a rejected action raises and
        leaves ``state`` untouched."""
        if at is not None:
            action = self.at(action, at)
        if self.realtime:
            self._admit_in_time(state, seat)
        elif seat not in self.actors(state):
            self._refuse(state, seat)
        return self.perform(state, seat, action)

    @final
    def is_legal(self, state: S, seat: int, action: A) -> bool:
        try:
            self.check(state, seat, action)
        except IllegalAction:
            return False
        return True

    def _admit(self, state: S, seat: int) -> None:
        """The frame's checks of ``seat`` (``apply`` repeats them inline: it is the hottest call of every search)."""
        if self.realtime:
            self._admit_in_time(state, seat)
        elif seat not in self.actors(state):
            self._refuse(state, seat)

    def _refuse(self, state: S, seat: int) -> None:
        """Raise why ``seat``, not among the actors of a turn-based game, may not act."""
        if self.outcome(state) is not None:
            raise IllegalAction("the game is over", self.over_rule)
        self._check_seat(state, seat)
        raise IllegalAction(*self.waiting_reason(state, seat))

    def _admit_in_time(self, state: S, seat: int) -> None:
        """A real-time game's actors are those of the action's own time, after every deadline before it has fired,
        so the frame checks the seat (the clock's included) and the end of the game, and the game's hooks judge
        the rest at that time."""
        if self.outcome(state) is not None:
            raise IllegalAction("the game is over", self.over_rule)
        if seat != CLOCK:
            self._check_seat(state, seat)

    def _check_seat(self, state: S, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seat_count(state):
            raise IllegalAction(f"there is no seat {seat!r} in this game", self.seat_rule)

    def seat_count(self, state: S) -> int:
        """How many seats the game in ``state`` has."""
        return self.num_players(state.config)  # type: ignore[attr-defined]

    def waiting_reason(self, state: S, seat: int) -> tuple[str, str | None]:
        """Why ``seat`` (a seat of the game, not an actor now) must wait, and the rule."""
        actors = sorted(self.actors(state))
        if len(actors) == 1:
            return f"it is seat {actors[0]}'s turn, not seat {seat}'s", self.turn_rule
        return f"seat {seat} may not act now; waiting for seat(s) {', '.join(map(str, actors))}", self.turn_rule

    @abstractmethod
    def validate(self, state: S, seat: int, action: A) -> None:
        """The game's own checks of ``action`` by ``seat``, an actor (the frame has checked that): raise
        ``IllegalAction`` with the reason and rule ID."""

    @abstractmethod
    def perform(self, state: S, seat: int, action: A) -> list[Event]:
        """Validate ``action`` by ``seat``, an actor (the frame has checked that), completely, then perform it and
        return its events; a rejected action raises and leaves ``state`` untouched."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    # -- information -----------------------------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """A JSON-safe picture of the game as ``seat`` may see it (``None``: a spectator)."""

    def views(self, state: S, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """``view`` of each of ``seats``, in order, equal to calling it per seat: a server sends every seat its own
        view after each action, and a game may build what the views share once (the lists in them may be shared
        between the views: read them, never change them)."""
        return [self.view(state, seat) for seat in seats]

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

    # -- the move table ----------------------------------------------------------------------------------------
    def all_actions(self, config: Any) -> Sequence[A]:
        """Every action any seat could ever take under ``config``, unstamped, in a fixed order (the move table's).

        A real-time game lists its actions without their time; free text (a typed guess) is outside the table."""
        raise NotImplementedError(f"{self.name} has no move table yet")

    @final
    def move_table(self, config: Any) -> MoveTable[A]:
        """The fixed bijection between every action of ``config`` and an integer (Hanabi LE's move table)."""
        return _move_table(self, config)

    # -- notation --------------------------------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written as ``text``; raises ``MalformedInput`` if it is not one."""

    @abstractmethod
    def format_action(self, action: A) -> str: ...

    @final
    def public_action(self, action: A, seat: int | None, actor: int) -> str:
        """``actor``'s action as ``seat`` may read it (``None``: a spectator or a replay's reader): the fields its
        class declares in ``private_fields`` are written as ``?`` for every seat but the actor's, so a face-down
        card or a typed guess reaches its author alone, whatever the game."""
        return self.format_action(action if seat == actor else concealed(action))

    @abstractmethod
    def state_notation(self, state: S) -> str:
        """The whole state in text (every hidden card shown): for tests, logs and bug reports."""

    @abstractmethod
    def seat_notation(self, state: S, seat: int | None) -> str:
        """The state as ``seat`` sees it (``None``: a spectator): every card it cannot see written as unknown."""

    @abstractmethod
    def parse_state(self, text: str, config: Any | None = None) -> S:
        """The state written as ``text`` (raises ``MalformedInput``)."""

    # -- presentation: what the server sends and the terminal prints, in player words -----------------------------
    def action_record(self, state: S, seat: int, action: A) -> ActionRecord:
        """``action`` (legal for ``seat`` now) as a record: notation, kind, cards, target and a label for people."""
        notation = self.format_action(action)
        return {"notation": notation, "kind": type(action).__name__.lower(), "cards": [], "target": None,
                "label": notation}

    def log_parts(self, event: Event, seat: int | None = None) -> list[LogPart]:
        """``event`` as ``seat`` may read it, as parts of a log line (the one log writer of the game)."""
        shown = event.for_seat(seat)
        kind = shown.pop("kind")
        return [{"text": f"{kind} " + " ".join(f"{k}={v}" for k, v in shown.items())}]

    def shown_event(self, event: Event, seat: int | None) -> dict[str, Any]:
        """``event`` as ``seat`` receives it on the wire: ``event.for_seat(seat)`` with its log line in parts. A game
        whose ``log_parts`` starts from ``for_seat`` may override this to redact the event once, not twice."""
        return {**event.for_seat(seat), "parts": self.log_parts(event, seat)}

    def shown_events(self, events: Sequence[Event], seats: Sequence[int | None]) -> list[list[dict[str, Any]]]:
        """``events`` as each of ``seats`` receives them (``shown_event`` for each), in the order of ``seats``. A
        game whose events read the same to most seats may build those once and share them (Snorkeling does)."""
        return [[self.shown_event(event, seat) for event in events] for seat in seats]

    def format_event(self, event: Event, seat: int | None = None, names: list[str] | None = None) -> str:
        """One readable log line for ``event`` as ``seat`` may see it (seats by ``names`` where given)."""
        return render_parts(self.log_parts(event, seat), seat, names)

    def guide_hint(self, state: S, seat: int) -> dict[str, Any] | None:
        """A new player's hint at ``seat`` in a guided game, in words: ``text`` (what to look at, the good move and
        why) and the suggested action's ``notation`` (``None`` while there is nothing to do but watch)."""
        return None

    def static_data(self, config: Any) -> dict[str, Any]:
        """What never changes during a game of ``config`` and every seat may know (card tables, colours, names):
        sent once when a page joins, never in every view."""
        return {}

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

    # -- taking a move back ----------------------------------------------------------------------------------------
    def undoable(self, before: S, seat: int, action: A, events: Sequence[Event]) -> bool:
        """Whether ``seat`` may take ``action`` back while its turn goes on: ``before`` is the state it was taken in
        and ``events`` what it did. Only a move that revealed nothing and drew nothing may be (the server then
        rebuilds the state from the log without it, so nobody's view can tell it happened); a real-time game's
        moves never are. The default: no move may be taken back."""
        return False

    def card_count(self, state: S) -> int | None:
        """How many cards the state holds in all, for conservation checks (``None``: not a card game)."""
        return None


def _bound_apply(cls: type[Game[Any, Any]]) -> Callable[..., list[Event]] | None:
    """The frame's ``apply`` for a turn-based game whose ``actors`` and ``perform`` are plain functions, with both
    bound in at class creation: the same checks as ``Game.apply`` without two attribute look-ups and a branch on
    every call, which is the hottest call of every search and simulation (about 4% of a Snorkeling decision)."""
    actors_hook = inspect.getattr_static(cls, "actors")
    perform_hook = inspect.getattr_static(cls, "perform")
    if cls.realtime or not (isinstance(actors_hook, staticmethod) and isinstance(perform_hook, staticmethod)):
        return None
    actors, perform = actors_hook.__func__, perform_hook.__func__

    def apply(self: Game[Any, Any], state: Any, seat: int, action: Any, at: int | None = None) -> list[Event]:
        if at is not None:
            action = self.at(action, at)
        if seat not in actors(state):
            self._refuse(state, seat)
        return perform(state, seat, action)  # type: ignore[no-any-return]

    apply.__doc__ = Game.apply.__doc__
    apply.__qualname__ = f"{cls.__qualname__}.apply"
    return apply


@lru_cache(maxsize=64)
def _move_table(game: Game[Any, Any], config: Any) -> MoveTable[Any]:
    return MoveTable(game.all_actions(config), game.format_action)
