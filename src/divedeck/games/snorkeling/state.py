"""Snorkeling's state: scalars and tuples, so a clone copies a few references and shares every container.

Search bots clone states thousands of times per move; with immutable containers a clone is one small object
(the engine's generated straight-line ``clone``), and ``perform`` builds a new tuple only for the few stacks an
action changes. Attribute names are the state notation's field names.
"""

from __future__ import annotations

from ...engine.rng import SeededRng
from ...engine.state import GameStateBase
from .cards import CardTable
from .config import SnorkelingConfig
from .context import Context

# Phases (SNK "state machine"). END_OF_TURN and ROUND_OVER resolve automatically inside ``perform`` (SNK-R11,
# SNK-R17), so a caller only ever sees a player choosing centre plays, choosing pile plays, or a finished game.
CENTER = "center"
OPPONENTS = "opponents"
GAME_OVER = "over"

Cards = tuple[int, ...]


class SnorkelingState(GameStateBase):
    """Everything about a game of Snorkeling at one moment.

    Cards are faces (see ``cards.py``); hands are sorted by face, which groups them by colour. Stacks (deck, centre
    pile, personal piles) keep their top card last. Personal piles hold only reef cards: every pile's Lanternfish is
    implied at the bottom (SNK-R2).
    """

    game_name = "snorkeling"
    __slots__ = (
        "context", "rng", "phase", "round", "starter", "active", "scores",
        "hands", "known", "deck", "center", "piles",
        "played", "hit", "turns", "total_turns", "stall", "winners",
        "accept_color", "accept_value", "pile_needs",
    )

    context: Context
    rng: SeededRng
    phase: str
    round: int
    starter: int  # the seat that started this round
    active: int
    scores: tuple[int, ...]
    hands: tuple[Cards, ...]
    # Cards in a hand that every seat knows are there: taken back from a personal pile in plain sight (SNK-R11.3)
    # and not played since.
    known: tuple[Cards, ...]
    deck: Cards
    center: Cards
    piles: tuple[Cards, ...]
    # Centre cards played this turn: the last ``played`` cards of the centre pile (SNK-R6 needs T0 below them).
    played: int
    # Bit set of the seats whose piles received a card this turn (SNK-R9 limits).
    hit: int
    turns: int  # turns taken this round (SNK-R13 b)
    total_turns: int  # turns taken in the whole game, for statistics
    stall: int
    winners: tuple[int, ...]  # empty until the game is over
    # Derived from the fields above, kept because every decision reads them (see rules.refresh_acceptance):
    # the colour and value the centre accepts now, and the value each pile accepts from the active seat
    # (empty until the turn's first centre card).
    accept_color: int
    accept_value: int
    pile_needs: tuple[int, ...]

    @property
    def config(self) -> SnorkelingConfig:
        return self.context.config

    @property
    def table(self) -> CardTable:
        return self.context.table

    @property
    def num_players(self) -> int:
        return len(self.hands)

    def pile_top_value(self, seat: int) -> int:
        pile = self.piles[seat]
        table = self.context.table
        return table.face_value[pile[-1]] if pile else table.lanternfish_value


def without(cards: Cards, card: int) -> Cards:
    """``cards`` less one copy of ``card`` (which must be there)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]
