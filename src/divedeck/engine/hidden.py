"""An action's private parts: the fields another seat may not read in the text of a move.

An action class names them in ``private_fields`` (a breath penalty laid face down names its card, a typed guess its
text). ``Game.public_action`` writes the action for every seat but its actor from a copy whose private fields hold
``HIDDEN``: a ``str`` that reads ``?``, so a notation that writes the field as text writes ``?`` without knowing.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final, TypeVar

A = TypeVar("A")


class Hidden(str):
    """The value of a private field in another seat's copy of an action."""

    __slots__ = ()


HIDDEN: Final = Hidden("?")


def private_parts(action: object) -> dict[str, Any]:
    """The private fields of ``action`` that hold something (a blank field hides nothing)."""
    names: tuple[str, ...] = getattr(action, "private_fields", ())
    return {name: value for name in names if (value := getattr(action, name)) is not None}


def concealed(action: A) -> A:
    """``action`` with each private field that holds something replaced by ``HIDDEN`` (``action`` itself if none)."""
    private = private_parts(action)
    if not private:
        return action
    return dataclasses.replace(action, **dict.fromkeys(private, HIDDEN))  # type: ignore[type-var]
