"""Hold Your Breath!'s options, each with the default its rules specification states (HYB-A*)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...engine.errors import ConfigError
from .cards import MAX_PLAYERS, CardTable, load_deck


@dataclass(frozen=True)
class HoldYourBreathConfig:
    num_players: int = field(default=4, metadata={"help": "players, 2 to 4 (HYB-R1)"})
    first_player: int = field(default=0, metadata={"help": "seat that starts the Descent: the most recently "
                                                           "soaked player (HYB-R2, HYB-A34)"})
    forced_breath: bool = field(default=True, metadata={
        "help": "a diver holding an Air card or a Dolphin must play one for Air before ending play (HYB-R14, "
                "HYB-A4)"})
    final_turn_trigger: Literal["deck_emptied", "short_hand"] = field(default="deck_emptied", metadata={
        "help": "what starts a round's final turns: a turn ending with the deck empty, or a hand that cannot be "
                "refilled to full (HYB-R30, HYB-A10)"})
    winner_rule: Literal["surfaced_first", "distance"] = field(default="surfaced_first", metadata={
        "help": "at the end of the Ascent: surfaced players first, or total distance for everyone (HYB-R41, "
                "HYB-A13)"})
    kraken_discard: Literal["owner_choice", "random"] = field(default="owner_choice", metadata={
        "help": "who picks the card each victim of the Kraken's mass discard loses (HYB-R12, HYB-A19)"})
    ascent_tie_break: Literal["random", "seat_order"] = field(default="random", metadata={
        "help": "who starts the Ascent among players tied for the shallowest anchor (HYB-R32, HYB-A12)"})
    empty_hand_panic: Literal["deck_top", "none"] = field(default="deck_top", metadata={
        "help": "the breath penalty of a player with an empty hand: the deck's top card, or nothing (HYB-R23, "
                "HYB-A6)"})
    max_depth: int | None = field(default=None, metadata={
        "help": "deepest space of the Depth Board in feet (default: the deck data's board, 150) (HYB-C2, HYB-A8)"})
    cards: str | None = field(default=None, metadata={"help": "a deck data file instead of the default", "file": True})

    @property
    def table(self) -> CardTable:
        return load_deck(self.cards)

    @property
    def depth_limit(self) -> int:
        return self.table.max_depth if self.max_depth is None else self.max_depth

    def validate(self) -> None:
        table = self.table
        if not 2 <= self.num_players <= MAX_PLAYERS:
            raise ConfigError(f"Hold Your Breath! is for 2 to {MAX_PLAYERS} players (HYB-R1), not {self.num_players}")
        if not 0 <= self.first_player < self.num_players:
            raise ConfigError(f"first_player must be a seat from 0 to {self.num_players - 1}")
        if self.max_depth is not None and (self.max_depth < table.step or self.max_depth % table.step):
            raise ConfigError(f"max_depth must be a positive multiple of the board's step ({table.step} ft), "
                              f"not {self.max_depth}")
        if table.deck_size < self.num_players * table.hand_size:
            raise ConfigError(f"the deck of {table.deck_size} cards cannot deal {table.hand_size} cards to "
                              f"{self.num_players} players")
