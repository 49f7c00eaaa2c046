"""What the server sends about actions and events, in player words: the typed records of protocol 3.

A game fills these (``Game.action_record``, ``Game.log_parts``); the server sends them as they are, and the browser
and the terminal render them without knowing a rule.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class ActionRecord(TypedDict):
    """One legal action: its notation (what a client sends back), its kind (the action's type, for grouping and
    icons), the cards it uses (their labels), the seat or place it targets, and a label in player words."""

    notation: str
    kind: str
    cards: list[str]
    target: int | None
    label: str


class LogPart(TypedDict):
    """A piece of a log line: plain ``text``, a reference to a ``seat`` (rendered as its name, or "you"), or to a
    ``card`` (its label, which the browser may draw as a card)."""

    text: NotRequired[str]
    seat: NotRequired[int]
    card: NotRequired[str]


def text(value: str) -> LogPart:
    return {"text": value}


def seat(index: int) -> LogPart:
    return {"seat": index}


def card(label: str) -> LogPart:
    return {"card": label}


def render_parts(parts: list[LogPart], viewer: int | None, names: list[str] | None = None) -> str:
    """A log line as text: seats by name (``names``) or ``seat N``, the viewer as ``you``, cards by label."""
    out = []
    for part in parts:
        if "seat" in part:
            index = part["seat"]
            out.append("you" if index == viewer else names[index] if names and index < len(names)
                       else f"seat {index}")
        elif "card" in part:
            out.append(part["card"])
        else:
            out.append(part.get("text", ""))
    return "".join(out)
