"""Rewards from a finished game's ``Outcome``, the same in every adapter (PettingZoo, Gymnasium, OpenSpiel).

- ``win_loss`` (the default): +1 for each winner, -1 for every other seat. A shared victory gives +1 to each seat
  that shares it; a cooperative game (Bermuda) gives every seat +1 or every seat -1.
- ``score_difference``: the seat's score minus the mean of the other seats' scores (zero-sum), divided by the
  game's scale; a one-seat game gives its own score.
- ``score``: the seat's own score, as the game counts it (points, feet, treasures), divided by the same scale.

Rewards are given once, when the game ends; every earlier step rewards 0.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.outcome import Outcome

REWARDS = ("win_loss", "score_difference", "score")


def _win_loss(outcome: Outcome, seat: int) -> float:
    return 1.0 if seat in outcome.winners else -1.0


def _score_difference(outcome: Outcome, seat: int) -> float:
    scores = outcome.scores
    if len(scores) == 1:
        return float(scores[0])
    others = (sum(scores) - scores[seat]) / (len(scores) - 1)
    return float(scores[seat] - others)


def _score(outcome: Outcome, seat: int) -> float:
    return float(outcome.scores[seat])


_FUNCTIONS: dict[str, Callable[[Outcome, int], float]] = {
    "win_loss": _win_loss, "score_difference": _score_difference, "score": _score}


def reward_function(name: str, scale: float = 1.0) -> Callable[[Outcome, int], float]:
    """``(outcome, seat) -> reward`` for the reward mode ``name`` (one of ``REWARDS``); scores are divided by
    ``scale``, the win/loss reward is not."""
    try:
        function = _FUNCTIONS[name]
    except KeyError:
        raise ValueError(f"unknown reward {name!r}; choose one of {', '.join(REWARDS)}") from None
    if name == "win_loss" or scale == 1.0:
        return function
    return lambda outcome, seat: function(outcome, seat) / scale
