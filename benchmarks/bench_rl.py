"""Environment steps per second: divedeck's PettingZoo environments against PettingZoo's and RLCard's own card games.

Contenders, each played by uniformly random legal moves (``random.Random.choice`` over the mask's legal actions, or
over RLCard's legal actions), in one process, in interleaved rounds:

- divedeck Snorkeling and Hold Your Breath!, 2 players, PettingZoo AEC (``divedeck.rl.env``): ``last()`` (the
  observation: the seat's view, encoded, and its mask) then ``step``;
- PettingZoo's ``leduc_holdem_v4`` (classic), the same loop;
- RLCard's Uno environment (``rlcard.make("uno")``): ``env.step`` (it builds the next player's encoded state);
- Gymnasium's vector API: 64 Snorkeling games against random bots in a ``SyncVectorEnv`` (a step is one learner
  decision in one game; the bots' moves in between are inside it).

- the batched games (``divedeck.rl.jax``, the jax extra): Snorkeling and Hold Your Breath! in JAX (2 players; and
  each with 4 players at batch 1024), ``jax.jit(jax.vmap(step))`` over a batch of 1, 64, 1024 and 8192 games,
  each step a random legal action per game (``random_legal_action``: one uniform draw, inside the compiled step)
  and a new deal for each game that ended (``auto_reset``); at batch 1 also a ``lax.scan`` of 64 steps per call.
  pgx's own ``leduc_holdem`` the same way, as the anchor for what pgx does on this CPU. Compilation is timed
  apart, before the rounds; a step of a batch of B games counts B steps.

Each round runs a chunk of every contender, each about as long, in an order that rotates; figures are medians over
rounds and each ratio is the median of the per-round ratios. Before the rounds, each part of a Python step (view,
encoding, mask, apply, and the rest: the environment's bookkeeping and the harness) is timed alone over mid-game
states. ``--json`` writes every figure, with the machine's load. Needs the bench group (``uv sync --group bench``).

    uv run python benchmarks/bench_rl.py --seconds 60 --json rl.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from divedeck.engine.registry import get_game
from divedeck.rl import env as divedeck_env
from divedeck.rl import make_vector_env
from divedeck.rl.encoding import MaskBuilder, encoder_for

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


def batched_contender(env: Any, batch: int, seed: int, scan: int = 0) -> tuple[Chunk, float]:
    """A compiled step of ``batch`` games (random legal actions, finished games dealt again), or with ``scan``, a
    ``lax.scan`` of that many steps per call; returns the chunk and the seconds the first call took to compile."""
    import jax

    from divedeck.rl.jax import auto_reset, random_legal_action

    stepper = auto_reset(env)

    def one(state: Any, key: Any) -> Any:
        pick, step_key = jax.random.split(key)
        return stepper(state, random_legal_action(pick, state.legal_action_mask), step_key)

    def steps(states: Any, key: Any) -> Any:
        return jax.vmap(one)(states, jax.random.split(key, batch))

    if scan:
        def run(states: Any, key: Any) -> Any:
            return jax.lax.scan(lambda s, k: (steps(s, k), None), states, jax.random.split(key, scan))[0]
    else:
        run = steps
    compiled = jax.jit(run)
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(seed), batch))
    key = jax.random.PRNGKey(seed + 1)
    start = time.perf_counter()
    states = compiled(states, key)
    jax.block_until_ready(states)
    compile_seconds = time.perf_counter() - start
    per_call = batch * max(scan, 1)

    def chunk(seconds: float) -> int:
        nonlocal states, key
        taken = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(4):
                key, sub = jax.random.split(key)
                states = compiled(states, sub)
                taken += per_call
            jax.block_until_ready(states)
        return taken

    return chunk, compile_seconds


def step_parts(game_name: str, samples: int, seed: int) -> dict[str, float]:
    """Microseconds per part of a Python step, each timed alone over ``samples`` mid-game states of a 2-player game:
    the view, its encoding, the legal actions and their mask, a clone and the action; ``aec_step`` is a whole AEC
    step (``last`` and ``step``) in the loop, ``bookkeeping`` what it costs beyond the parts."""
    game = get_game(game_name)
    config = game.make_config({"num_players": 2})
    encoder = encoder_for(game, config)
    masks = MaskBuilder(game.move_table(config))
    rng = random.Random(seed)
    cases = []
    while len(cases) < samples:
        state = game.new_with_events(config, rng.getrandbits(63))[0]
        for _ in range(rng.randrange(5, 40)):
            if game.outcome(state) is not None:
                break
            seat = min(game.actors(state))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if game.outcome(state) is None:
            seat = min(game.actors(state))
            cases.append((state, seat, rng.choice(game.legal_actions(state, seat))))

    def timed(part: Callable[[Any, int, Any], object]) -> float:
        start = time.perf_counter()
        for state, seat, action in cases:
            part(state, seat, action)
        return (time.perf_counter() - start) / len(cases) * 1e6

    views = [game.view(state, seat) for state, seat, _ in cases]
    parts = {
        "view": timed(lambda state, seat, action: game.view(state, seat)),
        "encoding": 0.0,
        "mask": timed(lambda state, seat, action: masks.mask(game.legal_actions(state, seat))),
        "apply": timed(lambda state, seat, action: game.apply(state.clone(), seat, action)),
    }
    start = time.perf_counter()
    for (_, seat, _), view in zip(cases, views, strict=True):
        encoder.encode(view, seat)
    parts["encoding"] = (time.perf_counter() - start) / len(cases) * 1e6
    chunk = aec_contender(lambda: divedeck_env(game_name, num_players=2), seed)
    chunk(0.5)
    seconds = 2.0
    parts["aec_step"] = seconds / chunk(seconds) * 1e6
    parts["bookkeeping"] = parts["aec_step"] - sum(parts[name] for name in ("view", "encoding", "mask", "apply"))
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="total budget")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--vector", type=int, default=64, help="games at once for the vector API")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--batches", default="1,64,1024,8192", help="batch sizes of the batched games")
    parser.add_argument("--samples", type=int, default=2000, help="mid-game states for the per-part breakdown")
    parser.add_argument("--batched-games", default="snorkeling,hold-your-breath",
                        help="the games with batched rules to measure (each costs a compilation per batch size)")
    parser.add_argument("--json", help="write every figure to this file")
    args = parser.parse_args()

    import pgx
    from pettingzoo.classic import leduc_holdem_v4

    from divedeck.rl.jax import make as make_batched

    load_before = os.getloadavg()
    parts = {name: step_parts(name, args.samples, args.seed) for name in ("snorkeling", "hold-your-breath")}
    print("| part of a step (µs) | " + " | ".join(parts) + " |")
    print("|---|" + "--:|" * len(parts))
    for part in parts["snorkeling"]:
        print(f"| {part} | " + " | ".join(f"{parts[name][part]:.1f}" for name in parts) + " |")

    contenders: dict[str, Chunk] = {
        "divedeck Snorkeling (AEC, 2p)": aec_contender(lambda: divedeck_env("snorkeling", num_players=2), args.seed),
        "divedeck Hold Your Breath! (AEC, 2p)": aec_contender(
            lambda: divedeck_env("hold-your-breath", num_players=2), args.seed),
        "PettingZoo leduc_holdem_v4 (AEC, 2p)": aec_contender(leduc_holdem_v4.env, args.seed),
        "RLCard Uno env (2p)": uno_contender(args.seed),
        f"Gymnasium SyncVectorEnv, {args.vector} Snorkeling games": vector_contender(args.vector, args.seed),
    }
    compile_seconds: dict[str, float] = {}
    titles = {"snorkeling": "Snorkeling", "hold-your-breath": "Hold Your Breath!"}
    games = [game for game in args.batched_games.split(",") if game]
    batched = {f"{titles.get(game, game)} (JAX, 2p)": make_batched(game, num_players=2) for game in games}
    batched["pgx leduc_holdem (JAX)"] = pgx.make("leduc_holdem")
    sizes = [int(size) for size in args.batches.split(",")]
    for label, environment in batched.items():
        for size in sizes:
            name = f"{label}, batch {size}"
            contenders[name], compile_seconds[name] = batched_contender(environment, size, args.seed)
        name = f"{label}, batch 1, scan of 64 steps"
        contenders[name], compile_seconds[name] = batched_contender(environment, 1, args.seed, scan=64)
    for game in games:
        name = f"{titles.get(game, game)} (JAX, 4p), batch 1024"
        contenders[name], compile_seconds[name] = batched_contender(make_batched(game, num_players=4), 1024,
                                                                    args.seed)
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
    print(f"\nload average {load_before} before, {os.getloadavg()} after")
    print("| environment | steps/s (median) | min–max | × RLCard Uno env (median of per-round ratios) | compile s |")
    print("|---|--:|---|--:|--:|")
    results = {}
    for name in names:
        ratio = statistics.median(r / u for r, u in zip(rates[name], uno, strict=True))
        compiled = f"{compile_seconds[name]:.1f}" if name in compile_seconds else ""
        print(f"| {name} | {statistics.median(rates[name]):,.0f} | {min(rates[name]):,.0f}–{max(rates[name]):,.0f} "
              f"| {ratio:.2f} | {compiled} |")
        results[name] = {"steps_per_second": statistics.median(rates[name]), "per_round": rates[name],
                         "x_rlcard_uno": ratio, "compile_seconds": compile_seconds.get(name)}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"date": time.strftime("%Y-%m-%d %H:%M:%S"), "load_average_before": load_before,
                       "load_average_after": os.getloadavg(), "seconds": args.seconds, "rounds": args.rounds,
                       "step_parts_microseconds": parts, "environments": results}, out, indent=2)


if __name__ == "__main__":
    main()
