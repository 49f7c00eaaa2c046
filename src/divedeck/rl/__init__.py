"""Reinforcement-learning adapters over the engine contract (the optional extra ``rl``).

- ``env(game, **options)``: a PettingZoo AEC environment of a turn-based game (Snorkeling, Hold Your Breath!).
- ``parallel_env(game, step_ms=..., **options)``: a PettingZoo Parallel environment of a real-time game (Bermuda).
- ``SingleAgentEnv`` / ``make_vector_env``: one learning seat against divedeck bots, for Gymnasium.
- ``divedeck.rl.openspiel.register()``: the turn-based games as OpenSpiel Python games (needs ``open-spiel``).

Observations are fixed-size encodings of a seat's view (``encoding.py``); ``docs/rl.md`` documents them.
"""

from .aec import DivedeckAECEnv, env
from .encoding import Encoder, encoder_for
from .gym_env import SingleAgentEnv, make_vector_env
from .gym_env import register as _register_gym
from .parallel import DivedeckParallelEnv, parallel_env
from .rewards import REWARDS

__all__ = ["REWARDS", "DivedeckAECEnv", "DivedeckParallelEnv", "Encoder", "SingleAgentEnv", "encoder_for", "env",
           "make_vector_env", "parallel_env"]

_register_gym()
