"""Train the masked PPO baseline on a batched game; write a policy file and its learning curve.

    uv sync --extra jax
    uv run python examples/train_ppo.py snorkeling --minutes 20
    uv run python examples/train_ppo.py hold-your-breath --minutes 20 --out runs/hyb

Training (``divedeck.rl.ppo``) runs in JAX against random-legal opponents and frozen copies of the policy, and, with
``--imitate BOT`` (Hold Your Breath!'s default recipe: ``medium``), against a network cloned from that bot's moves
in engine games (``divedeck.rl.ppo.imitation``), which is also where the policy starts; the cloning's time counts as
training time. Every ``--eval-every`` minutes of training it pauses to measure the greedy policy: against random on
512 fresh batched deals (in JAX), and against the ``easy`` and ``medium`` bots on ``--eval-games`` deals each in the
reference engine (numpy policy, the same player as the ``learned`` bot, seats alternating; the deals are never the
training's). Each evaluation writes ``policy-<update>.npz``; at the end the output folder holds
``policy-final.npz``, ``policy-best.npz`` (the best share against medium so far), ``curve.json`` and ``curve.svg`` (win
shares against random, easy and medium over training), and ``checkpoint.npz`` (every layer of the last evaluated
policy, value head included) to carry on from with ``--init``. Copy a policy file into the game's ``data/`` folder
to ship it as ``learned`` (``docs/rl.md``).

Reproducible: the same ``--seed`` and number of updates give the same policy on the same machine (``--updates``
stops at a fixed number; ``--minutes`` stops on the clock, evaluation time not counted, and records how many
updates that was).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from pathlib import Path

import jax
import numpy as np

from divedeck.bots import make_bot
from divedeck.bots.learned import LearnedBot, Policy, write_policy
from divedeck.engine.registry import get_game
from divedeck.rl.ppo import PPOConfig, Trainer, imitation, network, parameters_numpy, steps_per_update
from divedeck.sim.runner import play_bots

EVAL_SEED = 10**9  # evaluation deals, far from anything the trainer draws
IMITATION_SEED = 2 * 10**9  # the deals of the games recorded for behaviour cloning


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def share_against(game_name: str, players: int, policy: Policy, opponent: str, games: int) -> float:
    """The share of ``games`` engine games won by the policy against ``opponent`` (seats alternating; a shared
    win counts half)."""
    game = get_game(game_name)
    config = game.make_config(dict(policy.meta["options"], num_players=players))
    won = 0.0
    for g in range(games):
        seat = g % players
        bots = [make_bot(game_name, opponent, EVAL_SEED + 7 * g + s) for s in range(players)]
        bots[seat] = LearnedBot(policy=policy)
        outcome, _, _ = play_bots(game, config, EVAL_SEED + g // players, bots)
        if seat in outcome.winners:
            won += 1.0 / len(outcome.winners)
    return won / games


def plot(curve: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    minutes = [row["train_seconds"] / 60 for row in curve]
    for name in ("random", "easy", "medium"):
        ax.plot(minutes, [row[name] for row in curve], marker="o", label=f"vs {name}")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.axhline(0.6, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel("training minutes (evaluation excluded)")
    ax.set_ylabel("win share of the greedy policy")
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


# What ``--minutes`` trains when no option says otherwise. Hold Your Breath!'s PPO from random weights, against
# random players and copies of itself, levels off at ``medium``'s strength (docs/rl.md); cloning ``medium`` first
# and playing half the games against that clone (a stand-in for ``medium`` inside the compiled rollout) goes past
# it. Snorkeling's shipped policy was trained without: its recipe is the plain one.
RECIPES: dict[str, dict] = {
    "hold-your-breath": {"imitate": "medium", "clone_share": 0.5, "random_share": 0.1},
}


def clone_bot(args: argparse.Namespace, bot: str) -> tuple[dict, dict]:
    """Record ``bot`` in every seat of ``--imitate-games`` engine games (deals of their own) and fit the network to
    its moves; returns the parameters and what to record in the policy file."""
    t = time.time()
    data = imitation.record(args.game, args.players, bot, args.imitate_games, seed=IMITATION_SEED)
    recorded = time.time() - t
    params = network.init(jax.random.PRNGKey(args.seed), data.observations.shape[1], data.moves, args.hidden)

    def log(epoch: int, metrics: dict) -> None:
        print(f"  clone of {bot}, epoch {epoch}: agreement {metrics['accuracy']:.1%}, "
              f"loss {metrics['policy_loss']:.3f}", flush=True)

    params = imitation.fit(params, data, epochs=args.imitate_epochs, seed=args.seed, log=log)
    print(f"cloned {bot}: {len(data):,} decisions of {data.games} games recorded in {recorded:.0f} s, fitted in "
          f"{time.time() - t - recorded:.0f} s", flush=True)
    return params, {"bot": bot, "games": data.games, "decisions": len(data), "epochs": args.imitate_epochs,
                    "seconds": round(time.time() - t, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", help="a game with batched rules: snorkeling, hold-your-breath")
    parser.add_argument("--minutes", type=float, default=20.0, help="training time (evaluation not counted)")
    parser.add_argument("--updates", type=int, default=None, help="stop after this many updates instead")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=256, help="games played at once")
    parser.add_argument("--steps", type=int, default=128, help="moves per game per update")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--random-share", type=float, default=None,
                        help="share of games against random opponents (default: the game's recipe)")
    parser.add_argument("--imitate", default=None,
                        help="first clone this bot's moves (behaviour cloning from engine games), start PPO from the "
                             "clone and keep it as an opponent; 'none' to start from random weights (default: the "
                             "game's recipe)")
    parser.add_argument("--imitate-games", type=int, default=3000, help="engine games the bot plays to be cloned")
    parser.add_argument("--imitate-epochs", type=int, default=8, help="passes over the recorded moves")
    parser.add_argument("--clone-share", type=float, default=None,
                        help="share of games against the clone, playing greedily (default: the game's recipe)")
    parser.add_argument("--init", type=Path, default=None,
                        help="start from this run's checkpoint.npz (every layer) or a policy file (a fresh value "
                             "head)")
    parser.add_argument("--eval-every", type=float, default=4.0, help="minutes of training between evaluations")
    parser.add_argument("--eval-games", type=int, default=60, help="engine games against easy and against medium")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default runs/ppo-GAME)")
    args = parser.parse_args()

    recipe = RECIPES.get(args.game, {})
    imitate = args.imitate if args.imitate is not None else recipe.get("imitate", "none")
    imitate = None if imitate == "none" else imitate
    random_share = args.random_share if args.random_share is not None else recipe.get("random_share", 0.5)
    clone_share = args.clone_share if args.clone_share is not None else recipe.get("clone_share", 0.0)
    if imitate is None:
        clone_share = 0.0
    out = args.out or Path("runs") / f"ppo-{args.game}"
    out.mkdir(parents=True, exist_ok=True)
    config = PPOConfig(game=args.game, players=args.players, seed=args.seed, games=args.games, steps=args.steps,
                       hidden=args.hidden, random_share=random_share, clone_share=clone_share)
    started = time.time()
    load = os.getloadavg()[0]
    clone = None
    imitation_meta = None
    if imitate is not None:  # the clone is part of training: its time counts
        clone, imitation_meta = clone_bot(args, imitate)
    trainer = Trainer(config, clone=clone)
    carry = trainer.start()
    if clone is not None:
        carry = trainer.restart_from(carry, clone)
    if args.init is not None:
        with np.load(args.init, allow_pickle=False) as data:
            carry = trainer.restart_from(carry, {name: data[name] for name in data.files})
    title = f"PPO, {get_game(args.game).title}, {args.players} players"
    curve: list[dict] = []
    best = -1.0
    trained = time.time() - started

    def evaluate(final: bool) -> None:
        nonlocal best
        updates = int(carry.update)
        meta = {"game": args.game, "players": args.players, "options": {},
                "init": args.init.name if args.init is not None else None, "imitation": imitation_meta,
                "observations": trainer.observations, "actions": trainer.actions,
                "training": {**config.as_dict(), "updates": updates, "env_steps": updates * steps_per_update(config),
                             "train_seconds": round(trained, 1)}}
        arrays = parameters_numpy(carry.params)
        policy = Policy(arrays, meta)
        versus_random = float(trainer.win_rate_vs_random(carry.params, jax.random.PRNGKey(EVAL_SEED), 512, 100_000))
        row = {"update": updates, "steps": updates * steps_per_update(config), "train_seconds": round(trained, 1),
               "random": versus_random}
        for opponent in ("easy", "medium"):
            row[opponent] = share_against(args.game, args.players, policy, opponent, args.eval_games)
        row["eval_games"] = args.eval_games
        curve.append(row)
        low, high = wilson(row["medium"] * args.eval_games, args.eval_games)
        print(f"update {updates:5d}  {trained / 60:5.1f} min  vs random {versus_random:.1%}  easy {row['easy']:.1%}"
              f"  medium {row['medium']:.1%} [{low:.0%}, {high:.0%}]", flush=True)
        write_policy(out / f"policy-{updates}.npz", arrays, meta)
        np.savez(out / "checkpoint.npz", **arrays)  # every layer, value head included: --init carries on from it
        if row["medium"] >= best:
            best = row["medium"]
            write_policy(out / "policy-best.npz", arrays, meta)
        if final:
            write_policy(out / "policy-final.npz", arrays, meta)
        (out / "curve.json").write_text(json.dumps({"title": title, "load_at_start": load,
                                                    "wall_seconds": round(time.time() - started, 1),
                                                    "rows": curve}, indent=1))
        plot(curve, out / "curve.svg", title)

    evaluate(False)
    next_eval = args.eval_every * 60
    while True:
        t = time.time()
        carry, metrics = trainer.update(carry)
        jax.block_until_ready(metrics)
        trained += time.time() - t
        done = (int(carry.update) >= args.updates) if args.updates is not None else trained >= args.minutes * 60
        if int(carry.update) % 10 == 0:
            print(f"  update {int(carry.update)}  {trained:.0f} s  reward {float(metrics['learner_reward']):+.2f}"
                  f"  vs clone {float(metrics['reward_vs_clone']):+.2f}  entropy {float(metrics['entropy']):.2f}",
                  flush=True)
        if done:
            evaluate(True)
            break
        if trained >= next_eval:
            evaluate(False)
            next_eval += args.eval_every * 60
    print(f"{int(carry.update)} updates, {int(carry.update) * steps_per_update(config):,} steps, "
          f"{trained / 60:.1f} min of training, {(time.time() - started) / 60:.1f} min in all; written to {out}")


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
