"""Saving a game from the terminal, and saying truthfully whether it was saved."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from ..engine.match import Match


def save(match: Match, path: Path) -> str | None:
    """Save ``match`` to ``path`` (its folder made if missing); the reason if it could not be saved."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        match.save(path)
    except OSError as error:
        return f"{error.strerror or error}"
    return None


def save_stopped(match: Match, path: Path | None, console: Console, how: str) -> bool:
    """Save a game that stopped before its end and say where; ``True`` if it is saved."""
    problem = None if path is None else save(match, path)
    moves = len(match.actions)
    if path is None:
        where = "not saved"
    elif problem is None:
        where = f"saved to {path}"
    else:
        where = f"not saved: {path}: {problem}"
    console.print(f"Stopped ({how}) after {moves} move{'' if moves == 1 else 's'}; {where}.", markup=False)
    return path is not None and problem is None
