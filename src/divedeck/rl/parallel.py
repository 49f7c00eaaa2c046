"""A PettingZoo Parallel environment for a real-time game (Bermuda): everyone acts at once, in simulated time.

The game never reads a clock, so this adapter keeps one: each ``step`` happens at the adapter's time ``now``. Every
agent's action (the move table's, unstamped) is stamped with ``now`` and applied, in seat order; then the clock moves
on by ``step_ms`` and the adapter applies the game's ``tick`` at the new time, so every deadline that passed on the
way (the end of the countdown, a dive's time limit) fires at its own time. Choosing ``step_ms`` chooses how fine the
agents' sense of time is: 100 ms is a quick human's.

The action space is the move table plus one last action, ``wait`` (do nothing this step), always legal. A real-time
action can go out of date within a step (a seat earlier in the order ended the dive): it is then refused, as at a
real table, and the refusal (reason and rule) is in that agent's ``info["refused"]``. Nothing is played in its place.

Every game ends by itself, whatever the agents do: Bermuda's rules wait for everyone to hold their breath, which
random agents almost never do together for a whole count of three, so the environment gives each game
``time_limit_ms`` of simulated time (``TIME_LIMIT_MS_PER_ROUND`` per round by default). When it runs out, the game
ends as a loss for every seat, a *termination* (``info["outcome"]["termination"] == "time_limit"``) with the loss's
rewards, not a truncation. ``max_cycles`` still truncates after that many steps, with reward 0.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..engine.errors import IllegalAction
from ..engine.events import Event
from ..engine.game import CLOCK
from ..engine.outcome import Outcome
from ..engine.registry import get_game
from .aec import RENDER_MODES, agent_name
from .encoding import MaskBuilder, encoder_for
from .rewards import reward_function

# Simulated time a game may take per round before the environment ends it as a loss: a human table takes a minute
# or two for a round (the countdown, a dive of seconds to a minute); ten minutes leaves a slow policy room to learn.
TIME_LIMIT_MS_PER_ROUND = 600_000
TIME_LIMIT = "time_limit"


class DivedeckParallelEnv(ParallelEnv):
    """One game of a real-time divedeck game; every config option is a keyword argument.

    ``step_ms``: simulated milliseconds per step. ``reward``: as in ``rewards.py``. ``time_limit_ms``: simulated
    time after which the game ends as a loss for everyone (default: ``TIME_LIMIT_MS_PER_ROUND`` per round of the
    config). ``max_cycles``: truncate after that many steps. ``render_mode``: ``"ansi"`` or ``"human"``.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES}

    def __init__(self, game_name: str = "bermuda", *, step_ms: int = 100, reward: str = "win_loss",
                 time_limit_ms: int | None = None, max_cycles: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        game = get_game(game_name)
        if not game.realtime:
            raise ValueError(f"{game.title} is turn-based: use divedeck.rl.env")
        if step_ms <= 0:
            raise ValueError("step_ms must be a positive number of milliseconds")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        self.game = game
        self.config = game.make_config(options)
        self.table = game.move_table(self.config)
        self.wait = len(self.table)
        self.encoder = encoder_for(game, self.config)
        self.masks = MaskBuilder(self.table, extra=1)
        self.reward_of = reward_function(reward, self.encoder.score_scale)
        self.step_ms = step_ms
        rounds = getattr(self.config, "rounds", 1)
        self.time_limit_ms = time_limit_ms if time_limit_ms is not None else TIME_LIMIT_MS_PER_ROUND * rounds
        if self.time_limit_ms <= 0:
            raise ValueError("time_limit_ms must be a positive number of milliseconds")
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"divedeck_{game.name.replace('-', '_')}_v0"}
        players = game.num_players(self.config)
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.wait + 1,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {agent: spaces.Discrete(self.wait + 1) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state: Any = None
        self.now = 0
        self._steps = 0
        self._events: list[Event] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state, self._events = self.game.new_with_events(self.config, self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.now = 0
        self._steps = 0
        return self._observe(self.agents)

    def _observe(self, agents: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
        observations, infos = {}, {}
        for agent in agents:
            seat = self.possible_agents.index(agent)
            view = self.game.view(self.state, seat)
            mask = self.masks.mask(self.game.legal_actions(self.state, seat))
            observations[agent] = {"observation": self.encoder.encode(view, seat), "action_mask": mask}
            infos[agent] = {"view": view, "action_mask": mask, "now": self.now}
        return observations, infos

    def step(self, actions: dict[str, int]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, Any]]:
        game, state, now = self.game, self.state, self.now
        refused: dict[str, dict[str, Any]] = {}
        events: list[Event] = []
        for seat, agent in enumerate(self.possible_agents):
            choice = actions.get(agent, self.wait)
            if agent not in self.agents or choice is None or int(choice) == self.wait:
                continue
            if game.outcome(state) is not None:
                break
            try:
                events += game.apply(state, seat, self.table.action(int(choice)), at=now)
            except IllegalAction as refusal:
                refused[agent] = {"reason": refusal.reason, "rule": refusal.rule}
        self.now = now + self.step_ms
        if game.outcome(state) is None:
            events += game.apply(state, CLOCK, game.tick(self.now))
        self._events = events
        self._steps += 1
        agents = self.agents
        observations, infos = self._observe(agents)
        for agent, why in refused.items():
            infos[agent]["refused"] = why
        outcome = game.outcome(state)
        if outcome is None and self.now >= self.time_limit_ms:  # the environment's own end: a loss for all
            outcome = Outcome((), (0.0,) * len(self.possible_agents), TIME_LIMIT,
                              {"time_limit_ms": self.time_limit_ms})
        over = outcome is not None
        truncated = not over and self.max_cycles is not None and self._steps >= self.max_cycles
        rewards = {agent: self.reward_of(outcome, self.possible_agents.index(agent)) if outcome else 0.0
                   for agent in agents}
        if outcome is not None:
            for agent in agents:
                infos[agent]["outcome"] = outcome.to_dict()
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated)
        if over or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The last step's log lines and the table as a spectator sees it (``seat_notation``), in text."""
        if self.render_mode is None or self.state is None:
            return None
        lines = [self.game.format_event(event, None, self.possible_agents) for event in self._events]
        lines.append(self.game.seat_notation(self.state, None))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None


def parallel_env(game_name: str = "bermuda", **kwargs: Any) -> DivedeckParallelEnv:
    """The Parallel environment of a real-time game: ``parallel_env("bermuda", num_players=3, step_ms=50)``."""
    return DivedeckParallelEnv(game_name, **kwargs)
