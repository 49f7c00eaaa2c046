"""Difficulty levels, the bots a person picks in the terminal and in the web lobby: easy, medium and hard.

- **easy**: mostly random; one move in ten is the game's heuristic move (plain random without a heuristic).
- **medium**: the game's heuristic bot (its package's ``LEVELS["medium"]``, else the first of its ``BOTS``), or
  random for a game that has none.
- **hard**: information-set Monte Carlo tree search (``ismcts.py``), about a second a move: an iteration budget
  measured to take about that long on a small 2-core machine, and a time cap in case the machine is slower.
  Turn-based games only: a real-time game's bots are ``TimedBot``s, which ``hard`` is not.

A game's package may say which of its own bots play a level, in ``LEVELS`` (say ``LEVELS = {"easy": "slow-diver",
"medium": "diver"}``). A real-time game is offered ``medium`` (its first bot unless it names one) and ``easy`` only
if it names one: the generic bots are turn-based.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.game import Game
from .base import Bot, Decision, RandomBot
from .evaluation import evaluator_for
from .ismcts import ISMCTSBot

Factory = Callable[[int], Bot]

LEVELS = ("easy", "medium", "hard")
# What the lobby shows beside each level's name.
DESCRIPTIONS = {
    "easy": "plays almost at random",
    "medium": "plays by rules of thumb",
    "hard": "thinks ahead, about a second a move",
}

# hard: iterations per move (about one second each on a 2-core machine; see docs/bots.md) and the time cap.
HARD_ITERATIONS: dict[str, int] = {"snorkeling": 4000, "hold-your-breath": 400}
HARD_DEFAULT_ITERATIONS = 1000
HARD_SECONDS: float | None = 1.2
EASY_HEURISTIC_SHARE = 0.1


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


def _declared(module_levels: Mapping[str, str], game_bots: Mapping[str, Factory], level: str) -> Factory | None:
    name = module_levels.get(level)
    return game_bots.get(name) if name is not None else None


def heuristic(game_bots: Mapping[str, Factory], module_levels: Mapping[str, str]) -> Factory | None:
    """The game's heuristic bot: the one its package names for ``medium``, else its first bot, else none."""
    return _declared(module_levels, game_bots, "medium") or next(iter(game_bots.values()), None)


def level_names(game: Game[Any, Any], game_bots: Mapping[str, Factory], module_levels: Mapping[str, str]) -> list[str]:
    """The levels ``game`` offers: all three for a turn-based game; for a real-time one, ``medium`` when it has a
    bot of its own and ``easy`` when its package names one for it (never ``hard``)."""
    if not game.realtime:
        return list(LEVELS)
    offered = [level for level in LEVELS[:2] if _declared(module_levels, game_bots, level) is not None]
    if "medium" not in offered and game_bots:
        offered.append("medium")
    return offered


def make_level(game: Game[Any, Any], level: str, game_bots: Mapping[str, Factory], module_levels: Mapping[str, str],
               seed: int) -> Bot:
    """The bot for ``level`` (one of ``level_names``) in ``game``, seeded with ``seed``."""
    declared = _declared(module_levels, game_bots, level)
    if declared is not None:
        return declared(seed)
    if level == "easy":
        return EasyBot(seed, heuristic(game_bots, module_levels))
    if level == "medium":
        return (heuristic(game_bots, module_levels) or RandomBot)(seed)
    if level == "hard":
        return hard_bot(game, seed)
    raise ValueError(f"no level {level!r}")


def hard_bot(game: Game[Any, Any], seed: int, iterations: int | None = None) -> ISMCTSBot:
    """ISMCTS as ``hard`` plays ``game``: random rollouts, cut short with the game's evaluator if it has one."""
    budget = iterations or HARD_ITERATIONS.get(game.name, HARD_DEFAULT_ITERATIONS)
    cut = evaluator_for(game)
    if cut is None:
        return ISMCTSBot(seed, iterations=budget, seconds=HARD_SECONDS, name="hard")
    return ISMCTSBot(seed, iterations=budget, seconds=HARD_SECONDS, cutoff=cut.actions, evaluator=cut.evaluator,
                     stop_events=cut.events, name="hard")
