"""Catch-up and drama, from the standings a game declares (``Metrics.standing``) through one game: how often the
lead changes hands, whether the side last at mid-game goes on to win, and how often an attack
(``Metrics.attacked``) hits the side in the lead. Sides are seats, or teams in a team game (``Metrics.teams``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.declaration import Metrics


class DramaRecorder:
    """Follows one game's standings, side by side, action by action."""

    def __init__(self, metrics: Metrics, config: Any, seats: int) -> None:
        assert metrics.standing is not None
        self.standing = metrics.standing
        self.attacked = metrics.attacked
        members = metrics.teams(config) if metrics.teams is not None else tuple((seat,) for seat in range(seats))
        self.members = members
        self.side_of = {seat: side for side, group in enumerate(members) for seat in group}
        self.path: list[tuple[float, ...]] = []
        self.attacks = 0
        self.on_leader = 0
        self.leaders_share = 0.0

    def sides(self, state: Any) -> tuple[float, ...]:
        standing = self.standing(state)
        return tuple(float(standing[group[0]]) for group in self.members)

    def start(self, state: Any) -> None:
        self.path = [self.sides(state)]

    def after(self, state: Any, events: Sequence[Any]) -> None:
        before = self.path[-1]
        if self.attacked is not None and len(set(before)) > 1:  # a lead to attack: not all level
            leaders = _leaders(before)
            for event in events:
                for seat in self.attacked(event):
                    self.attacks += 1
                    self.on_leader += self.side_of[seat] in leaders
                    self.leaders_share += len(leaders) / len(before)
        now = self.sides(state)
        if now != before:
            self.path.append(now)

    def result(self, winners: Sequence[int]) -> dict[str, Any]:
        won = {self.side_of[seat] for seat in winners}
        changes = 0
        last_leader = None
        for standing in self.path:
            leaders = _leaders(standing)
            if len(leaders) == 1:
                leader = next(iter(leaders))
                changes += last_leader is not None and leader != last_leader
                last_leader = leader
        middle = self.path[len(self.path) // 2]
        low = min(middle)
        last = [side for side, value in enumerate(middle) if value == low]
        return {"lead_changes": changes,
                "last_at_half_won": (1.0 if last[0] in won else 0.0) if len(last) == 1 and len(set(middle)) > 1
                else None,
                "attacks": self.attacks, "on_leader": self.on_leader, "leaders_share": self.leaders_share,
                "sides": len(self.members)}


def _leaders(standing: Sequence[float]) -> set[int]:
    best = max(standing)
    return {side for side, value in enumerate(standing) if value == best}
