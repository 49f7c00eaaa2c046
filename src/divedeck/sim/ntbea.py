"""The N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu and Perez-Liebana, CEC 2018; TAG's ParameterSearch) over a
grid of variants, for a noisy fitness: every evaluation is a small batch of games.

The model keeps, for every 1-tuple (one parameter's value), every 2-tuple (two parameters' values) and the full
tuple (the whole point), the count and mean of the fitness of the evaluations it took part in. Each iteration
evaluates the current point once, then looks at ``neighbours`` mutations of it (each parameter changed with
probability 1/d, at least one) and moves to the one with the best upper confidence bound: the mean over its tuples
of ``mean + k_explore * sqrt(log(1 + evaluations) / (count + EPSILON))`` (a tuple never seen scores its bonus
alone). At the end it recommends the evaluated point the model values best without exploration.

Pure and seeded (``random.Random(seed)``): the same seed and fitness give the same search.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

Point = tuple[int, ...]
EPSILON = 0.1


@dataclass
class _Stat:
    count: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0


@dataclass
class NTupleModel:
    """The statistics of every 1-tuple, 2-tuple and the full tuple of a ``sizes`` grid."""

    sizes: tuple[int, ...]
    tuples: list[tuple[int, ...]] = field(default_factory=list)
    stats: dict[tuple[tuple[int, ...], tuple[int, ...]], _Stat] = field(default_factory=dict)
    evaluations: int = 0

    def __post_init__(self) -> None:
        d = len(self.sizes)
        self.tuples = [(i,) for i in range(d)]
        if d > 2:
            self.tuples += list(itertools.combinations(range(d), 2))
        if d > 1:
            self.tuples.append(tuple(range(d)))

    def _keys(self, point: Point) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        return [(t, tuple(point[i] for i in t)) for t in self.tuples]

    def add(self, point: Point, fitness: float) -> None:
        self.evaluations += 1
        for key in self._keys(point):
            stat = self.stats.setdefault(key, _Stat())
            stat.count += 1
            stat.total += fitness

    def value(self, point: Point, k_explore: float = 0.0) -> float:
        """The mean over the point's tuples of their mean, plus ``k_explore`` times their exploration bonus."""
        log_n = math.log(1 + self.evaluations)
        total = 0.0
        for key in self._keys(point):
            stat = self.stats.get(key, _Stat())
            total += stat.mean + k_explore * math.sqrt(log_n / (stat.count + EPSILON))
        return total / len(self.tuples)

    def count(self, point: Point) -> int:
        return self.stats.get((tuple(range(len(self.sizes))), point), _Stat()).count


@dataclass
class NTBEA:
    sizes: tuple[int, ...]
    seed: int = 0
    k_explore: float = 0.3
    neighbours: int = 50

    def mutate(self, point: Point, rng: random.Random) -> Point:
        d = len(self.sizes)
        changeable = [i for i in range(d) if self.sizes[i] > 1]
        if not changeable:
            return point
        forced = rng.choice(changeable)
        out = list(point)
        for i in changeable:
            if i == forced or rng.random() < 1 / d:
                out[i] = rng.choice([v for v in range(self.sizes[i]) if v != point[i]])
        return tuple(out)

    def search(self, fitness: Callable[[Point, int], float], iterations: int,
               start: Point | None = None) -> tuple[Point, NTupleModel, list[Point]]:
        """Run ``iterations`` evaluations (``fitness(point, iteration)``, higher is better); the recommended
        point, the model and the points evaluated in order."""
        rng = random.Random(self.seed)
        model = NTupleModel(self.sizes)
        point = start if start is not None else tuple(rng.randrange(size) for size in self.sizes)
        visited: list[Point] = []
        for iteration in range(iterations):
            model.add(point, fitness(point, iteration))
            visited.append(point)
            options = {self.mutate(point, rng) for _ in range(self.neighbours)}
            point = max(sorted(options), key=lambda p: model.value(p, self.k_explore))
        return self.recommend(model, visited), model, visited

    @staticmethod
    def recommend(model: NTupleModel, visited: Sequence[Point]) -> Point:
        """The evaluated point the model values best, without exploration (ties: the most evaluated, then the
        first)."""
        seen = list(dict.fromkeys(visited))
        return max(seen, key=lambda p: (model.value(p), model.count(p)))
