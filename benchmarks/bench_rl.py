"""Environment steps per second: divedeck's PettingZoo environments against PettingZoo's and RLCard's own card games.

Contenders, each played by uniformly random legal moves (``random.Random.choice`` over the mask's legal actions, or
over RLCard's legal actions), in one process, in interleaved rounds:

- divedeck Snorkeling and Hold Your Breath!, 2 players, PettingZoo AEC (``divedeck.rl.env``): ``last()`` (the
  observation: the seat's view, encoded, and its mask) then ``step``;
- PettingZoo's ``leduc_holdem_v4`` (classic), the same loop;
- RLCard's Uno environment (``rlcard.make("uno")``): ``env.step`` (it builds the next player's encoded state);
- Gymnasium's vector API: 64 Snorkeling games against random bots in a ``SyncVectorEnv`` (a step is one learner
  decision in one game; the bots' moves in between are inside it).

Each round runs a chunk of every contender, each about as long, in an order that rotates; figures are medians over
rounds and each ratio is the median of the per-round ratios. Needs the bench group (``uv sync --group bench``).

    uv run python benchmarks/bench_rl.py --seconds 60
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from divedeck.rl import env as divedeck_env
from divedeck.rl import make_vector_env

Chunk = Callable[[float], int]  # seconds -> steps taken


def aec_contender(make: Callable[[], object], seed: int) -> Chunk:
    e = make()
    rng = random.Random(seed)
    e.reset(seed=seed)
    iterator = iter(e.agent_iter())

    def chunk(seconds: float) -> int:
        nonlocal iterator
        steps = 0
        end = time.perf_counter() + seconds
        while True:
            for _ in range(256):
                agent = next(iterator, None)
                if agent is None:
                    e.reset()
                    iterator = iter(e.agent_iter())
                    continue
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
                steps += 1
            if time.perf_counter() >= end:
                return steps

    return chunk


def uno_contender(seed: int) -> Chunk:
    import rlcard

    e = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)
    state, _ = e.reset()

    def chunk(seconds: float) -> int:
        nonlocal state
        steps = 0
        end = time.perf_counter() + seconds
        while True:
            for _ in range(256):
                if e.is_over():
                    state, _ = e.reset()
                state, _ = e.step(rng.choice(list(state["legal_actions"])))
                steps += 1
            if time.perf_counter() >= end:
                return steps

    return chunk


def vector_contender(num_envs: int, seed: int) -> Chunk:
    vector = make_vector_env(num_envs, "snorkeling", num_players=2, opponents="random")
    rng = np.random.default_rng(seed)
    _, infos = vector.reset(seed=seed)

    def chunk(seconds: float) -> int:
        nonlocal infos
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(8):
                masks = infos["action_mask"]
                actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
                _, _, _, _, infos = vector.step(np.array(actions))
                steps += num_envs
        return steps

    return chunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="total budget")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--vector", type=int, default=64, help="games at once for the vector API")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    from pettingzoo.classic import leduc_holdem_v4

    contenders: dict[str, Chunk] = {
        "divedeck Snorkeling (AEC, 2p)": aec_contender(lambda: divedeck_env("snorkeling", num_players=2), args.seed),
        "divedeck Hold Your Breath! (AEC, 2p)": aec_contender(
            lambda: divedeck_env("hold-your-breath", num_players=2), args.seed),
        "PettingZoo leduc_holdem_v4 (AEC, 2p)": aec_contender(leduc_holdem_v4.env, args.seed),
        "RLCard Uno env (2p)": uno_contender(args.seed),
        f"Gymnasium SyncVectorEnv, {args.vector} Snorkeling games": vector_contender(args.vector, args.seed),
    }
    names = list(contenders)
    per_chunk = args.seconds / (args.rounds * len(names))
    rates: dict[str, list[float]] = {name: [] for name in names}
    for round_number in range(args.rounds):
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            gc.collect()
            start = time.perf_counter()
            steps = contenders[name](per_chunk)
            rates[name].append(steps / (time.perf_counter() - start))
    uno = rates["RLCard Uno env (2p)"]
    print("| environment | steps/s (median) | min–max | × RLCard Uno env (median of per-round ratios) |")
    print("|---|--:|---|--:|")
    for name in names:
        ratio = statistics.median(r / u for r, u in zip(rates[name], uno, strict=True))
        print(f"| {name} | {statistics.median(rates[name]):,.0f} | {min(rates[name]):,.0f}–{max(rates[name]):,.0f} "
              f"| {ratio:.2f} |")


if __name__ == "__main__":
    main()
