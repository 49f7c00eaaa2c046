"""Bermuda's options, each with the default its rules specification states."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...engine.errors import ConfigError
from .cards import MAX_PLAYERS, TreasureTable, load_treasures


@dataclass(frozen=True)
class BermudaConfig:
    num_players: int = field(default=4, metadata={"help": "players, 1 (solo) to 5 (BRM-R1)"})
    rounds: int = field(default=5, metadata={"help": "rounds in a game (BRM-R2, BRM-A22)"})
    sorting: Literal["never", "first_round", "every_round"] = field(
        default="never", metadata={"help": "when players may sort their hand before the dive (BRM-R3, BRM-V2)"})
    hidden_treasures: bool = field(
        default=False, metadata={"help": "experienced divers: treasures face down until the dive (BRM-V1)"})
    placement_check: Literal["lenient", "strict"] = field(
        default="lenient", metadata={"help": "strict refuses a card that breaks its column (BRM-R12, BRM-V4)"})
    countdown_ms: int = field(
        default=3000, metadata={"help": "ms from everyone holding their breath to the dive (BRM-R11)"})
    max_dive_ms: int | None = field(
        default=None, metadata={"help": "ms after which a dive ends by itself; none: no limit (BRM-R13)"})
    auto_end_on_empty_hands: bool = field(
        default=True, metadata={"help": "the dive ends when every hand is empty (BRM-R13, BRM-A18)"})
    single_breath_challenge: bool = field(
        default=False, metadata={"help": "no Keeper: count dives or treasures on one breath (BRM-V3)"})
    single_breath_mode: Literal["chained", "one_round"] = field(
        default="chained", metadata={"help": "the challenge's form: layouts on one breath, or one round (BRM-V3)"})
    cards: str | None = field(
        default=None, metadata={"help": "a treasure card data file instead of the default (BRM-C3)", "file": True})

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
        if not 1 <= self.num_players <= MAX_PLAYERS:
            raise ConfigError(f"Bermuda is for 1 to {MAX_PLAYERS} players (BRM-R1), not {self.num_players}")
        if self.rounds < 1:
            raise ConfigError("rounds must be at least 1 (BRM-R2)")
        if self.countdown_ms < 0:
            raise ConfigError("countdown_ms must be 0 or more")
        if self.max_dive_ms is not None and self.max_dive_ms < 1:
            raise ConfigError("max_dive_ms must be at least 1, or none for no limit")
        if self.hidden_treasures and self.sorting != "never":
            raise ConfigError("experienced divers never sort: hidden_treasures needs sorting=never (BRM-V1)")
