"""Snorkeling's options, each with the default its rules specification states."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...engine.errors import ConfigError
from .cards import CardTable, load_cards


@dataclass(frozen=True)
class SnorkelingConfig:
    num_players: int = field(default=4, metadata={"help": "players, 2 up to the Lanternfish count (SNK-R1)"})
    first_player: int = field(default=0, metadata={"help": "seat that starts round 1 (SNK-R2)"})
    next_round_starter: Literal["rotate_left", "same"] = field(
        default="rotate_left", metadata={"help": "who starts later rounds (SNK-R3, SNK-A12)"})
    expert_diving: bool = field(default=False, metadata={"help": "the Expert Diving variant (SNK-V1)"})
    opponent_play_limit: Literal["one_per_opponent", "one_total", "unlimited"] = field(
        default="one_per_opponent", metadata={"help": "cards onto personal piles per turn (SNK-R9, SNK-A1)"})
    allow_own_pile: bool = field(default=False, metadata={"help": "may play onto your own pile (SNK-A2)"})
    target_score: int = field(default=12, metadata={"help": "total that ends the game (SNK-R15)"})
    turn_cap: int = field(default=500, metadata={"help": "turns after which a round is scored (SNK-R13)"})
    round_cap: int = field(default=50, metadata={"help": "rounds after which the highest totals share the win "
                                                          "(SNK-A27)"})
    cards: str | None = field(default=None, metadata={"help": "a card data file instead of the default", "file": True})

    @property
    def table(self) -> CardTable:
        return load_cards(self.cards)

    def validate(self) -> None:
        table = self.table
        if not 2 <= self.num_players <= table.max_players:
            raise ConfigError(f"Snorkeling is for 2 to {table.max_players} players (SNK-R1), "
                              f"not {self.num_players}")
        if not 0 <= self.first_player < self.num_players:
            raise ConfigError(f"first_player must be a seat from 0 to {self.num_players - 1}")
        if self.target_score < 1:
            raise ConfigError("target_score must be at least 1")
        if self.turn_cap < 1 or self.round_cap < 1:
            raise ConfigError("turn_cap and round_cap must be at least 1")
        if table.deck_size < self.num_players * table.hand_size + 1:
            raise ConfigError(f"the deck of {table.deck_size} cards is too small for {self.num_players} players")
