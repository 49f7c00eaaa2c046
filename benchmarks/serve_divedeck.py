"""Diagnostic wrapper around ``divedeck serve``, used by ``bench_server.py --diagnose`` (never for the table).

It runs the real server (same CLI, same settings) with, from the environment:

* ``BENCH_SWITCH_INTERVAL``: another GIL switch interval (``sys.setswitchinterval``), to test whether the storage
  thread and the event loop stall each other;
* ``BENCH_GC_FREEZE=S``: ``gc.freeze()`` every S seconds (as ``minimal_server.py`` does with the same variable);
* ``BENCH_DIAGNOSE=1``: one line on stderr for every garbage-collector pass over 5 ms (``gc.callbacks``), and
  once a second the number, mean and max of the storage waits (the time ``Storage._run`` waited for the writer
  thread: queueing, SQLAlchemy, SQLite and its WAL checkpoints) and the slowest writer batch.

    BENCH_DIAGNOSE=1 uv run python benchmarks/serve_divedeck.py --port 8000 --db sqlite:///x.sqlite3
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from typing import Any

from divedeck.cli import main
from divedeck.server import storage


def _diagnose() -> None:
    started: dict[int, float] = {}

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        elif 0 in started:
            took = (time.perf_counter() - started.pop(0)) * 1000
            if took > 5:
                print(f"diag gc gen{info['generation']} {took:.1f} ms collected {info['collected']}",
                      file=sys.stderr, flush=True)

    gc.callbacks.append(on_gc)
    waits: list[float] = []
    batches: list[float] = []
    original_run = storage.Storage._run

    async def timed_run(self: storage.Storage, work: Any) -> Any:
        start = time.perf_counter()
        try:
            return await original_run(self, work)
        finally:
            waits.append((time.perf_counter() - start) * 1000)

    storage.Storage._run = timed_run  # type: ignore[method-assign]
    original_begin = storage.Storage.__init__

    def init(self: storage.Storage, url: str) -> None:
        original_begin(self, url)
        engine_begin = self.engine.begin

        class Timed:
            def __enter__(self_inner) -> Any:
                self_inner.start = time.perf_counter()
                self_inner.context = engine_begin()
                return self_inner.context.__enter__()

            def __exit__(self_inner, *exc: Any) -> Any:
                try:
                    return self_inner.context.__exit__(*exc)
                finally:
                    batches.append((time.perf_counter() - self_inner.start) * 1000)

        self.engine.begin = Timed  # type: ignore[method-assign]

    storage.Storage.__init__ = init  # type: ignore[method-assign]

    def report() -> None:
        while True:
            time.sleep(1.0)
            done, slow = waits[:], batches[:]
            del waits[:len(done)], batches[:len(slow)]
            if done:
                print(f"diag storage waits n={len(done)} mean={sum(done) / len(done):.1f} ms "
                      f"max={max(done):.1f} ms; batches n={len(slow)} max={max(slow, default=0):.1f} ms",
                      file=sys.stderr, flush=True)

    threading.Thread(target=report, daemon=True).start()


if __name__ == "__main__":
    if os.environ.get("BENCH_SWITCH_INTERVAL"):
        sys.setswitchinterval(float(os.environ["BENCH_SWITCH_INTERVAL"]))
    if os.environ.get("BENCH_DIAGNOSE") == "1":
        _diagnose()
    if os.environ.get("BENCH_GC_FREEZE"):
        from minimal_server import freeze_periodically

        freeze_periodically(float(os.environ["BENCH_GC_FREEZE"]))
    sys.argv = ["divedeck", "serve", *sys.argv[1:]]
    main()
