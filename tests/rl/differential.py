"""The stepping harness of the differential tests (``test_jax_*.py``): a game's batched rules against its reference
engine, step by step, from the same deals with the same actions.

Half the deals come from the batched ``init`` (turned into reference states by ``to_engine``), half from the
reference ``new_state`` (turned into batched states by ``from_engines``). At every step it compares the legal-action
mask, the player to act, the rewards, the end, the observation of the seat to act and the whole state through the
notation. Chance cannot come from two generators: each game's test gives a stand-in for the reference's
``SeededRng`` that draws as the batched step does with the same key (``keyed_rng``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import jax
import numpy as np

from divedeck.rl.encoding import encoder_for
from divedeck.rl.rewards import reward_function


def strip_rng(line: str) -> str:
    return line.rsplit(" rng=", 1)[0]


class Differential:
    """Plays batches of games through both forms and compares them at every step.

    ``variants``: the options each batch mixes, game ``i`` taking ``variants[i % len(variants)]`` (every option but
    the player count and the cards travels with each game's state, so one compiled step serves them all);
    ``context_for``: the game's reference context of a config; ``keyed_rng(key)``: the stand-in generator for one
    reference step with that step's batched key."""

    def __init__(self, game: Any, env: Any, variants: Sequence[dict[str, Any]], context_for: Callable[[Any], Any],
                 keyed_rng: Callable[[np.ndarray], Any]) -> None:
        self.game = game
        self.env = env
        self.base = env.config
        self.variants = list(variants)
        self.context_for = context_for
        self.keyed_rng = keyed_rng
        self.table = game.move_table(self.base)
        self.init = jax.jit(jax.vmap(env.init))
        self.step = jax.jit(jax.vmap(env.step))
        self.encoders: dict[Any, Any] = {}
        self.steps = 0

    def config(self, i: int) -> Any:
        return replace(self.base, **self.variants[i % len(self.variants)])

    def batched_deal_config(self, i: int) -> Any:
        """The config of game ``i`` when the batched ``init`` dealt it (whatever ``init`` fixes, it keeps)."""
        return self.config(i)

    def to_engines(self, host: Any, indices: list[int]) -> list[Any]:
        """The reference states of the games ``indices`` of the batch ``host``."""
        if hasattr(self.env, "to_engines"):
            return list(self.env.to_engines(host, indices))
        return [self.env.to_engine(host, i) for i in indices]

    def encoder(self, config: Any) -> Any:
        if config not in self.encoders:
            self.encoders[config] = encoder_for(self.game, config)
        return self.encoders[config]

    def starting_batch(self, games: int, seed: int) -> tuple[Any, list[Any]]:
        """Half the deals from the batched ``init``, half from the reference; the variants in turn."""
        rng = random.Random(seed)
        from_batched = games // 2
        batched = jax.device_get(self.init(jax.random.split(jax.random.PRNGKey(seed), from_batched)))
        references = []
        for i, state in enumerate(self.to_engines(batched, list(range(from_batched)))):
            state.context = self.context_for(self.batched_deal_config(i))  # its options travel to the batch below
            references.append(state)
        for i in range(from_batched, games):
            references.append(self.game.new_with_events(self.config(i), rng.getrandbits(63))[0])
        return self.env.from_engines(references), references

    def play(self, games: int, seed: int) -> int:
        """Plays ``games`` random games to their end; returns how many ended."""
        game = self.game
        state, references = self.starting_batch(games, seed)
        rng = random.Random(seed)
        key = jax.random.PRNGKey(seed + 1)
        alive = list(range(games))
        ended = 0
        while alive:
            key, sub = jax.random.split(key)
            keys = jax.random.split(sub, games)
            host, host_keys = jax.device_get((state, keys))
            batched = dict(zip(alive, self.to_engines(host, alive), strict=True))
            over = {i for i in alive if self.compare(host, i, references[i], batched[i])}
            ended += len(over)
            alive = [i for i in alive if i not in over]
            self.compare_seat_to_act(host, alive, references)
            actions = np.zeros(games, np.int32)
            for i in alive:
                reference = references[i]
                seat = min(game.actors(reference))
                move = rng.choice(game.legal_actions(reference, seat))
                actions[i] = self.table.index(move)
                reference.rng = self.keyed_rng(host_keys[i])
                game.apply(reference, seat, move)
            self.steps += len(alive)
            state = self.step(state, actions, keys)
        return ended

    def compare(self, host: Any, i: int, reference: Any, converted: Any) -> bool:
        """Asserts that game ``i`` of the batch is the reference state, that it ends when the reference does, with
        the same rewards; returns whether it is over."""
        game = self.game
        notation = strip_rng(game.state_notation(reference))
        batched = strip_rng(game.state_notation(converted))
        assert batched == notation, f"batched {batched}\nreference {notation}"
        outcome = game.outcome(reference)
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
        game = self.game
        seats = [min(game.actors(references[i])) for i in alive]
        players = host.current_player[alive].tolist()
        for i, seat, player in zip(alive, seats, players, strict=True):
            assert player == seat, game.state_notation(references[i])
        masks = np.asarray([self.table.mask(game.legal_actions(references[i], seat))
                            for i, seat in zip(alive, seats, strict=True)], bool)
        for row in np.flatnonzero((host.legal_action_mask[alive] != masks).any(axis=1))[:1]:
            moves = self.table.actions
            differ = [str(moves[j]) for j in np.flatnonzero(host.legal_action_mask[alive[row]] != masks[row])]
            raise AssertionError(f"legal moves differ on {differ}: {game.state_notation(references[alive[row]])}")
        observations = np.stack([self.encoder(references[i].context.config).encode(game.view(references[i], seat), seat)
                                 for i, seat in zip(alive, seats, strict=True)])
        # Equal but for float32 rounding: XLA divides by a constant by multiplying with its reciprocal.
        np.testing.assert_allclose(host.observation[alive], observations, rtol=1e-6, atol=0)
