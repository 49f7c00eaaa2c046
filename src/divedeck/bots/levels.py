"""Difficulty levels, the bots a person picks in the terminal and in the web lobby: easy, medium and hard.

- **easy**: mostly random; one move in ten is the game's heuristic move (plain random without a heuristic).
- **medium**: the game's heuristic bot (the one its ``levels.medium`` names, else its first bot), or random for a
  game that has none.
- **hard**: information-set Monte Carlo tree search (``ismcts.py``), about a second a move: the game's declared
  iteration budget (``levels.hard_iterations``, measured to take about that long on a small 2-core machine), and a
  time cap in case the machine is slower. A game that declares no budget (a real-time game, whose bots are
  ``TimedBot``s) is not offered ``hard``.

A game says which of its own bots play a level in its ``levels`` declaration (``engine.declaration.Levels``). A
real-time game is offered ``medium`` (its first bot unless it names one) and ``easy`` only if it names one: the
generic bots are turn-based.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..engine.game import Game
from .base import Bot, Decision, RandomBot
from .evaluation import evaluator_for
from .ismcts import ISMCTSBot
from .prior import PolicyPrior

Factory = Callable[[int], Bot]

LEVELS = ("easy", "medium", "hard")
# What the lobby shows beside each level's name.
DESCRIPTIONS = {
    "easy": "plays almost at random",
    "medium": "plays by rules of thumb",
    "hard": "thinks ahead, about a second a move",
}

HARD_SECONDS: float | None = 1.2
# When set, every hard bot searches this many iterations instead of its game's budget (quick tests and tries).
ITERATIONS_OVERRIDE: int | None = None
EASY_HEURISTIC_SHARE = 0.1
# PUCT's weight on the learned prior, where hard uses one (``Levels.hard_prior``), and the share of the game's
# iteration budget it searches then: asking the prior at every new node makes an iteration about 1.4 times as long
# (Hold Your Breath!, 2 players), so 0.7 of the iterations take the time the plain search takes.
HARD_PRIOR_WEIGHT = 1.0
HARD_PRIOR_ITERATION_SHARE = 0.7


class EasyBot:
    """Random, except that a share of its moves (``share``) are the heuristic bot's."""

    name = "easy"

    def __init__(self, seed: int = 0, heuristic: Factory | None = None, share: float = EASY_HEURISTIC_SHARE) -> None:
        self.rng = random.Random(seed)
        self.random = RandomBot(self.rng.getrandbits(32))
        self.heuristic = heuristic(self.rng.getrandbits(32)) if heuristic is not None else None
        self.share = share

    def choose(self, decision: Decision) -> Any:
        if self.heuristic is not None and self.rng.random() < self.share:
            return self.heuristic.choose(decision)
        return self.random.choose(decision)


def _declared(game: Game[Any, Any], level: str) -> Factory | None:
    name = getattr(game.levels, level, None) if level in LEVELS else None
    entry = game.bots.get(name) if name is not None else None
    return entry.factory if entry is not None else None


def heuristic(game: Game[Any, Any]) -> Factory | None:
    """The game's heuristic bot: the one it names for ``medium``, else its first bot, else none."""
    first = next(iter(game.bots.values()), None)
    return _declared(game, "medium") or (first.factory if first is not None else None)


def level_names(game: Game[Any, Any]) -> list[str]:
    """The levels ``game`` offers: ``hard`` where it declares a search budget; for a real-time game ``medium`` when
    it has a bot of its own and ``easy`` when it names one for it; for a turn-based game ``easy`` and ``medium``."""
    if not game.realtime:
        offered = ["easy", "medium"]
    else:
        offered = [level for level in ("easy", "medium") if _declared(game, level) is not None]
        if "medium" not in offered and game.bots:
            offered.append("medium")
        if _declared(game, "hard") is not None:
            offered.append("hard")
    if game.levels.hard_iterations is not None and "hard" not in offered:
        offered.append("hard")
    return offered


def make_level(game: Game[Any, Any], level: str, seed: int) -> Bot:
    """The bot for ``level`` (one of ``level_names``) in ``game``, seeded with ``seed``."""
    declared = _declared(game, level)
    if declared is not None:
        return declared(seed)
    if level == "easy":
        return EasyBot(seed, heuristic(game))
    if level == "medium":
        return (heuristic(game) or RandomBot)(seed)
    if level == "hard":
        return hard_bot(game, seed)
    raise ValueError(f"no level {level!r}")


def hard_bot(game: Game[Any, Any], seed: int, iterations: int | None = None, prior: bool | None = None) -> ISMCTSBot:
    """ISMCTS as ``hard`` plays ``game``: random rollouts, cut short with the game's evaluator if it has one, and
    the game's learned policy as the prior of the search where the game asks for it (``Levels.hard_prior``) or
    ``prior`` says so (at the player counts a policy ships for; plain UCB at the others)."""
    if game.levels.hard_iterations is None:
        raise ValueError(f"{game.title} offers no hard level")
    budget = iterations or ITERATIONS_OVERRIDE or game.levels.hard_iterations
    use_prior = game.levels.hard_prior if prior is None else prior
    guide = PolicyPrior() if use_prior and game.learned else None
    guided = max(1, round(budget * HARD_PRIOR_ITERATION_SHARE)) if guide is not None else None
    cut = evaluator_for(game)
    return ISMCTSBot(seed, iterations=budget, seconds=HARD_SECONDS, name="hard", prior=guide,
                     prior_weight=HARD_PRIOR_WEIGHT, prior_iterations=guided,
                     cutoff=cut.actions if cut is not None else None,
                     evaluator=cut.evaluator if cut is not None else None,
                     stop_events=cut.events if cut is not None else frozenset())
