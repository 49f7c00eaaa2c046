"""Hold Your Breath!'s options, each with the default its rules specification states (HYB-A*)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...engine.config import option
from ...engine.errors import ConfigError
from .cards import MAX_PLAYERS, CardTable, load_deck


@dataclass(frozen=True)
class HoldYourBreathConfig:
    num_players: int = option(4, "how many divers play", rules=("HYB-R1",), low=2, high=MAX_PLAYERS)
    first_player: int = option(0, "the seat that starts the Descent, the most recently soaked player (0 is seat 1)",
                               rules=("HYB-R2", "HYB-A34"), low=0, high=MAX_PLAYERS - 1, advanced=True)
    forced_breath: bool = option(True, "a diver holding an Air card or a Dolphin must play one for Air before "
                                       "ending their plays", rules=("HYB-R14", "HYB-A4"))
    final_turn_trigger: Literal["deck_emptied", "short_hand"] = option(
        "deck_emptied", "what starts a round's last turns: a turn ending with the deck empty, or a hand that "
                        "cannot be refilled to full", rules=("HYB-R30", "HYB-A10"), advanced=True)
    winner_rule: Literal["surfaced_first", "distance"] = option(
        "surfaced_first", "at the end of the Ascent: divers who reached the surface win first, or the total "
                          "distance counts for everyone", rules=("HYB-R41", "HYB-A13"))
    kraken_discard: Literal["owner_choice", "random"] = option(
        "owner_choice", "who picks the card each victim of the Kraken's mass discard loses: its owner, or chance",
        rules=("HYB-R12", "HYB-A19"), advanced=True)
    ascent_tie_break: Literal["random", "seat_order"] = option(
        "random", "who starts the Ascent among divers tied for the shallowest anchor: chance, or the first of "
                  "them clockwise from the Descent's first player", rules=("HYB-R32", "HYB-A12"), advanced=True)
    empty_hand_panic: Literal["deck_top", "none"] = option(
        "deck_top", "the penalty of a diver out of breath with an empty hand: the deck's top card face down, or "
                    "nothing", rules=("HYB-R23", "HYB-A6"), advanced=True)
    max_depth: int | None = option(None, "the deepest point of the Depth Board in feet (empty: the deck data's "
                                         "board, 150 ft)", rules=("HYB-C2", "HYB-A8"), low=5, high=1000,
                                   advanced=True)
    cards: str | None = option(None, "a deck data file to play with instead of the standard deck",
                               rules=("HYB-C1",), file=True, advanced=True)

    @property
    def table(self) -> CardTable:
        return load_deck(self.cards)

    @property
    def depth_limit(self) -> int:
        return self.table.max_depth if self.max_depth is None else self.max_depth

    def validate(self) -> None:
        """The checks across options and the deck data (the engine has checked each option's own bounds)."""
        table = self.table
        if not 0 <= self.first_player < self.num_players:
            raise ConfigError(f"first_player must be a seat from 0 to {self.num_players - 1}")
        if self.max_depth is not None and (self.max_depth < table.step or self.max_depth % table.step):
            raise ConfigError(f"max_depth must be a positive multiple of the board's step ({table.step} ft), "
                              f"not {self.max_depth}")
        if table.deck_size < self.num_players * table.hand_size:
            raise ConfigError(f"the deck of {table.deck_size} cards cannot deal {table.hand_size} cards to "
                              f"{self.num_players} players")
