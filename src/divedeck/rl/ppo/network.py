"""The policy and value network: a small MLP over the seat's observation, in JAX for training.

Two hidden layers (tanh) shared by a policy head (one logit per move of the move table) and a value head (the
expected win/loss reward of the seat to play). Illegal moves get a logit of ``ILLEGAL`` before the softmax, so
their probability is 0 and they take no gradient. Parameters are a flat dict of arrays whose names the numpy
player (``divedeck.bots.learned``) reads: ``w0 b0 w1 b1 wp bp wv bv``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

ILLEGAL = -1e9

Params = dict[str, Any]


def init(key: Any, observations: int, actions: int, hidden: int) -> Params:
    """Orthogonal weights (gain sqrt 2 in the torso, 0.01 for the policy head, 1 for the value head), zero biases:
    the usual PPO initialization, which starts the policy near uniform over the legal moves."""
    k0, k1, kp, kv = jax.random.split(key, 4)
    orthogonal = jax.nn.initializers.orthogonal
    return {
        "w0": orthogonal(np.sqrt(2))(k0, (observations, hidden)), "b0": jnp.zeros(hidden),
        "w1": orthogonal(np.sqrt(2))(k1, (hidden, hidden)), "b1": jnp.zeros(hidden),
        "wp": orthogonal(0.01)(kp, (hidden, actions)), "bp": jnp.zeros(actions),
        "wv": orthogonal(1.0)(kv, (hidden, 1)), "bv": jnp.zeros(1),
    }


def forward(params: Params, observation: Any) -> tuple[Any, Any]:
    """Logits (before the mask) and value, for one observation or a batch of them."""
    h = jnp.tanh(observation @ params["w0"] + params["b0"])
    h = jnp.tanh(h @ params["w1"] + params["b1"])
    return h @ params["wp"] + params["bp"], (h @ params["wv"] + params["bv"])[..., 0]


def masked(logits: Any, mask: Any) -> Any:
    """The logits with every illegal move's set to ``ILLEGAL``."""
    return jnp.where(mask, logits, ILLEGAL)
