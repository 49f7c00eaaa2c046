"""Fixed-size numeric observations: the game's declared encoder (``Game.observation``), over a reused buffer.

Each game declares its encoder in its own package (``games/<game>/observation.py``, pure Python: the games do not
depend on numpy); this module names no game. An ``Encoder`` is made once per environment and config: it owns one
preallocated float32 buffer (an ``array.array("f")`` with a numpy array over the same memory), the game's encoder
writes the seat's view into it, and ``encode`` returns a fresh clipped copy (the APIs hand observations to the
caller, who may keep them) while ``encode_into`` writes into an array the caller owns (OpenSpiel's observer). So
a step costs one small copy, no Python lists of floats and no list-to-array conversion. ``docs/rl.md`` lists every
block of each encoding.

Only the view is read, never the state: whatever the view hides, the encoding cannot show (``tests/rl`` checks that
an observation does not change when only unseen cards do).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..engine.game import Game
from ..engine.observation import ObservationEncoder
from ..engine.registry import game_names, get_game

# float32 bounds: a Python float would be cast for every call (half of the clipping's cost).
_ONE, _ZERO = np.float32(1.0), np.float32(0.0)


class Encoder:
    """Turns one seat's view into a vector of ``size`` floats in [0, 1]; ``blocks`` names each part, in order."""

    def __init__(self, game: Game[Any, Any], config: Any, inner: ObservationEncoder) -> None:
        self.game = game
        self.config = config
        self.inner = inner
        self.blocks: list[tuple[str, int]] = list(inner.blocks)
        self.size: int = inner.size
        self.score_scale: float = inner.score_scale
        self.players = inner.players
        self._zeros = array("f", bytes(4 * self.size))
        self._buffer = array("f", self._zeros)
        self._array = np.frombuffer(self._buffer, dtype=np.float32)  # the same memory as _buffer

    def _fill(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        buffer = self._buffer
        buffer[:] = self._zeros
        self.inner.fill(buffer, view, seat)
        return self._array

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """A new array: the seat's view, encoded and clipped to [0, 1]."""
        out = np.minimum(self._fill(view, seat), _ONE)
        return np.maximum(out, _ZERO, out=out)

    def encode_into(self, view: Mapping[str, Any], seat: int, out: np.ndarray) -> np.ndarray:
        """The same, written into ``out`` (``size`` float32 values); returns ``out``."""
        np.minimum(self._fill(view, seat), _ONE, out=out)
        return np.maximum(out, _ZERO, out=out)

    def __getattr__(self, name: str) -> Any:
        # The game encoder's own tables (faces, values...), for callers that read them.
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def games_with_observation() -> list[str]:
    """The names of the registered games that declare an observation."""
    return [name for name in game_names() if get_game(name).observation is not None]


def encoder_for(game: Game[Any, Any], config: Any) -> Encoder:
    """The encoder of ``game`` under ``config``; ``ValueError`` for a game that declares none."""
    make = game.observation
    if make is None:
        raise ValueError(f"{game.title} has no observation encoding; the games with one are: "
                         f"{', '.join(games_with_observation())}")
    return Encoder(game, config, make(game, config))


class MaskBuilder:
    """Legal-action masks over one move table, from a preallocated buffer: ``mask(legal)`` is a new int8 array with
    a 1 at each legal action's integer (plus ``extra`` always-legal entries after the table, e.g. Parallel's wait).

    The integers are looked up by the action's identity first (the games hand out the same interned action objects
    step after step), so a step hashes no action; an action seen for the first time is looked up in the table once
    and remembered (it is kept alive, so its identity stays its own; at most ``MEMO`` of them)."""

    MEMO = 65_536

    def __init__(self, table: Any, extra: int = 0) -> None:
        self.table = table
        self.size = len(table) + extra
        self._zeros = bytes(self.size)
        self._buffer = bytearray(self._zeros)
        for i in range(len(table), self.size):
            self._buffer[i] = 1
        self._base = bytes(self._buffer)
        self._array = np.frombuffer(self._buffer, dtype=np.int8)
        self._by_id: dict[int, tuple[Any, int]] = {id(action): (action, i) for i, action in enumerate(table.actions)}

    def indices(self, legal: Any) -> list[int]:
        by_id = self._by_id
        out = []
        for action in legal:
            known = by_id.get(id(action))
            if known is None or known[0] is not action:
                i = self.table.index(action)
                if len(by_id) < self.MEMO and known is None:
                    by_id[id(action)] = (action, i)
                out.append(i)
            else:
                out.append(known[1])
        return out

    def mask(self, legal: Any) -> np.ndarray:
        buffer = self._buffer
        indices = self.indices(legal)
        for i in indices:
            buffer[i] = 1
        out = self._array.copy()
        buffer[:] = self._base
        return out
