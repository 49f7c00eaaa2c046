"""Typed errors: every failure a caller can meet says what went wrong and why.

A malformed input (text that is not an action, a bad option value) is a different cause from a well-formed
action that the rules forbid right now, so they are different types.
"""

from __future__ import annotations


class DivedeckError(Exception):
    """Base of every error divedeck raises on purpose; its message is meant for people."""


class MalformedInput(DivedeckError, ValueError):
    """Text or data that cannot be understood at all (unparseable notation, wrong type)."""


class IllegalAction(DivedeckError):
    """A well-formed action that the rules do not allow for this seat in this state.

    ``rule`` names the rule ID that forbids it (e.g. ``SNK-R9``), so a player or a test can look it up.
    """

    def __init__(self, reason: str, rule: str | None = None) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


class ConfigError(DivedeckError, ValueError):
    """An unknown option, a bad option value, an impossible player count or an invalid data file."""


class UnknownGame(ConfigError):
    """No game is registered under that name."""


class SaveError(DivedeckError):
    """A saved game that is corrupted, of an unknown version, or does not match what it claims to be."""
