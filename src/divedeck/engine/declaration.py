"""What a game declares about itself for the layers above ``games/``: its bots, its bot levels, its front ends, its
lobby presets.

The server, the command line, the bot registry, tournaments and the simulator read these declarations and never
name a game or one of its options; adding a game means filling them in once, in the game's package.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Frontend(StrEnum):
    """Where people can play a game."""

    TERMINAL = "terminal"  # `divedeck play`: turn by turn, or in real time for a real-time game
    BROWSER = "browser"  # a table page per person
    HOTSEAT = "hotseat"  # several people passing one browser screen, turn by turn
    SHARED_SCREEN = "shared-screen"  # several people at one screen at once (a party game)


@dataclass(frozen=True)
class Preset:
    """A way to set a table up in one step in a lobby: where every person sits (``frontend``: ``SHARED_SCREEN`` or
    ``HOTSEAT`` puts every seat at the creator's screen, ``BROWSER`` gives the creator one seat and every other
    person an invite link), the options it sets, and the player count (``None``: the game's default)."""

    title: str
    help: str
    frontend: Frontend
    options: Mapping[str, Any]
    players: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "help": self.help, "frontend": str(self.frontend), "options": dict(self.options),
                "players": self.players}


@dataclass(frozen=True)
class BotEntry:
    """One of a game's own bots: ``factory(seed)`` makes it. ``offered`` bots are listed for people; the others are
    accepted by name, for simulations and tests, but never offered in a lobby or a help text."""

    factory: Callable[[int], Any]
    description: str = ""
    offered: bool = True


# (game, unfinished state) -> each seat's expected reward in [0, 1] (its chance of winning).
Evaluator = Callable[[Any, Any], Sequence[float]]


def win_chances(points: Sequence[float], scale: float) -> list[float]:
    """Each seat's chance to win from its points: a softmax with temperature ``scale`` (in points).

    With two seats it is the logistic of the lead: a lead of ``scale`` points wins about 73% of the time.
    """
    top = max(points)
    weights = [math.exp((p - top) / scale) for p in points]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass(frozen=True)
class Cutoff:
    """How a search cuts a game's rollouts short: after ``actions`` actions, or at once after an action that
    produced an event of a kind in ``events`` (the end of a round: its scoring is exact, the next deal is noise),
    and then estimates each seat's chance with ``evaluator`` (which reads only the spectator's view of the
    search's sample)."""

    evaluator: Evaluator
    actions: int
    events: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Levels:
    """How a game is played at the levels people pick (``easy``, ``medium``, ``hard``; see ``bots/levels.py``).

    ``easy`` and ``medium`` name one of the game's own bots that plays that level; unnamed, ``medium`` is the game's
    first bot and ``easy`` mixes random moves with it. ``hard`` is a search of ``hard_iterations`` iterations a move
    (measured to take about a second), its rollouts cut by ``hard_cutoff``; ``hard_iterations=None`` offers no
    ``hard`` (a real-time game, whose bots plan in time, not by search) unless ``hard`` names a bot of the game's
    own that plays it. ``hard_prior`` makes ``hard``'s search use the game's ``learned`` policy as its prior (PUCT,
    ``bots/prior.py``) at the player counts it ships one for: set it only where that was measured stronger.
    """

    easy: str | None = None
    medium: str | None = None
    hard: str | None = None
    hard_iterations: int | None = 1000
    hard_cutoff: Cutoff | None = None
    hard_prior: bool = False
    stand_in: str = "medium"


# -- what a designer's report measures (``divedeck report``, ``sweep``, ``tune``: sim/report.py) -------------------


class MetricKind(StrEnum):
    """How a metric's per-game value is shaped, and so how a report sums it up and draws it."""

    NUMBER = "number"  # a number: its distribution, its mean with an interval
    PER_SEAT = "per_seat"  # a list, one number per seat: the mean per seat
    CATEGORY = "category"  # a label: each label's share, with intervals
    GROUPED = "grouped"  # {group: number}: the mean per group (groups a game lacks count as absent)
    GROUPED_RATE = "grouped_rate"  # {group: [successes, trials]}: the pooled rate per group, with intervals
    PLAYED = "played"  # a list per seat of {kind: uses}: how often each kind is used, the win share of its users


@dataclass(frozen=True)
class Metric:
    """One thing a game's report measures in every game. ``name`` is its key in ``Metrics.measure``'s answer and
    its column in the per-game CSV; ``label`` is what the report calls it. Metrics sharing a ``figure`` name are
    drawn in one figure. A NUMBER with ``win_by`` also gets the win rate by its quartiles (a Bermuda team's win
    rate by its breath length)."""

    name: str
    label: str
    kind: MetricKind = MetricKind.NUMBER
    unit: str = ""
    figure: str | None = None
    win_by: bool = False
    # GROUPED: the groups that mean the game stalled or hit a cap rather than ending as its rules intend (a
    # report's red flag when a game has any).
    stalls: tuple[str, ...] = ()
    # NUMBER, a share per game that is one side's win share (the starting seat's): drawn beside an equal share.
    equal_share: bool = False


@dataclass(frozen=True)
class Pace:
    """How long a game takes people: ``decision`` seconds per decision, ``round`` per round (dealing, scoring)
    and ``game`` for the setting up. A real-time game's simulated seconds are added as they are."""

    decision: float = 0.0
    round: float = 0.0
    game: float = 0.0

    def minutes(self, decisions: int, rounds: int = 0, seconds: float = 0.0) -> float:
        return (self.game + decisions * self.decision + rounds * self.round + seconds) / 60


@dataclass(frozen=True)
class DataField:
    """A number in a game's default data file that a sweep or a tuning run may vary (``--vary deck.panic=2..6``):
    ``write(value)`` gives the TOML text of the default data with it set, to be played through the file option
    ``option``, between ``low`` and ``high``."""

    name: str
    option: str
    help: str
    low: int
    high: int
    write: Callable[[int], str]


@dataclass(frozen=True)
class CardKinds:
    """The kinds of card or action whose impact a report measures (``report --impact``, Jaffe et al., AIIDE 2012):
    ``kinds(config)`` names them in the order a report lists them; ``of_action(config, action)`` names the kinds a
    seat's action plays (none for an action that plays no card: a pass, an end of turn). Counted over every
    action of a report's games (how often each is played, the win share of those who play it), and a barred bot
    is not offered an action of its barred kind while it has another legal choice."""

    kinds: Callable[[Any], Sequence[str]]
    of_action: Callable[[Any, Any], Sequence[str]]


@dataclass(frozen=True)
class Metrics:
    """What a game's designer report measures: ``measure(state, outcome, events)`` answers, for one finished game
    (its final state, outcome and every event from the deal on), a JSON-safe value for each declared metric.
    ``cooperative``: the seats play as one team and share one result, so a report shows one team row.
    ``data_fields`` are the data-file numbers ``--vary`` may set. ``teams(config)`` gives each team's seats in a
    team game (a report is then per team). ``starter_option`` names the option that says which seat (or team, in
    a team game) starts, so that a symmetry check can rotate it. ``standing`` and ``attacked`` give the report its
    catch-up and drama figures (lead changes, the last at mid-game, attacks on the leader). ``card_kinds`` are the
    kinds of card or action whose plays a report counts and whose impact ``--impact`` measures."""

    measure: Callable[[Any, Any, Sequence[Any]], dict[str, Any]]
    declared: tuple[Metric, ...] = ()
    pace: Pace = Pace()
    cooperative: bool = False
    data_fields: tuple[DataField, ...] = ()
    notes: tuple[str, ...] = ()
    teams: Callable[[Any], tuple[tuple[int, ...], ...]] | None = None
    starter_option: str | None = None
    # Catch-up and drama: each seat's standing now (higher is ahead; a team's seats share theirs), and the seats an
    # event attacks (a card played on another's pile); the report follows the lead through the game.
    standing: Callable[[Any], Sequence[float]] | None = None
    attacked: Callable[[Any], Sequence[int]] | None = None
    card_kinds: CardKinds | None = None

@dataclass(frozen=True)
class DataFile:
    """A kind of data file a game reads (a deck, a treasure table, a word list), for `divedeck data`.

    ``option`` is the config option that names such a file (a ``file`` option); the shipped default is
    ``data/<default>`` in ``package``. ``parse(text, source)`` checks a file's text and returns the game's table
    of it, raising ``ConfigError`` (an ``engine.data.DataError`` naming the field at fault); ``summary(table)``
    says in one line what a valid file holds. ``keys`` are the top-level TOML keys that tell this kind of file
    from the other games' (``divedeck data check FILE`` without ``--game``); ``text_format`` says the game also
    reads a plain-text form (any file whose name does not end in ``.toml``)."""

    option: str
    what: str
    package: str
    default: str
    parse: Callable[[str, str], Any]
    summary: Callable[[Any], str]
    keys: frozenset[str] = frozenset()
    text_format: bool = False
