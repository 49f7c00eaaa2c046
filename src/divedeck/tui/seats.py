"""How the board names a seat: moves name seats by number (``p R2>1``), so the board shows each seat's number."""

from __future__ import annotations


def numbered(names: list[str], seat: int) -> str:
    """``seat``'s number and name, as every board shows them: ``2 greedy 2`` for index 1 (seats are numbered from 1
    everywhere, as the moves name them: "onto seat 2's pile")."""
    return f"{seat + 1} {names[seat]}"
