"""Issue 25 item 9: NTBEA in tune (Lucas, Liu and Perez-Liebana 2018), on problems with a known answer."""

from __future__ import annotations

import random

from divedeck.sim import GameResult, tune
from divedeck.sim.ntbea import NTBEA, NTupleModel


def test_the_model_keeps_one_two_and_full_tuples_and_values_points_by_them() -> None:
    model = NTupleModel((3, 4, 2))
    assert model.tuples == [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]
    model.add((1, 2, 0), 1.0)
    model.add((1, 3, 0), 0.0)
    assert model.value((1, 2, 0)) > model.value((1, 3, 0)) > model.value((0, 0, 1)) == 0.0
    assert model.value((0, 0, 1), k_explore=1.0) > model.value((1, 2, 0), k_explore=1.0)  # never seen: explore


def test_ntbea_finds_the_peak_of_a_noisy_function_without_trying_every_point() -> None:
    peak = (7, 2, 5)

    def fitness(point: tuple[int, ...], iteration: int) -> float:
        noise = random.Random(hash((point, iteration))).gauss(0, 0.1)
        return 1 - sum(abs(p - q) for p, q in zip(point, peak, strict=True)) / 20 + noise

    best, _, visited = NTBEA((10, 10, 10), seed=1).search(fitness, 300)
    assert sum(abs(p - q) for p, q in zip(best, peak, strict=True)) <= 1
    assert len(set(visited)) <= len(visited) == 300 < 1000  # not every point of the grid of 1,000


def play(candidate: tune.Candidate, games: int, seed: int) -> list[GameResult]:
    """A two-seat game whose first seat's advantage is 4 (a - 5) + 6 (b - 2) points (the benchmark's problem)."""
    a, b = int(candidate.variant["a"]), int(candidate.variant["b"])
    rng = random.Random(hash((seed, a, b)))
    chance = 0.5 + (4 * (a - 5) + 6 * (b - 2)) / 100
    return [GameResult(i, ("greedy",) * 2, (0,) if rng.random() < chance else (1,), (1.0, 0.0), 10, {})
            for i in range(games)]


def test_tune_ntbea_recommends_a_variant_that_truly_meets_the_target() -> None:
    pool = [tune.Candidate({"a": str(a), "b": str(b)}, {}) for a in range(9) for b in range(5)]
    target = tune.parse_target("first_seat_advantage=-4..4")
    evaluations = tune.ntbea_search("snorkeling", ("greedy",) * 2, pool, [target], 3, 25, 3000, False, 1,
                                    play=play)
    pick = next(e for e in evaluations if e["recommended"])
    a, b = (int(part.split("=")[1]) for part in pick["variant"].split(" "))
    assert abs(4 * (a - 5) + 6 * (b - 2)) <= 4, pick["variant"]
    assert sum(len(c.results) for c in pool) == 3000
    built = tune.build("snorkeling", ["greedy"] * 2, {}, "greedy,greedy", ["a=0..8", "b=0..4"], [target],
                       evaluations, 3, 25, 3000, 9, "ntbea")
    assert built["search"] == "ntbea" and "--search ntbea" in built["command"]
    assert built["candidates"][0]["variant"] == pick["variant"]
