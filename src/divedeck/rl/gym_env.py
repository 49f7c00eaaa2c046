"""A Gymnasium environment: one learning seat of a turn-based game against divedeck bots of a chosen level.

The learner's observation is its seat's encoded view (``encoding.py``); its action is a move-table integer; the
legal-action mask and the view are in ``info`` (``info["action_mask"]``, ``info["view"]``, a read-only mapping), as
in Gymnasium's own environments with masks. Between two of the learner's decisions the other seats are played by
their bots (``divedeck.bots.make_bot``), each seeing only its own seat's view.

An action outside the mask is refused, as the engine refuses it: the game is untouched, the reward is 0 and
``info["refused"]`` holds the reason and rule ID. Gymnasium's checker and untrained agents sample without a mask,
and a refusal keeps the game honest without inventing a move.

Many games at once go through Gymnasium's vector API: ``make_vector_env(64, "snorkeling")`` or
``gymnasium.make_vec("divedeck/Snorkeling-v0", num_envs=64)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots.registry import make_bot
from ..engine.decision import decide
from ..engine.errors import IllegalAction
from ..engine.registry import get_game
from .aec import RENDER_MODES
from .encoding import MaskBuilder, encoder_for
from .rewards import reward_function


class Record(Mapping[str, Any]):
    """A read-only view, outcome or refusal in ``info``. Not a ``dict``, so that Gymnasium's vector API keeps each
    game's record whole (in an object array) instead of splitting it key by key, which fails on ``None`` values;
    picklable, so that ``AsyncVectorEnv`` can send it between processes."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Record({self._data!r})"

    def __getstate__(self) -> Mapping[str, Any]:
        return self._data

    def __setstate__(self, data: Mapping[str, Any]) -> None:
        self._data = data


class SingleAgentEnv(gymnasium.Env[np.ndarray, Any]):
    """``seat`` (a number, or ``"random"``: a new seat each game) learns; every other seat is played by a bot.

    ``opponents``: a bot name for all of them (``"random"``, ``"easy"``, ``"medium"``, ``"hard"`` or one of the
    game's own bots), or one name per other seat, in seat order. ``reward``: as in ``rewards.py``. Every other
    keyword is a config option of the game.
    """

    metadata = {"render_modes": RENDER_MODES}

    def __init__(self, game_name: str = "snorkeling", *, seat: int | str = 0,
                 opponents: str | Sequence[str] = "random", reward: str = "win_loss",
                 render_mode: str | None = None, **options: Any) -> None:
        game = get_game(game_name)
        if game.realtime:
            raise ValueError(f"{game.title} is played in real time: use divedeck.rl.parallel_env")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        self.game = game
        self.config = game.make_config(options)
        self.players = game.num_players(self.config)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ValueError(f"seat must be a seat number from 0 to {self.players - 1}, or 'random'")
        self.seat_choice = seat
        names = [opponents] * (self.players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != self.players - 1:
            raise ValueError(f"give one opponent for each of the {self.players - 1} other seats")
        for name in set(names):
            make_bot(game.name, name, 0)  # an unknown name fails here, not at the first reset
        self.opponent_names = names
        self.table = game.move_table(self.config)
        self.encoder = encoder_for(game, self.config)
        self.masks = MaskBuilder(self.table)
        self.reward_of = reward_function(reward, self.encoder.score_scale)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space: spaces.Space[Any] = spaces.Discrete(len(self.table))
        self.state: Any = None
        self.seat = 0
        self.bots: dict[int, Any] = {}
        self._log: list[str] = []

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game: ``seed`` fixes the deal, the learner's seat (if random) and the bots' choices."""
        super().reset(seed=seed)
        draw = self.np_random.integers
        self.seat = int(draw(self.players)) if self.seat_choice == "random" else int(self.seat_choice)
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {s: make_bot(self.game.name, name, int(draw(2**62)))
                     for s, name in zip(others, self.opponent_names, strict=True)}
        self.state, events = self.game.new_with_events(self.config, int(draw(2**62)))
        self._log = [self.game.format_event(event, self.seat) for event in events]
        self._play_bots()
        return self._observe(), self._info()

    def _play_bots(self) -> None:
        game, state = self.game, self.state
        while game.outcome(state) is None:
            seat = min(game.actors(state))
            if seat == self.seat:
                return
            events = game.apply(state, seat, decide(self.bots[seat], game, state, seat))
            if self.render_mode is not None:
                self._log += [game.format_event(event, self.seat) for event in events]

    def _observe(self) -> np.ndarray:
        self._view = self.game.view(self.state, self.seat)
        return self.encoder.encode(self._view, self.seat)

    def _info(self) -> dict[str, Any]:
        mask = self.masks.mask(self.game.legal_actions(self.state, self.seat))
        return {"view": Record(self._view), "action_mask": mask, "seat": self.seat}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game, state = self.game, self.state
        self._log = []
        try:
            events = game.apply(state, self.seat, self.table.action(int(action)))
        except IllegalAction as refusal:
            observation = self._observe()
            info = self._info()
            info["refused"] = Record({"reason": refusal.reason, "rule": refusal.rule})
            return observation, 0.0, False, False, info
        if self.render_mode is not None:
            self._log += [game.format_event(event, self.seat) for event in events]
        self._play_bots()
        observation = self._observe()
        info = self._info()
        outcome = game.outcome(state)
        if outcome is None:
            return observation, 0.0, False, False, info
        info["outcome"] = Record(outcome.to_dict())
        # A finished game has no legal move; the mask says "any": the step after the end is the vector API's reset
        # (autoreset NEXT_STEP), which ignores its action, and a sampler over the mask must not meet an empty one.
        info["action_mask"] = np.ones_like(info["action_mask"])
        return observation, self.reward_of(outcome, self.seat), True, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal-action mask now (the method name that maskable-policy libraries look for); all ones
        once the game is over, as at the step that ended it."""
        if self.game.outcome(self.state) is not None:
            return np.ones(len(self.table), dtype=bool)
        return np.asarray(self._info()["action_mask"], dtype=bool)

    def render(self) -> str | None:
        """The log lines since the learner's last decision and the game as its seat sees it, in text."""
        if self.render_mode is None or self.state is None:
            return None
        text = "\n".join([*self._log, self.game.seat_notation(self.state, self.seat)])
        if self.render_mode == "human":
            print(text)
            return None
        return text


def make_vector_env(num_envs: int, game_name: str = "snorkeling", *, asynchronous: bool = False,
                    **kwargs: Any) -> gymnasium.vector.VectorEnv:
    """``num_envs`` games at once through Gymnasium's vector API (``AsyncVectorEnv``, one process per game, when
    ``asynchronous``); keyword arguments are ``SingleAgentEnv``'s."""
    factories: list[Callable[[], gymnasium.Env[Any, Any]]] = [
        lambda: SingleAgentEnv(game_name, **kwargs) for _ in range(num_envs)]
    if asynchronous:
        return gymnasium.vector.AsyncVectorEnv(factories)
    return gymnasium.vector.SyncVectorEnv(factories)


# Registered ids, so that ``gymnasium.make("divedeck/Snorkeling-v0", opponents="hard")`` and
# ``gymnasium.make_vec(..., num_envs=64)`` work once ``divedeck.rl`` is imported.
GYM_IDS = {"divedeck/Snorkeling-v0": "snorkeling", "divedeck/HoldYourBreath-v0": "hold-your-breath"}


def register() -> None:
    for env_id, game_name in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=SingleAgentEnv, kwargs={"game_name": game_name})
