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
import random
from dataclasses import replace
from typing import Any

import jax
import numpy as np
import pytest

from divedeck.games.hold_your_breath import GAME, HoldYourBreathConfig
from divedeck.games.hold_your_breath.batched import HoldYourBreathBatched
from divedeck.games.hold_your_breath.batched.rules import shuffle_order, step_keys
from divedeck.games.hold_your_breath.state import context_for
from divedeck.rl.encoding import encoder_for
from divedeck.rl.rewards import reward_function

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


def strip_rng(line: str) -> str:
    return line.rsplit(" rng=", 1)[0]


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


class Differential:
    """Plays batches of games through both forms and compares them at every step."""

    def __init__(self, base: HoldYourBreathConfig) -> None:
        self.env = HoldYourBreathBatched(base)
        self.base = base
        self.table = GAME.move_table(base)
        self.init = jax.jit(jax.vmap(self.env.init))
        self.step = jax.jit(jax.vmap(self.env.step))
        size = self.env.tables.deck_size
        self.order = jax.jit(lambda key, k, m: shuffle_order(step_keys(key)[k], m, size))
        self.encoders: dict[HoldYourBreathConfig, Any] = {}
        self.steps = 0

    def config(self, i: int) -> HoldYourBreathConfig:
        return replace(self.base, **VARIANTS[i % len(VARIANTS)])

    def encoder(self, config: HoldYourBreathConfig) -> Any:
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
            state.context = context_for(self.config(i))  # its options travel to the batch below
            references.append(state)
        for i in range(from_batched, games):
            references.append(GAME.new_with_events(self.config(i), rng.getrandbits(63))[0])
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
            batched = dict(zip(alive, self.env.to_engines(host, alive), strict=True))
            over = {i for i in alive if self.compare(host, i, references[i], batched[i])}
            ended += len(over)
            alive = [i for i in alive if i not in over]
            self.compare_seat_to_act(host, alive, references)
            actions = np.zeros(games, np.int32)
            for i in alive:
                reference = references[i]
                seat = min(GAME.actors(reference))
                move = rng.choice(GAME.legal_actions(reference, seat))
                actions[i] = self.table.index(move)
                reference.rng = KeyedDraws(host_keys[i], self.order)
                GAME.apply(reference, seat, move)
            self.steps += len(alive)
            state = self.step(state, actions, keys)
        return ended

    def compare(self, host: Any, i: int, reference: Any, converted: Any) -> bool:
        """Asserts that game ``i`` of the batch is the reference state, that it ends when the reference does, with
        the same rewards; returns whether it is over."""
        notation = strip_rng(GAME.state_notation(reference))
        batched = strip_rng(GAME.state_notation(converted))
        assert batched == notation, f"batched {batched}\nreference {notation}"
        outcome = GAME.outcome(reference)
        assert bool(host.terminated[i]) == (outcome is not None), notation
        if outcome is not None:
            reward = reward_function("win_loss")
            assert host.rewards[i].tolist() == [reward(outcome, seat) for seat in range(len(reference.hands))]
            return True
        assert not host.rewards[i].any(), notation
        return False

    def compare_seat_to_act(self, host: Any, alive: list[int], references: list[Any]) -> None:
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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_step_by_step(players):
    """Every option in turn (``VARIANTS``); in a few hundred games every decision and every end is reached: the
    Kraken's victims choosing (HYB-R12) or losing at random (HYB-A19), Calms moving the Shark (HYB-A23), blind
    penalties (HYB-A6), tied anchors (HYB-A12), surfacing (HYB-R21) and both ends (HYB-R22, HYB-R41)."""
    games = (GAMES + 2) // 3
    differential = Differential(HoldYourBreathConfig(num_players=players))
    assert differential.play(games=games, seed=players) == games
