"""Hold Your Breath!'s state: scalars and tuples, so a clone copies a few references and shares every container.

A turn is a small state machine (HYB-R10..R26) whose pending decisions live in the state itself: ``phase`` says
which decision is awaited and from whom, so a caller only ever sees a seat choosing something. Moving, the
surfacing check, replenishing and the final-turn count resolve inside ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...engine.rng import SeededRng
from ...engine.state import GameStateBase
from .cards import CardTable
from .config import HoldYourBreathConfig

# Rounds (HYB-R2, HYB-R32).
DESCENT = "descent"
ASCENT = "ascent"

# Phases of a turn. PLAY: the active player plays cards (HYB-R10..R14). KRAKEN: the victims of a Kraken's mass
# discard each choose a card (HYB-R12). BREATH: the active player chooses the card of their breath penalty
# (HYB-R23). DISCARD: the active player discards what they like before replenishing (HYB-R24). OVER: the end.
PLAY = "play"
KRAKEN = "kraken"
BREATH = "breath"
DISCARD = "discard"
OVER = "over"
PHASES = (PLAY, KRAKEN, BREATH, DISCARD, OVER)

# A Swim Pile item is one int, ``face * 4 + how``; ``how`` says what the card is there and who has seen it.
PANIC = 0  # a Panic played face up by an opponent (HYB-R12)
SHARK = 1  # the Shark, or a Dolphin played as one (HYB-R12, HYB-R13)
DOWN = 2  # a breath-penalty Panic from its owner's hand, face down: only the owner knows its face (HYB-R23)
BLIND = 3  # a breath-penalty Panic from the top of the deck, face down: nobody knows its face (HYB-R23)

# Per seat during KRAKEN: not a victim, or still to choose; otherwise the face the seat gave up.
NOT_INVOLVED = -2
WAITING = -1

Cards = tuple[int, ...]


def item(face: int, how: int) -> int:
    return face * 4 + how


def item_face(entry: int) -> int:
    return entry >> 2


def item_how(entry: int) -> int:
    return entry & 3


def is_panic(entry: int) -> bool:
    return entry & 3 != SHARK


@dataclass(frozen=True, eq=False)
class Context:
    """What every state of one configuration shares: the config, its deck table and the board's limit."""

    config: HoldYourBreathConfig
    table: CardTable
    max_depth: int
    hand_size: int
    num_players: int


@cache
def context_for(config: HoldYourBreathConfig) -> Context:
    table = config.table
    return Context(config, table, config.depth_limit, table.hand_size, config.num_players)


class HoldYourBreathState(GameStateBase):
    """Everything about a game of Hold Your Breath! at one moment; the attributes are the notation's fields.

    Cards are faces (see ``cards.py``); hands are sorted by face. Stacks (the Dive Deck, the Discard Pile) keep
    their top card last. Swim Piles list their items bottom first.
    """

    game_name = "hold-your-breath"
    __slots__ = (
        "context", "rng", "round", "phase", "first", "active", "hands", "deck", "discard", "piles", "depths",
        "anchors", "surfaced", "air", "swim", "trigger", "final_left", "kraken", "turns", "winners", "ended",
    )

    context: Context
    rng: SeededRng
    round: str
    phase: str
    first: int  # the round's first player (HYB-R2, HYB-R32)
    active: int
    hands: tuple[Cards, ...]
    deck: Cards
    discard: Cards
    piles: tuple[Cards, ...]  # Swim Piles: items (see ``item``)
    depths: tuple[int, ...]  # Pirate tokens, in feet (HYB-C3)
    anchors: tuple[int, ...]  # Anchor tokens: empty until the Descent ends (HYB-R31)
    surfaced: tuple[int, ...]  # seats in the order they surfaced (HYB-R21)
    air: int  # A: the Air value played this turn
    swim: int  # S: the Swim value played this turn
    trigger: int  # the player whose turn triggered the final turns (HYB-R30), -1 before
    final_left: int  # turns still to be played in the round after the trigger
    kraken: tuple[int, ...]  # per seat during KRAKEN (see NOT_INVOLVED, WAITING); empty otherwise
    turns: int  # turns taken in the whole game, for statistics
    winners: tuple[int, ...]  # empty until the game is over
    ended: str  # the rule that ended the game (HYB-R22 or HYB-R41), "" before

    @property
    def config(self) -> HoldYourBreathConfig:
        return self.context.config

    @property
    def table(self) -> CardTable:
        return self.context.table

    @property
    def num_players(self) -> int:
        return len(self.hands)

    def is_diver(self, seat: int) -> bool:
        """A diver is anyone who has not surfaced during the Ascent (HYB-R21)."""
        return seat not in self.surfaced

    def hindered(self, seat: int) -> bool:
        """Every Swim Pile item is a hindrance (a Panic or the Shark)."""
        return bool(self.piles[seat])

    def has_panic(self, seat: int) -> bool:
        return any(entry & 3 != SHARK for entry in self.piles[seat])

    def has_shark(self, seat: int) -> bool:
        return any(entry & 3 == SHARK for entry in self.piles[seat])


def without(cards: Cards, card: int) -> Cards:
    """``cards`` less one copy of ``card`` (which must be there)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]
