"""The SIGSTOP test (issue 24, item 3): freeze the process that owns a table past its lease, let another process
take the table and play on, wake the first, and check that the log never forks and the woken process gives the
table up. Two real ``divedeck serve`` processes on one real PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosedError

from divedeck.engine.match import Match
from tests.cluster.conftest import FAST, LEASE
from tests.live_server import ServerProcess
from tests.server.conftest import SNORKELING
from tests.server.test_restart import Client, TableRecord, close_all, jsonish, next_turn, open_seats, play, run


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    servers = [ServerProcess(tmp_path / "unused", tmp_path / f"server{index}.log", FAST, db_url=database_url)
               for index in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers[0], servers[1]
    finally:
        for server in servers:
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)  # a frozen process cannot die until it runs again
            server.kill()


async def sent_elsewhere(server: ServerProcess, record: TableRecord, seconds: float = 10) -> bool:
    """Whether ``server`` sends a socket for ``record``'s table away ("elsewhere", close 1013). While a woken
    process is still giving its tables up it may close a new socket with a bare 1013 ("try again later") first,
    which a browser answers by reconnecting: so does this, for a few seconds."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return await Client.open_raw(server, record.id, record.tokens[0]) == ("elsewhere", 1013)
        except ConnectionClosedError as closed:
            if closed.rcvd is None or closed.rcvd.code != 1013 or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.2)


def test_a_frozen_owner_wakes_to_find_its_table_taken_and_the_log_unforked(
        two_servers: tuple[ServerProcess, ServerProcess]) -> None:
    first, second = two_servers

    async def scenario() -> None:
        record = TableRecord(["human", "human"])
        status, answer = first.request("POST", "/api/tables", {"game": "snorkeling", "options": {"target_score": 1},
                                                               "seats": [{"kind": "human"}] * 2})
        assert status == 201, answer
        record.id, record.tokens = answer["table"]["id"], answer["tokens"]
        rng = random.Random(5)
        on_first = await open_seats(first, record)
        await play(record, on_first, rng, 4)
        # The second process does not drive the table while the first owns it.
        refused = await Client.open_raw(second, record.id, record.tokens[0])
        assert refused == ("elsewhere", 1013)

        assert first.process is not None
        first.process.send_signal(signal.SIGSTOP)
        frozen_at = time.monotonic()
        # An action sent to the frozen owner waits in its socket: it must never be stored.
        turn = await next_turn(on_first)
        assert turn is not None
        seat, mine = turn
        assert mine.last is not None
        late = await mine.act_message(rng.choice(mine.last["legal"])["notation"])

        # Past the lease, the second process takes the table over and play goes on there.
        await asyncio.sleep(LEASE + 0.5)
        on_second = await open_seats(second, record)
        taken_after = time.monotonic() - frozen_at
        welcome = on_second[0].welcome
        assert welcome is not None and welcome["version"] == len(record.acked) == 4

        # The first process wakes before the second has written anything: only the fence keeps its late action
        # (next in the log, so no key of the log refuses it) out.
        first.process.send_signal(signal.SIGCONT)
        # The woken process answers the late action with a refusal or closes the socket, and stores nothing.
        await mine.wait_for(lambda: mine.closed or late["client_id"] in mine.replies, "the woken owner to answer",
                            timeout=10)
        reply = mine.replies.get(late["client_id"])
        assert reply is None or reply["type"] == "error", reply
        for client in on_first.values():
            await client.wait_for(lambda c=client: c.closed, "the woken owner to close its sockets", timeout=10)
        await close_all(on_first)
        # It gives the table up for good: it sends a new socket away instead of driving the table again.
        assert await sent_elsewhere(first, record)
        await play(record, on_second, rng, 4)

        # The log: exactly the eight acknowledged actions in order, the late one nowhere; the second process's
        # views are a replay of it.
        stored = second.stored(record.id)
        assert [(seat_, action) for seat_, action, _ in stored.actions] == [(s, a) for s, a, _ in record.acked]
        assert [version for _, _, version in record.acked] == list(range(1, 9))
        assert all(client_id != late["client_id"] for _, _, client_id in stored.actions)
        match = Match.start("snorkeling", stored.options, stored.seed)
        match.replay([[s, a] for s, a, _ in stored.actions])
        for seat_index, client in on_second.items():
            assert client.last is not None and client.last["version"] == 8
            assert client.last["view"] == jsonish(SNORKELING.view(match.state, seat_index))
        await close_all(on_second)
        # The late action, retried with its client id where the table is now, is applied once.
        retry = await Client.open(second, record.id, record.tokens[seat], "retry")
        if retry.last is not None and seat in SNORKELING.actors(match.state):
            late_now = {**late, "version": retry.last["version"],
                        "action": rng.choice(retry.last["legal"])["notation"]}
            await retry.send(late_now)
            assert (await retry.reply(late["client_id"]))["type"] == "ack"
            await retry.send(late_now)
            assert (await retry.reply(late["client_id"]))["type"] == "ack"
            again = second.stored(record.id)
            assert sum(1 for *_, client_id in again.actions if client_id == late["client_id"]) == 1
        await retry.close()
        assert taken_after < LEASE + 5

    run(scenario)
    log = first.log.read_text(errors="replace")
    assert "lease expired" in log or "moved to another process" in log, log
