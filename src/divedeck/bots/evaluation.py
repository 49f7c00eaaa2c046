"""Evaluating unfinished games, so a search can cut its rollouts short.

A rollout played to the end of a long game (a 2-player game of Snorkeling lasts several hundred actions) costs
more than the rest of an ISMCTS iteration together; a rollout of a few dozen actions followed by an estimate of
each seat's chance to win buys many more iterations for the same time. A game declares its estimate and cutoff in
``Game.levels.hard_cutoff`` (an ``engine.declaration.Cutoff``); estimates read only the spectator's view of the
search's sample, so they use the contract and nothing hidden.
"""

from __future__ import annotations

from typing import Any

from ..engine.declaration import Cutoff, Evaluator, win_chances
from ..engine.game import Game


def evaluator_for(game: Game[Any, Any]) -> Cutoff | None:
    """How a search of ``game`` should cut its rollouts short, if it should (else rollouts run to the end)."""
    return game.levels.hard_cutoff


__all__ = ["Cutoff", "Evaluator", "evaluator_for", "win_chances"]
