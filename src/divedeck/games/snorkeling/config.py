"""Snorkeling's options, each with the default its rules specification states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...engine.config import option
from ...engine.errors import ConfigError
from .cards import CardTable, load_cards

# The most seats any card data may ask for (its Lanternfish count): beyond this a table is no longer a game.
MAX_SEATS = 16


@dataclass(frozen=True)
class SnorkelingConfig:
    # Low 1, not 2: a table of one passes the bounds and is refused by ``validate`` with the rule's own message.
    num_players: int = option(4, "how many divers play (up to the number of Lanternfish cards)",
                              rules=("SNK-R1", "SNK-A13"), low=1, high=MAX_SEATS)
    first_player: int = option(0, "the seat that starts the first round (0 is seat 1)", rules=("SNK-R2",), low=0,
                               high=MAX_SEATS - 1, advanced=True)
    next_round_starter: Literal["rotate_left", "same"] = option(
        "rotate_left", "who starts each later round: the next diver on the left, or the same one",
        rules=("SNK-R3", "SNK-A12"), advanced=True)
    expert_diving: bool = option(False, "Expert Diving: mix colour and +1 centre cards in one turn",
                                 rules=("SNK-V1", "SNK-R7", "SNK-A3"))
    opponent_play_limit: Literal["one_per_opponent", "one_total", "unlimited"] = option(
        "one_per_opponent", "how many cards you may put on other divers' piles in a turn",
        rules=("SNK-R9", "SNK-A1", "SNK-A25"), advanced=True)
    allow_own_pile: bool = option(False, "you may also put cards on your own pile", rules=("SNK-R9", "SNK-A2"),
                                  advanced=True)
    target_score: int = option(12, "the total that wins the game", rules=("SNK-R15",), low=1, high=1000)
    turn_cap: int = option(500, "turns after which a round is scored anyway", rules=("SNK-R13", "SNK-A21"), low=1,
                           high=100_000, advanced=True)
    round_cap: int = option(50, "rounds after which the highest totals share the win", rules=("SNK-A27",), low=1,
                            high=10_000, advanced=True)
    cards: str | None = option(None, "a card file of your own instead of the standard deck", rules=("SNK-C3",),
                               file=True, advanced=True)

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
        if table.deck_size < self.num_players * table.hand_size + 1:
            raise ConfigError(f"the deck of {table.deck_size} cards is too small for {self.num_players} players")
