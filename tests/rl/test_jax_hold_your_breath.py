"""Hold Your Breath!'s batched rules (``games/hold_your_breath/batched``) against the reference engine, step by step.

Random games are played by both forms with the same actions from the same deal: half the deals come from the
batched ``init`` (turned into reference states by ``to_engine``), half from the reference ``new_state`` (turned
into batched states by ``from_engines``). At every step the test compares the legal-action mask, the player to
act, the rewards, the end, the observation of the seat to act and the whole state through the notation
(HYB-R2..R41 and every option: every rule a random game reaches). Chance cannot come from two generators, so the
reference draws with the batched form's keys (``KeyedDraws``): the k-th draw of a step (a random card, a tie-break,
the Ascent's shuffle) uses the step's k-th key in both forms; what is drawn, when, and what follows from it are
each form's own.

The batches mix the variants (the options travel with each game's state, so one compiled step serves them all).
CI plays ``GAMES`` games (a third for each player count, each third as one batch). The cost is the reference's side,
one game-step at a time in Python (notation, view, mask; a random game is ~150 steps): 1,200 games took 108 s of
CPU, compilations included (7.6 minutes of wall time at load average 10 on the shared 2-core machine); ten thousand
would take about 13 minutes of CPU:
``DIVEDECK_HYB_DIFFERENTIAL_GAMES=10000 uv run pytest -n 0 tests/rl/test_jax_hold_your_breath.py``.
"""

from __future__ import annotations

import os
from typing import Any

import jax
import numpy as np
import pytest

from divedeck.games.hold_your_breath import GAME, HoldYourBreathConfig
from divedeck.games.hold_your_breath.batched import HoldYourBreathBatched
from divedeck.games.hold_your_breath.batched.rules import shuffle_order, step_keys
from divedeck.games.hold_your_breath.state import context_for

from .differential import Differential

GAMES = int(os.environ.get("DIVEDECK_HYB_DIFFERENTIAL_GAMES", "1200"))

# The variants each batch mixes; every option but the player count and the deck travels with the game. A shallow
# board brings the Ascent's surfacing (HYB-R21) and the immediate win (HYB-R22) into many games.
VARIANTS = [
    {},
    {"kraken_discard": "random", "max_depth": 30},
    {"forced_breath": False, "final_turn_trigger": "short_hand", "ascent_tie_break": "seat_order"},
    {"winner_rule": "distance", "empty_hand_panic": "none", "max_depth": 20},
    {"kraken_discard": "random", "ascent_tie_break": "seat_order", "max_depth": 15},
    {"forced_breath": False, "winner_rule": "distance", "max_depth": 50},
]


class KeyedDraws:
    """Stands in for a reference state's ``SeededRng`` for one step: its k-th shuffle orders its items as the
    batched step's k-th draw does (``batched/rules.py``: ``step_keys``, ``shuffle_order``)."""

    def __init__(self, key: np.ndarray, order: Any) -> None:
        self.key = key
        self.order = order
        self.draws = 0

    def shuffle(self, items: list[int]) -> KeyedDraws:
        m = len(items)
        order = np.asarray(self.order(self.key, self.draws, m))[:m]
        self.draws += 1
        items[:] = [items[j] for j in order.tolist()]
        return self

    def notation(self) -> str:
        return "0:0"


def differential(players: int) -> Differential:
    env = HoldYourBreathBatched(HoldYourBreathConfig(num_players=players))
    size = env.tables.deck_size
    order = jax.jit(lambda key, k, m: shuffle_order(step_keys(key)[k], m, size))
    return Differential(GAME, env, VARIANTS, context_for, lambda key: KeyedDraws(key, order))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_step_by_step(players):
    """Every option in turn (``VARIANTS``); in a few hundred games every decision and every end is reached: the
    Kraken's victims choosing (HYB-R12) or losing at random (HYB-A19), Calms moving the Shark (HYB-A23), blind
    penalties (HYB-A6), tied anchors (HYB-A12), surfacing (HYB-R21) and both ends (HYB-R22, HYB-R41)."""
    games = (GAMES + 2) // 3
    assert differential(players).play(games=games, seed=players) == games
