"""Snorkeling's actions and their notation.

| notation   | action                                                         |
|------------|----------------------------------------------------------------|
| ``pass``   | play nothing to the centre this turn (SNK-R5)                   |
| ``c Y3``   | play a yellow 3 onto the centre pile (SNK-R6/R7)                |
| ``p R2>1`` | play a red 2 onto seat 1's personal pile (SNK-R9)               |
| ``end``    | end the turn after playing (SNK-R8, SNK-R11)                    |

Cards are named by face (colour letter and value): copies of a face are interchangeable, so one action per face.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.errors import MalformedInput
from ...engine.notation import is_number


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class EndTurn:
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class PlayCenter:
    card: str

    def __str__(self) -> str:
        return f"c {self.card}"


@dataclass(frozen=True, slots=True)
class PlayPile:
    card: str
    target: int

    def __str__(self) -> str:
        return f"p {self.card}>{self.target}"


Action = Pass | EndTurn | PlayCenter | PlayPile

PASS = Pass()
END_TURN = EndTurn()


def parse_action(text: str) -> Action:
    """Parse the notation above; whitespace and letter case are forgiven, anything else is ``MalformedInput``."""
    if not isinstance(text, str):
        raise MalformedInput(f"an action is text, not {type(text).__name__}")
    words = text.strip().split()
    if len(words) == 1 and words[0].lower() in ("pass", "end"):
        return PASS if words[0].lower() == "pass" else END_TURN
    if len(words) == 2 and words[0].lower() == "c":
        return PlayCenter(_card(words[1], text))
    if len(words) == 2 and words[0].lower() == "p":
        card, sep, target = words[1].partition(">")
        if sep and is_number(target):
            return PlayPile(_card(card, text), int(target))
    raise MalformedInput(f"not a Snorkeling action: {text!r} (write pass, end, 'c Y3' or 'p R2>1')")


def _card(word: str, text: str) -> str:
    card = word.upper()
    if len(card) < 2 or not card[0].isalpha() or not is_number(card[1:]):
        raise MalformedInput(f"not a card in {text!r}: {word!r} (a card is a colour letter and a value, like Y3)")
    return card
