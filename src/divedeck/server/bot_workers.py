"""Bot searches in worker processes, so that a bot thinking for a second does not slow the other tables.

A thread does not isolate them: one thread at a time runs Python (the GIL), so a search in a thread of the server
delays every other table's messages (issue 13: other tables' ping p95 was 19, 63 and 108 ms with 1, 3 and 6 tables
whose ``hard`` bot was thinking). Only the bots that declare ``thinks_long`` go to a worker; the others choose in
milliseconds and stay in a thread of the server. What a worker is sent and answers, and why that gives a bot in a
worker no more than its seat may know and the same moves as in the server, is in ``bots/worker.py``.

A worker that dies, or takes longer than ``timeout`` for a move, costs only that search: the move is chosen again
in the server's thread (from the server's copy of the bot, so it is the same move), the pool is replaced, and a
warning is logged once per failure. Workers are spawned, never forked from a server that has threads and sockets,
when the first such bot thinks; they ignore Ctrl-C (the server stops them) and exit as soon as the server process
is gone, however it ended.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..bots import Bot, decide, worker
from ..engine.config import config_to_options
from ..engine.game import Game
from .settings import ServerSettings

log = logging.getLogger(__name__)


def default_size() -> int:
    """One worker per core the server may use, but one: that core is left to the event loop."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores - 1)


def thinks_long(bot: Bot) -> bool:
    return bool(getattr(bot, "thinks_long", False))


def _processes(pool: ProcessPoolExecutor) -> list[multiprocessing.Process]:
    # Python 3.14 has ``kill_workers``; before it, the processes are only in the executor's private dict.
    return list(pool._processes.values())  # type: ignore[attr-defined]


def _stop(pool: ProcessPoolExecutor, *, wait: bool) -> None:
    """Stop ``pool`` now: a search in flight is of no use any more, and the executor would let it finish first."""
    for process in _processes(pool):
        process.kill()
    pool.shutdown(wait=wait, cancel_futures=True)


class BotWorkers:
    """Where bots think: ``size`` worker processes for those that think long (0: every bot in a server thread)."""

    def __init__(self, size: int, timeout: float = 10.0) -> None:
        self.size = size
        self.timeout = timeout
        self.pool: ProcessPoolExecutor | None = None
        # No more searches sent than there are workers, so that ``timeout`` counts thinking, not waiting in the
        # executor's queue: a wait for a slot happens here, and may be long when many bots think at once.
        self.slots = asyncio.Semaphore(max(size, 1))
        self.moves = 0  # moves chosen in a worker, for tests and benchmarks

    @classmethod
    def for_settings(cls, settings: ServerSettings) -> BotWorkers:
        size = default_size() if settings.bot_workers is None else settings.bot_workers
        return cls(size, settings.bot_worker_timeout)

    async def choose(self, bot: Bot, game: Game[Any, Any], config: Any, state: Any, seat: int) -> tuple[str, Bot]:
        """The notation of ``bot``'s action for ``seat`` in ``state`` (a state of ``config``: the caller's own
        copy, which the search may use up), and the bot as it is after choosing: the caller keeps that one."""
        # A forced move needs no thinking, and must not wait behind other bots' searches for a worker.
        if self.size and thinks_long(bot) and len(game.legal_actions(state, seat)) > 1:
            async with self.slots:
                pool = self._pool()
                try:
                    future = pool.submit(worker.think, game.name, tuple(sorted(config_to_options(config).items())),
                                         game.state_notation(state), seat, worker.dumps(bot))
                    notation, data = await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
                except (BrokenProcessPool, TimeoutError) as failure:
                    self._replace(pool, failure)
                else:
                    self.moves += 1
                    return notation, worker.loads(data)
        action = await asyncio.to_thread(decide, bot, game, state, seat)
        return game.format_action(action), bot

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=worker.start)
        return self.pool

    def _replace(self, pool: ProcessPoolExecutor, failure: BaseException) -> None:
        if pool is not self.pool:
            return  # the searches that were in flight in a pool already replaced fail too: one warning is enough
        what = "stopped" if isinstance(failure, BrokenProcessPool) else f"took over {self.timeout:g} s for a move"
        log.warning("a bot worker process %s; the move is chosen in the server and the pool restarted", what)
        self.pool = None
        _stop(pool, wait=False)

    def worker_pids(self) -> list[int]:
        """The process ids of the pool's workers now (none before the first search), for operators and tests."""
        return [] if self.pool is None else [p.pid for p in _processes(self.pool) if p.pid is not None]

    def close(self) -> None:
        """Stop every worker and wait until they are gone (the server is stopping)."""
        if self.pool is not None:
            _stop(self.pool, wait=True)
            self.pool = None
