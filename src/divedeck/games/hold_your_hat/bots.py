"""Hold your Hat's bots. A bot cannot give or guess clues in words, so these bots stand for *teams*, not wits.

Both read only their seat's view and the legal actions, and are ``TimedBot``s: ``plan`` says what to do after how
long (the server asks again whenever the table changes); ``choose`` is for callers without a clock.

- ``team``: a model of a team of average players, for simulations and for filling a table. As clue-giver it starts
  the timer after a moment, then its team "guesses" each word after a random time (longer for hat phrases, which it
  sometimes skips with a SKIP card); it raids when it holds a RAID, plays BINOCULARS and EXTRA TIME when it can.
- ``standin``: plays a seat whose person has left, doing no more than the game needs to go on: it starts the timer
  when it is the clue-giver, claims nothing (its teammates may still type guesses), and ends the turn without
  EXTRA TIME.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from ...engine.decision import Decision
from .actions import Action, Binoculars, EndTurn, ExtraTime, Foul, Got, Guess, Order, Raid, Skip, Start

A = TypeVar("A", bound=Action)


def _find(legal: Sequence[Action], kind: type[A], team: int | None = None) -> A | None:
    for action in legal:
        if isinstance(action, kind) and (team is None or getattr(action, "team", None) == team):
            return action
    return None


def _first_of(legal: Sequence[Action], kinds: tuple[type[Action], ...]) -> Action | None:
    for kind in kinds:
        found = _find(legal, kind)
        if found is not None:
            return found
    return None


def _keep_order(view: Any) -> Order:
    """The BINOCULARS cards put back as they were."""
    return Order(tuple(range(1, len(view.get("peek", [])) + 1)))


class TeamBot:
    name = "team"
    mean_ms = 9000  # a 1-point word is guessed after this long on average; a hat phrase after 1.6 times as long

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def plan(self, decision: Decision) -> tuple[int, Action] | None:
        legal = decision.legal
        view = decision.view
        seat = decision.seat
        if not legal:
            return None
        clue_giver = view.get("clue_giver") == seat
        own = view.get("team")
        if view["phase"] == "pre":
            if clue_giver and _find(legal, Order) is not None:
                return 800, _keep_order(view)
            raid = _find(legal, Raid, own)
            if raid is not None:
                return self._pause(600), raid
            if clue_giver:
                binoculars = _find(legal, Binoculars)
                if binoculars is not None:
                    return self._pause(500), binoculars
                start = _find(legal, Start)
                if start is not None:
                    return self._pause(1500), start
            return None
        if view["phase"] == "decision":
            if not clue_giver:
                return None
            extra = _find(legal, ExtraTime)
            return self._pause(800), extra or EndTurn()
        if clue_giver:
            word = view.get("word") or {}
            skip = _find(legal, Skip)
            if skip is not None and word.get("points", 1) > 1 and self.rng.random() < 0.5:
                return self._pause(2500), skip
            got = _find(legal, Got, view.get("active_team"))
            if got is not None:
                mean = self.mean_ms * (1.6 if word.get("points", 1) > 1 else 1.0)
                return int(self.rng.expovariate(1 / mean)), got
        return None

    def choose(self, decision: Decision) -> Action:
        """Without a clock: the team's word is guessed three times out of four, otherwise it is passed (a foul)."""
        legal = list(decision.legal)
        planned = self.plan(decision)
        if planned is not None and planned[1] in legal:
            action = planned[1]
            if isinstance(action, Got) and self.rng.random() < 0.25:
                return _find(legal, Foul) or action
            return action
        return _first_of(legal, (Start, EndTurn, Guess, Foul)) or legal[0]

    def _pause(self, ms: int) -> int:
        return int(ms * self.rng.uniform(0.6, 1.4))


class StandInBot:
    name = "standin"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def plan(self, decision: Decision) -> tuple[int, Action] | None:
        view = decision.view
        if view.get("clue_giver") != decision.seat:
            return None
        found = _first_of(decision.legal, (Order, Start, EndTurn))
        if found is None:
            return None
        return 3000, _keep_order(view) if isinstance(found, Order) else found

    def choose(self, decision: Decision) -> Action:
        planned = self.plan(decision)
        if planned is not None:
            return planned[1]
        return _first_of(decision.legal, (EndTurn, Guess, Foul)) or decision.legal[0]
