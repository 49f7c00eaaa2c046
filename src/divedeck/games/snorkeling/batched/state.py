"""The batched state: one game of Snorkeling as fixed-size arrays (a pgx ``State``; batch it with ``jax.vmap``).

Hands and the publicly known hand cards are counts per face (a hand is kept sorted by face, SNK-R3, so its counts
say everything); the deck, the centre and the piles are stacks with a length, top last, as in the notation. The
fields mirror the reference state's notation fields (``docs/games/snorkeling.md`` section 7.2).
"""

from __future__ import annotations

from pgx._src.struct import dataclass
from pgx._src.types import Array
from pgx.core import EnvId
from pgx.core import State as PgxState

CENTER, OPPONENTS, OVER = 0, 1, 2
PHASES = ("center", "opponents", "over")
LIMITS = ("one_per_opponent", "one_total", "unlimited")


@dataclass
class SnorkelingBatchedState(PgxState):
    hands: Array  # [N, F] cards of each face in each hand
    known: Array  # [N, F] of those, the ones taken back in plain sight (SNK-R4, SNK-R11.3)
    deck: Array  # [D] the draw deck, bottom first; entries from deck_len on mean nothing
    deck_len: Array
    center: Array  # [D] the centre pile, bottom first
    center_len: Array
    piles: Array  # [N, V] the reef cards on each Lanternfish, bottom first
    pile_len: Array  # [N]
    scores: Array  # [N]
    round: Array
    starter: Array
    active: Array
    phase: Array  # CENTER, OPPONENTS or OVER
    played: Array  # centre cards played this turn
    hit: Array  # [N] bool: the piles that received a card this turn
    turns: Array
    total_turns: Array
    stall: Array
    winners: Array  # [N] bool, all False until the game is over
    center_counts: Array  # [F] the centre's cards of each face (kept, not counted, for the observation)
    # The options, per game, so that one compiled step serves a batch of games of every variant
    # (SNK-V1, SNK-A1, SNK-A2, SNK-A12, SNK-R13, SNK-R15, SNK-A27):
    expert_diving: Array  # bool
    play_limit: Array  # LIMITS index of opponent_play_limit
    allow_own_pile: Array  # bool
    rotate_starter: Array  # bool: next_round_starter is rotate_left
    target_score: Array
    turn_cap: Array
    round_cap: Array

    @property
    def env_id(self) -> EnvId:
        return "snorkeling"  # type: ignore[return-value]  # pgx lists only its own games
