"""Bermuda's bot teammates: divers that lay cards at a human pace and breathe after a while.

They are timed bots (``divedeck.bots.TimedBot``): asked for a plan whenever their view changes, they answer with an
action and how long until they take it, like a person at the table. Told the events of others' actions
(``notice``), a diver keeps its plan through a lay on another column than the one it is reaching for or looking
after (and through gestures): it thinks again when its own column, its planned column or the phase changes, or
when it had nothing to lay. They read only their own seat's view (their own
hand and the public columns), never another hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache, partial
from itertools import repeat
from operator import is_
from typing import Any

from ...engine.decision import Decision
from .actions import HOLD, RELEASE, SORT, Action, Lay
from .cards import NEIGHBOURS
from .events import Laid, Signalled
from .rules import LAYS

# Statuses of a column that can still take a good card (information.view / rules.column_status).
_OPEN = ("empty", "building")


def longest_run(start: int, counts: tuple[int, ...], limit: int) -> int:
    """How many cards a run can have that starts with ``start`` and goes on with cards of ``counts`` (how many of
    each value 1-9 are left, ``counts[v - 1]``), each adjacent to the one before (BRM-R20); at most ``limit``."""
    code = 0
    for index, count in enumerate(counts):
        code |= count << (4 * index)
    return _longest_run(start, code, limit)


@lru_cache(maxsize=1 << 18)
def _longest_run(start: int, code: int, limit: int) -> int:
    """``longest_run`` with the counts packed four bits a value (a value has seven copies), so that a cached call
    hashes three integers."""
    if limit <= 1:
        return 1
    best = 1
    for following in NEIGHBOURS[start]:
        shift = 4 * (following - 1)
        if code >> shift & 15:
            best = max(best, 1 + _longest_run(following, code - (1 << shift), limit - 1))
            if best >= limit:
                break
    return best


class DiverBot:
    """A teammate that dives like a person: it holds its breath when the team gets ready, lays a card about every
    ``pace_ms`` (each gap varies by up to ``jitter``), and breathes ``breath_ms`` after the dive started (also
    varied), or sooner once every column is settled.

    Which card: the lay that keeps a column winnable (its "accepts" in the view) and scores best: completing a
    column, continuing a column it can finish from its own hand, building on long columns; an empty column is
    started with the card its hand can run furthest from. A card it has decided on within ``commit_ms`` of laying
    it goes down even if the column changed meanwhile (a hand already moving), which is how real teammates
    sometimes collide on one column.
    """

    def __init__(self, seed: int = 0, pace_ms: int = 2000, breath_ms: int = 30_000, jitter: float = 0.3,
                 commit_ms: int = 250, name: str = "diver") -> None:
        if pace_ms < 1 or breath_ms < 1 or not 0 <= jitter < 1 or commit_ms < 0:
            raise ValueError("pace_ms and breath_ms must be positive, jitter from 0 to 1, commit_ms 0 or more")
        self.name = name
        self.rng = random.Random(seed)
        self.pace_ms = pace_ms
        self.breath_ms = breath_ms
        self.jitter = jitter
        self.commit_ms = commit_ms
        self._stage: tuple[Any, ...] | None = None  # which PREPARE or dive the timings below belong to
        self._ready_at = 0  # when it acts in PREPARE
        self._breathe_at = 0  # when it breathes in this dive
        self._next_lay = 0  # the earliest time of its next lay
        self._hand_size = -1
        self._idle = False  # it had nothing to lay at its last plan
        self._committed: tuple[int, Lay] | None = None
        self._changed: dict[int, tuple[int, int]] = {}  # column -> (its length, when it last changed)
        self._watch: tuple[int, int] | None = None  # the columns its dive plan depends on; None: every event counts

    def notice(self, events: Sequence[Any]) -> bool:
        """Whether ``events`` (of another seat's action, or the clock's) may change its plan: a lay on a column
        it neither reaches for nor looks after does not (it only notes when that column changed), nor a gesture."""
        watch = self._watch
        changed = False
        for event in events:
            kind = type(event)
            if kind is Laid:
                column = event.column
                self._changed[column] = (event.length, event.t)
                if watch is None or column in watch:
                    changed = True
            elif kind is not Signalled:
                changed = True
        return changed

    def _vary(self, ms: float) -> int:
        return max(1, round(ms * self.rng.uniform(1 - self.jitter, 1 + self.jitter)))

    def plan(self, decision: Decision) -> tuple[int, Action] | None:
        view = decision.view
        now = decision.now if decision.now is not None else view["now"]
        legal = decision.legal
        self._watch = None
        if view["phase"] == "prepare":
            return self._prepare(view, legal, now)
        if view["phase"] == "dive":
            return self._dive(view, legal, now)
        return None

    # -- before the dive ------------------------------------------------------------------------------------------
    def _prepare(self, view: dict[str, Any], legal: Sequence[Action], now: int) -> tuple[int, Action] | None:
        stage = ("prepare", view["round"], view["last_result"] and view["last_result"]["t"])
        if stage != self._stage:
            self._stage = stage
            self._ready_at = now + self._vary(self.pace_ms / 2)  # a look at the hand, then a deep breath
        delay = max(0, self._ready_at - now)
        sort = _find(legal, SORT)
        if sort is not None:
            return delay, sort
        hold = _find(legal, HOLD)
        if hold is not None:
            return delay, hold
        return None  # holding: wait for the others and the count of three

    # -- the dive -------------------------------------------------------------------------------------------------
    def _dive(self, view: dict[str, Any], legal: Sequence[Action], now: int) -> tuple[int, Action] | None:
        release = _find(legal, RELEASE)
        if release is None:
            return None
        stage = ("dive", view["round"], view["t0"], view.get("layouts"))
        if stage[:3] != (self._stage or ())[:3]:
            self._breathe_at = view["t0"] + self._vary(self.breath_ms)
            self._next_lay = view["t0"] + self._vary(self.pace_ms)
            self._committed = None
            self._idle = False
        if stage != self._stage:
            self._changed = {}
        self._stage = stage
        for column in view["columns"]:
            length = len(column["cards"])
            if self._changed.get(column["column"], (-1, 0))[0] != length:
                self._changed[column["column"]] = (length, now)
        hand: list[int] = view["hand"]
        if len(hand) != self._hand_size:  # its own card went down, or a new layout dealt a new hand
            if len(hand) < self._hand_size:
                self._next_lay = now + self._vary(self.pace_ms)
            self._hand_size = len(hand)
            self._committed = None
        breathe = max(0, self._breathe_at - now)
        own = view["seat"] % len(view["columns"]) + 1
        if self._committed is not None:
            at, lay = self._committed
            if at - now <= self.commit_ms and lay.card in hand:
                self._watch = (own, lay.column)
                return max(0, at - now), lay
            self._committed = None
        choice = self._choose(view, hand, legal, now)
        if choice is None:
            self._idle = True
            if all(column["status"] not in _OPEN for column in view["columns"]):
                breathe = min(breathe, self._vary(self.pace_ms / 2))  # nothing left to do: come up
            return breathe, release
        if self._idle:  # something to do again: it takes a moment to see it
            self._idle = False
            self._next_lay = max(self._next_lay, now + self._vary(self.pace_ms / 2))
        at = max(now, self._next_lay)
        if at - now >= breathe:
            self._watch = (own, own)  # it breathes before it would lay: only its own column may keep it down
            return breathe, release
        self._committed = (at, choice)
        self._watch = (own, choice.column)
        return at - now, choice

    def _choose(self, view: dict[str, Any], hand: list[int], legal: Sequence[Action], now: int) -> Lay | None:
        best: list[Lay] = []
        best_score = float("-inf")
        counts = value_counts(tuple(hand))
        columns = view["columns"]
        open_columns = []
        started = False
        for column in columns:
            status = column["status"]
            if status == "building":
                started = True
            elif status != "empty":
                continue
            open_columns.append(column)
        # Like people around a table, each diver looks after the treasure in front of it (seat i: column i) and
        # helps at another column only when nobody has laid there for a while: fewer hands reach for one column.
        own = view["seat"] % len(columns) + 1
        for column in open_columns:
            number = column["column"]
            if number != own and now - self._changed[number][1] < self.pace_ms:
                continue
            scores = lay_scores(counts, tuple(column["accepts"]), column["treasure"]["depth"], len(column["cards"]),
                                number == own, started)
            for card, score in scores:
                lay = _find(legal, LAYS.get((card, number)) or Lay(card, number))
                if not isinstance(lay, Lay):
                    continue
                if score > best_score:
                    best, best_score = [lay], score
                elif score == best_score:
                    best.append(lay)
        if not best:
            return None
        return best[0] if len(best) == 1 else self.rng.choice(best)


@lru_cache(maxsize=1 << 12)
def value_counts(hand: tuple[int, ...]) -> tuple[int, ...]:
    """How many cards of each value 1-9 ``hand`` holds."""
    return tuple([hand.count(value) for value in range(1, 10)])


@lru_cache(maxsize=1 << 16)
def lay_scores(counts: tuple[int, ...], accepts: tuple[int, ...], depth: int, length: int, own: bool,
               started: bool) -> tuple[tuple[int, float], ...]:
    """How a diver rates each card of its hand (``counts`` per value) that a column (of ``depth``, holding
    ``length`` cards, taking ``accepts``) would take, lowest card first: completing the column, going on with what
    the hand can run from it, building on long columns; its own column first, someone else's empty one last."""
    missing = depth - length
    scores = []
    code = 0
    for index, count in enumerate(counts):
        code |= count << (4 * index)
    for card in sorted({value for value in range(1, 10) if counts[value - 1]} & set(accepts)):
        run = _longest_run(card, code - (1 << (4 * (card - 1))), missing)  # the rest of the hand after ``card``
        score = 10.0 * run / missing + 5.0 * length / depth
        if run >= missing:
            score += 20.0  # it can finish this column alone
        if own:
            score += 15.0
        elif not length:
            score -= 6.0 if started else 0.0  # open someone else's column only when nothing better is on
        scores.append((card, score))
    return tuple(scores)


def _find(legal: Sequence[Action], action: Action) -> Action | None:
    """The entry of ``legal`` equal to ``action``, or ``None``. Legal actions are the rules' own objects (``LAYS``,
    ``RELEASE``...), so they are found by identity first, without calling a dataclass's ``__eq__``."""
    if any(map(is_, legal, repeat(action))):
        return action
    return next((entry for entry in legal if entry == action), None)


def _diver(pace_ms: int, breath_ms: int, name: str, seed: int = 0) -> DiverBot:
    return DiverBot(seed, pace_ms=pace_ms, breath_ms=breath_ms, name=name)


# Presets, and a grid of paces and breath lengths for the simulator (name: diver-p<pace ms>-b<breath s>).
PRESETS = {"diver": (2000, 30_000), "fast-diver": (700, 40_000), "slow-diver": (3500, 20_000)}
PRESET_DESCRIPTIONS = {"diver": "lays a card every 2 s, holds its breath 30 s",
                       "fast-diver": "quick hands, a long breath", "slow-diver": "slow hands, a short breath"}
GRID_PACES = (500, 1000, 2000, 3000)
GRID_BREATHS = (15, 30, 45)


def bot_factories() -> dict[str, Any]:
    factories = {name: partial(_diver, pace, breath, name) for name, (pace, breath) in PRESETS.items()}
    for pace in GRID_PACES:
        for breath in GRID_BREATHS:
            name = f"diver-p{pace}-b{breath}"
            factories[name] = partial(_diver, pace, breath * 1000, name)
    return factories

