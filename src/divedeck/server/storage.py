"""Durable storage of tables and their action logs (SQLite by default, any SQLAlchemy URL such as PostgreSQL).

Every accepted action is appended here before anyone is told about it. The jobs one turn of the event loop makes
are done together at the end of that turn, in queue order: a run of appends in one statement (group commit, so a
busy server pays one commit for many actions), a run of other work in one transaction.

Where they are done depends on the database. On PostgreSQL a turn's appends are sent from the event loop
(appender.py's ``LoopAppender``, psycopg's asynchronous connection: no thread to wake, and the loop never waits on
the round trip), and any other work on one writer thread. The two paths do not order writes against each
other; a table does where it matters: it appends one action at a time, under its lock, after awaiting the writes
an append depends on (the table's creation with its lease, an undo). SQLite's jobs (one process, a file of
its own) are done on the event loop itself:
in WAL mode with ``synchronous=NORMAL`` a commit is a write into the operating system's page cache, tens of
microseconds, never an fsync; the checkpoints, which do sync, run on a thread of their own. Waking a writer thread
and being woken by it cost more than the insert (two cross-core wake-ups and the GIL passed back and forth: 10% of
the server's CPU per action, measured), and a killed process loses nothing either way (the OS holds the pages).

When several processes share the database (ownership.py), each table has one owner holding a lease with an epoch,
and a write made with an epoch is *fenced*: in the same transaction as the write, the lease row is read and locked
(``FOR SHARE``) and must still name this process, that epoch and a live process; otherwise nothing is written and
the writer gets ``Fenced``. A takeover updates that row, so it waits for an append under way to commit, and an
append after it sees the new epoch: the log of a table can never fork.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.engine import Connection, Engine

from .appender import Appender, LoopAppender

metadata = MetaData()

tables_table = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),
    Column("hotseat", Integer, nullable=False, default=0),
    Column("created", Float, nullable=False),
    Column("finished", Float, nullable=True),
    Column("rematch", String(32), nullable=True),
    # When the server forgot a table none of its people ever opened: it is never brought back.
    Column("expired", Float, nullable=True),
    # The clock per move (move_clock.py), as JSON: {"profile", "since"} (since: when a turn's count last restarted
    # other than by an action, on the server's clock in ms), or null for none.
    Column("clock", Text, nullable=True),
    # A real-time table's pause (LiveTable.pause), as JSON: {"since": server ms while paused else null, "total":
    # ms paused before}, or null if it was never paused. Its clock is the server's minus the time paused.
    Column("pause", Text, nullable=True),
)

actions_table = Table(
    "actions", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
    Column("client_id", String(64), nullable=True),
    Column("at", Float, nullable=False),
    # The server's clock (ms) when it was applied: a restart counts each seat's time per move from these.
    Column("clock_ms", BigInteger, nullable=True),
    # When its seat took the action back within its turn: the table is rebuilt from the log without it.
    Column("undone", Float, nullable=True),
)

# Server processes sharing the database (ownership.py): each renews its row while it runs; one whose ``expires``
# (seconds since the epoch, on the database's clock, so machines need not agree on the time) has passed is dead.
nodes_table = Table(
    "nodes", metadata,
    Column("id", String(32), primary_key=True),
    Column("expires", Float, nullable=False),
    # Where it runs, for operators (and tests) looking for the process that owns a table.
    Column("host", String(255), nullable=True),
    Column("pid", Integer, nullable=True),
)

# Which process owns each table, and since which takeover (the epoch, one more at each change of owner).
leases_table = Table(
    "leases", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(32), nullable=False),
    Column("epoch", Integer, nullable=False),
)


class Fenced(Exception):  # noqa: N818 - the name says what happened to the write
    """A write made under a lease this process no longer holds: nothing was written."""


# Built once: SQLAlchemy then reuses the compiled statement, and a batch of actions is one executemany.
INSERT_ACTION = insert(actions_table)
INSERT_TABLE = insert(tables_table)

# SQLite, on the event loop: at most one commit in this many seconds (group commit, as PostgreSQL's commit_delay).
# A commit costs about three times an appended row; a busy server's appends wait up to this long to share one,
# and an idle server's first append is committed at once.
COMMIT_INTERVAL = 0.002


@dataclass(frozen=True)
class Append:
    """An action row to append (the hot path, batched), fenced by ``epoch`` unless it is None."""

    row: dict[str, Any]
    epoch: int | None


# A job is either an action to append or a function run on the connection.
Work = Append | Callable[[Connection], Any]
Job = tuple[Work, "asyncio.Future[Any]", asyncio.AbstractEventLoop]


def database_now(connection: Connection) -> Any:
    """The database's clock in seconds since the epoch, as an SQL expression: leases are judged on one clock."""
    if connection.dialect.name == "postgresql":
        return func.extract("epoch", func.clock_timestamp())
    return (func.julianday("now") - 2440587.5) * 86400.0


def held_leases(connection: Connection, node: str | None, leases: set[tuple[str, int]]) -> set[str]:
    """Of ``leases`` (table id, epoch), the tables whose lease ``node`` still holds, now: locked against a
    takeover until the transaction ends."""
    if not leases or node is None:
        return set()
    query = (select(leases_table.c.table_id)
             .join(nodes_table, nodes_table.c.id == leases_table.c.owner)
             .where(leases_table.c.owner == node, nodes_table.c.expires > database_now(connection),
                    tuple_(leases_table.c.table_id, leases_table.c.epoch).in_(sorted(leases)))
             .with_for_update(read=True, of=leases_table))
    return set(connection.execute(query).scalars())


def fence(connection: Connection, node: str | None, table_id: str, epoch: int | None) -> None:
    """Raise ``Fenced`` unless the write about to be made in this transaction is made under a held lease."""
    if epoch is not None and table_id not in held_leases(connection, node, {(table_id, epoch)}):
        raise Fenced(f"the lease on table {table_id} (epoch {epoch}) is no longer held")


@dataclass
class StoredTable:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    hotseat: bool
    created: float
    finished: float | None
    rematch: str | None
    actions: list[tuple[int, str, str | None]]  # (seat, action notation, client id), in order
    expired: float | None = None
    undone: int = 0  # how many actions of the log were taken back (their rows stay, marked, and are skipped)
    # (seat, client id) -> the version its action produced, for every row, taken back or not: a client id sent
    # again is answered with that, never applied twice.
    client_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    clock: dict[str, Any] | None = None  # the clock per move: {"profile", "since"}, or None
    times: list[int | None] = field(default_factory=list)  # per action of ``actions``: the server's clock (ms)
    pause: dict[str, Any] | None = None  # a real-time table's pause: {"since", "total"} (ms), or None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL with synchronous=NORMAL survives a killed process (the OS still holds the pages), at a fraction of the
    # cost of a full sync per commit.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # Commits happen on the event loop; a checkpoint (which syncs the file) must not: the Checkpointer does them.
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


def _add_missing_columns(engine: Engine) -> None:
    """A database made by an older version lacks the columns added since (all nullable): add them."""
    for table in (tables_table, actions_table):
        present = {column["name"] for column in inspect(engine).get_columns(table.name)}
        with engine.begin() as connection:
            for column in table.columns:
                if column.name not in present:
                    kind = column.type.compile(dialect=engine.dialect)
                    connection.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"))


def database_url(url: str) -> str:
    """``postgresql://`` means the psycopg driver (SQLAlchemy's default for it, psycopg2, is not installed)."""
    return "postgresql+psycopg://" + url.removeprefix("postgresql://") if url.startswith("postgresql://") else url


def make_engine(url: str) -> Engine:
    url = database_url(url)
    if url.startswith("postgresql"):
        # A process frozen inside a transaction must not hold its locks (and so block a takeover of its tables)
        # for longer than this: the database ends its session, and its write fails.
        return create_engine(url, future=True,
                             connect_args={"options": "-c idle_in_transaction_session_timeout=2000"})
    engine = create_engine(url, future=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


class Checkpointer:
    """Copies SQLite's write-ahead log into the database file every ``every`` seconds, on a thread of its own
    (``PASSIVE``: it never waits for, nor blocks, the writer on the event loop).

    SQLite starts the log over only when a writer finds every frame of it copied; a writer that never pauses for
    as long as a passive checkpoint takes always finds a few more, and the log grows without end (measured: 67 MB
    within 20 s at saturation). Once it passes ``limit`` bytes, one checkpoint is ``TRUNCATE``: the writer waits
    for it (milliseconds, once in that many bytes) and the log starts over from nothing."""

    def __init__(self, engine: Engine, every: float = 1.0, limit: int = 64 << 20) -> None:
        self.engine = engine
        self.every = every
        self.limit = limit
        self.log_path = f"{engine.url.database}-wal"
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="divedeck-checkpoint", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.wait(self.every):
            try:
                mode = "TRUNCATE" if self._log_bytes() > self.limit else "PASSIVE"
                with self.engine.connect() as connection:
                    connection.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
            except Exception:  # noqa: BLE001 - the next one tries again; a log not copied yet is still durable
                continue

    def _log_bytes(self) -> int:
        try:
            return os.path.getsize(self.log_path)
        except OSError:
            return 0

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)


class Storage:
    """The database behind the server; every method is a coroutine (see the module's doc for where it runs)."""

    def __init__(self, url: str, checkpoint_every: float = 1.0, log_limit: int = 64 << 20) -> None:
        self.engine = make_engine(url)
        self.node: str | None = None  # this process's id in ``nodes`` when it holds leases (ownership.py)
        # Whether other processes may use the same database (a server, not a file only this process opens).
        self.shared = self.engine.dialect.name != "sqlite"
        metadata.create_all(self.engine)
        _add_missing_columns(self.engine)
        # SimpleQueue: a lock-free hand-over in C; queue.Queue's Condition cost more than the insert itself. What
        # goes over is a list: the jobs one turn of an event loop made, handed over together at the end of the turn
        # (``_waiting``), since waking the writer thread costs more than the put (a futex and a wake-up of the
        # other core, dearer still in a virtual machine).
        self._jobs: queue.SimpleQueue[list[Job] | None] = queue.SimpleQueue()
        self._waiting: dict[asyncio.AbstractEventLoop, list[Job]] = {}
        # SQLite: the jobs are done on the event loop (module doc), the checkpoints on a thread.
        self.on_loop = self.engine.dialect.name == "sqlite"
        self._appender = Appender.for_engine(self.engine, lambda: self.node) if self.on_loop else None
        self._last_commit = float("-inf")  # on the event loop's clock
        self._checkpointer: Checkpointer | None = None
        # PostgreSQL: runs of appends are sent from the event loop (appender.py's LoopAppender), one statement in
        # flight per loop; the rest goes to the writer thread.
        self._loop_appenders: dict[asyncio.AbstractEventLoop, LoopAppender] = {}
        self._appending: dict[asyncio.AbstractEventLoop, list[Job]] = {}  # waiting for the statement in flight
        self._thread: threading.Thread | None = None
        if self.on_loop:
            self._checkpointer = Checkpointer(self.engine, checkpoint_every, log_limit)
        else:
            self._thread = threading.Thread(target=self._work, name="divedeck-storage", daemon=True)
            self._thread.start()

    # -- the writer thread --------------------------------------------------------------------------------------
    def _work(self) -> None:
        appender = Appender.for_engine(self.engine, lambda: self.node)
        while True:
            jobs = self._jobs.get()
            if jobs is None:
                if appender is not None:
                    appender.close()
                return
            batch = list(jobs)
            while len(batch) < 256:  # everything already waiting goes into the same transaction
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._jobs.put(None)
                    break
                batch.extend(more)
            # In queue order, each run of appends in one statement of their own, each run of other work in one
            # transaction: a lease renewed before an append is renewed before it is fenced.
            for run in _runs(batch):
                self._commit(run, appender)

    def _commit(self, run: list[tuple[Work, asyncio.Future[Any], asyncio.AbstractEventLoop]],
                appender: Appender | None) -> None:
        try:
            if appender is not None and isinstance(run[0][0], Append):
                appends: list[Append] = [work for work, _, _ in run]  # type: ignore[misc]
                results: list[Any] = [None if stored else _fenced(work)
                                      for work, stored in zip(appends, appender.append(appends), strict=True)]
            elif appender is not None and not appender.postgres:  # SQLite: the appends' own connection
                connection = appender.writer()
                with connection.begin():
                    results = self._in_transaction(connection, [work for work, _, _ in run])
            else:
                with self.engine.begin() as connection:
                    results = self._in_transaction(connection, [work for work, _, _ in run])
        except Exception:
            if appender is not None:
                appender.reset()  # its connection may be broken: a new one for the next batch
            # One bad write must not sink the others that shared its transaction: redo them one by one,
            # so each waiter learns its own fate.
            for job in run:
                self._run_alone(*job)
            return
        # One wake-up of each event loop for the whole batch, not one per action.
        settled: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
        for (_, future, loop), result in zip(run, results, strict=True):
            settled.setdefault(loop, []).append((future, result))
        for loop, outcomes in settled.items():
            if self.on_loop:
                _settle_all(outcomes)
            else:
                loop.call_soon_threadsafe(_settle_all, outcomes)

    def _in_transaction(self, connection: Connection, batch: list[Work]) -> list[Any]:
        appends = [work for work in batch if isinstance(work, Append)]
        held = held_leases(connection, self.node, {(work.row["table_id"], work.epoch) for work in appends
                                                   if work.epoch is not None})
        rows = [work.row for work in appends if work.epoch is None or work.row["table_id"] in held]
        if rows:
            connection.execute(INSERT_ACTION, rows)
        return [(None if work.epoch is None or work.row["table_id"] in held else _fenced(work))
                if isinstance(work, Append) else work(connection) for work in batch]

    def _run_alone(self, work: Work, future: asyncio.Future[Any], loop: asyncio.AbstractEventLoop) -> None:
        try:
            with self.engine.begin() as connection:
                result: Any = None
                if isinstance(work, Append):
                    fence(connection, self.node, work.row["table_id"], work.epoch)
                    connection.execute(INSERT_ACTION, [work.row])
                else:
                    result = work(connection)
        except Exception as error:
            self._settle_from_here(loop, future, None, error)
        else:
            self._settle_from_here(loop, future, result, None)

    def _settle_from_here(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], result: Any,
                          error: BaseException | None) -> None:
        if self.on_loop:
            _settle(future, result, error)
        else:
            loop.call_soon_threadsafe(_settle, future, result, error)

    async def _run(self, work: Work) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        waiting = self._waiting.get(loop)
        if waiting is None:
            waiting = self._waiting[loop] = []
            wait = self._last_commit + COMMIT_INTERVAL - loop.time() if self.on_loop else 0.0
            if wait > 0:
                loop.call_later(wait, self._hand_over, loop)
            else:
                loop.call_soon(self._hand_over, loop)
        waiting.append((work, future, loop))
        return await future

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        jobs = self._waiting.pop(loop)
        if not self.on_loop:
            if self.engine.dialect.name == "postgresql" and all(isinstance(work, Append) for work, _, _ in jobs):
                self._append_from_loop(loop, jobs)
            else:
                self._jobs.put(jobs)
            return
        self._last_commit = loop.time()
        for run in _runs(jobs):
            self._commit(run, self._appender)

    def _append_from_loop(self, loop: asyncio.AbstractEventLoop, jobs: list[Job]) -> None:
        appending = self._appending.get(loop)
        if appending is not None:  # a statement is on its way: these go in the next one
            appending.extend(jobs)
            return
        self._appending[loop] = []
        appender = self._loop_appenders.get(loop)
        if appender is None:
            appender = self._loop_appenders[loop] = LoopAppender(self.engine, lambda: self.node)
        loop.create_task(self._send_appends(loop, appender, jobs))

    async def _send_appends(self, loop: asyncio.AbstractEventLoop, appender: LoopAppender, jobs: list[Job]) -> None:
        try:
            while jobs:
                appends: list[Append] = [work for work, _, _ in jobs]  # type: ignore[misc]
                try:
                    stored = await appender.append(appends)
                except Exception:
                    await appender.reset()
                    self._jobs.put(jobs)  # the writer thread tries again, and one by one if that fails too
                else:
                    _settle_all([(future, None if ok else _fenced(work))
                                 for work, (_, future, _), ok in zip(appends, jobs, stored, strict=True)])
                jobs = self._appending[loop]
                self._appending[loop] = []
        finally:
            left = self._appending.pop(loop, [])
            if left:
                self._jobs.put(left)

    def close(self) -> None:
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=10)
        if self._checkpointer is not None:
            self._checkpointer.stop()
        if self._appender is not None:
            self._appender.close()
        for appender in self._loop_appenders.values():
            appender.close_now()
        self.engine.dispose()

    # -- operations ----------------------------------------------------------------------------------------------
    async def create_table(self, table: StoredTable, lease: Callable[[Connection, str], int] | None = None
                           ) -> int | None:
        """Store a new table; with ``lease``, take its lease in the same transaction and return the epoch."""
        row = {"id": table.id, "game": table.game, "options": json.dumps(table.options), "seed": table.seed,
               "seats": json.dumps(table.seats), "hotseat": int(table.hotseat), "created": table.created,
               "finished": table.finished, "rematch": table.rematch,
               "clock": None if table.clock is None else json.dumps(table.clock)}

        def work(connection: Connection) -> int | None:
            connection.execute(INSERT_TABLE, row)
            return None if lease is None else lease(connection, table.id)
        epoch: int | None = await self._run(work)
        return epoch

    async def append_action(self, table_id: str, seq: int, seat: int, action: str, client_id: str | None,
                            epoch: int | None = None, clock_ms: int | None = None) -> None:
        """Append an action to the table's log; with an ``epoch``, only under that lease (else ``Fenced``).
        ``clock_ms`` is the server's clock when it is applied (the clock per move counts from it)."""
        await self._run(Append({"table_id": table_id, "seq": seq, "seat": seat, "action": action,
                                "client_id": client_id, "at": time.time(), "clock_ms": clock_ms}, epoch))

    async def mark_undone(self, table_id: str, epoch: int | None = None) -> None:
        """Mark the table's last action that stands as taken back (a restart replays the log without it)."""
        def work(connection: Connection) -> None:
            fence(connection, self.node, table_id, epoch)
            last = connection.execute(
                select(func.max(actions_table.c.seq)).where(actions_table.c.table_id == table_id,
                                                            actions_table.c.undone.is_(None))).scalar()
            if last is None:
                raise LookupError(f"table {table_id} has no action to take back")
            connection.execute(update(actions_table).where(actions_table.c.table_id == table_id,
                                                           actions_table.c.seq == last).values(undone=time.time()))
        await self._run(work)

    async def update_table(self, table_id: str, epoch: int | None = None, **fields: Any) -> None:
        for name in ("seats", "clock", "pause"):
            if name in fields:
                fields[name] = json.dumps(fields[name])

        def work(connection: Connection) -> None:
            fence(connection, self.node, table_id, epoch)
            connection.execute(update(tables_table).where(tables_table.c.id == table_id).values(**fields))
        await self._run(work)

    def load_unfinished(self) -> list[StoredTable]:
        """Every table whose game has not ended (and that has not expired), with its whole action log (read once
        at start-up)."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(tables_table).where(tables_table.c.finished.is_(None),
                                                                 tables_table.c.expired.is_(None))
                                      .order_by(tables_table.c.created)).mappings().all()
            return [self._stored(connection, row) for row in rows]

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(tables_table).where(tables_table.c.id == table_id)).mappings().first()
            return None if row is None else self._stored(connection, row)

    @staticmethod
    def _stored(connection: Connection, row: Any) -> StoredTable:
        actions = connection.execute(
            select(actions_table.c.seat, actions_table.c.action, actions_table.c.client_id, actions_table.c.undone,
                   actions_table.c.seq, actions_table.c.at, actions_table.c.clock_ms)
            .where(actions_table.c.table_id == row["id"]).order_by(actions_table.c.seq)).all()
        return StoredTable(
            id=row["id"], game=row["game"], options=json.loads(row["options"]), seed=int(row["seed"]),
            seats=json.loads(row["seats"]), hotseat=bool(row["hotseat"]), created=row["created"],
            finished=row["finished"], rematch=row["rematch"], expired=row["expired"],
            actions=[(int(seat), str(action), client_id) for seat, action, client_id, undone, *_ in actions
                     if undone is None],
            undone=sum(1 for _, _, _, undone, *_ in actions if undone is not None),
            client_ids=_client_id_versions(actions),
            clock=None if row.get("clock") is None else json.loads(row["clock"]),
            pause=None if row.get("pause") is None else json.loads(row["pause"]),
            times=[None if clock_ms is None else int(clock_ms)
                   for _, _, _, undone, _, _, clock_ms in actions if undone is None],
        )


def _client_id_versions(actions: Any) -> dict[tuple[int, str], int]:
    """The version each stored action produced, by (seat, client id). A row appended at ``seq`` made version
    ``seq + 1 + u`` (an undo adds two, one for the row it marks): ``u`` counts the undos done before it was
    appended, which are the earlier rows marked undone before its time."""
    versions: dict[tuple[int, str], int] = {}
    undone_times: list[float] = []  # of the earlier rows, sorted
    for seat, _action, client_id, undone, seq, at, *_ in actions:
        if client_id is not None:
            versions[int(seat), client_id] = int(seq) + 1 + bisect.bisect_right(undone_times, at)
        if undone is not None:
            bisect.insort(undone_times, undone)
    return versions


def _fenced(work: Append) -> Fenced:
    return Fenced(f"the lease on table {work.row['table_id']} (epoch {work.epoch}) is no longer held")


def _runs(batch: list[Any]) -> list[list[Any]]:
    """``batch`` cut where it goes from appends to other work or back, order kept."""
    runs: list[list[Any]] = []
    for job in batch:
        if runs and isinstance(runs[-1][0][0], Append) == isinstance(job[0], Append):
            runs[-1].append(job)
        else:
            runs.append([job])
    return runs


def _settle_all(outcomes: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, result in outcomes:
        if isinstance(result, Fenced):
            _settle(future, None, result)
        else:
            _settle(future, result, None)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
