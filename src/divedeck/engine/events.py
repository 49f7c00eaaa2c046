"""Events: small frozen records of what an action did, redacted per seat.

Each game declares one record type per kind of event: a frozen dataclass subclassing ``Event``, with a ``kind``
and its fields. Public fields are seen by everyone. A private field holds ``{seat: value}``: what each seat that may
see it is shown (the card a player drew is known to that player alone); the record names such fields in
``private_fields``. ``for_seat`` derives what one seat may see, as JSON-safe data, and is the only way a caller
should turn an event into something a seat receives, so a seat never receives another seat's secret.

Events are immutable values, so a game may build its most frequent ones once and hand out the same object every
time, as it does with actions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

_PUBLIC: dict[type, tuple[str, ...]] = {}


class Event:
    """Base of every event record."""

    __slots__ = ()
    kind: ClassVar[str]
    private_fields: ClassVar[tuple[str, ...]] = ()

    def public_fields(self) -> dict[str, Any]:
        """The fields every seat sees."""
        names = _PUBLIC.get(type(self))
        if names is None:
            names = _PUBLIC[type(self)] = tuple(f.name for f in dataclasses.fields(self)  # type: ignore[arg-type]
                                                if f.name not in self.private_fields)
        return {name: getattr(self, name) for name in names}

    def private_parts(self) -> dict[int, dict[str, Any]]:
        """Seat -> the private fields that seat (alone among the others) is shown."""
        parts: dict[int, dict[str, Any]] = {}
        for name in self.private_fields:
            for seat, value in getattr(self, name).items():
                parts.setdefault(seat, {})[name] = value
        return parts

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator), as a JSON-safe dict."""
        shown = {"kind": self.kind, **self.public_fields()}
        if seat is not None:
            for name in self.private_fields:
                values = getattr(self, name)
                if seat in values:
                    shown[name] = values[seat]
        return shown

    def seen_by(self, seat: int | None) -> Event:
        """The same record with its private fields narrowed to ``seat``'s own values (``None``: a spectator's, so
        none): for callers in the process that read records, not JSON (a bot's ``notice``). A record without
        private fields is returned as it is."""
        if not self.private_fields:
            return self
        narrowed = {}
        for name in self.private_fields:
            values = getattr(self, name)
            narrowed[name] = {seat: values[seat]} if seat is not None and seat in values else {}
        return dataclasses.replace(self, **narrowed)  # type: ignore[type-var]


def events_seen_by(events: Sequence[Event], seat: int | None) -> Sequence[Event]:
    """``events`` as records narrowed to what ``seat`` may see (``Event.seen_by``); ``events`` itself when none of
    them holds a secret, so the common case copies nothing."""
    narrowed = [event.seen_by(seat) for event in events]
    return events if all(a is b for a, b in zip(narrowed, events, strict=True)) else narrowed


@dataclass(frozen=True, slots=True)
class LooseEvent(Event):
    """An event as a bag of named values: ``data`` for everyone, ``private`` seat -> fields for that seat.

    For games not yet given typed records; a game's own records (subclasses of ``Event``) replace it."""

    kind: str  # type: ignore[misc]
    data: Mapping[str, Any]
    private: Mapping[int, Mapping[str, Any]] | None = None

    def public_fields(self) -> dict[str, Any]:
        return dict(self.data)

    def private_parts(self) -> dict[int, dict[str, Any]]:
        return {seat: dict(fields) for seat, fields in (self.private or {}).items()}

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        shown = {"kind": self.kind, **self.data}
        if self.private is not None and seat is not None and seat in self.private:
            shown.update(self.private[seat])
        return shown

    def seen_by(self, seat: int | None) -> Event:
        if not self.private:
            return self
        mine = {seat: self.private[seat]} if seat is not None and seat in self.private else None
        return dataclasses.replace(self, private=mine)


def frozen_event(kind: str, data: Mapping[str, Any],
                 private: Mapping[int, Mapping[str, Any]] | None = None) -> LooseEvent:
    """An event whose mappings are read-only too, safe to share between every action that produces it."""
    frozen_private = None
    if private is not None:
        frozen_private = MappingProxyType({seat: MappingProxyType(dict(fields)) for seat, fields in private.items()})
    return LooseEvent(kind, MappingProxyType(dict(data)), frozen_private)
