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

import random
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
from divedeck.rl.encoding import encoder_for
from divedeck.rl.rewards import reward_function

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


def strip_rng(line: str) -> str:
    return line.rsplit(" rng=", 1)[0]


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


class Differential:
    """Plays batches of games through both forms and compares them at every step."""

    def __init__(self, base: SnorkelingConfig) -> None:
        self.env = SnorkelingBatched(base)
        self.base = base
        self.table = GAME.move_table(base)
        self.init = jax.jit(jax.vmap(self.env.init))
        self.step = jax.jit(jax.vmap(self.env.step))
        size = self.env.tables.deck_size
        self.order = jax.jit(lambda key, m, deal: shuffle_order(jnp.where(deal, *shuffle_keys(key)[::-1]), m, size))
        self.encoders: dict[SnorkelingConfig, Any] = {}
        self.steps = 0

    def config(self, i: int) -> SnorkelingConfig:
        """Game ``i``'s config: a variant and a length, in turn."""
        return replace(self.base, **SHORT[i % len(SHORT)], **VARIANTS[i % len(VARIANTS)])

    def encoder(self, config: SnorkelingConfig) -> Any:
        if config not in self.encoders:
            self.encoders[config] = encoder_for(GAME, config)
        return self.encoders[config]

    def starting_batch(self, games: int, seed: int) -> tuple[Any, list[Any]]:
        """Half the deals from the batched ``init``, half from the reference; the variants in turn."""
        rng = random.Random(seed)
        from_batched = games // 2
        batched = self.init(jax.random.split(jax.random.PRNGKey(seed), from_batched))
        references = []
        for i in range(from_batched):  # the batched deal, as a reference state of the game's variant
            state = self.env.to_engine(jax.device_get(batched), i)
            config = replace(self.config(i), first_player=self.base.first_player)  # the batched deal's starter
            state.context = context_for(config)  # its options travel to the batch below
            references.append(state)
        for i in range(from_batched, games):
            config = self.config(i)
            references.append(GAME.new_with_events(config, rng.getrandbits(63))[0])
        return self.env.from_engines(references), references

    def play(self, games: int, seed: int) -> int:
        """Plays ``games`` random games to their end; returns how many ended."""
        state, references = self.starting_batch(games, seed)
        rng = random.Random(seed)
        key = jax.random.PRNGKey(seed + 1)
        alive = list(range(games))
        ended = 0
        while alive:
            key, sub = jax.random.split(key)
            keys = jax.random.split(sub, games)
            host, host_keys = jax.device_get((state, keys))
            over = [i for i in alive if self.compare(host, i, references[i])]
            ended += len(over)
            alive = [i for i in alive if i not in set(over)]
            self.compare_seat_to_play(host, alive, references)
            actions = np.zeros(games, np.int32)
            for i in alive:
                reference = references[i]
                seat = min(GAME.actors(reference))
                move = rng.choice(GAME.legal_actions(reference, seat))
                actions[i] = self.table.index(move)
                reference.rng = KeyedShuffles(host_keys[i], self.env.tables.deck_size, self.order)
                GAME.apply(reference, seat, move)
            self.steps += len(alive)
            state = self.step(state, actions, keys)
        return ended

    def compare(self, host: Any, i: int, reference: Any) -> bool:
        """Asserts that game ``i`` of the batch is the reference state, that it ends when the reference does, with
        the same rewards; returns whether it is over."""
        notation = strip_rng(GAME.state_notation(reference))
        batched = strip_rng(GAME.state_notation(self.env.to_engine(host, i)))
        assert batched == notation, f"batched {batched}\nreference {notation}"
        outcome = GAME.outcome(reference)
        assert bool(host.terminated[i]) == (outcome is not None), notation
        if outcome is not None:
            reward = reward_function("win_loss")
            assert host.rewards[i].tolist() == [reward(outcome, seat) for seat in range(len(reference.hands))]
            return True
        assert not host.rewards[i].any(), notation
        return False

    def compare_seat_to_play(self, host: Any, alive: list[int], references: list[Any]) -> None:
        """The player to act, its legal-action mask and its observation, for every game still going at once."""
        if not alive:
            return
        seats = [min(GAME.actors(references[i])) for i in alive]
        players = host.current_player[alive].tolist()
        for i, seat, player in zip(alive, seats, players, strict=True):
            assert player == seat, GAME.state_notation(references[i])
        masks = np.asarray([self.table.mask(GAME.legal_actions(references[i], seat))
                            for i, seat in zip(alive, seats, strict=True)], bool)
        for row in np.flatnonzero((host.legal_action_mask[alive] != masks).any(axis=1))[:1]:
            moves = self.table.actions
            differ = [str(moves[j]) for j in np.flatnonzero(host.legal_action_mask[alive[row]] != masks[row])]
            raise AssertionError(f"legal moves differ on {differ}: {GAME.state_notation(references[alive[row]])}")
        observations = np.stack([self.encoder(references[i].context.config).encode(GAME.view(references[i], seat), seat)
                                 for i, seat in zip(alive, seats, strict=True)])
        # Equal but for float32 rounding: XLA divides by a constant by multiplying with its reciprocal.
        np.testing.assert_allclose(host.observation[alive], observations, rtol=1e-6, atol=0)


@pytest.fixture(scope="module")
def small_deck(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = Path(tmp_path_factory.mktemp("cards")) / "small.toml"
    path.write_text(SMALL_DECK, encoding="utf-8")
    return str(path)


def test_four_player_games_agree_step_by_step():
    differential = Differential(SnorkelingConfig(num_players=4))
    assert differential.play(games=7000, seed=1) == 7000


def test_three_player_games_with_a_small_deck_agree_step_by_step(small_deck):
    """Refills (SNK-R12), stalls (SNK-R13 a) and empty hands (SNK-R11.3, SNK-A7) in most games; with the test
    above, ten thousand games."""
    differential = Differential(SnorkelingConfig(num_players=3, cards=small_deck))
    assert differential.play(games=3000, seed=3) == 3000
