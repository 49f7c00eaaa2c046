"""Terminal play: a human at a plain terminal (or several taking turns) against bots, or bots only to watch."""

from .session import Seat, TerminalSession

__all__ = ["Seat", "TerminalSession"]
