"""``learned``: a policy trained by PPO on the batched game (``divedeck.rl.ppo``), played with numpy only.

A game that ships trained policies declares them (``Game.learned``: player count -> a ``.npz`` file in the game's
``data/`` folder, inside the wheel). The file holds the network's weights (``w0 b0 w1 b1 wp bp``, float32; the
value head is dropped) and ``meta``, a JSON string: the game, the player count, the config options it was trained
under, the observation and move-table sizes, and how it was trained.

At play time the bot sees what every bot sees (``Decision``): its seat's view and legal moves. It encodes the view
with the game's observation encoder (``divedeck.rl.encoding``, the same vector the batched game gave it in
training), runs the two tanh layers and plays its most likely legal move (ties go to the first in move-table
order). No JAX is imported, and it never reads the state: whatever the view hides, the bot cannot use.

It plays only the player count it was trained for: ``check_players`` refuses any other with one line, and so does
the bot itself if it is seated at such a table anyway.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from ..engine.decision import Decision
from ..engine.errors import ConfigError
from ..engine.game import Game
from ..engine.registry import get_game

NAME = "learned"
DESCRIPTION = "a policy trained by self-play (PPO)"
LAYERS = ("w0", "b0", "w1", "b1", "wp", "bp")


class Policy:
    """The network of a policy file, in numpy: ``logits(observation)``."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.arrays = {name: np.asarray(arrays[name], dtype=np.float32) for name in LAYERS}
        self.meta = meta

    @classmethod
    def read(cls, source: Any) -> Policy:
        """A policy from a ``.npz`` file (a path or a binary file object)."""
        with np.load(source, allow_pickle=False) as data:
            return cls({name: data[name] for name in LAYERS}, json.loads(str(data["meta"])))

    def logits(self, observation: np.ndarray) -> np.ndarray:
        a = self.arrays
        h = np.tanh(observation @ a["w0"] + a["b0"])
        h = np.tanh(h @ a["w1"] + a["b1"])
        return h @ a["wp"] + a["bp"]  # type: ignore[no-any-return]


def write_policy(path: Any, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    """Write a policy file: the policy layers as float32 (not the value head) and ``meta`` as JSON."""
    layers: dict[str, Any] = {name: np.asarray(arrays[name], dtype=np.float32) for name in LAYERS}
    np.savez_compressed(path, meta=np.array(json.dumps(meta, sort_keys=True)), **layers)


def players_offered(game: Game[Any, Any]) -> list[int]:
    """The player counts ``game`` ships a learned policy for."""
    return sorted(game.learned)


def refusal(game: Game[Any, Any], players: int) -> str | None:
    """Why ``learned`` cannot play ``game`` with ``players`` players (one line), or ``None`` when it can."""
    offered = players_offered(game)
    if players in offered:
        return None
    counts = " or ".join(str(n) for n in offered) or "no"
    return (f"the learned bot plays {game.title} with {counts} players only (it was trained for that), "
            f"not with {players}")


def check_players(game_name: str, bot_name: str, players: int) -> None:
    """Raise ``ConfigError`` (one line) when ``bot_name`` cannot sit at a ``players``-player table of the game."""
    if bot_name != NAME:
        return
    reason = refusal(get_game(game_name), players)
    if reason is not None:
        raise ConfigError(reason)


@cache
def shipped_policy(game_name: str, players: int) -> Policy:
    """The policy file that ships with the game for ``players`` players (read once per process)."""
    game = get_game(game_name)
    reason = refusal(game, players)
    if reason is not None:
        raise ConfigError(reason)
    package = type(game).__module__.rpartition(".")[0]
    with resources.files(package).joinpath("data", game.learned[players]).open("rb") as file:
        return Policy.read(file)


class LearnedBot:
    """Plays the most likely legal move of a trained policy, from its seat's view only."""

    name = NAME

    def __init__(self, seed: int = 0, policy: Policy | None = None) -> None:
        self.seed = seed  # the bot is deterministic: the seed is kept for the bot protocol only
        self.policy = policy
        self._ready: tuple[Any, Any, Any] | None = None  # (game name, encoder, mask builder)

    def _prepare(self, game: Game[Any, Any], players: int) -> tuple[Any, Any]:
        if self._ready is None or self._ready[0] != game.name:
            from ..rl.encoding import MaskBuilder, encoder_for

            reason = refusal(game, players) if self.policy is None else None
            if reason is not None:
                raise ConfigError(reason)
            policy = self.policy or shipped_policy(game.name, players)
            if policy.meta.get("players") != players:
                raise ConfigError(f"the learned bot's policy plays {policy.meta.get('players')} players, "
                                  f"not {players}")
            self.policy = policy
            config = game.make_config(dict(policy.meta.get("options", {}), num_players=players))
            self._ready = (game.name, encoder_for(game, config), MaskBuilder(game.move_table(config)))
        return self._ready[1], self._ready[2]

    def choose(self, decision: Decision) -> Any:
        view = decision.view
        players = len(view["hand_sizes"])
        if self.policy is not None and self.policy.meta.get("players") != players:
            raise ConfigError(refusal(decision.game, players) or "the learned bot cannot play this table")
        encoder, masks = self._prepare(decision.game, players)
        if len(decision.legal) == 1:
            return decision.legal[0]
        logits = self.policy.logits(encoder.encode(view, decision.seat))  # type: ignore[union-attr]
        indices = masks.indices(decision.legal)
        best = max(range(len(indices)), key=lambda i: (logits[indices[i]], -indices[i]))
        return decision.legal[best]
