"""How a finished game ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
            "termination": self.termination,
            **({"details": self.details} if self.details else {}),
        }
