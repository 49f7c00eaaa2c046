"""The chaos test (issue 24, item 6): three server processes on one PostgreSQL and one Redis play a table of each
of the four games (bots and one person each, Bermuda's dives and Hold your Hat's timers included) while processes
are killed (SIGKILL, then started again) and frozen past their lease (SIGSTOP, SIGCONT) at random. The pages
reconnect to any live process and retry what was unanswered, as client.js does. Afterwards: no acknowledged action
is lost, none is stored twice, no log forks (each replays from its seed), and every page's view is a replay of the
stored log."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from divedeck.engine.match import Match
from divedeck.engine.registry import game_names, get_game
from tests.live_server import ServerProcess
from tests.server.test_restart import jsonish, run
from tests.services import Redis

from .test_routing import FAST, LEASE

CHAOS_SECONDS = 40.0
EVENT_EVERY = (4.0, 7.0)  # seconds between two kills or freezes
ACT_EVERY = 0.25  # seconds between a page's moves
_ids = itertools.count(1)


@dataclass
class Page:
    """A person's page at one table, reconnecting and retrying like client.js."""

    servers: list[ServerProcess]
    game: str
    table_id: str
    token: str
    rng: random.Random
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # client id -> (action, version)
    last: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None  # an act sent and not answered yet: sent again after a reconnect
    reconnects: int = 0
    stop: bool = False

    async def run(self) -> None:
        while not self.stop:
            server = self.rng.choice([s for s in self.servers if s.process is not None and s.process.poll() is None])
            try:
                async with asyncio.timeout(15):
                    ws = await connect(f"{server.ws_url}/ws/tables/{self.table_id}", open_timeout=5)
            except (OSError, TimeoutError, InvalidHandshake):
                await asyncio.sleep(0.2)
                continue
            try:
                await ws.send(json.dumps({"type": "hello", "protocol": 3, "token": self.token}))
                await self._play(ws)
            except (ConnectionClosed, OSError, TimeoutError):
                pass
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 2)
            self.reconnects += 1
            await asyncio.sleep(0.1)

    async def _play(self, ws: Any) -> None:
        welcomed = False
        next_act = time.monotonic()
        while not self.stop:
            try:
                text = await asyncio.wait_for(ws.recv(), ACT_EVERY)
            except TimeoutError:
                text = None
            if text is not None:
                message = json.loads(text)
                kind = message["type"]
                if kind in ("welcome", "update", "undone"):
                    if kind == "welcome":
                        welcomed = True
                        if self.pending is not None:  # answered before the drop, or not: the client id decides
                            await ws.send(json.dumps(self.pending))
                    if self.last is None or message["version"] >= self.last["version"] or kind == "welcome":
                        self.last = message
                elif kind == "ack" and self.pending and message.get("client_id") == self.pending["client_id"]:
                    self.acked[message["client_id"]] = (self.pending["action"], message["version"])
                    self.pending = None
                elif kind == "error" and self.pending and message.get("client_id") == self.pending["client_id"]:
                    self.pending = None  # refused (stale, out of date, moved): nothing stored, choose again
            last = self.last
            if (welcomed and self.pending is None and last is not None and last.get("legal")
                    and last.get("outcome") is None and time.monotonic() >= next_act):
                action = self.rng.choice(last["legal"])["notation"]
                self.pending = {"type": "act", "client_id": f"chaos-{next(_ids)}", "action": action,
                                "version": last["version"]}
                await ws.send(json.dumps(self.pending))
                next_act = time.monotonic() + ACT_EVERY

    async def look(self) -> dict[str, Any]:
        """A fresh welcome from a live process (once the chaos is over)."""
        for _ in range(100):
            server = self.rng.choice(self.servers)
            try:
                async with connect(f"{server.ws_url}/ws/tables/{self.table_id}", open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "hello", "protocol": 3, "token": self.token}))
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message["type"] == "welcome":
                        return message
            except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake):
                pass
            await asyncio.sleep(0.3)
        raise AssertionError(f"{self.game}: no welcome after the chaos")


@pytest.fixture
def cluster(database_url: str, redis_server: Redis, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    servers = [ServerProcess(tmp_path / "unused", tmp_path / f"server{index}.log",
                             (*FAST, "--bus", redis_server.url), db_url=database_url) for index in range(3)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.kill()


async def chaos(servers: list[ServerProcess], rng: random.Random, log: list[str]) -> None:
    end = time.monotonic() + CHAOS_SECONDS
    while time.monotonic() < end:
        await asyncio.sleep(rng.uniform(*EVENT_EVERY))
        victim = rng.choice(servers)
        assert victim.process is not None
        if rng.random() < 0.5:
            log.append(f"kill {victim.port}")
            victim.kill()
            await asyncio.sleep(rng.uniform(0.5, 2.0))
            await asyncio.to_thread(victim.start)  # the same arguments, a new port
        else:
            log.append(f"freeze {victim.port}")
            victim.process.send_signal(signal.SIGSTOP)
            await asyncio.sleep(LEASE + rng.uniform(0.5, 2.0))
            victim.process.send_signal(signal.SIGCONT)


def test_nothing_is_lost_duplicated_or_forked_while_processes_die_and_freeze(cluster: list[ServerProcess]) -> None:
    rng = random.Random(24)
    events: list[str] = []

    async def scenario() -> list[Page]:
        pages = []
        for index, name in enumerate(game_names()):
            game = get_game(name)
            players = max(game.default_players(), min(game.player_range()))
            specs = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1)
            status, answer = cluster[index % 3].request("POST", "/api/tables", {"game": name, "options": {},
                                                                                "seats": specs})
            assert status == 201, answer
            pages.append(Page(cluster, name, answer["table"]["id"], answer["tokens"][0], random.Random(index)))
        tasks = [asyncio.create_task(page.run()) for page in pages]
        await chaos(cluster, rng, events)
        for page in pages:
            page.stop = True
        await asyncio.gather(*tasks)
        for page in pages:
            page.last = await page.look()
        return pages

    pages = run(scenario)
    assert any(event.startswith("kill") for event in events) and any(e.startswith("freeze") for e in events), events
    for page in pages:
        game = get_game(page.game)
        stored = cluster[0].stored(page.table_id)
        where = f"{page.game} ({', '.join(events)})"
        assert len(page.acked) >= 3, f"{where}: only {len(page.acked)} moves acknowledged"
        client_ids = [client_id for *_, client_id in stored.actions if client_id is not None]
        assert len(client_ids) == len(set(client_ids)), f"{where}: an action is stored twice"
        # A real-time action is stored with the server's time stamp (" @t") after the notation the page sent.
        log = {client_id: (index + 1, action.split(" @")[0] if game.realtime else action)
               for index, (_, action, client_id) in enumerate(stored.actions)}
        for client_id, (action, version) in page.acked.items():
            assert log.get(client_id) == (version, action), f"{where}: acknowledged {client_id} lost or moved"
        # Unforked: the whole log replays from the seed (an action applied to a state it was not chosen in fails).
        match = Match.start(page.game, stored.options, stored.seed)
        match.replay([[seat, action] for seat, action, _ in stored.actions])
        welcome = page.last
        assert welcome is not None and welcome["version"] <= len(stored.actions)
        at_welcome = Match.start(page.game, stored.options, stored.seed)
        at_welcome.replay([[seat, action] for seat, action, _ in stored.actions[:welcome["version"]]])
        assert welcome["view"] == jsonish(game.view(at_welcome.state, 0)), where
