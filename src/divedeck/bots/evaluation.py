"""Evaluating unfinished games, so a search can cut its rollouts short.

A rollout played to the end of a long game (a 2-player game of Snorkeling lasts several hundred actions) costs
more than the rest of an ISMCTS iteration together; a rollout of a few dozen actions followed by an estimate of
each seat's chance to win buys many more iterations for the same time. Estimates read only the spectator's view of
the search's sample (``Game.view(state, None)``), so they use the contract and nothing hidden.

``evaluator_for(game)`` gives a game's evaluator and rollout cutoff from ``EVALUATORS``, or ``None``: rollouts of
that game are played to the end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.game import Game

# (game, unfinished state) -> each seat's expected reward in [0, 1] (its chance of winning).
Evaluator = Callable[[Game[Any, Any], Any], Sequence[float]]


def win_chances(points: Sequence[float], scale: float) -> list[float]:
    """Each seat's chance to win from its points: a softmax with temperature ``scale`` (in points).

    With two seats it is the logistic of the lead: a lead of ``scale`` points wins about 73% of the time.
    """
    top = max(points)
    weights = [math.exp((p - top) / scale) for p in points]
    total = sum(weights)
    return [w / total for w in weights]


def snorkeling_evaluator(scale: float = 3.0) -> Evaluator:
    """Snorkeling: the totals as they would be if the round were scored now (total + pile top, SNK-R14)."""

    def evaluate(game: Game[Any, Any], state: Any) -> Sequence[float]:
        view = game.view(state, None)
        return win_chances([s + t for s, t in zip(view["scores"], view["pile_tops"], strict=True)], scale)

    return evaluate


@dataclass(frozen=True)
class Cutoff:
    """How a search cuts a game's rollouts short: after ``actions`` actions, or at once after an action that
    produced an event of a kind in ``events`` (the end of a round: its scoring is exact, the next deal is noise)."""

    evaluator: Evaluator
    actions: int
    events: frozenset[str] = frozenset()


# Game name -> its cutoff, tuned with head-to-head matches at equal time (see docs/bots.md).
EVALUATORS: dict[str, Cutoff] = {
    "snorkeling": Cutoff(snorkeling_evaluator(), 40, frozenset({"round_end"})),
}


def evaluator_for(game: Game[Any, Any]) -> Cutoff | None:
    """How a search of ``game`` should cut its rollouts short, if it should."""
    return EVALUATORS.get(game.name)
