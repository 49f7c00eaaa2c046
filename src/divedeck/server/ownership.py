"""Which process owns which table: one owner at a time, by leases in the shared database.

One process alone (the default, on SQLite) owns every table and holds no lease (``Solo``). Several processes on
one database (PostgreSQL) each register a row in ``nodes`` that they renew every third of ``lease_seconds``; a
process whose row has expired (on the database's clock) is dead, whether it crashed, froze or lost the network.
Each table has a row in ``leases``: its owner and an epoch. A process creating a table owns it (epoch 1); a table
whose owner is dead is *claimed* by a live process (the epoch goes up by one), which rebuilds it from its log as a
restart does. Every write to a table's log carries the owner's epoch and is fenced by storage.py, so a process
that wakes after its tables were taken can write nothing, and gives them up.

A process that finds its own row expired (it was frozen past its lease) has lost every table at once: it drops
them and registers again under a new id, so that its old leases are plainly a dead process's.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .storage import Storage, database_now, leases_table, nodes_table, tables_table

T = TypeVar("T")


@dataclass(frozen=True)
class Owner:
    node: str | None  # None: nobody holds a lease on the table
    epoch: int
    alive: bool


def new_node_id() -> str:
    return secrets.token_hex(8)


class Solo:
    """One process owns every table: nothing to claim, nothing fenced (epoch None)."""

    clustered = False
    node: str | None = None

    async def start(self) -> None:
        return None

    async def renew(self) -> bool:
        return True

    async def stop(self) -> None:
        return None


class Leases:
    """This process's leases in the shared database (see the module's doc)."""

    clustered = True

    def __init__(self, storage: Storage, lease_seconds: float) -> None:
        self.storage = storage
        self.lease_seconds = lease_seconds
        self.node: str | None = None
        self.alive: frozenset[str] = frozenset()  # the live processes, as of the last renewal

    async def start(self) -> None:
        """Register this process (under a new id: ids of the dead are never reused)."""
        node, seconds = new_node_id(), self.lease_seconds

        def work(connection: Connection) -> None:
            connection.execute(insert(nodes_table).values(id=node, expires=database_now(connection) + seconds,
                                                          host=socket.gethostname(), pid=os.getpid()))
        await self.storage._run(work)
        self.node = self.storage.node = node
        await self.renew()

    async def renew(self) -> bool:
        """Extend this process's lease; False if it had already expired (every table is lost: ``start`` again)."""
        node, seconds = self.node, self.lease_seconds

        def work(connection: Connection) -> tuple[int, frozenset[str]]:
            now = database_now(connection)
            renewed = connection.execute(update(nodes_table).where(nodes_table.c.id == node,
                                                                   nodes_table.c.expires > now)
                                         .values(expires=now + seconds)).rowcount
            alive = frozenset(connection.execute(select(nodes_table.c.id).where(nodes_table.c.expires > now))
                              .scalars())
            return renewed, alive
        renewed, self.alive = await asyncio.to_thread(self._transaction, work)
        if not renewed:
            self.storage.node = None  # nothing may be written under the old id any more
        return bool(renewed)

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a transaction of its own, off the storage's writer thread: a renewal must not wait
        behind a batch of appends (the lease would run out while the process is only busy)."""
        with self.storage.engine.begin() as connection:
            return work(connection)

    async def stop(self) -> None:
        """Leave at once (a clean shutdown): the others take the tables over without waiting for the lease."""
        node = self.node
        self.node = self.storage.node = None
        if node is not None:
            await self.storage._run(lambda c: c.execute(delete(nodes_table).where(nodes_table.c.id == node)))

    # -- the leases of tables ------------------------------------------------------------------------------------
    def create_lease(self, connection: Connection, table_id: str) -> int:
        """In the transaction creating a table: this process owns it, epoch 1."""
        connection.execute(insert(leases_table).values(table_id=table_id, owner=self.node, epoch=1))
        return 1

    async def owner(self, table_id: str) -> Owner:
        def work(connection: Connection) -> Owner:
            row = connection.execute(select(leases_table.c.owner, leases_table.c.epoch,
                                            (nodes_table.c.expires > database_now(connection)).label("alive"))
                                     .select_from(leases_table.outerjoin(nodes_table,
                                                                         nodes_table.c.id == leases_table.c.owner))
                                     .where(leases_table.c.table_id == table_id)).first()
            return Owner(None, 0, False) if row is None else Owner(row.owner, row.epoch, bool(row.alive))
        result: Owner = await self.storage._run(work)
        return result

    async def claim(self, table_id: str) -> int | None:
        """Take ``table_id`` if nobody live owns it: its new epoch, or None if a live process holds it."""
        node = self.node

        def work(connection: Connection) -> int | None:
            if connection.dialect.name == "postgresql":  # an append under way holds the row: try again later
                connection.execute(text("SET LOCAL lock_timeout = '200ms'"))
            live = select(nodes_table.c.id).where(nodes_table.c.expires > database_now(connection))
            epoch = connection.execute(update(leases_table)
                                       .where(leases_table.c.table_id == table_id, leases_table.c.owner.not_in(live))
                                       .values(owner=node, epoch=leases_table.c.epoch + 1)
                                       .returning(leases_table.c.epoch)).scalar()
            if epoch is not None:
                return int(epoch)
            held = connection.execute(select(leases_table.c.owner).where(leases_table.c.table_id == table_id)).first()
            if held is not None:
                return None
            try:  # a table from before leases (or made by a lone process): it gets its first lease now
                with connection.begin_nested():
                    connection.execute(insert(leases_table).values(table_id=table_id, owner=node, epoch=1))
            except IntegrityError:  # another process got there first
                return None
            return 1
        result: int | None = await self.storage._run(work)
        return result

    async def claim_orphans(self) -> list[tuple[str, int]]:
        """Take this process's share of the unfinished tables whose owner is dead: (table id, new epoch) each."""
        node = self.node

        def work(connection: Connection) -> list[tuple[str, int]]:
            now = database_now(connection)
            live = select(nodes_table.c.id).where(nodes_table.c.expires > now)
            orphaned = (select(leases_table.c.table_id)
                        .join(tables_table, tables_table.c.id == leases_table.c.table_id)
                        .where(leases_table.c.owner.not_in(live), tables_table.c.finished.is_(None),
                               tables_table.c.expired.is_(None)))
            unleased = (select(tables_table.c.id)
                        .where(tables_table.c.finished.is_(None), tables_table.c.expired.is_(None),
                               tables_table.c.id.not_in(select(leases_table.c.table_id))))
            # Tables stored before leases existed (a database from an older version, or from one process on its
            # own) get their first lease here, so their bots and clocks resume without waiting for a visitor.
            first = connection.execute(unleased.limit(100)).scalars().all()
            claimed_first: list[tuple[str, int]] = []
            for table_id in first:  # only those this process inserted (another may have been first)
                statement = (pg_insert(leases_table).on_conflict_do_nothing() if connection.dialect.name == "postgresql"
                             else insert(leases_table).prefix_with("OR IGNORE"))
                inserted = connection.execute(statement.values(table_id=table_id, owner=node, epoch=1)
                                              .returning(leases_table.c.table_id)).scalar()
                if inserted is not None:
                    claimed_first.append((str(inserted), 1))
            waiting = connection.execute(select(func.count()).select_from(orphaned.subquery())).scalar() or 0
            if not waiting:
                return claimed_first
            share = -(-waiting // max(1, connection.execute(select(func.count()).select_from(live.subquery()))
                                      .scalar() or 1))
            # Rows an append is writing under (locked FOR SHARE) are left for the next round, not waited for.
            chosen = list(connection.execute(orphaned.order_by(leases_table.c.table_id).limit(share)
                                             .with_for_update(of=leases_table, skip_locked=True)).scalars())
            if not chosen:
                return claimed_first
            rows = connection.execute(update(leases_table).where(leases_table.c.table_id.in_(chosen))
                                      .values(owner=node, epoch=leases_table.c.epoch + 1)
                                      .returning(leases_table.c.table_id, leases_table.c.epoch)).all()
            return claimed_first + [(str(table_id), int(epoch)) for table_id, epoch in rows]
        result: list[tuple[str, int]] = await self.storage._run(work)
        return result
