"""Leases and fenced appends on a real PostgreSQL (ownership.py, storage.py): one owner per table, and a write
made under a lease that was taken over changes nothing."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import update

from divedeck.server.ownership import Leases
from divedeck.server.storage import Fenced, Storage, StoredTable, nodes_table


def stored_table(table_id: str) -> StoredTable:
    return StoredTable(table_id, "snorkeling", {"num_players": 2}, 7, [{"kind": "human", "name": "A"}] * 2, False,
                       time.time(), None, None, [])


def expire(storage: Storage, node: str) -> None:
    """As if ``node`` had been frozen past its lease: its row's time has run out."""
    with storage.engine.begin() as connection:
        connection.execute(update(nodes_table).where(nodes_table.c.id == node).values(expires=0))


async def two_processes(url: str) -> tuple[tuple[Storage, Leases], tuple[Storage, Leases]]:
    pair = []
    for _ in range(2):
        storage = Storage(url)
        leases = Leases(storage, lease_seconds=30)
        await leases.start()
        pair.append((storage, leases))
    return pair[0], pair[1]


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def test_a_taken_over_table_refuses_the_old_owners_writes(database_url: str) -> None:
    async def scenario() -> None:
        (storage_a, leases_a), (storage_b, leases_b) = await two_processes(database_url)
        try:
            epoch = await storage_a.create_table(stored_table("t1"), leases_a.create_lease)
            assert epoch == 1
            await storage_a.append_action("t1", 0, 0, "x", "c1", epoch)
            # While A lives, B cannot take the table, and sees A as its owner.
            assert await leases_b.claim("t1") is None
            owner = await leases_b.owner("t1")
            assert (owner.node, owner.epoch, owner.alive) == (leases_a.node, 1, True)
            assert await leases_b.claim_orphans() == []
            expire(storage_a, leases_a.node or "")
            # A is dead to the others: B takes its unfinished table, one epoch later.
            assert await leases_b.claim_orphans() == [("t1", 2)]
            await storage_b.append_action("t1", 1, 1, "y", "c2", 2)
            # A wakes: its append, its undo and its table update are all refused, and nothing changed.
            with pytest.raises(Fenced):
                await storage_a.append_action("t1", 1, 0, "z", "c3", epoch)
            with pytest.raises(Fenced):
                await storage_a.mark_undone("t1", epoch)
            with pytest.raises(Fenced):
                await storage_a.update_table("t1", epoch, finished=1.0)
            assert await leases_a.renew() is False  # and its renewal tells it every table is lost
            stored = storage_b.load("t1")
            assert stored is not None
            assert stored.actions == [(0, "x", "c1"), (1, "y", "c2")]
            assert stored.finished is None and stored.undone == 0
            # B's own writes under its epoch go on.
            await storage_b.update_table("t1", 2, finished=2.0)
            assert (storage_b.load("t1") or stored).finished == 2.0
        finally:
            for storage in (storage_a, storage_b):
                storage.close()

    run(scenario())


def test_a_batch_keeps_the_appends_of_held_leases_and_refuses_the_rest(database_url: str) -> None:
    """Group commit: one transaction holds appends to tables still held and to a table lost; only the lost
    table's append is refused."""
    async def scenario() -> None:
        (storage_a, leases_a), (storage_b, leases_b) = await two_processes(database_url)
        try:
            for table_id in ("kept", "lost"):
                await storage_a.create_table(stored_table(table_id), leases_a.create_lease)
            expire(storage_a, leases_a.node or "")
            assert sorted(await leases_b.claim_orphans()) == [("kept", 2), ("lost", 2)]
            # B hands "kept" back: A registers again under a new id and claims it.
            await leases_b.stop()
            assert await leases_a.renew() is False
            await leases_a.start()
            assert await leases_a.claim("kept") == 3
            results = await asyncio.gather(
                storage_a.append_action("kept", 0, 0, "a", None, 3),
                storage_a.append_action("lost", 0, 0, "b", None, 1),
                storage_a.append_action("kept", 1, 1, "c", None, 3), return_exceptions=True)
            assert results[0] is None and results[2] is None
            assert isinstance(results[1], Fenced)
            assert [a for _, a, _ in (storage_a.load("kept") or stored_table("")).actions] == ["a", "c"]
            assert (storage_a.load("lost") or stored_table("")).actions == []
        finally:
            for storage in (storage_a, storage_b):
                storage.close()

    run(scenario())


def test_only_one_process_wins_an_orphaned_table(database_url: str) -> None:
    async def scenario() -> None:
        processes = []
        for _ in range(4):
            storage = Storage(database_url)
            leases = Leases(storage, lease_seconds=30)
            await leases.start()
            processes.append((storage, leases))
        try:
            first_storage, first = processes[0]
            for index in range(8):
                await first_storage.create_table(stored_table(f"o{index}"), first.create_lease)
            expire(first_storage, first.node or "")
            claims = await asyncio.gather(*(leases.claim_orphans() for _, leases in processes[1:]))
            claimed = [table for claim in claims for table, _ in claim]
            # Each orphan goes to exactly one process, at epoch 2; the three survivors share the eight.
            assert sorted(claimed) == sorted(set(claimed))
            more = [table for _, leases in processes[1:] for table, _ in await leases.claim_orphans()]
            assert sorted(claimed + more) == [f"o{index}" for index in range(8)]
            assert all(epoch == 2 for claim in claims for _, epoch in claim)
        finally:
            for storage, _ in processes:
                storage.close()

    run(scenario())


def test_a_table_stored_before_leases_is_claimed_once(database_url: str) -> None:
    """A table from a database made by an older version (or one process alone) has no lease: the first process
    to look takes it at epoch 1, and no other does."""
    async def scenario() -> None:
        (storage_a, leases_a), (storage_b, leases_b) = await two_processes(database_url)
        try:
            await storage_a.create_table(stored_table("old"))  # no lease, as before this version
            assert await leases_a.claim_orphans() == [("old", 1)]
            assert await leases_b.claim_orphans() == []
            assert await leases_b.claim("old") is None
            await storage_a.append_action("old", 0, 0, "x", None, 1)
            with pytest.raises(Fenced):
                await storage_b.append_action("old", 0, 0, "y", None, 1)
        finally:
            for storage in (storage_a, storage_b):
                storage.close()

    run(scenario())
