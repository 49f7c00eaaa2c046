"""The batched state: one game of Hold Your Breath! as fixed-size arrays (a pgx ``State``; batch it with
``jax.vmap``).

Hands are counts per face (a hand is kept sorted by face, so its counts say everything); the Dive Deck, the
Discard Pile and each Swim Pile are stacks with a length, bottom first, as in the notation. A Swim Pile item is
``face * 4 + how``, as in the reference state (``../state.py``). The fields mirror the notation's
(``../notation.py``).
"""

from __future__ import annotations

from pgx._src.struct import dataclass
from pgx._src.types import Array
from pgx.core import EnvId
from pgx.core import State as PgxState

# Rounds and phases: the indices of ``../state.py``'s names.
DESCENT, ASCENT = 0, 1
PLAY, KRAKEN, BREATH, DISCARD, OVER = 0, 1, 2, 3, 4
PHASES = 5
# How the game ended (``HoldYourBreathState.ended``).
ENDINGS = ("", "HYB-R22", "HYB-R41")


@dataclass
class HoldYourBreathBatchedState(PgxState):
    hands: Array  # [N, F] cards of each face in each hand
    deck: Array  # [D] the Dive Deck, bottom first; entries from deck_len on mean nothing
    deck_len: Array
    discard: Array  # [D] the Discard Pile, bottom first
    discard_len: Array
    piles: Array  # [N, D] each Swim Pile's items (face * 4 + how), bottom first
    pile_len: Array  # [N]
    depths: Array  # [N] feet
    anchors: Array  # [N] feet, meaningful once has_anchors
    has_anchors: Array  # bool: the Descent is over (HYB-R31)
    surfaced: Array  # [N] each seat's place in the order of surfacing, -1 for a diver (HYB-R21)
    round: Array  # DESCENT or ASCENT
    phase: Array  # PLAY, KRAKEN, BREATH, DISCARD or OVER
    first: Array
    active: Array
    air: Array
    swim: Array
    trigger: Array  # -1 before the final turns (HYB-R30)
    final_left: Array
    kraken: Array  # [N] during KRAKEN: -2 not a victim, -1 to choose, else the face set aside; -2 otherwise
    turns: Array
    winners: Array  # [N] bool, all False until the game is over
    ended: Array  # index of ENDINGS
    # The options, per game, so that one compiled step serves a batch of games of every variant
    # (HYB-A4, HYB-A10, HYB-A13, HYB-A19, HYB-A12, HYB-A6, HYB-A8):
    forced_breath: Array  # bool
    short_hand: Array  # bool: final_turn_trigger is short_hand
    by_distance: Array  # bool: winner_rule is distance
    kraken_random: Array  # bool: kraken_discard is random
    tie_seat_order: Array  # bool: ascent_tie_break is seat_order
    blind_panic: Array  # bool: empty_hand_panic is deck_top
    max_depth: Array  # the board's limit in feet

    @property
    def env_id(self) -> EnvId:
        return "hold-your-breath"  # type: ignore[return-value]  # pgx lists only its own games
