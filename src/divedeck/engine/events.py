"""Events: small records of what an action did, redacted per seat.

An event has public fields everyone may see, and optionally private fields that only some seats may see (the card
a player drew is known to that player alone). ``for_seat`` is the only way a caller should read an event, so a
seat never receives another seat's secret.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class Event:
    """Read-only by convention: not frozen, because frozen dataclasses cost twice as much to build and games
    make several events per action."""

    kind: str
    data: Mapping[str, Any]
    private: Mapping[int, Mapping[str, Any]] | None = None

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator), as a JSON-safe dict."""
        shown = {"kind": self.kind, **self.data}
        if self.private is not None and seat is not None and seat in self.private:
            shown.update(self.private[seat])
        return shown
