"""The hot path of the log: a run of action rows appended in one round trip to the database, below SQLAlchemy.

The writer thread (storage.py) pays for every statement twice: once in CPU while it holds the GIL the event loop
needs, and once in latency while the event loop's acknowledgements wait for the commit. Through SQLAlchemy a
fenced batch was four round trips (BEGIN, the lease check, the insert, COMMIT) and a statement compiled and
cache-keyed in Python each time. Here, on a connection of its own:

- PostgreSQL: one statement in autocommit, so one round trip and one commit. It reads and locks (``FOR SHARE``)
  the lease rows of the batch that this process still holds, then inserts the rows whose lease is among them: the
  same fence as ``held_leases`` in storage.py, in the same transaction as the write, so a takeover (an update of
  the lease row) waits for it to commit and an append after the takeover sees the new epoch.
- SQLite (one process, never fenced): ``executemany`` and a commit on the DB-API connection.

Anything else, or any error, and storage.py takes its general path (one job at a time through SQLAlchemy).

``LoopAppender`` sends PostgreSQL's statement from the event loop itself (psycopg's asynchronous connection), so
that an append needs no wake-up of the writer thread nor of the loop by it: the appends of one turn go out
together, and while one statement is on its way the next turns' appends wait and go out together after it (group
commit, one statement in flight per process).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:
    from .storage import Append

COLUMNS = ("table_id", "seq", "seat", "action", "client_id", "at", "clock_ms")
ROW_VALUES = itemgetter(*COLUMNS)  # a row's values in COLUMNS' order, as a tuple

# Columns as arrays (one parameter each, whatever the batch's size, so the statement is prepared once). A row is
# inserted when it carries no epoch, or when its (table, epoch) is a lease that ``owner`` holds now, on a process
# not past its expiry on the database's clock. MATERIALIZED: the lease rows are read and locked once, first.
POSTGRES_APPEND = """
WITH held AS MATERIALIZED (
    SELECT leases.table_id, leases.epoch FROM leases JOIN nodes ON nodes.id = leases.owner
    WHERE leases.owner = %(owner)s AND nodes.expires > extract(epoch FROM clock_timestamp())
      AND (leases.table_id, leases.epoch) IN (
          SELECT * FROM unnest(%(table_id)s::varchar[], %(epoch)s::integer[]) AS fenced(table_id, epoch)
          WHERE fenced.epoch IS NOT NULL)
    FOR SHARE OF leases
)
INSERT INTO actions (table_id, seq, seat, action, client_id, at, clock_ms)
SELECT row.table_id, row.seq, row.seat, row.action, row.client_id, row.at, row.clock_ms
FROM unnest(%(table_id)s::varchar[], %(seq)s::integer[], %(seat)s::integer[], %(action)s::varchar[],
            %(client_id)s::varchar[], %(at)s::float8[], %(clock_ms)s::bigint[], %(epoch)s::integer[])
     AS row(table_id, seq, seat, action, client_id, at, clock_ms, epoch)
WHERE row.epoch IS NULL OR EXISTS (SELECT 1 FROM held WHERE held.table_id = row.table_id AND held.epoch = row.epoch)
RETURNING table_id, seq
"""

SQLITE_APPEND = (f"INSERT INTO actions ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})")


def postgres_parameters(appends: Sequence[Append], owner: str | None) -> dict[str, Any]:
    parameters: dict[str, Any] = {name: [work.row[name] for work in appends] for name in COLUMNS}
    parameters["epoch"] = [work.epoch for work in appends]
    parameters["owner"] = owner
    return parameters


def stored_of(appends: Sequence[Append], returned: Sequence[Any]) -> list[bool]:
    stored = {(table_id, seq) for table_id, seq in returned}
    return [(work.row["table_id"], work.row["seq"]) in stored for work in appends]


class LoopAppender:
    """PostgreSQL appends sent from the event loop (see the module's doc), on a connection of its own."""

    def __init__(self, engine: Engine, owner: Callable[[], str | None]) -> None:
        self.conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.owner = owner
        self.connection: Any = None

    async def append(self, appends: Sequence[Append]) -> list[bool]:
        import psycopg

        if self.connection is None:
            self.connection = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        async with self.connection.cursor() as cursor:
            await cursor.execute(POSTGRES_APPEND, postgres_parameters(appends, self.owner()))
            return stored_of(appends, await cursor.fetchall())

    async def reset(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()

    def close_now(self) -> None:
        """Close the connection without its event loop (which may have ended): libpq's own close."""
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.pgconn.finish()


class Appender:
    """Appends runs of action rows on a DB-API connection of its own (opened when first needed).

    On SQLite that connection is also the one the event loop does its other writes through (``writer``): a write
    through a second connection would make SQLite drop this one's page cache, and the next append read its pages
    back from the log (measured: a read system call an action at saturation)."""

    def __init__(self, engine: Engine, owner: Callable[[], str | None]) -> None:
        self.engine = engine
        self.owner = owner  # this process's node id, read at each batch (it is set once leases start)
        self.postgres = engine.dialect.name == "postgresql"
        self.connection: Any = None
        self.session: Connection | None = None  # SQLite: the SQLAlchemy connection ``connection`` belongs to

    @classmethod
    def for_engine(cls, engine: Engine, owner: Callable[[], str | None]) -> Appender | None:
        return cls(engine, owner) if engine.dialect.name in ("postgresql", "sqlite") else None

    def writer(self) -> Connection:
        """SQLite: the SQLAlchemy connection the appends go through, for the other writes of the same thread."""
        if self.session is None:
            self.session = self.engine.connect()
            self.connection = self.session.connection
        return self.session

    def append(self, appends: Sequence[Append]) -> list[bool]:
        """Write the rows; for each, whether it was stored (False: its lease is no longer held, nothing written)."""
        if self.postgres:
            if self.connection is None:
                self.connection = self.engine.raw_connection()
                self.connection.driver_connection.autocommit = True
            return self._postgres(appends)
        if any(work.epoch is not None for work in appends):
            raise ValueError("a fenced append needs leases, which only a shared database has")
        self.writer()
        cursor = self.connection.cursor()
        try:
            cursor.executemany(SQLITE_APPEND, [ROW_VALUES(work.row) for work in appends])
            self.connection.commit()
        finally:
            cursor.close()
        return [True] * len(appends)

    def _postgres(self, appends: Sequence[Append]) -> list[bool]:
        with self.connection.driver_connection.cursor() as cursor:
            cursor.execute(POSTGRES_APPEND, postgres_parameters(appends, self.owner()))
            return stored_of(appends, cursor.fetchall())

    def reset(self) -> None:
        """Drop the connection (after an error it may be broken or mid-transaction); the next batch opens one."""
        if self.session is not None:
            with contextlib.suppress(Exception):
                self.session.invalidate()
            with contextlib.suppress(Exception):
                self.session.close()
        elif self.connection is not None:
            with contextlib.suppress(Exception):
                self.connection.invalidate()
        self.session = self.connection = None

    def close(self) -> None:
        if self.session is not None:
            with contextlib.suppress(Exception):
                self.session.close()
        elif self.connection is not None:
            with contextlib.suppress(Exception):
                if self.postgres:  # back to the pool as SQLAlchemy lent it: in transactions
                    self.connection.driver_connection.autocommit = False
                self.connection.close()
        self.session = self.connection = None
