"""The base of every game's state: slots, a cheap clone, equality, hashing and a pasteable ``repr``.

A state is a plain mutable object whose fields are ``__slots__``. Search bots clone states thousands of times a
move, so ``clone`` is generated once per class as straight-line code (one attribute copy per slot, as a hand-written
clone would be); fields hold immutable values or containers the game replaces rather than mutates, so a clone
shares them safely, and a game whose state holds a mutable container copies it in ``clone_containers``.

``repr`` prints ``parse_state('…')`` with the game's full state notation, so a failing assertion can be pasted into
a test.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

_new = object.__new__


def _all_slots(cls: type) -> tuple[str, ...]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return tuple(dict.fromkeys(names))


class GameStateBase:
    """Subclass with ``game_name`` (the registered name) and ``__slots__`` (the state's fields)."""

    __slots__ = ()
    game_name: ClassVar[str]
    fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.fields = _all_slots(cls)
        body = "".join(f"    copy.{name} = self.{name}\n" for name in cls.fields)
        if cls.clone_containers is not GameStateBase.clone_containers:
            body += "    copy.clone_containers()\n"
        source = f"def clone(self):\n    copy = _new(cls)\n{body}    return copy\n"
        namespace: dict[str, Any] = {"_new": _new, "cls": cls}
        exec(source, namespace)  # noqa: S102 - straight-line code built from the class's own slot names
        if "clone" not in cls.__dict__:
            cls.clone = namespace["clone"]  # type: ignore[method-assign]

    def clone(self) -> Self:
        raise NotImplementedError  # replaced per subclass

    def clone_containers(self) -> None:
        """Copy, on a fresh clone, any mutable container the state holds (none by default)."""

    def copy_from(self, other: Self) -> None:
        """Make this state equal to ``other`` in place (a rejected action worked on a copy; this keeps it)."""
        for name in self.fields:
            setattr(self, name, getattr(other, name))

    def notation(self) -> str:
        from .registry import get_game

        return get_game(self.game_name).state_notation(self)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.fields)

    def __hash__(self) -> int:
        return hash(self.notation())

    def __repr__(self) -> str:
        return f"parse_state({self.notation()!r})"


def replaced(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``items`` with entry ``index`` replaced: how a per-seat tuple of a state changes."""
    return items[:index] + (value,) + items[index + 1:]
