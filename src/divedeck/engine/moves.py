"""The move table: a fixed bijection between every action a config allows and an integer (Hanabi LE's).

Learners see integers and masks, the rules see typed actions, and the table keeps the two from drifting apart: it is
built once per config from the game's ``all_actions`` and never changes while a game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from .errors import MalformedInput

A = TypeVar("A")


class MoveTable(Generic[A]):
    """Every action of one config, each with its index; ``mask`` marks which of them are legal."""

    __slots__ = ("actions", "_index", "_format")

    def __init__(self, actions: Iterable[A], format_action: Callable[[A], str]) -> None:
        self.actions: tuple[A, ...] = tuple(actions)
        self._format = format_action
        self._index: dict[A, int] = {}
        for i, action in enumerate(self.actions):
            if action in self._index:
                raise ValueError(f"the move table lists {format_action(action)!r} twice")
            self._index[action] = i

    def __len__(self) -> int:
        return len(self.actions)

    def __contains__(self, action: object) -> bool:
        return action in self._index

    def index(self, action: A) -> int:
        """The integer of ``action``; ``MalformedInput`` if the config has no such action."""
        try:
            return self._index[action]
        except KeyError:
            raise MalformedInput(f"{self._format(action)!r} is not in the move table of this config") from None

    def action(self, index: int) -> A:
        """The action numbered ``index``; ``MalformedInput`` outside the table."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.actions):
            raise MalformedInput(f"move {index!r} is not in the move table (0 to {len(self.actions) - 1})")
        return self.actions[index]

    def mask(self, legal: Sequence[A]) -> list[bool]:
        """One flag per move: ``True`` for each of ``legal`` (a seat's legal actions, as the game lists them)."""
        flags = [False] * len(self.actions)
        index = self._index
        for action in legal:
            flags[index[action]] = True
        return flags
