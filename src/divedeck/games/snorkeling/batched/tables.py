"""What the batched rules read of one config: its sizes and its card table as constant arrays.

The config is fixed for an environment (as the player count is for a pgx game), so every option is a Python value
read while tracing, and every array has a size known before the first step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..config import SnorkelingConfig
from ..observation import SnorkelingObservation


@dataclass(frozen=True, eq=False)
class Tables:
    config: SnorkelingConfig
    players: int
    faces: int  # F: colour x value
    values: int  # V: reef values; the Lanternfish is worth V
    deck_size: int  # D: every reef card; the capacity of the deck and of the centre pile
    hand_size: int
    face_color: np.ndarray  # [F]
    face_value: np.ndarray  # [F]
    sorted_deck: np.ndarray  # [D] the faces as the reference gathers them before a deal (SNK-R3.1)
    # The observation's scales: the reference encoder's own constants.
    copies_scale: float
    deck_divisor: float  # the deck size is divided by it (a division rounds as the reference's float64 does)
    target: float
    num_actions: int

    @property
    def pile_capacity(self) -> int:
        """A pile reads V-1, V-2, ... 0 from the bottom (SNK-I2): at most V reef cards."""
        return self.values

    def center_action(self, face: int) -> int:
        return 2 + face

    def pile_action(self, face: int, target: int) -> int:
        return 2 + self.faces + face * self.players + target


def tables_for(game: object, config: SnorkelingConfig) -> Tables:
    table = config.table
    encoder = SnorkelingObservation(game, config)
    faces = len(table.face_label)
    return Tables(
        config=config, players=config.num_players, faces=faces, values=table.num_values,
        deck_size=table.deck_size, hand_size=table.hand_size,
        face_color=np.asarray(table.face_color, np.int32), face_value=np.asarray(table.face_value, np.int32),
        sorted_deck=np.asarray(table.deck, np.int32),
        copies_scale=1.0 / encoder.COPIES, deck_divisor=faces * encoder.COPIES, target=encoder.target,
        num_actions=2 + faces + faces * config.num_players,
    )
