"""Events: small records of what an action did, redacted per seat.

An event has public fields everyone may see, and optionally private fields that only some seats may see (the card
a player drew is known to that player alone). ``for_seat`` is the only way a caller should read an event, so a
seat never receives another seat's secret.

Events are immutable values, so a game may build its most frequent ones once and hand out the same object every
time (``frozen_event``), as it does with actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: Mapping[str, Any]
    private: Mapping[int, Mapping[str, Any]] | None = None

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator), as a JSON-safe dict."""
        shown = {"kind": self.kind, **self.data}
        if self.private is not None and seat is not None and seat in self.private:
            shown.update(self.private[seat])
        return shown


def frozen_event(kind: str, data: Mapping[str, Any], private: Mapping[int, Mapping[str, Any]] | None = None) -> Event:
    """An event whose mappings are read-only too, safe to share between every action that produces it."""
    frozen_private = None
    if private is not None:
        frozen_private = MappingProxyType({seat: MappingProxyType(dict(fields)) for seat, fields in private.items()})
    return Event(kind, MappingProxyType(dict(data)), frozen_private)
