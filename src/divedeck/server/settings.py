"""What a running server is configured with."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_data_dir

from ..sim.clock import Clock, WallClock


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created if missing): nothing else to install or start."""
    folder = Path(user_data_dir("divedeck", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'divedeck.sqlite3'}"


@dataclass(frozen=True)
class ServerSettings:
    database_url: str
    bot_delay: float = 0.8  # seconds before a bot moves, so people can follow
    grace_period: float = 60.0  # seconds a human seat may be away before a bot plays for it
    replacement_bot: str = "greedy"
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0
    outbox_limit: int = 64  # messages waiting for a slow client before it is disconnected
    hello_timeout: float = 10.0
    log_length: int = 200  # recent events sent in a welcome
    # Options naming files on the server's disk (a custom card deck) are refused from the web unless this is set
    # by whoever runs the server: a stranger must not make the server read its files.
    allow_file_options: bool = False
    # See collector.py: freeze survivors this often (0: leave the collector alone), collect everything this often.
    gc_freeze_every: float = 5.0
    gc_full_every: float = 600.0
    # Processes the bots that think long (ISMCTS ``hard``) think in: None for one per core but one, 0 for none (they
    # then think in a thread of the server, and every table waits while they hold the interpreter).
    bot_workers: int | None = None
    bot_worker_timeout: float = 10.0  # seconds a worker may take for one move before it is replaced
    # What real-time deadlines, bots' pace, grace periods and the rate limit wait on: a test moves a manual one.
    clock: Clock = field(default_factory=WallClock)
