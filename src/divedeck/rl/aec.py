"""PettingZoo AEC environments for divedeck's turn-based games (Snorkeling, Hold Your Breath!).

A thin adapter over the engine contract: the agent to act is the game's actor, its actions are the move table's
integers (``game.move_table(config)``), its legal-action mask is ``table.mask(game.legal_actions(state, seat))``, its
observation is the seat's view encoded by ``encoding.py``, and its info holds that view. The rules stay in the game:
an action outside the mask is refused with the game's ``IllegalAction`` (reason and rule ID), never replaced.

    from divedeck.rl import env
    e = env("snorkeling", num_players=3, expert_diving=True)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        e.step(action)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.events import Event
from ..engine.registry import get_game
from .encoding import MaskBuilder, encoder_for
from .rewards import reward_function

RENDER_MODES = ["ansi", "human"]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class DivedeckAECEnv(AECEnv):
    """One game of a turn-based divedeck game; every config option of the game is a keyword argument.

    ``reward``: ``"win_loss"``, ``"score_difference"`` or ``"score"`` (``rewards.py``). ``max_cycles``: truncate
    every agent after that many steps (``None``: the game's own caps end it). ``render_mode``: ``"ansi"`` (``render``
    returns the text) or ``"human"`` (it prints it).
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(self, game_name: str, *, reward: str = "win_loss", max_cycles: int | None = None,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        game = get_game(game_name)
        if game.realtime:
            raise ValueError(f"{game.title} is played in real time: use divedeck.rl.parallel_env")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        self.game = game
        self.config = game.make_config(options)
        self.table = game.move_table(self.config)
        self.encoder = encoder_for(game, self.config)
        self.masks = MaskBuilder(self.table)
        self.reward_of = reward_function(reward, self.encoder.score_scale)
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"divedeck_{game.name.replace('-', '_')}_v0"}
        players = game.num_players(self.config)
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.table),), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {agent: spaces.Discrete(len(self.table)) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state: Any = None
        self._cache: dict[str, dict[str, np.ndarray]] = {}
        self._events: list[Event] = []
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game's side ------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` fixes the deal and every later draw, and the seeds of the games that the next
        resets without a seed start."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state, self._events = self.game.new_with_events(self.config, self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._steps = 0
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat that acts now and refresh its observation and info."""
        self._cache.clear()
        seat = min(self.game.actors(self.state))
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        self.infos[agent] = self._info(seat)

    def _info(self, seat: int) -> dict[str, Any]:
        view = self.game.view(self.state, seat)
        mask = self.masks.mask(self.game.legal_actions(self.state, seat))
        self._cache[self.possible_agents[seat]] = {"observation": self.encoder.encode(view, seat),
                                                   "action_mask": mask}
        return {"view": view, "action_mask": mask}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        cached = self._cache.get(agent)
        if cached is None:
            self._info(self._seat[agent])
            cached = self._cache[agent]
        return cached

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        move = self.table.action(int(action)) if action is not None else None
        if move is None:
            raise ValueError(f"{agent} must act: step(None) is only for an agent that is done")
        self._events = self.game.apply(self.state, seat, move)
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            for other in self.agents:
                self.rewards[other] = self.reward_of(outcome, self._seat[other])
                self.terminations[other] = True
                self.infos[other] = {**self._info(self._seat[other]), "outcome": outcome.to_dict()}
        elif self.max_cycles is not None and self._steps >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
            for other in self.agents:
                self.infos[other] = self._info(self._seat[other])
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- text -----------------------------------------------------------------------------------------------------
    def render(self) -> str | None:
        """The last action's log lines and the table as a spectator sees it (``seat_notation``), in text."""
        if self.render_mode is None or self.state is None:
            return None
        names = self.possible_agents
        lines = [self.game.format_event(event, None, names) for event in self._events]
        lines.append(self.game.seat_notation(self.state, None))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None


def env(game_name: str, **kwargs: Any) -> DivedeckAECEnv:
    """The AEC environment of a turn-based game: ``env("hold-your-breath", num_players=2, winner_rule="distance")``.
    Keyword arguments are ``DivedeckAECEnv``'s and the game's config options."""
    return DivedeckAECEnv(game_name, **kwargs)
