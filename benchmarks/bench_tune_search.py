"""Tuning searches on a problem with a known answer: NTBEA (``tune --search ntbea``) against the grid with successive
halving (``tune``'s default), by the games each needs to recommend a variant that truly meets the target.

The problem: a two-seat game whose first seat wins with a chance set by two parameters, ``a`` in 0..8 and ``b`` in
0..4, so that the first seat's advantage is exactly ``4 (a - 5) + 6 (b - 2)`` points; the target is
``first_seat_advantage=-2..2``, which 7 of the 45 variants meet (the answer, by brute force over the grid). Each
game is one draw of that chance: the searches see only games, as with a real game, and the same code paths
(``tune.successive_halving``, ``tune.ntbea_search``) judge them. For each budget, every search runs on ``--seeds``
seeds; a run succeeds when its recommendation (NTBEA's, or halving's best candidate meeting the target) truly
meets it.

    uv run python benchmarks/bench_tune_search.py [--seeds 20] [--budgets 500,1000,2000,4000,8000] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from divedeck.sim import GameResult, tune

GAME = "snorkeling"  # only its two-seat report quantities are read; the games are drawn here
BOTS = ("greedy", "greedy")
A_VALUES, B_VALUES = range(9), range(5)
TARGET = tune.parse_target("first_seat_advantage=-2..2")


def advantage(a: int, b: int) -> float:
    return 4 * (a - 5) + 6 * (b - 2)


def truly_meets(variant: str) -> bool:
    values = dict(part.split("=") for part in variant.split(" "))
    return TARGET.miss(advantage(int(values["a"]), int(values["b"]))) == 0


def play(candidate: tune.Candidate, games: int, seed: int) -> list[GameResult]:
    """``games`` games of the candidate's variant: the first seat wins with chance 1/2 + advantage/100."""
    a, b = int(candidate.variant["a"]), int(candidate.variant["b"])
    chance = 0.5 + advantage(a, b) / 100
    rng = random.Random(hash((seed, a, b)) & 0xFFFFFFFF)
    return [GameResult(i, BOTS, (0,) if rng.random() < chance else (1,), (1.0, 0.0), 10, {})
            for i in range(games)]


def candidates() -> list[tune.Candidate]:
    return [tune.Candidate({"a": str(a), "b": str(b)}, {}) for a in A_VALUES for b in B_VALUES]


def run_once(search: str, budget: int, seed: int) -> dict[str, Any]:
    pool = candidates()
    if search == "ntbea":
        evaluations = tune.ntbea_search(GAME, BOTS, pool, [TARGET], seed, 25, budget, False, 1, play=play)
        pick = next(e for e in evaluations if e["recommended"])
    else:  # the first round spends half the budget over every candidate, as a designer would set --games
        first = max(10, budget // (2 * len(pool)))
        evaluations = tune.successive_halving(GAME, BOTS, pool, [TARGET], seed, first, budget, False, 1,
                                              play=play)
        pick = next((e for e in evaluations if e["meets"]), evaluations[0])
    played = sum(len(c.results) for c in pool)
    return {"variant": pick["variant"], "success": truly_meets(pick["variant"]), "games": played}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--budgets", default="500,1000,2000,4000,8000")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    answer = [f"a={a} b={b}" for a in A_VALUES for b in B_VALUES if truly_meets(f"a={a} b={b}")]
    print(f"the answer, by brute force: {len(answer)} of {len(A_VALUES) * len(B_VALUES)} variants meet "
          f"{TARGET.text()}: {', '.join(answer)}")
    rows = []
    started = time.perf_counter()
    for budget in (int(b) for b in args.budgets.split(",")):
        for search in ("halving", "ntbea"):
            runs = [run_once(search, budget, seed) for seed in range(args.seeds)]
            rate = sum(r["success"] for r in runs) / len(runs)
            games = sum(r["games"] for r in runs) / len(runs)
            rows.append({"search": search, "budget": budget, "success": rate, "games": games})
            print(f"budget {budget:>6}  {search:<8} meets the target truly in {100 * rate:5.1f}% of "
                  f"{args.seeds} runs, {games:,.0f} games a run")
    print(f"({time.perf_counter() - started:.1f} s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"answer": answer, "rows": rows}, out, indent=1)


if __name__ == "__main__":
    main()
