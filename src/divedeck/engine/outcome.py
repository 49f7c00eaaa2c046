"""How a finished game ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """Base of each game's enum of the ways a game ends; each member names the rule that detects it.

    Members are written ``NAME = ("value", "RULE-ID", "how it ended, in words")``; the value is what the wire and
    save files carry, the words are what a page or a terminal says."""

    rule: str
    reason: str

    def __new__(cls, value: str, rule: str = "", reason: str = "") -> Termination:
        member = str.__new__(cls, value)
        member._value_ = value
        member.rule = rule
        member.reason = reason
        return member


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``winners`` are seats (several for a cooperative win or a shared victory, none for a collective loss);
    ``scores`` has one number per seat; ``termination`` names the rule that ended the game.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    termination: str
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "termination": str(self.termination),
            **({"rule": self.termination.rule, "reason": self.termination.reason or str(self.termination)}
               if isinstance(self.termination, Termination) else {}),
            **({"details": self.details} if self.details else {}),
        }
