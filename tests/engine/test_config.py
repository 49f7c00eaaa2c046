"""Options: turning loose values into a game's typed config, with a clear error for each way they can be wrong."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from divedeck.engine import ConfigError, get_game
from divedeck.engine.config import build_config, config_to_options, describe_options

GAME = get_game("snorkeling")


@dataclass(frozen=True)
class Sample:
    count: int = 3
    fast: bool = False
    mode: Literal["a", "b"] = "a"
    label: str = "x"
    limit: int | None = None
    note: str = field(default="", metadata={"help": "a note"})

    def validate(self) -> None:
        if self.count > 10:
            raise ConfigError("count must be at most 10")


@pytest.mark.parametrize(("options", "expected"), [
    ({}, Sample()),
    ({"count": "7"}, Sample(count=7)),
    ({"fast": "yes"}, Sample(fast=True)),
    ({"fast": "OFF"}, Sample(fast=False)),
    ({"fast": True}, Sample(fast=True)),
    ({"mode": "b"}, Sample(mode="b")),
    ({"limit": "none"}, Sample(limit=None)),
    ({"limit": "4"}, Sample(limit=4)),
    ({"label": "y"}, Sample(label="y")),
])
def test_option_values_are_coerced_to_their_types(options: dict[str, Any], expected: Sample) -> None:
    assert build_config(Sample, options) == expected


@pytest.mark.parametrize(("options", "words"), [
    ({"colour": "red"}, "unknown option 'colour'"),
    ({"count": "three"}, "whole number"),
    ({"count": True}, "whole number"),
    ({"count": 2.5}, "whole number"),
    ({"fast": "maybe"}, "true or false"),
    ({"fast": 1}, "true or false"),
    ({"mode": "c"}, "one of a, b"),
    ({"label": 5}, "text"),
    ({"count": 11}, "at most 10"),
])
def test_bad_options_are_config_errors_that_say_why(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        build_config(Sample, options)


def test_config_to_options_keeps_only_what_differs_from_the_defaults() -> None:
    assert config_to_options(Sample(count=5, mode="b")) == {"count": 5, "mode": "b"}
    assert config_to_options(Sample()) == {}


def test_describe_options_lists_each_option() -> None:
    rows = {row["name"]: row for row in describe_options(Sample)}
    assert rows["mode"]["type"] == "choice" and rows["mode"]["choices"] == ["a", "b"]
    assert rows["count"]["type"] == "int" and rows["count"]["default"] == 3
    assert rows["note"]["help"] == "a note"


# -- Snorkeling's options --------------------------------------------------------------------------------------


def test_snorkeling_options_have_the_specified_defaults() -> None:
    config = GAME.make_config()
    assert (config.num_players, config.first_player, config.next_round_starter) == (4, 0, "rotate_left")
    assert (config.expert_diving, config.opponent_play_limit, config.allow_own_pile) == (
        False, "one_per_opponent", False)
    assert (config.target_score, config.turn_cap) == (12, 500)


def test_option_names_may_use_dashes() -> None:
    assert GAME.make_config({"expert-diving": "true", "num-players": "3"}).expert_diving is True


@pytest.mark.parametrize("options", [
    {"nope": 1},
    {"num_players": 1},
    {"num_players": 7},
    {"num_players": "four"},
    {"expert_diving": "sometimes"},
    {"opponent_play_limit": "two_each"},
    {"next_round_starter": "right"},
    {"first_player": 4},
    {"first_player": -1},
    {"target_score": 0},
    {"turn_cap": 0},
    {"allow_own_pile": 2},
])
def test_snorkeling_rejects_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        GAME.make_config(options)


def test_the_options_are_described_for_help_texts() -> None:
    names = [row["name"] for row in GAME.options()]
    for name in ("num_players", "expert_diving", "opponent_play_limit", "allow_own_pile", "next_round_starter",
                 "first_player", "target_score", "turn_cap", "cards"):
        assert name in names
