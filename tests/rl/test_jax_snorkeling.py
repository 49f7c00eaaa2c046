"""Snorkeling's batched rules (``games/snorkeling/batched``) against the reference engine, step by step.

Random games are played by both forms with the same actions from the same deal: half the deals come from the
batched ``init`` (turned into reference states by ``to_engine``), half from the reference ``new_state`` (turned
into batched states by ``from_engines``). At every step the test compares the legal-action mask, the player to
act, the rewards, the end, the observation of the seat to play and the whole state through the notation
(SNK-R1..R17, SNK-V1, SNK-A1..A27: every rule a random game reaches). The shuffles cannot come from two
generators, so the reference shuffles with the batched form's keys (``KeyedShuffles``): a shuffle's order is
the one thing the two forms share; what is shuffled, when, and what follows from it are each form's own.

The batches mix the variants (the options travel with each game's state, so one compiled step serves them all),
and short targets and caps keep games short, so ten thousand games take about a minute in CI.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from divedeck.games.snorkeling import GAME, SnorkelingConfig
from divedeck.games.snorkeling.batched import SnorkelingBatched
from divedeck.games.snorkeling.batched.rules import shuffle_keys, shuffle_order
from divedeck.games.snorkeling.context import context_for

from .differential import Differential

# A small deck: refills of the deck from the centre (SNK-R12) and stalled rounds (SNK-R13 a) come often.
SMALL_DECK = """
hand_size = 3
[[colors]]
name = "yellow"
letter = "Y"
[[colors]]
name = "red"
letter = "R"
[[colors]]
name = "green"
letter = "G"
[[values]]
value = 0
copies = 2
[[values]]
value = 1
copies = 2
[[values]]
value = 2
copies = 2
[[values]]
value = 3
copies = 2
[lanternfish]
count = 4
"""

# The variants each batch mixes; every option but the player count and the card table travels with the game.
VARIANTS = [
    {},
    {"expert_diving": True},
    {"opponent_play_limit": "one_total", "next_round_starter": "same"},
    {"opponent_play_limit": "unlimited", "allow_own_pile": True},
    {"expert_diving": True, "opponent_play_limit": "unlimited", "first_player": 1},
    {"allow_own_pile": True, "first_player": 2},
]
# Short games, so that there are many: most of one round of a few turns (SNK-R13 b), some of two rounds (a new
# deal, SNK-R3, SNK-R15), some of a whole round (a Beach, SNK-R10, or a stall).
SHORT = [{"target_score": 3, "round_cap": 1, "turn_cap": 3}, {"target_score": 3, "round_cap": 1, "turn_cap": 5},
         {"target_score": 3, "round_cap": 2, "turn_cap": 4}, {"target_score": 3, "round_cap": 1, "turn_cap": 6},
         {"target_score": 3, "round_cap": 1}]


class KeyedShuffles:
    """Stands in for a reference state's ``SeededRng`` for one step: it shuffles as the batched step does with the
    same key (a deal shuffles the whole deck, a refill fewer cards, ``batched/rules.py``)."""

    def __init__(self, key: np.ndarray, deck_size: int, order: Any) -> None:
        self.key = key
        self.deck_size = deck_size
        self.order = order

    def shuffle(self, items: list[int]) -> KeyedShuffles:
        m = len(items)
        order = np.asarray(self.order(self.key, m, m == self.deck_size))[:m]
        items[:] = [items[j] for j in order.tolist()]
        return self

    def notation(self) -> str:
        return "0:0"


class SnorkelingDifferential(Differential):
    """Each game of a batch takes a variant and a length in turn (``VARIANTS``, ``SHORT``)."""

    def __init__(self, base: SnorkelingConfig) -> None:
        env = SnorkelingBatched(base)
        size = env.tables.deck_size
        order = jax.jit(lambda key, m, deal: shuffle_order(jnp.where(deal, *shuffle_keys(key)[::-1]), m, size))
        super().__init__(GAME, env, VARIANTS, context_for, lambda key: KeyedShuffles(key, size, order))

    def config(self, i: int) -> SnorkelingConfig:
        return replace(self.base, **SHORT[i % len(SHORT)], **VARIANTS[i % len(VARIANTS)])

    def batched_deal_config(self, i: int) -> SnorkelingConfig:
        return replace(self.config(i), first_player=self.base.first_player)  # the batched deal's starter


@pytest.fixture(scope="module")
def small_deck(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = Path(tmp_path_factory.mktemp("cards")) / "small.toml"
    path.write_text(SMALL_DECK, encoding="utf-8")
    return str(path)


def test_four_player_games_agree_step_by_step():
    differential = SnorkelingDifferential(SnorkelingConfig(num_players=4))
    assert differential.play(games=7000, seed=1) == 7000


def test_three_player_games_with_a_small_deck_agree_step_by_step(small_deck):
    """Refills (SNK-R12), stalls (SNK-R13 a) and empty hands (SNK-R11.3, SNK-A7) in most games; with the test
    above, ten thousand games."""
    differential = SnorkelingDifferential(SnorkelingConfig(num_players=3, cards=small_deck))
    assert differential.play(games=3000, seed=3) == 3000
