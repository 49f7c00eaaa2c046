"""Three real server processes on one PostgreSQL and one Redis: any process takes any client (routing.py), and
when the owner of a table is killed the others take it over within seconds, with nothing lost or applied twice
(issue 24, items 4 and 5)."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from typing import Any

from websockets.exceptions import InvalidHandshake

from divedeck.engine.match import Match
from tests.live_server import ServerProcess
from tests.server.conftest import SNORKELING
from tests.server.test_restart import Client, TableRecord, close_all, jsonish, next_turn, run

from .conftest import FAST, LEASE

__all__ = ["FAST", "LEASE", "play", "reconnect"]


async def play(record: TableRecord, clients: dict[int, Client], rng: random.Random, count: int | None) -> None:
    """Random legal moves for the humans; after each ack every page is waited for until it has the update
    (pages on different processes get theirs through different routes, so not in one order)."""
    played = 0
    while count is None or played < count:
        turn = await next_turn(clients)
        if turn is None:
            return
        seat, mine = turn
        assert mine.last is not None
        message = await mine.act_message(rng.choice(mine.last["legal"])["notation"])
        reply = await mine.reply(message["client_id"])
        if reply.get("code") == "moved":
            # Refused, not applied: the process missed its lease on a starved machine and another took the table.
            # The pages reconnect, as client.js does, and the move is chosen again.
            await reconnect_all(clients)
            continue
        assert reply["type"] == "ack", reply
        record.acked.append((seat, message["action"], reply["version"]))
        played += 1
        version = reply["version"]
        for client in clients.values():
            await client.wait_for(lambda c=client, v=version: c.last is not None and c.last["version"] >= v,
                                  f"version {version}")


async def reconnect_all(clients: dict[int, Client]) -> None:
    """Every page of a table that moved, closed and opened again, each wherever it was."""
    for seat, client in list(clients.items()):
        assert client.opened_with is not None
        await client.close()
        clients[seat] = await reconnect(*client.opened_with, client.name)


async def reconnect(server: Any, table_id: str, token: str | None, name: str, within: float = 10.0) -> Client:
    """Open a page's socket as client.js does after a drop: again and again until a welcome comes (while the
    table's dead owner still holds its lease, the socket is closed with 1012 and the page tries again). A
    connection the parent of ``--processes`` handed to the owner in the instant it was killed (its channel not
    closed yet) is closed before any answer: the page tries again then too."""
    deadline = time.monotonic() + within
    while True:
        try:
            return await Client.open(server, table_id, token, name)
        except (AssertionError, OSError, InvalidHandshake):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


def test_any_process_serves_any_table_and_a_killed_owners_tables_go_on(three_servers: list[ServerProcess]) -> None:
    owner, second, third = three_servers

    async def scenario() -> None:
        record = TableRecord(["human", "human", "greedy"])
        specs = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        status, answer = owner.request("POST", "/api/tables", {"game": "snorkeling",
                                                               "options": {"target_score": 1}, "seats": specs})
        assert status == 201, answer
        record.id, record.tokens = answer["table"]["id"], answer["tokens"]
        # Seat 0 reaches the owner, seat 1 another process, a spectator the third: one game for all.
        seats = {0: await Client.open(owner, record.id, record.tokens[0], "seat 0"),
                 1: await Client.open(second, record.id, record.tokens[1], "seat 1")}
        spectator = await Client.open(third, record.id, None, "spectator")
        rng = random.Random(3)
        await play(record, seats, rng, 6)
        versions = {seat: client.last["version"] for seat, client in seats.items() if client.last}
        await spectator.wait_for(lambda: spectator.last is not None
                                 and spectator.last["version"] >= max(versions.values()), "the spectator's update")
        # A wrong token is refused through the bus as on the owner itself.
        assert await Client.open_raw(second, record.id, "not-a-token") == ("bad_token", 4401)

        assert owner.process is not None
        owner.process.send_signal(signal.SIGKILL)
        owner.process.wait()
        killed = time.monotonic()
        # Every page is told (its socket closes) and reconnects, here to the survivors.
        for client in [*seats.values(), spectator]:
            await client.wait_for(lambda c=client: c.closed, "the socket to close after the kill", timeout=10)
        await close_all({**seats, 2: spectator})
        reopened = {0: await reconnect(third, record.id, record.tokens[0], "seat 0 again"),
                    1: await reconnect(second, record.id, record.tokens[1], "seat 1 again")}
        moved = time.monotonic() - killed
        welcome = reopened[0].welcome
        assert welcome is not None and welcome["version"] >= record.acked[-1][2]
        await play(record, reopened, rng, None)  # to the end, the bot included
        last = reopened[0].last
        assert last is not None and last["outcome"] is not None
        await close_all(reopened)

        stored = second.stored(record.id)
        log = {index + 1: (seat, action) for index, (seat, action, _) in enumerate(stored.actions)}
        for seat, action, version in record.acked:
            assert log[version] == (seat, action), f"acknowledged action {version} lost or changed"
        client_ids = [client_id for *_, client_id in stored.actions if client_id is not None]
        assert len(client_ids) == len(set(client_ids)), "an action was applied twice"
        match = Match.start("snorkeling", stored.options, stored.seed)
        match.replay([[seat, action] for seat, action, _ in stored.actions])
        assert match.over and jsonish(SNORKELING.outcome(match.state).to_dict()) == last["outcome"]
        assert last["view"] == jsonish(SNORKELING.view(match.state, 0))
        assert moved < 5 + LEASE, f"the table took {moved:.1f} s to come back"

    run(scenario)
