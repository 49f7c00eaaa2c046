"""Where a run's games are played: in this process, over local worker processes, or over a Ray cluster.

Every game is seeded by its index (``runner.game_seed``), so a chunk of indices may be played anywhere and in any
order: every backend gives the same results for the same run. A backend's ``play`` yields the finished games in
batches as they arrive; ``stop`` ends every worker at once (an interrupted run: what is still being played is
lost, what has arrived is kept); ``close`` lets the workers go after a run that ended normally.

Local workers ignore SIGINT (the parent decides what a Ctrl-C does, whether it reached the process group from a
terminal or the parent alone), take SIGTERM's default (they end), and end on their own within about half a second
when their parent is gone, even if it was killed without a chance to stop them.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import time
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from ..engine.errors import DivedeckError
from .runner import GameResult, SimulationSpec, play_game

Chunk = tuple[int, ...]

# A worker sends what it has finished at least this often (seconds), so that an interrupted run keeps nearly all
# of the games played, and the checkpoint and the progress bar follow the run closely.
FLUSH_SECONDS = 0.25
# How long stopped workers get to end on SIGTERM before they are killed.
STOP_GRACE_SECONDS = 0.5


class Backend(Protocol):
    """Plays chunks of one run's games and yields the finished games as they arrive, in any order."""

    workers: int

    def chunk_size(self, games: int) -> int: ...

    def play(self, spec: SimulationSpec, chunks: Sequence[Chunk]) -> Iterator[list[GameResult]]: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


def chunked(indices: Sequence[int], size: int, workers: int = 1) -> list[Chunk]:
    """``indices`` in chunks of ``size`` at most, shrinking towards the end (to a ``2 * workers``-th of what is
    left), so that the workers finish together: the last chunk of a run is one game, not ``size``."""
    chunks, start = [], 0
    while start < len(indices):
        step = max(1, min(size, (len(indices) - start) // (2 * workers)))
        chunks.append(tuple(indices[start:start + step]))
        start += step
    return chunks


def _play_chunk(spec: SimulationSpec, indices: Chunk) -> list[GameResult]:
    return [play_game(spec, index) for index in indices]


class InProcess:
    """Every game in this process, one after another (``--workers 1``): a Ctrl-C stops the game being played."""

    workers = 1

    def chunk_size(self, games: int) -> int:
        return max(1, games)

    def play(self, spec: SimulationSpec, chunks: Sequence[Chunk]) -> Iterator[list[GameResult]]:
        for chunk in chunks:
            for index in chunk:
                yield [play_game(spec, index)]

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


# --- local worker processes ----------------------------------------------------------------------------------------


def _portable(error: BaseException) -> BaseException:
    """The error itself if it can be sent to the parent, else its description as a RuntimeError."""
    try:
        pickle.dumps(error)
        return error
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")


def _work(tasks: Any, results: Any, parent: int) -> None:
    """A worker's loop: chunks from ``tasks``, finished games to ``results`` every ``FLUSH_SECONDS``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        try:
            task = tasks.get(timeout=0.5)
        except queue.Empty:
            if os.getppid() != parent:  # the parent is gone: nobody will read what we play
                return
            continue
        if task is None:
            return
        run, spec, indices = task
        batch: list[GameResult] = []
        flushed = time.monotonic()
        try:
            for index in indices:
                batch.append(play_game(spec, index))
                if time.monotonic() - flushed >= FLUSH_SECONDS:
                    if os.getppid() != parent:
                        return
                    results.put((run, batch, None))
                    batch, flushed = [], time.monotonic()
        except Exception as error:
            results.put((run, batch, _portable(error)))
            continue
        results.put((run, batch, None))


class LocalProcesses:
    """``workers`` processes on this machine, started at the first run and kept for the next runs of a session."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._context = multiprocessing.get_context()
        self._processes: list[Any] = []
        self._tasks: Any = None
        self._results: Any = None
        self._run = 0

    def chunk_size(self, games: int) -> int:
        # Workers pull chunks as they go, so small chunks balance the load; finished games are sent back every
        # FLUSH_SECONDS whatever the chunk's size.
        return max(1, min(50, games // (self.workers * 8) or 1))

    def _start(self) -> None:
        if self._processes:
            return
        self._tasks, self._results = self._context.Queue(), self._context.Queue()
        # Forked workers inherit the parent's heap: frozen, their garbage collector never walks it (nor touches its
        # pages, which stay shared), as the gc module's documentation advises for fork without exec.
        gc.freeze()
        try:
            for _ in range(self.workers):
                process = self._context.Process(target=_work, args=(self._tasks, self._results, os.getpid()),
                                                daemon=True, name="divedeck-worker")
                process.start()
                self._processes.append(process)
        finally:
            gc.unfreeze()

    def play(self, spec: SimulationSpec, chunks: Sequence[Chunk]) -> Iterator[list[GameResult]]:
        self._start()
        self._run += 1
        run = self._run
        expected = sum(len(chunk) for chunk in chunks)
        for chunk in chunks:
            self._tasks.put((run, spec, chunk))
        received = 0
        while received < expected:
            try:
                sender, batch, error = self._results.get(timeout=0.2)
            except queue.Empty:
                ended = [p for p in self._processes if not p.is_alive()]
                if ended:
                    self.stop()
                    raise DivedeckError(f"a worker process ended unexpectedly (exit code {ended[0].exitcode})"
                                        ) from None
                continue
            if sender != run:
                continue
            received += len(batch)
            if batch:
                yield batch
            if error is not None:
                self.stop()
                raise error

    def stop(self) -> None:
        """End every worker now: SIGTERM, then SIGKILL for any still there after ``STOP_GRACE_SECONDS``."""
        processes, self._processes = self._processes, []
        try:
            for process in processes:
                if process.is_alive():
                    process.terminate()
            deadline = time.monotonic() + STOP_GRACE_SECONDS
            for process in processes:
                process.join(max(0.0, deadline - time.monotonic()))
        finally:  # even when a second Ctrl-C cuts the wait short
            for process in processes:
                if process.is_alive():
                    process.kill()
            for process in processes:
                process.join(1.0)
            self._drop_queues()

    def close(self) -> None:
        if not self._processes:
            return
        for _ in self._processes:
            self._tasks.put(None)
        deadline = time.monotonic() + 2.0
        for process in self._processes:
            process.join(max(0.0, deadline - time.monotonic()))
        self.stop()  # any that did not end

    def _drop_queues(self) -> None:
        # A queue's feeder thread would wait at exit to write into a pipe no worker reads any more: let it go.
        for channel in (self._tasks, self._results):
            if channel is not None:
                channel.cancel_join_thread()
                channel.close()
        self._tasks = self._results = None


# --- Ray -----------------------------------------------------------------------------------------------------------


def _ray() -> Any:
    # Under `uv run`, Ray would pack the current folder and build the environment anew for its workers (slow, and
    # refused outside the project's folder): its workers run the Python that runs divedeck. Read at import.
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    try:
        import ray
    except ImportError:
        raise DivedeckError("--ray needs Ray: install divedeck with its ray extra (pip install 'divedeck[ray]', "
                            "or uv sync --extra ray)") from None
    return ray


class RayCluster:
    """The games fanned out over a Ray cluster: ``address`` is ``auto`` (the cluster this machine belongs to, or
    else a Ray instance of this process's own on this machine, ended with the run) or a cluster's address
    (``ray://host:10001`` or ``host:6379``). A Ray already started in this process (``ray.init``) is used as it
    is. Every node needs the same divedeck installed."""

    def __init__(self, address: str) -> None:
        ray = self._ray = _ray()
        self._owned = False
        if not ray.is_initialized():
            settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                        "logging_level": logging.WARNING}
            try:
                if address == "auto":
                    try:
                        ray.init(address="auto", **settings)
                    except ConnectionError:
                        ray.init(**settings)
                        self._owned = True
                else:
                    ray.init(address=address, **settings)
            except (ConnectionError, ValueError, RuntimeError) as error:
                raise DivedeckError(f"--ray {address}: cannot join that Ray cluster ({error})") from None
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(_play_chunk)
        self._pending: dict[Any, Chunk] = {}

    def chunk_size(self, games: int) -> int:
        # A task costs about a millisecond to schedule: fewer, larger chunks than over local processes.
        return max(1, min(500, games // (self.workers * 4) or 1))

    def play(self, spec: SimulationSpec, chunks: Sequence[Chunk]) -> Iterator[list[GameResult]]:
        ray = self._ray
        shared = ray.put(spec)
        self._pending = {self._remote.remote(shared, chunk): chunk for chunk in chunks}
        while self._pending:
            ready, _ = ray.wait(list(self._pending), num_returns=1, timeout=0.5)
            if ready:
                ready, _ = ray.wait(list(self._pending), num_returns=len(self._pending), timeout=0)
            for ref in ready:
                del self._pending[ref]
                try:
                    batch = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    self.stop()
                    cause = getattr(error, "cause", None)
                    raise (cause if isinstance(cause, DivedeckError) else DivedeckError(str(error))) from None
                yield batch

    def stop(self) -> None:
        pending, self._pending = self._pending, {}
        for ref in pending:
            with contextlib.suppress(Exception):  # already finished, or the cluster is gone
                self._ray.cancel(ref, force=True)
        if self._owned:
            self._ray.shutdown()
            self._owned = False

    def close(self) -> None:
        if self._owned:
            self._ray.shutdown()
            self._owned = False


def local_backend(workers: int | None) -> Backend:
    count = workers or os.cpu_count() or 1
    return InProcess() if count == 1 else LocalProcesses(count)


def make_backend(workers: int | None = None, ray: str | None = None) -> Backend:
    """Ray when ``ray`` names a cluster (``auto`` or an address), else ``workers`` local processes (default: every
    core; 1 plays in this process)."""
    return RayCluster(ray) if ray else local_backend(workers)
