"""What a running server is configured with."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_data_dir

from ..sim.clock import Clock, WallClock

LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def default_database_path() -> Path:
    """Where the default database is, whether or not it exists yet (``divedeck replay`` only reads it)."""
    return Path(user_data_dir("divedeck", appauthor=False)) / "divedeck.sqlite3"


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created if missing): nothing else to install or start."""
    path = default_database_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


@dataclass(frozen=True)
class ServerSettings:
    database_url: str
    bot_delay: float = 0.8  # seconds before a bot moves, so people can follow
    grace_period: float = 60.0  # seconds a human seat may be away before a bot plays for it
    # How long a second of a clock per move lasts, in ms (move_clock.py): 1000, but a demonstration or a browser
    # test may run the clocks faster.
    move_clock_second_ms: int = 1000
    replacement_bot: str = "greedy"
    max_message_bytes: int = 4096
    # Token buckets (a second's worth is also the burst): each socket, each seat (all its sockets together) and
    # each client address (all its sockets together) has one, and a message goes through only if all three allow.
    messages_per_second: float = 20.0
    seat_messages_per_second: float = 20.0
    address_messages_per_second: float = 100.0
    # Messages a socket may have refused beyond its rate (refilled at its rate) before it is disconnected.
    flood_allowance: int = 40
    outbox_limit: int = 64  # messages waiting for a slow client before it is disconnected
    # Open websockets (counted from their accept, hello or not) one client address and one table may hold.
    sockets_per_address: int = 100
    sockets_per_table: int = 200
    hello_timeout: float = 10.0
    # Table creation: per client address, at most `tables_per_minute` (a burst of as many) and at most
    # `open_tables_per_address` unfinished tables at once; at most `max_open_tables` unfinished on the server.
    tables_per_minute: float = 10.0
    open_tables_per_address: int = 20
    max_open_tables: int = 1000
    # A table none of whose people has ever connected is closed and forgotten this long after its creation (or
    # after a restart that brought it back).
    unclaimed_table_expiry: float = 1800.0
    # HTTP connections: the request head must arrive within this many seconds of connecting (or of the previous
    # response); an idle keep-alive connection is closed after `keep_alive` seconds.
    header_timeout: float = 10.0
    keep_alive: int = 5
    # The address the server listens on, and host names it answers to besides that and localhost: a page of
    # another site whose name is rebound to this machine sends its own name as Host and is refused.
    host: str = "127.0.0.1"
    allowed_hosts: tuple[str, ...] = ()
    # Reverse proxies (addresses or networks) whose X-Forwarded-For and X-Forwarded-Proto are believed. None by
    # default: anyone can write those headers, so a client is the address it connects from (uvicorn's own default
    # trusts 127.0.0.1, and any process of the machine then chooses its address, past every per-address limit).
    trusted_proxies: tuple[str, ...] = ()
    # Rooms (rooms.py): wrong room codes (or host tokens) one client address may try a minute (a burst of as many)
    # before every attempt from it is refused until the budget refills.
    room_code_failures_per_minute: float = 10.0
    # A seat claimed with the room code whose phone never opened the table: this long after the start it is
    # treated like a player who dropped out (a bot plays it until the phone comes), so it cannot block the game.
    room_claim_grace: float = 120.0
    # A seat the host let back in (its person's phone died with its token) may be taken by name for this long.
    room_readmit_window: float = 300.0
    log_length: int = 200  # recent events sent in a welcome
    # Finished tables' replays (replay.py): each client address may ask this many a minute (a burst of as many),
    # and the encoded replays kept in memory take at most this many bytes.
    replays_per_minute: float = 20.0
    replay_cache_bytes: int = 64 * 1024 * 1024
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
    # With several processes on one database (ownership.py): a process that has not renewed its lease for this
    # many seconds is dead, and the others take its tables over.
    lease_seconds: float = 3.0
    # The bus between processes (Redis or Valkey, routing.py): a socket for a table another process owns is
    # served through it. Without one, such a socket is refused and the page tries again.
    bus_url: str | None = None
    # Under ``--processes N`` (processes.py): this process's index and N. Its new tables get ids whose sockets the
    # parent hands to it, and a response that created a table closes its connection, so that the next creation is
    # handed to the next process.
    home: tuple[int, int] | None = None
    # Behind HAProxy (deploy/haproxy.cfg): the ids of the tables this server makes start with this and a dash, and
    # the balancer sends the sockets of such a table to this server, which owns it.
    table_prefix: str = ""
    # What real-time deadlines, bots' pace, grace periods and the rate limit wait on: a test moves a manual one.
    clock: Clock = field(default_factory=WallClock)

    def trusted_hosts(self) -> list[str]:
        """The Host header values the server answers to. Listening on every address (0.0.0.0, ::) it is reachable
        under any name and address the machine has, so the check only holds when those are named."""
        if self.host in WILDCARD_HOSTS and not self.allowed_hosts:
            return ["*"]
        # A Host header writes an IPv6 address in brackets.
        named = [f"[{name}]" if ":" in name and not name.startswith("[") else name
                 for name in (self.host, *self.allowed_hosts)]
        return [*LOCAL_HOSTS, *named]
