"""How the board names a seat: moves name seats by number (``p R2>1``), so the board shows each seat's number."""

from __future__ import annotations


def numbered(names: list[str], seat: int) -> str:
    """``seat``'s number and name, as every board shows them: ``1 greedy``."""
    return f"{seat} {names[seat]}"
