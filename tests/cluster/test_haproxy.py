"""Three server processes behind HAProxy with the repository's configuration (deploy/haproxy.cfg, round-robin,
websockets included) play all four games: every request and socket may reach any process, and every page's view
is a replay of the stored log (issue 24, item 6)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from sqlalchemy import create_engine, select

from divedeck.engine.match import Match
from divedeck.engine.registry import game_names, get_game
from divedeck.server.routing import RELAYED_COUNT
from divedeck.server.storage import database_url as driver_url
from divedeck.server.storage import leases_table
from tests.live_server import ServerProcess
from tests.server.test_restart import Client, jsonish, run
from tests.services import HAProxy, Redis, running_haproxy

from .conftest import require
from .test_routing import FAST

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"
ACTIONS = 12  # by the person at each table; bots play the other seats


NAMES = ("one", "two", "three")  # the servers' names in deploy/haproxy.cfg


@contextlib.contextmanager
def behind_haproxy(database_url: str, redis_server: Redis, tmp_path: Path,
                   named: bool) -> Iterator[tuple[HAProxy, list[ServerProcess]]]:
    """Three servers behind HAProxy with the shipped configuration; ``named``: each runs with ``--table-prefix``
    set to its name there, as the configuration says to."""
    require("haproxy", shutil.which("haproxy") is not None)
    servers = [ServerProcess(tmp_path / "unused", tmp_path / f"server{index}.log",
                             (*FAST, "--bus", redis_server.url, "--allowed-host", "*",
                              *(("--table-prefix", NAMES[index]) if named else ())), db_url=database_url)
               for index in range(3)]
    try:
        for server in servers:
            server.start()
        with running_haproxy(CONFIG, [f"127.0.0.1:{server.port}" for server in servers]) as proxy:
            yield proxy, servers
    finally:
        for server in servers:
            server.kill()


@pytest.fixture
def balanced(database_url: str, redis_server: Redis, tmp_path: Path) -> Iterator[tuple[HAProxy, list[ServerProcess]]]:
    """Servers without names: the balancer's round-robin sends any socket anywhere, the bus serves it."""
    with behind_haproxy(database_url, redis_server, tmp_path, named=False) as pair:
        yield pair


@pytest.fixture
def routed(database_url: str, redis_server: Redis, tmp_path: Path) -> Iterator[tuple[HAProxy, list[ServerProcess]]]:
    with behind_haproxy(database_url, redis_server, tmp_path, named=True) as pair:
        yield pair


async def play_table(proxy: HAProxy, servers: list[ServerProcess], game_name: str, seed: int) -> str:
    game = get_game(game_name)
    players = max(game.default_players(), min(game.player_range()))
    specs = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * (players - 1)
    status, answer = servers[0].request_via(proxy.url, "POST", "/api/tables",
                                            {"game": game_name, "options": {}, "seats": specs})
    assert status == 201, answer
    table_id, token = answer["table"]["id"], answer["tokens"][0]
    person = await Client.open(proxy, table_id, token, f"{game_name} person")  # type: ignore[arg-type]
    spectator = await Client.open(proxy, table_id, None, f"{game_name} spectator")  # type: ignore[arg-type]
    rng = random.Random(seed)
    acted = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while acted < ACTIONS and loop.time() < deadline:
        last = person.last
        assert last is not None
        if last["outcome"] is not None:
            break
        choices = [record["notation"] for record in last["legal"]]
        if not choices:
            await person.wait_for(lambda v=last["version"]: person.last is not None and (
                person.last["version"] > v or person.closed), "the table to move on")
            continue
        message = await person.act_message(rng.choice(choices))
        reply = await person.reply(message["client_id"])
        if reply.get("code") == "stale":
            # Another seat moved at the same time (several seats choose at once in Hold Your Breath!): the refusal
            # says the view is old, so look again, as the browser does, and choose from the newer view.
            await person.wait_for(lambda v=last["version"]: person.last is not None and (
                person.last["version"] > v or person.closed), "the newer view")
            continue
        # In real time a bot may move first and make the choice out of date: the refusal says so, nothing else.
        assert reply["type"] == "ack" or (game.realtime and reply["code"] in ("illegal_action", "not_your_turn")), \
            reply
        acted += reply["type"] == "ack"
    assert acted >= min(ACTIONS, 3), f"{game_name}: only {acted} actions acknowledged"
    await person.close()
    await spectator.close()
    # A fresh look through the load balancer (any process) equals a replay of the stored log.
    look = await Client.open(proxy, table_id, token, f"{game_name} look")  # type: ignore[arg-type]
    welcome: Any = look.welcome
    await look.close()
    stored = servers[0].stored(table_id)
    match = Match.start(game_name, stored.options, stored.seed)
    match.replay([[seat, action] for seat, action, _ in stored.actions[:welcome["version"]]])
    assert welcome["view"] == jsonish(game.view(match.state, 0)), game_name
    return str(table_id)


def test_three_processes_behind_haproxy_play_all_four_games(balanced: tuple[HAProxy, list[ServerProcess]]) -> None:
    proxy, servers = balanced

    async def scenario() -> None:
        tables = await asyncio.gather(*(play_table(proxy, servers, name, index)
                                        for index, name in enumerate(game_names())))
        # Round-robin spread the work: the tables were made (so are owned) by more than one process.
        engine = create_engine(driver_url(servers[0].database_url))
        with engine.connect() as connection:
            owners = set(connection.execute(select(leases_table.c.owner)
                                            .where(leases_table.c.table_id.in_(tables))).scalars())
        engine.dispose()
        assert len(owners) >= 2, owners

    run(scenario)


def test_behind_haproxy_a_tables_sockets_reach_the_server_that_owns_it(
        routed: tuple[HAProxy, list[ServerProcess]], redis_server: Redis) -> None:
    proxy, servers = routed
    client = redis.Redis.from_url(redis_server.url)
    before = int(client.get(RELAYED_COUNT) or 0)

    async def scenario() -> list[str]:
        return list(await asyncio.gather(*(play_table(proxy, servers, name, index)
                                           for index, name in enumerate(game_names()))))

    tables = run(scenario)
    relayed = int(client.get(RELAYED_COUNT) or 0) - before
    client.close()
    assert relayed == 0, f"{relayed} sockets reached a server that does not own their table"
    # Round-robin spread the tables; each id names the server that made it, which owns it.
    assert len({table_id.split("-", 1)[0] for table_id in tables}) >= 2, tables
    engine = create_engine(driver_url(servers[0].database_url))
    with engine.connect() as connection:
        owners = {row.table_id: row.owner for row in connection.execute(
            select(leases_table.c.table_id, leases_table.c.owner).where(leases_table.c.table_id.in_(tables)))}
    engine.dispose()
    by_name: dict[str, set[str]] = {}
    for table_id in tables:
        by_name.setdefault(table_id.split("-", 1)[0], set()).add(owners[table_id])
    assert all(len(nodes) == 1 for nodes in by_name.values()), by_name
