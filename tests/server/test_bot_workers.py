"""Bots that think long think in worker processes (server/bot_workers.py, bots/worker.py), and nothing about that
changes a move, hangs a table or leaves a process behind."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from divedeck.bots import Bot, Decision, decide, make_bot
from divedeck.bots import levels as bot_levels
from divedeck.bots.levels import hard_bot
from divedeck.bots.worker import dumps, loads
from divedeck.engine.config import config_to_options
from divedeck.engine.match import Match
from divedeck.engine.registry import game_names, get_game
from divedeck.server.bot_workers import BotWorkers
from tests.live_server import running_server

from .conftest import Harness, drive, running_app

HARD_GAMES = [name for name in game_names() if get_game(name).levels.hard_iterations is not None]
# Generous: a spawned worker imports the package afresh, which takes seconds on a loaded 2-core machine.
TIMEOUT = 60.0


def wait_until(condition: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"no {what} within {timeout} s"
        time.sleep(0.01)
    return value


class StuckInWorker:
    """Thinks long, and in a worker process never answers; in the server's own process it plays its first legal
    action at once."""

    name = "stuck"
    thinks_long = True

    def choose(self, decision: Decision) -> Any:
        if multiprocessing.parent_process() is not None:
            threading.Event().wait()
        return decision.legal[0]


def searching(game_name: str, seed: int) -> Bot:
    """The game's hard bot on a small iteration budget and no time limit: its moves depend on its seed only."""
    bot = hard_bot(get_game(game_name), seed, iterations=60)
    bot.seconds = None
    return bot


@pytest.fixture(autouse=True)
def quick_hard_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_levels, "ITERATIONS_OVERRIDE", 40)


@pytest.mark.parametrize("game_name", HARD_GAMES)
def test_a_seed_plays_the_same_moves_in_a_worker_as_in_the_server(game_name: str) -> None:
    game = get_game(game_name)
    config = game.make_config(game.with_players({}, 2))
    here, there = searching(game_name, 7), searching(game_name, 7)
    rng = random.Random(1)

    async def play() -> list[str]:
        workers = BotWorkers(1)
        state = game.new(config, 3)
        ours: list[str] = []
        searched = 0
        nonlocal there
        try:
            while len(ours) < 8 and game.outcome(state) is None:
                seat = min(game.actors(state))
                if seat == 0:
                    searched += len(game.legal_actions(state, 0)) > 1
                    expected = game.format_action(decide(here, game, state.clone(), 0))
                    notation, there = await workers.choose(there, game, config, state.clone(), 0)
                    assert notation == expected, f"move {len(ours)}"
                    ours.append(notation)
                    action = game.parse_action(notation)
                else:
                    action = rng.choice(game.legal_actions(state, seat))
                game.apply(state, seat, action)
            assert workers.moves == searched > 0  # a forced move is played in the server
        finally:
            workers.close()
        return ours

    # Moves after the first show that the bot came back with its generator where the search left it.
    assert len(asyncio.run(play())) == 8


@pytest.mark.parametrize("game_name", HARD_GAMES)
def test_a_hard_bot_travels_whole(game_name: str) -> None:
    bot = make_bot(game_name, "hard", 5)
    copy = loads(dumps(bot))
    assert type(copy) is type(bot) and copy.rng.getstate() == bot.rng.getstate()  # type: ignore[attr-defined]
    assert vars(copy).keys() == vars(bot).keys()


def test_cheap_bots_stay_in_the_server() -> None:
    game = get_game("snorkeling")
    config = game.make_config({})
    workers = BotWorkers(1)
    notation, bot = asyncio.run(workers.choose(make_bot("snorkeling", "greedy", 1), game, config,
                                               game.new(config, 2), 0))
    assert game.parse_action(notation) is not None and workers.pool is None and workers.moves == 0


@pytest.fixture
def pooled(tmp_path: Path) -> Iterator[Harness]:
    with running_app(tmp_path, bot_workers=1) as harness:
        yield harness


def test_a_hard_bot_table_gets_its_moves_from_a_worker_and_closing_ends_the_workers(tmp_path: Path) -> None:
    with running_app(tmp_path, bot_workers=1) as app:
        table_id, _, _ = app.create(["hard", "hard"])
        table = app.live(table_id)
        wait_until(lambda: table.finished, "end of the bots' game")
        workers = app.manager.bot_workers
        replay = Match.start(table.game.name, config_to_options(table.match.config), table.match.seed)
        searched = 0
        for seat, action in table.match.actions:
            searched += len(table.game.legal_actions(replay.state, seat)) > 1
            replay.act(seat, action)
        assert workers.moves == searched > 0  # every move with a choice came from a worker
        children = multiprocessing.active_children()
        assert children
    for child in children:
        assert not child.is_alive()
    assert multiprocessing.active_children() == []


def test_a_worker_killed_mid_think_does_not_hang_the_table(pooled: Harness, caplog: pytest.LogCaptureFixture) -> None:
    table_id, tokens, _ = pooled.create(["human", "hard"])
    table = pooled.live(table_id)
    table.seats[1].bot = StuckInWorker()
    human = pooled.connect(table_id, tokens[0])
    workers = pooled.manager.bot_workers
    # The deal is random: a bot move with one choice is made in the server, so play on until the bot has a choice.
    deadline, acted = time.monotonic() + TIMEOUT, -1
    while not (workers.slots.locked() and workers.worker_pids()):
        assert time.monotonic() < deadline and not table.finished, "no search in the worker"
        assert human.last is not None
        if human.last["view"]["active"] == 0 and human.last["version"] > acted:
            acted = human.last["version"]
            human.act(human.legal[0])
        human.poll(0.02)
    [pid] = workers.worker_pids()
    with caplog.at_level(logging.WARNING):
        os.kill(pid, signal.SIGKILL)
        human.until_version(acted + 2)  # the bot's move, chosen again in the server
    assert [r.getMessage() for r in caplog.records] == [
        "a bot worker process stopped; the move is chosen in the server and the pool restarted"]
    # The next search goes to a fresh worker.
    table.seats[1].bot = make_bot("snorkeling", "hard", 1)
    moves = workers.moves
    drive({0: human}, random.Random(2), until=lambda last: workers.moves > moves)
    assert workers.moves > moves


def test_a_worker_that_takes_too_long_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    game = get_game("snorkeling")
    config = game.make_config({})
    state = game.new(config, 4)
    workers = BotWorkers(1, timeout=0.5)

    async def ask() -> tuple[str, list[Any]]:
        task = asyncio.create_task(workers.choose(StuckInWorker(), game, config, state.clone(), state.active))
        while not (pids := workers.worker_pids()):
            await asyncio.sleep(0.01)
        stuck = [c for c in multiprocessing.active_children() if c.pid in pids]
        notation, _ = await task
        return notation, stuck

    try:
        with caplog.at_level(logging.WARNING):
            notation, stuck = asyncio.run(ask())
    finally:
        workers.close()
    assert notation == game.format_action(game.legal_actions(state, state.active)[0])
    assert workers.pool is None and "took over 0.5 s" in caplog.text
    for child in stuck:
        # Not one join and one look: the executor's own thread may reap the child between the two, and until it has
        # recorded the exit code the look still says "alive" (its waitpid found no child to wait for).
        wait_until(lambda child=child: not child.is_alive(), "the stuck worker to be gone")


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _workers(pid: int) -> set[int]:
    """The bot workers among the children of ``pid`` (not multiprocessing's resource tracker)."""
    return {child for child in _children(pid) if b"spawn_main" in (Path("/proc") / str(child) / "cmdline").read_bytes()}


def _gone(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_workers_do_not_outlive_the_server(tmp_path: Path, stop: signal.Signals) -> None:
    with running_server(tmp_path, "--bot-delay", "0", "--bot-workers", "1") as server:
        status, body = server.request("POST", "/api/tables", {"game": "snorkeling", "seats": [
            {"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "hard"}]})
        assert status == 201, body
        assert server.process is not None
        workers = wait_until(lambda: _workers(server.process.pid), "worker process")  # type: ignore[union-attr]
        server.process.send_signal(stop)
        server.process.wait(TIMEOUT)
        wait_until(lambda: all(_gone(pid) for pid in workers), "end of the workers")
