"""The ``learned`` policy as the prior of a search: its move probabilities, for PUCT selection in ``ismcts.py``.

``PolicyPrior`` answers the search's ``Prior`` question (game, the acting seat's view, seat, legal actions) with the
softmax of the shipped policy's logits over the legal moves, for the player counts a policy was trained for, and
``None`` for the others (the search then uses plain UCB there). Like the ``learned`` bot it reads only the view it is
given: at the root that is the bot's own seat's view; deeper in the tree it is a seat's view of the search's own
sample, never of the true state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine.game import Game
from .learned import LearnedBot, Policy, players_offered


class PolicyPrior:
    """The softmax of a trained policy over the legal moves (``temperature`` > 1 flattens it)."""

    def __init__(self, policy: Policy | None = None, temperature: float = 1.0) -> None:
        self.policy = policy
        self.temperature = temperature
        self._bots: dict[tuple[str, int], LearnedBot] = {}  # one encoder and move table per game and player count

    def __getstate__(self) -> dict[str, Any]:
        # A bot travels pickled to a worker (``worker.py``): the encoders are rebuilt there, not copied (an encoder's
        # numpy array shares its buffer's memory, which a copy would not).
        return {**self.__dict__, "_bots": {}}

    def __call__(self, game: Game[Any, Any], view: Mapping[str, Any], seat: int,
                 legal: Sequence[Any]) -> Sequence[float] | None:
        players = len(view["hand_sizes"])  # as the learned bot counts them
        if self.policy is None and players not in players_offered(game):
            return None
        if self.policy is not None and self.policy.meta.get("players") != players:
            return None
        bot = self._bots.get((game.name, players))
        if bot is None:
            bot = self._bots[game.name, players] = LearnedBot(policy=self.policy)
        encoder, masks = bot._prepare(game, players)
        logits = bot.policy.logits(encoder.encode(view, seat))  # type: ignore[union-attr]
        chosen = logits[masks.indices(legal)] / self.temperature
        weights = np.exp(chosen - chosen.max())
        return (weights / weights.sum()).tolist()  # type: ignore[no-any-return]
