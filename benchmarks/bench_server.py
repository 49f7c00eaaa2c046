"""Server benchmark: ``divedeck serve`` against a minimal Starlette server, driven by the same load client.

Both servers run as real processes on loopback with the same uvicorn settings; the load client
(``load_client.py``, N worker processes) plays tables of 4 websocket seats choosing random legal moves:

* **saturation**: R tables with no think time (a seat acts as soon as it may), for ``--seconds``;
* **capacity**: ``--tables`` tables (default 2,000: 8,000 websockets) opened at a paced rate, first measured
  idle (memory per idle table, all 4 sockets open), then played at a human pace (each action 1-3 s after the
  seat's turn began) for ``--seconds``.

Each phase starts a fresh server process; the two servers alternate (divedeck, minimal, minimal, divedeck, ...)
over ``--rounds`` rounds, and each figure is the median over rounds; each ratio is the median of the per-round
ratios. The server's CPU time (utime + stime of all its threads, ``/proc/<pid>/stat``) and RSS
(``/proc/<pid>/status``) are read by this process at the edges of each measurement window.

    uv run python benchmarks/bench_server.py --quick                                      # ~1 min smoke run
    uv run python benchmarks/bench_server.py --wait-quiet 60 --profile --json server.json  # full run, ~20 min
    uv run python benchmarks/bench_server.py --profile-only     # where the CPU goes (needs: uv pip install py-spy)

Diagnostics (never used for the reported table): ``--diagnose`` logs GC pauses and divedeck's storage waits from
inside the servers (``serve_divedeck.py``), ``--gc-freeze S`` makes both servers call ``gc.freeze()`` every S s,
``--switch-interval S`` changes divedeck's GIL switch interval. See benchmarks/README.md, "Server benchmark".
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import multiprocessing
import os
import platform
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Sequence
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_client import WorkerSpec, raise_fd_limit, worker_process  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HOST = "127.0.0.1"
CLK_TCK = os.sysconf("SC_CLK_TCK")

# Targets from the issue.
CPU_RATIO_TARGET = 2.0  # divedeck CPU per action / minimal's, at most
ISSUE_24_CPU_RATIO_TARGET = 1.5  # the same, one process at saturation, as issue 24 asks
MEMORY_RATIO_TARGET = 1.5  # divedeck memory per idle table / minimal's, at most
CAPACITY_TABLES_TARGET = 2000
CAPACITY_P99_TARGET_MS = 100.0

SERVERS = ("divedeck", "minimal")


# --- the server process -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _server_limits() -> None:  # runs in the child before exec
    raise_fd_limit()


class Server:
    """One server process on a free loopback port; always killed on exit, also on errors."""

    def __init__(self, kind: str, workdir: Path, minimal_views: str = "snorkeling",
                 switch_interval: float | None = None, diagnose: bool = False,
                 gc_freeze: float | None = None) -> None:
        self.kind = kind
        self.minimal_views = minimal_views
        self.port = free_port()
        self.workdir = workdir
        self.log_path = workdir / f"{kind}-{self.port}.log"
        if kind == "divedeck":
            db = f"sqlite:///{workdir / f'bench-{self.port}.sqlite3'}"
            self.command = [sys.executable, "-m", "divedeck.cli", "serve", "--host", HOST, "--port", str(self.port),
                            "--db", db, "--bot-delay", "0",
                            # every load client comes from 127.0.0.1: lift the per-address and per-server limits
                            # meant for strangers (docs/server.md), which would refuse the benchmark's tables; and
                            # the message rates of a socket and a seat, as bench_cluster.py does: at saturation a
                            # load client's seat acts about 25 times a second, faster than any person, and every
                            # refusal is work for no action (each message is still checked against the rates)
                            "--max-open-tables", "1000000", "--tables-per-minute", "1000000",
                            "--open-tables-per-address", "1000000", "--address-messages-per-second", "1000000",
                            "--seat-messages-per-second", "1000000", "--messages-per-second", "1000000",
                            "--sockets-per-address", "1000000"]
            self.diagnostics = {}
            if switch_interval is not None or diagnose or gc_freeze:  # diagnostic runs only: instrumented
                self.command[1:4] = [str(HERE / "serve_divedeck.py")]
                if gc_freeze:
                    self.diagnostics["BENCH_GC_FREEZE"] = str(gc_freeze)
                if switch_interval is not None:
                    self.diagnostics["BENCH_SWITCH_INTERVAL"] = str(switch_interval)
                if diagnose:
                    self.diagnostics["BENCH_DIAGNOSE"] = "1"
        else:
            self.command = [sys.executable, str(HERE / "minimal_server.py"), "--host", HOST, "--port",
                            str(self.port)]
            self.diagnostics = {"BENCH_DIAGNOSE": "1"} if diagnose else {}
            if gc_freeze:
                self.diagnostics["BENCH_GC_FREEZE"] = str(gc_freeze)
        self.process: subprocess.Popen[bytes] | None = None
        self.keep_log: Path | None = None

    def __enter__(self) -> Server:
        log = self.log_path.open("wb")
        env = {**os.environ, "MINIMAL_VIEWS": self.minimal_views, **getattr(self, "diagnostics", {})}
        self.process = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env,
                                        preexec_fn=_server_limits)
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} server exited at start: {self.log_path.read_text()[-2000:]}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), timeout=0.5):
                return self
            time.sleep(0.1)
        raise RuntimeError(f"{self.kind} server did not listen within 30 s")

    def __exit__(self, *_: object) -> None:
        self.kill()
        if getattr(self, "diagnostics", None) and self.keep_log is not None:
            shutil.copy(self.log_path, self.keep_log)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def cpu(self) -> float:
        """Seconds of CPU (user + system) used by the whole process so far."""
        return sum(self.cpu_split())

    def cpu_split(self) -> tuple[float, float]:
        """Seconds of CPU used so far in user mode (Python, the libraries) and in the kernel (system calls:
        the sockets' writes and reads, the database's file writes)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK

    def thread_cpu(self) -> dict[int, float]:
        """CPU seconds per thread id (the event loop's thread has the process id)."""
        result = {}
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                result[int(task.name)] = (int(fields[11]) + int(fields[12])) / CLK_TCK
        return result

    def thread_waits(self) -> dict[int, float]:
        """Seconds each thread spent runnable but waiting for a CPU (``/proc/<pid>/task/<tid>/schedstat``)."""
        result = {}
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                result[int(task.name)] = int((task / "schedstat").read_text().split()[1]) / 1e9
        return result

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    total = sum(fields[:8])
    return total - idle, total


def wait_quiet(limit_seconds: float, threshold_percent: float) -> float:
    """Wait (at most ``limit_seconds``) until the machine is nearly idle before a phase: other people's processes
    share these 2 cores. Returns the busy percent (of one core) of the last 2-second look."""
    deadline = time.monotonic() + limit_seconds
    while True:
        b0, t0 = machine_cpu()
        time.sleep(2.0)
        b1, t1 = machine_cpu()
        busy = 100 * (b1 - b0) / max(1, t1 - t0) * (os.cpu_count() or 1)
        if busy <= threshold_percent or time.monotonic() >= deadline:
            return busy


def sleep_until(moment: float) -> None:
    while True:
        left = moment - time.time()
        if left <= 0:
            return
        time.sleep(min(left, 0.5))


# --- one phase ----------------------------------------------------------------------------------------------


class Clients:
    """N load-client processes, each with its share of the tables; always ended on exit."""

    def __init__(self, server: Server, tables: int, processes: int, mode: str, ramp: float, seed: int,
                 deadline: float, deflate: bool) -> None:
        context = multiprocessing.get_context("fork")
        self.pipes = []
        self.processes = []
        processes = max(1, min(processes, tables))
        for number in range(processes):
            share = tables // processes + (1 if number < tables % processes else 0)
            spec = WorkerSpec(worker=number, host=HOST, port=server.port, tables=share, seed=seed * 1000 + number,
                              mode=mode, ramp=ramp / processes, deadline=deadline, deflate=deflate)
            parent, child = context.Pipe()
            process = context.Process(target=worker_process, args=(child, spec), daemon=True)
            process.start()
            child.close()
            self.pipes.append(parent)
            self.processes.append(process)

    def collect(self, kind: str, timeout: float) -> list[dict[str, Any]]:
        answers: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        for pipe in self.pipes:
            left = max(0.0, deadline - time.monotonic())
            if not pipe.poll(left):
                raise RuntimeError(f"a load client did not report {kind!r} within {timeout:.0f} s")
            message = pipe.recv()
            if message[0] == "failed":
                raise RuntimeError(f"a load client failed: {message[1]}")
            if message[0] != kind:
                raise RuntimeError(f"a load client said {message[0]!r}, expected {kind!r}")
            answers.append(message[1])
        return answers

    def send(self, message: tuple[Any, ...]) -> None:
        for pipe in self.pipes:
            pipe.send(message)

    def __enter__(self) -> Clients:
        return self

    def __exit__(self, *_: object) -> None:
        for process in self.processes:
            process.join(5)
        for process in self.processes:
            if process.is_alive():
                process.kill()
                process.join(5)
        for pipe in self.pipes:
            pipe.close()


def percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def warm_up(server: Server, seed: int) -> None:
    """Two tables played for a second, so lazy imports and first-use caches are not counted as per-table cost."""
    start = time.time()
    with Clients(server, 2, 1, "fast", 50.0, seed, start + 30, False) as clients:
        clients.collect("ready", 20)
        clients.send(("go", time.time(), time.time(), time.time() + 1.0))
        clients.collect("result", 20)


def run_phase(kind: str, phase: str, tables: int, seconds: float, args: argparse.Namespace, round_number: int,
              workdir: Path, profile: Path | None = None) -> dict[str, Any]:
    mode = "fast" if phase == "saturation" else "human"
    warm = 2.0 if mode == "fast" else 5.0  # seconds of play before the window opens
    seed = args.seed + round_number * 7919 + (0 if kind == "divedeck" else 1)
    ramp_seconds = tables / args.ramp
    quiet = wait_quiet(args.wait_quiet, args.quiet_percent) if args.wait_quiet > 0 else None
    with Server(kind, workdir, args.minimal_views, args.switch_interval, args.diagnose, args.gc_freeze) as server:
        if args.json:
            server.keep_log = args.json.with_name(f"{args.json.stem}.{kind}-{phase}-{round_number}.log")
        warm_up(server, seed + 5)
        time.sleep(1.0)
        rss0, cpu0 = server.rss_kb(), server.cpu()
        deadline = time.time() + ramp_seconds * 3 + 60 + warm + seconds + 30
        processes = args.clients if tables > 50 else 1 if tables <= 8 else args.clients
        with Clients(server, tables, processes, mode, args.ramp, seed, deadline, args.deflate) as clients:
            ready = clients.collect("ready", ramp_seconds * 3 + 60)
            opened = sum(r["tables"] for r in ready)
            time.sleep(args.settle)
            rss1, cpu1 = server.rss_kb(), server.cpu()
            go = time.time() + 0.3
            t0, t1 = go + warm, go + warm + seconds
            clients.send(("go", go, t0, t1))
            profiler = None
            if profile is not None:
                sleep_until(t0)
                profiler = start_py_spy(server.pid, seconds, profile)
            sleep_until(t0)
            (u0, k0), th0, m0, w0 = server.cpu_split(), server.thread_cpu(), machine_cpu(), server.thread_waits()
            sleep_until(t1)
            (u1, k1), th1, m1, w1 = server.cpu_split(), server.thread_cpu(), machine_cpu(), server.thread_waits()
            c0, c1 = u0 + k0, u1 + k1
            rss2 = server.rss_kb()
            results = clients.collect("result", 60)
            if profiler is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    profiler.wait(30)
    rtts: list[float] = []
    lags: list[float] = []
    counts: collections.Counter[str] = collections.Counter()
    errors: collections.Counter[str] = collections.Counter()
    for result in results:
        values = array("d")
        values.frombytes(result["rtts"])
        rtts.extend(values)
        values = array("d")
        values.frombytes(result["lags"])
        lags.extend(values)
        counts.update(result["counts"])
        errors.update(result["errors"])
    for answer in ready:
        errors.update(answer["errors"])
    acked = sum(r["acked"] for r in results)
    updates = sum(r["updates"] for r in results)
    loop_thread = th1.get(server.pid, 0.0) - th0.get(server.pid, 0.0)
    other_threads = sum(v - th0.get(t, 0.0) for t, v in th1.items() if t != server.pid)
    busy = (m1[0] - m0[0]) / max(1, m1[1] - m0[1])
    client_cpu = sum(r["client_cpu_s"] or 0.0 for r in results)
    server_cpu = c1 - c0
    return {
        "server": kind, "phase": phase, "round": round_number, "busy_before_percent": quiet,
        "tables": tables, "tables_opened": opened,
        "client_processes": len(results), "seconds": seconds, "acked": acked,
        "actions_per_s": acked / seconds,
        "rtt_p50_ms": percentile(rtts, 0.50), "rtt_p99_ms": percentile(rtts, 0.99),
        "rtt_max_ms": max(rtts) if rtts else None,
        # how late the load clients' own event loops ran (sampled every 20 ms): part of any round trip
        "client_lag_p99_ms": percentile(lags, 0.99), "client_lag_max_ms": max(lags) if lags else None,
        "cpu_us_per_action": server_cpu / acked * 1e6 if acked else None,
        "loop_thread_us_per_action": loop_thread / acked * 1e6 if acked else None,
        # the same CPU split into user mode (Python) and the kernel (system calls, mostly the sockets' writes)
        "user_us_per_action": (u1 - u0) / acked * 1e6 if acked else None,
        "kernel_us_per_action": (k1 - k0) / acked * 1e6 if acked else None,
        "other_threads_us_per_action": other_threads / acked * 1e6 if acked else None,
        "server_cpu_percent": 100 * server_cpu / seconds,
        # share of the window the event loop's thread was ready to run but had no CPU (other processes, the
        # load clients, the server's own other threads): a starved loop shows up as latency, not as CPU time
        "loop_runqueue_wait_percent": 100 * (w1.get(server.pid, 0.0) - w0.get(server.pid, 0.0)) / seconds,
        "client_cpu_percent": 100 * client_cpu / seconds,
        "machine_busy_percent": 100 * busy * (os.cpu_count() or 1),  # of one core: 200 = both cores busy
        # what neither the server nor the load clients used: other people's processes (and this one, ~0)
        "others_cpu_percent": 100 * busy * (os.cpu_count() or 1) - 100 * (server_cpu + client_cpu) / seconds,
        "rss_base_kb": rss0, "rss_idle_kb": rss1, "rss_end_kb": rss2,
        "memory_kb_per_idle_table": (rss1 - rss0) / opened if opened else None,
        "setup_cpu_us_per_table": (cpu1 - cpu0) / opened * 1e6 if opened else None,
        "ramp_seconds": max(r["seconds"] for r in ready),
        "update_bytes_mean": sum(r["update_bytes"] for r in results) / updates if updates else None,
        "counts": dict(counts), "errors": dict(errors.most_common(10)),
    }


# --- profiling (py-spy, when installed) ---------------------------------------------------------------------


# --profile-gil: sample only the thread holding the GIL, so that the shares are of Python's CPU, not of wall time
# (py-spy counts a thread blocked in C, such as the storage thread waiting for work, as busy).
PROFILE_GIL = False


def start_py_spy(pid: int, seconds: float, output: Path) -> subprocess.Popen[bytes] | None:
    exe = shutil.which("py-spy") or (str(Path(sys.executable).parent / "py-spy")
                                     if (Path(sys.executable).parent / "py-spy").exists() else None)
    if exe is None:
        print("py-spy is not installed (uv pip install py-spy): no profile", file=sys.stderr)
        return None
    return subprocess.Popen([exe, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "200",
                             "--format", "raw", "--threads", "--nonblocking", "--output", str(output),
                             *(["--gil"] if PROFILE_GIL else [])],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")


def summarize_profile(path: Path, top: int = 25) -> dict[str, Any]:
    """Self and inclusive sample shares by function, and a few coarse buckets, from py-spy's raw output."""
    self_counts: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    buckets: collections.Counter[str] = collections.Counter()
    threads: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = stack.split(";")
        thread = frames[0] if frames and frames[0].startswith("thread") else "?"
        frames = [f for f in frames if not f.startswith(("thread", "process"))]
        names = []
        for frame in frames:
            match = FRAME.match(frame)
            if match:
                file = match.group("file")
                short = re.sub(r".*/(site-packages|src)/", "", file)
                names.append(f"{match.group('func')} ({short})")
            else:
                names.append(frame)
        total += count
        threads[thread] += count
        if names:
            self_counts[names[-1]] += count
        for name in set(names):
            inclusive[name] += count
        buckets[_bucket(names)] += count
    def share(counter: collections.Counter[str]) -> list[tuple[str, float]]:
        return [(name, 100 * n / total) for name, n in counter.most_common(top)] if total else []
    return {"samples": total, "self": share(self_counts), "inclusive": share(inclusive), "buckets": share(buckets),
            "threads": share(threads)}


def _bucket(names: list[str]) -> str:
    """A coarse owner for one sample: the innermost recognisable layer."""
    joined = " ".join(names)
    rules = [
        ("storage thread: SQLAlchemy + sqlite (group commit)", ("_work (divedeck/server/storage.py",)),
        ("engine: views (game.view)", ("view (divedeck/games",)),
        ("engine: legal actions + format", ("legal_actions (divedeck/games", "format_action (divedeck/games")),
        ("engine: check/apply/outcome", ("apply (divedeck/", "check (divedeck/", "outcome (divedeck/",
                                         "act (divedeck/engine/match.py")),
        ("events for_seat", ("for_seat (divedeck/engine/events.py",)),
        ("json encode/decode", ("dumps (json/", "loads (json/", "encode (json/", "decode (json/")),
        ("public table dict", ("public (divedeck/server/table.py",)),
        ("websocket send (uvicorn/websockets)", ("send (uvicorn/", "send_text (starlette/", "_send_loop (divedeck")),
        ("websocket receive (uvicorn/websockets)", ("receive (uvicorn/", "receive (starlette/",
                                                    "data_received (uvicorn", "read_message (websockets")),
        ("asyncio / uvloop scheduling", ("run_forever", "_run_once", "run (asyncio/events.py")),
    ]
    for label, needles in rules:
        if any(needle in joined for needle in needles):
            return label
    return "other: " + (names[-1] if names else "?")


# --- reporting ----------------------------------------------------------------------------------------------


def median(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def spread(values: Sequence[float | None]) -> tuple[float, float] | None:
    present = [v for v in values if v is not None]
    return (min(present), max(present)) if present else None


METRICS = ["actions_per_s", "rtt_p50_ms", "rtt_p99_ms", "client_lag_p99_ms", "cpu_us_per_action",
           "loop_thread_us_per_action", "user_us_per_action", "kernel_us_per_action",
           "other_threads_us_per_action", "server_cpu_percent", "loop_runqueue_wait_percent", "client_cpu_percent",
           "machine_busy_percent", "others_cpu_percent",
           "memory_kb_per_idle_table", "setup_cpu_us_per_table", "update_bytes_mean", "rss_end_kb"]


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for phase in ("saturation", "capacity"):
        for kind in SERVERS:
            mine = [r for r in runs if r["phase"] == phase and r["server"] == kind]
            if mine:
                summary[f"{phase}/{kind}"] = {m: {"median": median([r[m] for r in mine]),
                                                  "range": spread([r[m] for r in mine])} for m in METRICS}
        ratios: dict[str, list[float]] = collections.defaultdict(list)
        for number in sorted({r["round"] for r in runs if r["phase"] == phase}):
            pair = {r["server"]: r for r in runs if r["phase"] == phase and r["round"] == number}
            if len(pair) < 2:
                continue
            for metric in ("cpu_us_per_action", "memory_kb_per_idle_table", "actions_per_s"):
                a, b = pair["divedeck"][metric], pair["minimal"][metric]
                if a is not None and b:
                    ratios[metric].append(a / b)
        summary[f"{phase}/ratios"] = {m: {"median": median(v), "range": spread(v)} for m, v in ratios.items()}
    return summary


def fmt(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "n/a"
    return f"{value:,.{digits}f}"


def fmt_range(entry: dict[str, Any], digits: int = 0) -> str:
    value, rng = entry["median"], entry["range"]
    if value is None:
        return "n/a"
    if rng is None or rng[0] == rng[1]:
        return fmt(value, digits)
    return f"{fmt(value, digits)} ({fmt(rng[0], digits)}–{fmt(rng[1], digits)})"


def report(summary: dict[str, Any], runs: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = []
    header = ("| phase | server | tables | actions/s | RTT p50 ms | RTT p99 ms | server CPU µs/action (loop + other "
              "threads) | user + kernel µs/action | server CPU % | loop waits for a CPU % | clients CPU % | "
              "others' CPU % | KB per idle table | update bytes |")
    lines += [header, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for phase, tables in (("saturation", args.sat_tables), ("capacity", args.tables)):
        for kind in SERVERS:
            s = summary.get(f"{phase}/{kind}")
            if s is None:
                continue
            opened = [r["tables_opened"] for r in runs if r["phase"] == phase and r["server"] == kind]
            shown = f"{min(opened):,}" if min(opened) == tables else f"{min(opened):,} of {tables:,}"
            split = (f"{fmt(s['cpu_us_per_action']['median'])} ({fmt(s['loop_thread_us_per_action']['median'])} + "
                     f"{fmt(s['other_threads_us_per_action']['median'])})")
            lines.append(
                f"| {phase} | {kind} | {shown} | {fmt_range(s['actions_per_s'])} | {fmt_range(s['rtt_p50_ms'], 1)} | "
                f"{fmt_range(s['rtt_p99_ms'], 1)} | {split} | {fmt(s['user_us_per_action']['median'])} + "
                f"{fmt(s['kernel_us_per_action']['median'])} | {fmt(s['server_cpu_percent']['median'])} | "
                f"{fmt(s['loop_runqueue_wait_percent']['median'])} | "
                f"{fmt(s['client_cpu_percent']['median'])} | {fmt(s['others_cpu_percent']['median'])} | "
                f"{fmt_range(s['memory_kb_per_idle_table'], 1) if phase == 'capacity' else '—'} | "
                f"{fmt(s['update_bytes_mean']['median'])} |")
    lines.append("")
    lines += ["| ratio | measured | target | result |", "|---|--:|--:|---|"]
    sat = summary.get("saturation/ratios", {}).get("cpu_us_per_action")
    cap = summary.get("capacity/ratios", {}).get("cpu_us_per_action")
    mem = summary.get("capacity/ratios", {}).get("memory_kb_per_idle_table")

    def ratio_line(label: str, entry: dict[str, Any] | None, target: float) -> str:
        if entry is None or entry["median"] is None:
            return f"| {label} | n/a | ≤ {target:g}x | n/a |"
        verdict = "**PASS**" if entry["median"] <= target else "**MISS**"
        rng = entry["range"]
        shown = f"**{entry['median']:.2f}x**" + (f" ({rng[0]:.2f}–{rng[1]:.2f})" if rng and rng[0] != rng[1] else "")
        return f"| {label} | {shown} | ≤ {target:g}x | {verdict} |"

    lines.append(ratio_line("server CPU per action, divedeck / minimal (saturation)", sat, CPU_RATIO_TARGET))
    lines.append(ratio_line("server CPU per action, divedeck / minimal (saturation), issue 24's target", sat,
                            ISSUE_24_CPU_RATIO_TARGET))
    lines.append(ratio_line("server CPU per action, divedeck / minimal (human pace)", cap, CPU_RATIO_TARGET))
    lines.append(ratio_line("memory per idle table, divedeck / minimal", mem, MEMORY_RATIO_TARGET))
    capacity = [r for r in runs if r["phase"] == "capacity" and r["server"] == "divedeck"]
    if capacity:
        worst = max((r["rtt_p99_ms"] or float("inf")) for r in capacity)
        fewest = min(r["tables_opened"] for r in capacity)
        ok = fewest >= CAPACITY_TABLES_TARGET and worst < CAPACITY_P99_TARGET_MS
        lines.append(f"| human pace: {fewest:,} divedeck tables ({4 * fewest:,} websockets), worst p99 over rounds | "
                     f"{fmt(worst, 1)} ms | {CAPACITY_TABLES_TARGET:,} tables, p99 < {CAPACITY_P99_TARGET_MS:g} ms | "
                     f"{'**PASS**' if ok else '**MISS**'} |")
    return "\n".join(lines)


def report_profile(profile: dict[str, Any]) -> str:
    lines = [f"py-spy, {profile['samples']} samples (all threads, idle excluded)", "", "buckets (innermost layer):"]
    lines += [f"  {share:5.1f}%  {name}" for name, share in profile["buckets"]]
    lines += ["", "threads:"] + [f"  {share:5.1f}%  {name}" for name, share in profile["threads"]]
    lines += ["", "self time, top functions:"] + [f"  {share:5.1f}%  {name}" for name, share in profile["self"]]
    lines += ["", "inclusive, top functions:"] + [f"  {share:5.1f}%  {name}" for name, share in profile["inclusive"]]
    return "\n".join(lines)


def machine_info() -> dict[str, Any]:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    versions = {}
    for package in ("uvicorn", "websockets", "starlette", "fastapi", "sqlalchemy", "uvloop", "httptools"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[package] = metadata.version(package)
    commit = ""
    with contextlib.suppress(Exception):
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                timeout=10).stdout.strip()
    return {"date": datetime.now().isoformat(timespec="seconds"), "cpu": model, "cpus": os.cpu_count(),
            "kernel": platform.release(), "python": platform.python_version(), "versions": versions,
            "commit": commit, "loadavg_before": os.getloadavg()}


# --- main ---------------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description="divedeck server benchmark against a minimal Starlette server")
    parser.add_argument("--tables", type=int, default=2000, help="tables in the capacity phase (4 sockets each)")
    parser.add_argument("--sat-tables", type=int, default=50, help="tables in the saturation phase (R)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measurement window of each phase")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the saturation phase")
    parser.add_argument("--capacity-rounds", type=int, default=2, help="interleaved rounds of the capacity phase")
    parser.add_argument("--clients", type=int, default=2, help="load-client processes")
    parser.add_argument("--ramp", type=float, default=100.0, help="new tables a second while ramping up (all clients)")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds between the ramp and the idle RSS reading")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--wait-quiet", type=float, default=0.0,
                        help="before each phase wait up to this many seconds for the machine to be nearly idle")
    parser.add_argument("--quiet-percent", type=float, default=40.0,
                        help="'nearly idle': at most this busy percent of one core over 2 s")
    parser.add_argument("--deflate", action="store_true", help="clients offer permessage-deflate, as browsers do")
    parser.add_argument("--minimal-views", choices=("snorkeling", "tiny"), default="snorkeling",
                        help="the minimal server's views: about divedeck's size (default), or 4 fields")
    parser.add_argument("--servers", default="divedeck,minimal", help="comma-separated: divedeck,minimal")
    parser.add_argument("--switch-interval", type=float, default=None,
                        help="diagnostic: run divedeck with this sys.setswitchinterval (seconds)")
    parser.add_argument("--diagnose", action="store_true",
                        help="diagnostic: log divedeck's GC pauses and storage waits (serve_divedeck.py); the logs "
                             "are copied next to --json")
    parser.add_argument("--gc-freeze", type=float, default=None,
                        help="diagnostic: both servers call gc.freeze() every this many seconds")
    parser.add_argument("--phases", default="saturation,capacity", help="comma-separated: saturation,capacity")
    parser.add_argument("--profile", action="store_true",
                        help="after the phases, one more divedeck saturation run under py-spy")
    parser.add_argument("--profile-only", action="store_true", help="only the py-spy run")
    parser.add_argument("--profile-gil", action="store_true",
                        help="profile only the thread holding the GIL (Python's CPU rather than wall time)")
    parser.add_argument("--json", type=Path, help="write every run and the summary here")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.sat_tables, args.seconds = min(args.tables, 100), min(args.sat_tables, 10), 5.0
        args.rounds, args.capacity_rounds, args.settle = 1, 1, 1.0
    raise_fd_limit()
    need = 4 * args.tables + 1000
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < need // max(1, args.clients):
        print(f"warning: the open-file limit may be too low for {args.tables} tables", file=sys.stderr)
    info = machine_info()
    print(f"{info['date']}  {info['cpus']} CPUs ({info['cpu']}), Linux {info['kernel']}, Python {info['python']}, "
          f"load average before {info['loadavg_before'][0]:.2f}", flush=True)
    runs: list[dict[str, Any]] = []
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    servers = tuple(k for k in SERVERS if k in args.servers.split(","))
    with tempfile.TemporaryDirectory(prefix="divedeck-bench-") as tmp:
        workdir = Path(tmp)
        plan: list[tuple[str, str, int, int]] = []
        if not args.profile_only:
            if "saturation" in phases:
                for number in range(args.rounds):
                    order = servers if number % 2 == 0 else servers[::-1]
                    plan += [("saturation", kind, args.sat_tables, number) for kind in order]
            if "capacity" in phases:
                for number in range(args.capacity_rounds):
                    order = servers if number % 2 == 0 else servers[::-1]
                    plan += [("capacity", kind, args.tables, number) for kind in order]
        for phase, kind, tables, number in plan:
            started = time.time()
            run = run_phase(kind, phase, tables, args.seconds, args, number, workdir)
            runs.append(run)
            print(f"{phase:10} round {number} {kind:8}: {run['tables_opened']:>5} tables, "
                  f"{run['actions_per_s']:8.0f} actions/s, RTT p50 {fmt(run['rtt_p50_ms'], 1)} ms "
                  f"p99 {fmt(run['rtt_p99_ms'], 1)} ms (client lag p99 {fmt(run['client_lag_p99_ms'], 1)} ms), "
                  f"CPU {fmt(run['cpu_us_per_action'])} µs/action "
                  f"(loop {fmt(run['loop_thread_us_per_action'])}; user {fmt(run['user_us_per_action'])} + "
                  f"kernel {fmt(run['kernel_us_per_action'])}), "
                  f"idle {fmt(run['memory_kb_per_idle_table'], 1)} KB/table, server {run['server_cpu_percent']:.0f}% "
                  f"clients {run['client_cpu_percent']:.0f}% others {run['others_cpu_percent']:.0f}% "
                  f"loop-wait {run['loop_runqueue_wait_percent']:.0f}%, "
                  f"busy before {fmt(run['busy_before_percent'])}%, "
                  f"{run['counts']} {run['errors'] or ''} [{time.time() - started:.0f} s]", flush=True)
        profiles = {}
        global PROFILE_GIL
        PROFILE_GIL = args.profile_gil
        if args.profile or args.profile_only:
            for kind in servers:
                output = workdir / f"py-spy-{kind}.txt"
                run = run_phase(kind, "saturation", args.sat_tables, args.seconds, args, 99, workdir, profile=output)
                print(f"profiled {kind}: {run['actions_per_s']:.0f} actions/s, CPU {fmt(run['cpu_us_per_action'])} "
                      f"µs/action (loop {fmt(run['loop_thread_us_per_action'])})", flush=True)
                if output.exists() and output.stat().st_size:
                    profiles[kind] = summarize_profile(output)
                    profiles[kind]["run"] = {k: run[k] for k in ("actions_per_s", "cpu_us_per_action",
                                                                 "loop_thread_us_per_action", "acked")}
                    print(f"--- {kind} ---")
                    print(report_profile(profiles[kind]), flush=True)
                    if args.json:
                        shutil.copy(output, args.json.with_name(f"{args.json.stem}.py-spy-{kind}.txt"))
    summary = summarize(runs) if runs else {}
    if runs:
        print()
        print(report(summary, runs, args))
    if args.json:
        args.json.write_text(json.dumps({"machine": info, "args": {k: str(v) for k, v in vars(args).items()},
                                         "runs": runs, "summary": summary, "profiles": profiles},
                                        indent=1, default=str))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the servers are killed by the with-blocks
    main()
