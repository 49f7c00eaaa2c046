"""Reading the ``name=value`` fields of a game's state notation, the same way in every game."""

from __future__ import annotations

from .errors import MalformedInput


class NotationFields:
    """The fields of one state line (``fields``) for a table of ``n`` seats, read with clear errors."""

    fields: dict[str, str]
    n: int

    def per_seat(self, name: str, default: str) -> list[str]:
        parts = self.fields.get(name, "/".join([default] * self.n)).split("/")
        if len(parts) != self.n:
            raise MalformedInput(f"{name}= must have {self.n} parts separated by '/', one per seat")
        return parts

    def number(self, name: str, default: int) -> int:
        text = self.fields.get(name)
        if text is None:
            return default
        if not text.isdigit():
            raise MalformedInput(f"{name}= must be a whole number, not {text!r}")
        return int(text)

    def seat(self, name: str, default: int) -> int:
        seat = self.number(name, default)
        if seat >= self.n:
            raise MalformedInput(f"{name}= must be a seat from 0 to {self.n - 1}")
        return seat
