"""Train a small policy for 2-player Snorkeling against the random bot, in plain numpy, and show it beats random.

The policy is linear and softmax over the legal moves only: logits = W·observation + b, with the move table's mask
setting every illegal move's probability to 0. It learns by REINFORCE (Williams 1992) with a running-mean baseline,
from the win/loss reward of whole games (+1 a win, -1 a loss) of ``divedeck.rl.SingleAgentEnv``. Evaluation plays
fresh deals (seeds never used in training), in both seats, before and after training.

    uv sync --extra rl
    uv run python examples/train_snorkeling.py --minutes 2
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from divedeck.rl import SingleAgentEnv


class LinearPolicy:
    def __init__(self, observations: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((observations, actions))
        self.b = np.zeros(actions)
        self.rng = rng

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = obs @ self.w + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def sample(self, obs: np.ndarray, mask: np.ndarray) -> tuple[int, np.ndarray]:
        p = self.probabilities(obs, mask)
        return int(self.rng.choice(len(p), p=p)), p


def play(env: SingleAgentEnv, seed: int, choose) -> float:
    obs, info = env.reset(seed=seed)
    while True:
        obs, reward, terminated, truncated, info = env.step(choose(obs, info["action_mask"]))
        if terminated or truncated:
            return reward


def win_rate(policy_choice, games: int, first_seed: int) -> tuple[float, float, float]:
    """The share of ``games`` won in both seats (half each), with its 95% Wilson interval."""
    wins = 0
    for seat in (0, 1):
        env = SingleAgentEnv("snorkeling", num_players=2, seat=seat, opponents="random")
        wins += sum(play(env, first_seed + g, policy_choice) > 0 for g in range(games // 2))
    n = games // 2 * 2
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=2.0, help="training time")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    env = SingleAgentEnv("snorkeling", num_players=2, seat="random", opponents="random")
    policy = LinearPolicy(env.observation_space.shape[0], env.action_space.n, rng)
    uniform = np.random.default_rng(args.seed + 1)

    def random_choice(obs, mask):
        return int(uniform.choice(np.flatnonzero(mask)))

    eval_seed = 10**9  # evaluation deals are far from the training seeds
    before = win_rate(random_choice, args.eval_games, eval_seed)
    print(f"random policy vs random: {before[0]:.1%} [{before[1]:.1%}, {before[2]:.1%}]")

    baseline, games, steps = 0.0, 0, 0
    deadline = time.monotonic() + args.minutes * 60
    while time.monotonic() < deadline:
        obs, info = env.reset(seed=games)
        trajectory = []
        while True:
            mask = info["action_mask"]
            action, p = policy.sample(obs, mask)
            trajectory.append((obs, action, p))
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        scale = args.lr * advantage / len(trajectory)
        for o, a, p in trajectory:
            grad = -p
            grad[a] += 1.0  # d log softmax / d logits
            policy.w += scale * np.outer(o, grad)
            policy.b += scale * grad
        games += 1
        if games % 500 == 0:
            print(f"{games} games, {steps} steps, mean reward {baseline:+.3f}")

    # The policy plays as it learnt, sampling its moves: its most likely move alone can repeat a position forever
    # (a linear policy has no memory), until the game's turn cap ends it as a loss.
    after = win_rate(lambda obs, mask: policy.sample(obs, mask)[0], args.eval_games, eval_seed)
    print(f"trained on {games} games ({steps} decisions) in {args.minutes:g} min")
    print(f"trained policy vs random: {after[0]:.1%} [{after[1]:.1%}, {after[2]:.1%}]")


if __name__ == "__main__":
    main()
