"""Bermuda's options, each with the default its rules specification states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...engine.config import option
from ...engine.errors import ConfigError
from .cards import MAX_PLAYERS, TreasureTable, load_treasures

# Half an hour: no count of three or dive runs longer than this (a held breath lasts minutes at most).
LONGEST_MS = 1_800_000


@dataclass(frozen=True)
class BermudaConfig:
    num_players: int = option(4, "how many divers: 1 plays solo", rules=("BRM-R1",), low=1, high=MAX_PLAYERS)
    rounds: int = option(5, "how many rounds a game lasts", rules=("BRM-R2", "BRM-A22"), low=1, high=99)
    sorting: Literal["never", "first_round", "every_round"] = option(
        "never", "when you may sort your hand before the dive (a help for beginners)", rules=("BRM-R3", "BRM-V2"))
    hidden_treasures: bool = option(
        False, "experienced divers: the treasures stay face down until the dive starts", rules=("BRM-V1",))
    placement_check: Literal["lenient", "strict"] = option(
        "lenient", "strict refuses a card that does not fit its column, instead of letting the column fail",
        rules=("BRM-R12", "BRM-V4"))
    countdown_ms: int = option(
        3000, "how long the count of three lasts once everyone holds their breath, in thousandths of a second",
        rules=("BRM-R11",), low=0, high=LONGEST_MS, advanced=True)
    max_dive_ms: int | None = option(
        None, "a dive ends by itself after this many thousandths of a second; none: no limit",
        rules=("BRM-R13",), low=1, high=LONGEST_MS, advanced=True)
    auto_end_on_empty_hands: bool = option(
        True, "the dive ends as soon as every hand is empty", rules=("BRM-R13", "BRM-A18"), advanced=True)
    single_breath_challenge: bool = option(
        False, "no Keeper: count how many dives or treasures you manage on one breath", rules=("BRM-V3",))
    single_breath_mode: Literal["chained", "one_round"] = option(
        "chained", "the challenge's form: new layouts one after another on one breath, or a single round",
        rules=("BRM-V3", "BRM-A19"))
    cards: str | None = option(
        None, "a treasure card file to play with instead of the standard treasures", rules=("BRM-C3",), file=True,
        advanced=True)

    @property
    def table(self) -> TreasureTable:
        return load_treasures(self.cards)

    @property
    def challenge(self) -> str | None:
        """``"chained"`` or ``"one_round"`` in the single-breath challenge (BRM-V3), else ``None``."""
        return self.single_breath_mode if self.single_breath_challenge else None

    def sorting_allowed(self, round_number: int) -> bool:
        """BRM-R3.4: may hands be sorted before this round's dive?"""
        return self.sorting == "every_round" or (self.sorting == "first_round" and round_number == 1)

    def validate(self) -> None:
        self.table  # noqa: B018 -- loading validates the data file; a bad one is a ConfigError now, not later
        if self.hidden_treasures and self.sorting != "never":
            raise ConfigError("experienced divers never sort: hidden_treasures needs sorting=never (BRM-V1)")
