"""Anchor contenders for the engine speed benchmark.

Raw speed numbers for Snorkeling mean little on their own, so the engine benchmark runs two
well-known card-game engines next to it, in the same process, as anchors:

* OpenSpiel's ``crazy_eights``, a C++ engine driven step by step from Python through ``pyspiel``;
* RLCard's Uno *game loop* (``UnoGame``), a pure-Python engine, used without ``UnoEnv`` so that the
  number is not dominated by RLCard's observation encoding.

Both are played the way a Python bot loop would play them: ask for the legal actions, pick one
uniformly with ``random.Random``, apply it. Every function takes a seed and builds its own RNGs, so
the benchmark can interleave chunks of work between contenders without any shared RNG state.

Both libraries are optional (``uv sync --group bench``); they are imported lazily so that importing
this module never fails, and a missing library surfaces as :class:`AnchorUnavailable`.
"""

from __future__ import annotations

import copy
import random
import time
from dataclasses import dataclass
from typing import Any

_INSTALL_HINT = "install the benchmark group: uv sync --group bench"
_RLCARD_DEFAULT_PLAYERS = 2  # UnoGame's own default; its get_payoffs() only makes sense for two.


class AnchorUnavailable(Exception):
    """An anchor library is not installed, so that contender has to be skipped."""


@dataclass(frozen=True, slots=True)
class AnchorResult:
    """What one batch of random playouts did and how long the playout loop took.

    ``chance_steps`` counts OpenSpiel chance nodes (dealing, drawing); they are timed, since they
    are part of playing a game, but they are not player decisions. RLCard resolves chance inside
    its own calls, so it is always 0 there.
    """

    decisions: int
    games: int
    seconds: float
    chance_steps: int = 0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games


def _require_positive(name: str, value: int) -> None:
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")


def _middle_half(decisions: int) -> slice:
    """Decision indices from the middle half of a game (never empty).

    Opening states have full hands and end-game states nearly empty ones; the middle is the
    representative case for the per-call costs we time.
    """
    start = decisions // 4
    return slice(start, max(start + 1, (3 * decisions) // 4))


# --- OpenSpiel: crazy_eights through pyspiel ----------------------------------------------------


def _load_crazy_eights(players: int | None) -> Any:
    try:
        import pyspiel
    except ImportError as exc:
        raise AnchorUnavailable(_INSTALL_HINT) from exc
    params = {} if players is None else {"players": players}
    return pyspiel.load_game("crazy_eights", params)


def openspiel_playouts(games: int, seed: int, players: int | None = None) -> AnchorResult:
    """Play ``games`` uniformly random games of OpenSpiel ``crazy_eights``.

    ``players=None`` keeps the game's own default (5 players). Only the playout loop is timed;
    loading the game is not. Chance nodes are sampled from ``chance_outcomes()`` with the same
    seeded RNG and counted in ``chance_steps``, not in ``decisions``.
    """
    _require_positive("games", games)
    game = _load_crazy_eights(players)
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices
    decisions = chance_steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(outcomes, probabilities)[0])
                chance_steps += 1
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
    seconds = time.perf_counter() - start
    return AnchorResult(decisions=decisions, games=games, seconds=seconds, chance_steps=chance_steps)


def openspiel_midgame_states(samples: int, seed: int, players: int | None = None) -> list[Any]:
    """Decision states from the middle half of random ``crazy_eights`` games.

    Cloning every decision state is cheap here, so one pass per game is enough.
    """
    _require_positive("samples", samples)
    game = _load_crazy_eights(players)
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < samples:
        state = game.new_initial_state()
        trail = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                trail.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
        states.extend(trail[_middle_half(len(trail))])
    return states[:samples]


def openspiel_clone_seconds_on(states: list[Any]) -> float:
    """Mean seconds per ``state.clone()`` over ``states`` (from :func:`openspiel_midgame_states`).

    Only the clone loop is timed. The clones are dropped as they are made, so freeing them is
    included, as it would be in a search that clones and discards.
    """
    start = time.perf_counter()
    for state in states:
        state.clone()
    return (time.perf_counter() - start) / len(states)


def openspiel_legal_seconds_on(states: list[Any]) -> float:
    """Mean seconds per ``state.legal_actions()`` over ``states``.

    This includes converting the C++ vector into a Python list: that is what a Python bot pays.
    """
    start = time.perf_counter()
    for state in states:
        state.legal_actions()
    return (time.perf_counter() - start) / len(states)


def openspiel_clone_seconds(samples: int, seed: int, players: int | None = None) -> float:
    """Mean seconds per ``state.clone()`` on mid-game ``crazy_eights`` decision states.

    States are collected first; only the clone loop is timed (see :func:`openspiel_clone_seconds_on`).
    """
    return openspiel_clone_seconds_on(openspiel_midgame_states(samples, seed, players))


def openspiel_legal_seconds(samples: int, seed: int, players: int | None = None) -> float:
    """Mean seconds per ``state.legal_actions()`` on mid-game ``crazy_eights`` decision states."""
    return openspiel_legal_seconds_on(openspiel_midgame_states(samples, seed, players))


# --- RLCard: the Uno game loop ------------------------------------------------------------------


def _seeded_uno_game(players: int, seed: int) -> tuple[Any, random.Random]:
    """A fresh ``UnoGame`` and an action RNG, both fully determined by ``seed``.

    ``UnoGame.__init__`` creates an *unseeded* ``np.random.RandomState()``; RLCard's ``Env.seed``
    replaces it with ``seeding.np_random(seed)``, and we do the same. It has to happen before
    ``init_game()``, which hands that one RandomState to the dealer, players and round it builds;
    every later game on the same object keeps drawing from it.
    """
    try:
        from rlcard.games.uno.game import UnoGame
        from rlcard.utils import seeding
    except ImportError as exc:
        raise AnchorUnavailable(_INSTALL_HINT) from exc
    rng = random.Random(seed)
    game = UnoGame(num_players=players)
    # seeding.np_random wants a non-negative int; deriving it from rng accepts any int seed.
    game.np_random, _ = seeding.np_random(rng.getrandbits(64))
    return game, rng


def rlcard_playouts(games: int, seed: int, players: int = _RLCARD_DEFAULT_PLAYERS) -> AnchorResult:
    """Play ``games`` uniformly random games of RLCard Uno through ``UnoGame`` directly.

    Each ``game.step`` is one decision. Timed: ``init_game()`` (shuffle and deal, the counterpart
    of OpenSpiel's chance steps) and the step loop. Note that ``UnoGame.step`` itself builds the
    next player's state dict, including its legal actions; that is RLCard's loop, not ours.
    """
    _require_positive("games", games)
    game, rng = _seeded_uno_game(players, seed)
    choice = rng.choice
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(choice(game.get_legal_actions()))
            decisions += 1
    seconds = time.perf_counter() - start
    return AnchorResult(decisions=decisions, games=games, seconds=seconds)


def rlcard_midgame_games(samples: int, seed: int, players: int = _RLCARD_DEFAULT_PLAYERS) -> list[Any]:
    """Deep copies of ``UnoGame`` objects at decisions from the middle half of random games.

    RLCard has no clone, and ``copy.deepcopy`` of a game costs around a millisecond, so instead of
    copying every decision we play each game once to learn its length, then replay it from the
    same per-game seed and copy only the middle half.
    """
    _require_positive("samples", samples)
    master = random.Random(seed)
    snapshots: list[Any] = []
    while len(snapshots) < samples:
        game_seed = master.getrandbits(64)
        game, rng = _seeded_uno_game(players, game_seed)
        game.init_game()
        length = 0
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            length += 1
        wanted = range(length)[_middle_half(length)]
        game, rng = _seeded_uno_game(players, game_seed)
        game.init_game()
        for index in range(wanted.stop):
            if index in wanted and len(snapshots) < samples:
                snapshots.append(copy.deepcopy(game))
            game.step(rng.choice(game.get_legal_actions()))
    return snapshots


def rlcard_legal_seconds_on(games: list[Any]) -> float:
    """Mean seconds per ``UnoGame.get_legal_actions()`` over ``games`` (from :func:`rlcard_midgame_games`).

    Only the legal-actions loop is timed.
    """
    start = time.perf_counter()
    for game in games:
        game.get_legal_actions()
    return (time.perf_counter() - start) / len(games)


def rlcard_legal_seconds(samples: int, seed: int, players: int = _RLCARD_DEFAULT_PLAYERS) -> float:
    """Mean seconds per ``UnoGame.get_legal_actions()`` on mid-game decision states.

    There is deliberately no ``rlcard_clone_seconds``: RLCard has no clone operation (its own
    step-back support deep-copies the dealer, players and round), so there is nothing comparable
    to time. Snapshots are collected first; only the legal-actions loop is timed.
    """
    return rlcard_legal_seconds_on(rlcard_midgame_games(samples, seed, players))


if __name__ == "__main__":

    def _report(name: str, result: AnchorResult) -> None:
        per_game = result.chance_steps / result.games
        chance = f", {per_game:.1f} chance steps/game" if result.chance_steps else ""
        print(
            f"{name:<13} {result.decisions_per_second:>11,.0f} decisions/s  "
            f"{result.games_per_second:>9,.1f} games/s  "
            f"{result.decisions_per_game:.1f} decisions/game{chance}"
        )

    try:
        _report("crazy_eights", openspiel_playouts(games=200, seed=1))
        print(
            f"{'':<13} clone {openspiel_clone_seconds(samples=5000, seed=2) * 1e6:.2f} µs, "
            f"legal_actions {openspiel_legal_seconds(samples=5000, seed=3) * 1e6:.2f} µs"
        )
        _report("uno", rlcard_playouts(games=200, seed=1))
        print(f"{'':<13} get_legal_actions {rlcard_legal_seconds(samples=2000, seed=3) * 1e6:.2f} µs")
    except AnchorUnavailable as exc:
        raise SystemExit(str(exc)) from exc
