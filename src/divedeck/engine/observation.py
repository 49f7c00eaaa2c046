"""A game's fixed-size numeric observation, for learners: what ``Game.observation`` declares.

An observation encoder is made once per config (its sizes depend on the player count and the card table) and
writes one seat's view (``game.view``, never the state) into a flat buffer of ``size`` floats in [0, 1], block by
block as ``blocks`` names them. It writes into the buffer it is given (a preallocated ``array.array("f")`` that the
learning adapters reuse for every step and wrap in numpy, ``divedeck.rl.encoding``), so the games need no numpy and
an observation costs no lists.

Seats are written relative to the observer (block 0 is the observer, block 1 the next seat on its left, ...).
Values above 1 are clipped by the adapter, so counts may be written unbounded.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from typing import Any


class ObservationEncoder:
    """One game's encoding under one config. Subclasses set ``blocks`` (and ``score_scale``) in ``__init__`` and
    write ``fill``; ``size`` is the sum of the blocks' sizes."""

    blocks: list[tuple[str, int]]
    # What the score rewards are divided by, so that they stay near [-1, 1].
    score_scale: float = 1.0

    def __init__(self, game: Any, config: Any) -> None:
        self.game = game
        self.config = config
        self.players: int = game.num_players(config)

    @property
    def size(self) -> int:
        return sum(size for _, size in self.blocks)

    def offsets(self) -> dict[str, int]:
        """Where each block starts in the buffer."""
        out, at = {}, 0
        for name, size in self.blocks:
            out[name] = at
            at += size
        return out

    def fill(self, out: MutableSequence[float], view: Mapping[str, Any], seat: int) -> None:
        """Write ``seat``'s ``view`` into ``out``, which holds ``size`` zeros on entry."""
        raise NotImplementedError
