"""The seeded random source a state owns: reproducible, immutable, serializable."""

from __future__ import annotations

from typing import Any

import pytest

from divedeck.engine import SeededRng
from divedeck.engine.rng import check_seed


def shuffled(rng: SeededRng) -> tuple[list[int], SeededRng]:
    items = list(range(30))
    following = rng.shuffle(items)
    return items, following


def test_the_same_seed_and_counter_shuffle_the_same_way() -> None:
    assert shuffled(SeededRng(5))[0] == shuffled(SeededRng(5))[0]
    assert shuffled(SeededRng(5, 3))[0] == shuffled(SeededRng(5, 3))[0]


def test_each_shuffle_moves_on_and_seeds_differ() -> None:
    first, following = shuffled(SeededRng(5))
    assert following == SeededRng(5, 1)
    assert shuffled(following)[0] != first
    assert shuffled(SeededRng(6))[0] != first
    assert sorted(first) == list(range(30))


def test_the_generator_is_immutable() -> None:
    rng = SeededRng(5)
    with pytest.raises(AttributeError):
        rng.seed = 6  # type: ignore[misc]
    shuffled(rng)
    assert rng == SeededRng(5, 0)


def test_the_notation_round_trips() -> None:
    rng = SeededRng(2**63 - 1, 17)
    assert SeededRng.from_notation(rng.notation()) == rng
    assert SeededRng.from_notation("9") == SeededRng(9, 0)
    assert hash(SeededRng(9, 1)) == hash(SeededRng(9, 1))


@pytest.mark.parametrize("seed", [-1, 2**63, "3", 2.0, True, None])
def test_check_seed_refuses_anything_but_a_whole_number_from_0_to_2_63(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed"):
        check_seed(seed)
    with pytest.raises(ValueError):
        SeededRng(seed)
