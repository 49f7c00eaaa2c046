"""The clock per move of an online table (docs/protocol.md, "The clock"): chosen when the table is made, for games
that declare ``move_clock``.

Each turn a seat has its profile's seconds per move; once they are spent its *bank* runs down (the bank is the
seat's for the whole game and never refills). When both are spent, the seat's stand-in bot plays for it until its
person acts again (table.py). Pure bookkeeping on times given by the caller, in milliseconds: no clock is read here,
so a test, the live table and a restart replaying the log (with each action's time) count alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    per_move: int  # seconds each turn
    bank: int  # seconds a seat may spend beyond them, over the whole game

    def to_dict(self) -> dict[str, Any]:
        minutes = self.bank // 60
        return {"name": self.name, "title": self.title, "per_move": self.per_move, "bank": self.bank,
                "label": f"{self.title}: {self.per_move} s a move + {minutes} min"}


# As Board Game Arena's speed profiles: a time per move, and a reserve for the hard ones.
PROFILES: dict[str, Profile] = {profile.name: profile for profile in (
    Profile("relaxed", "Relaxed", 90, 600),
    Profile("normal", "Normal", 45, 180),
    Profile("fast", "Fast", 20, 60),
)}
OFF = "off"


def profile_names() -> tuple[str, ...]:
    return (OFF, *PROFILES)


@dataclass
class MoveClock:
    """Each seat's bank left, and when the turn of each seat to move began (ms, the server's clock)."""

    profile: Profile
    banks: list[int]
    since: dict[int, int] = field(default_factory=dict)
    second: int = 1000  # how many ms a second of the profile lasts (1000; a test server shortens it)

    @classmethod
    def start(cls, profile: Profile, seats: int, actors: Iterable[int], now: int, second: int = 1000) -> MoveClock:
        return cls(profile, [profile.bank * second] * seats, {seat: now for seat in actors}, second)

    def deadline(self, seat: int) -> int | None:
        """When ``seat``'s time runs out (its move's seconds, then its bank), while it is its turn."""
        start = self.since.get(seat)
        return None if start is None else start + self.profile.per_move * self.second + self.banks[seat]

    def moved(self, actors: Iterable[int], now: int) -> None:
        """After an action at ``now`` that leaves ``actors`` to move: a seat whose turn ended pays what it spent
        beyond its move's seconds from its bank; a seat whose turn begins starts counting; a seat still to move
        (several actions in one turn) goes on counting."""
        after = set(actors)
        for seat in [s for s in self.since if s not in after]:
            spent = now - self.since.pop(seat) - self.profile.per_move * self.second
            self.banks[seat] = max(0, self.banks[seat] - max(0, spent))
        for seat in after:
            self.since.setdefault(seat, now)

    def restart(self, seat: int, now: int, spent: bool = False) -> None:
        """Count ``seat``'s turn from ``now``: its move's seconds afresh, with what is left of its bank, or none if
        ``spent`` (its person took the seat back after their time ran out). A room's start and a person's first
        visit restart a turn too, spending nothing."""
        if seat in self.since:
            if spent:
                self.banks[seat] = 0
            self.since[seat] = now

    def seat_fields(self, seat: int) -> dict[str, Any]:
        """What the public table says of a seat's clock: its bank left and, while its turn runs, when it ends."""
        return {"bank": self.banks[seat], "time_until": self.deadline(seat)}
