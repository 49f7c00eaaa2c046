"""The SQLite log under a server that never pauses: one connection for the event loop's writes, and a write-ahead
log that does not grow without end."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

from divedeck.server.storage import Storage, StoredTable


def stored_table(table_id: str) -> StoredTable:
    return StoredTable(table_id, "snorkeling", {}, 1, [], False, 0.0, None, None, [])


async def append_without_pause(storage: Storage, tables: int, seconds: float) -> int:
    """Tables created, then each appends one action after another as fast as the loop allows; returns how many."""
    for index in range(tables):
        await storage.create_table(stored_table(f"t{index}"))
    appended = 0
    deadline = asyncio.get_running_loop().time() + seconds

    async def play(table_id: str) -> None:
        nonlocal appended
        seq = 0
        while asyncio.get_running_loop().time() < deadline:
            await storage.append_action(table_id, seq, seq % 4, "c B1", f"c{seq}", clock_ms=seq)
            seq += 1
            appended += 1

    await asyncio.gather(*(play(f"t{index}") for index in range(tables)))
    return appended


def test_the_event_loops_writes_share_the_appends_connection(tmp_path: Path) -> None:
    """A table made (the general path) and actions appended (the fast path) go through one connection: a write
    through a second one makes SQLite drop the first one's page cache, and every next append read it back."""
    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}", checkpoint_every=3600)
    try:
        asyncio.run(append_without_pause(storage, tables=3, seconds=0.2))
        pool = storage.engine.pool
        assert pool.checkedout() == 1  # type: ignore[attr-defined]  # the appends' own, held for the next batch
        assert pool.checkedin() == 0  # type: ignore[attr-defined]  # no second connection was opened for the rest
    finally:
        storage.close()


def test_a_writer_that_never_pauses_does_not_grow_the_log_without_end(tmp_path: Path) -> None:
    """Passive checkpoints alone never let SQLite start its log over while appends keep coming: past the limit, a
    truncating checkpoint does. Every action appended is still there."""
    database = tmp_path / "log.sqlite3"
    limit = 256 << 10
    storage = Storage(f"sqlite:///{database}", checkpoint_every=0.02, log_limit=limit)
    try:
        appended = asyncio.run(append_without_pause(storage, tables=20, seconds=2.0))
        grown = os.path.getsize(f"{database}-wal")
        # The next checkpoints find it past the limit and truncate it (a passive one copies the log but leaves the
        # file as long as it grew: hundreds of MB here without the truncation).
        deadline = time.monotonic() + 10
        while os.path.getsize(f"{database}-wal") >= 4 * limit and time.monotonic() < deadline:
            time.sleep(0.01)
        log_bytes = os.path.getsize(f"{database}-wal")
        stored = sum(len(storage.load(f"t{index}").actions) for index in range(20))  # type: ignore[union-attr]
    finally:
        storage.close()
    assert stored == appended > 5_000
    assert log_bytes < 4 * limit, (grown, log_bytes)


def test_appends_that_come_soon_after_a_commit_share_the_next_one(tmp_path: Path) -> None:
    """An idle log commits an append at once; appends that come in the next turns of the loop, within
    ``COMMIT_INTERVAL`` of that commit, wait and share one commit (a commit costs more than the rows of a busy
    turn). Every one is stored, in order."""
    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}", checkpoint_every=3600)
    assert storage._appender is not None
    commits: list[int] = []
    append = storage._appender.append

    def counted(appends: Any) -> list[bool]:
        commits.append(len(appends))
        return append(appends)

    storage._appender.append = counted  # type: ignore[method-assign]

    async def play() -> None:
        await storage.create_table(stored_table("t"))
        await storage.append_action("t", 0, 0, "c B1", "c0", clock_ms=0)  # the log is idle: committed at once

        async def later(seq: int) -> None:
            for _ in range(seq):  # one more turn of the loop each
                await asyncio.sleep(0)
            await storage.append_action("t", seq, seq % 4, "c B1", f"c{seq}", clock_ms=seq)

        await asyncio.gather(*(later(seq) for seq in range(1, 6)))

    try:
        asyncio.run(play())
        assert commits == [1, 5]
        loaded = storage.load("t")
        assert loaded is not None and [client_id for _, _, client_id in loaded.actions] == [f"c{n}" for n in range(6)]
    finally:
        storage.close()
