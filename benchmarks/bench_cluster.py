"""Cluster benchmark: ``divedeck serve`` as 2 processes against 1, on PostgreSQL and Redis, driven by the load
client of the server benchmark; and the failover time when a process is killed.

* **saturation**: R tables of 4 seats with no think time (``load_client.py``, "fast") against ``divedeck serve
  --processes N --db postgresql://… --bus redis://…`` for N = 1 and N = 2 (alternating, ``--rounds`` rounds, a
  fresh database each run). The parent of ``--processes`` hands every socket of a table to the process that owns
  it (server/processes.py), so nothing is relayed. Reported: acked actions a second and the p50/p99 round trip of
  an action, for each N, the ratio of actions a second, and the CPU per action of the servers, PostgreSQL and
  Redis (from /proc, over the measured window).
* **the machine's ceiling**, in the same run: the server benchmark's minimal Starlette server as 1 process and
  as 2 (each on its own port with half the tables and one of the two load clients), under the same load. Its 2/1
  ratio says what this machine gives a second process at all (the load clients, PostgreSQL and Redis share its
  cores).
* **failover** (``--kills K``): three processes; a table played by bots is watched by a spectator connected to a
  process that does not own it; its owner is killed (SIGKILL) and the time from the kill to the first update the
  spectator receives after reconnecting (to any live process) is taken, K times (the killed process is started
  again each time). Reported: p50 and p95.

PostgreSQL and Redis are Debian's, started in temporary folders (tests/services.py) and stopped at the end.

    uv run python benchmarks/bench_cluster.py --quick          # ~2 min smoke run
    uv run python benchmarks/bench_cluster.py --rounds 3 --kills 20 --json cluster.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from array import array
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_server import (  # noqa: E402
    HOST,
    Clients,
    Server,
    free_port,
    percentile,
    start_py_spy,
    summarize_profile,
)
from tests.services import running_postgres, running_redis  # noqa: E402

LIMITS = ["--max-open-tables", "1000000", "--tables-per-minute", "1000000",
          "--open-tables-per-address", "1000000", "--address-messages-per-second", "1000000",
          "--seat-messages-per-second", "1000000", "--messages-per-second", "1000000", "--grace", "600",
          "--sockets-per-address", "1000000"]  # every load client is 127.0.0.1 (more than 25 tables needs this)


class ClusterServer:
    """``divedeck serve --processes N`` (its own process group, killed whole at the end)."""

    def __init__(self, processes: int, database: str, bus: str, log: Path, bot_delay: float = 0.0,
                 lease_seconds: float = 3.0) -> None:
        self.port = free_port()
        self.log = log
        self.command = [sys.executable, "-m", "divedeck.cli", "serve", "--host", HOST, "--port", str(self.port),
                        "--db", database, "--bus", bus, "--processes", str(processes), *LIMITS,
                        "--bot-delay", str(bot_delay), "--lease-seconds", str(lease_seconds)]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ClusterServer:
        import urllib.request

        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(self.command, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT,
                                            start_new_session=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(OSError), urllib.request.urlopen(f"http://{HOST}:{self.port}/api/games",
                                                                      timeout=2):
                return self
            time.sleep(0.1)
        raise RuntimeError("the server did not answer within 90 s")

    def kill(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)


class CpuCaps:
    """Each server process in a CPU cgroup of its own, capped at ``share`` of one core (the Linux CFS quota, over
    a 10 ms period so that a throttled process waits at most a few milliseconds).

    Why: on a 2-core machine the load clients and PostgreSQL share the cores with the servers, so a second
    server process cannot get a core of its own and the 2/1 ratio measures the machine, not the server (see
    benchmarks/README.md). Capping every server process at the same share emulates one core (or part of one)
    per process, with the rest of the machine left to the load and the database: 2 processes then get twice the
    CPU of 1, as on a machine with a core per process, and the ratio says how much of it turns into actions.
    Needs root and the cgroup ``cpu`` controller (v1 or v2)."""

    PERIOD_US = 10_000

    def __init__(self, share: float) -> None:
        self.share = share
        self.groups: list[Path] = []
        v2 = Path("/sys/fs/cgroup")
        if (v2 / "cgroup.controllers").exists() and "cpu" in (v2 / "cgroup.controllers").read_text().split():
            self.root, self.v2 = v2, True
        elif Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").exists():
            self.root, self.v2 = Path("/sys/fs/cgroup/cpu"), False
        else:
            raise SystemExit("--cpu-per-process needs the cgroup cpu controller (mounted at /sys/fs/cgroup)")
        if not os.access(self.root, os.W_OK):
            raise SystemExit("--cpu-per-process needs to write cgroups: run as root")

    def cap(self, pid: int) -> None:
        """Move ``pid`` and its descendants into a new group capped at the share."""
        group = self.root / f"divedeck-bench-{os.getpid()}-{len(self.groups)}"
        group.mkdir()
        self.groups.append(group)
        quota = max(1000, int(self.share * self.PERIOD_US))
        if self.v2:
            (group / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
        else:
            (group / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
        for member in [pid, *descendants(pid)]:
            with contextlib.suppress(OSError):
                (group / "cgroup.procs").write_text(str(member))

    def throttled_seconds(self) -> float:
        """Time the capped processes spent waiting for their quota, summed over the groups."""
        total = 0.0
        for group in self.groups:
            with contextlib.suppress(OSError, ValueError):
                stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
                total += int(stat["throttled_usec"]) / 1e6 if self.v2 else int(stat["throttled_time"]) / 1e9
        return total

    def release(self) -> None:
        """Remove the groups (their processes are gone by now; any left are moved back to the root)."""
        for group in self.groups:
            with contextlib.suppress(OSError):
                for member in (group / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        (self.root / "cgroup.procs").write_text(member)
            for _ in range(50):
                try:
                    group.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)
        self.groups.clear()


def server_processes(root: int) -> list[int]:
    """The processes that serve: ``root`` itself for one process, its spawned children for several (not the
    parent, which only accepts and hands sockets over, nor multiprocessing's resource tracker)."""
    workers = []
    for pid in children(root):
        with contextlib.suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"spawn_main" in command and b"resource_tracker" not in command:
                workers.append(pid)
    return workers or [root]


CLK_TCK = os.sysconf("SC_CLK_TCK")
SATURATION_LEASE = 10.0


def own_cpu(pid: int) -> float:
    """CPU seconds (user + system) of one process alone (all its threads)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    return 0.0


def live_processes() -> dict[int, tuple[int, int]]:
    """Every live process: its parent and its CPU ticks (user + system), from one pass over /proc."""
    table = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            table[int(stat.parent.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    return table


def children(pid: int) -> list[int]:
    return sorted(child for child, (parent, _) in live_processes().items() if parent == pid)


def descendants(root: int, table: dict[int, tuple[int, int]] | None = None) -> list[int]:
    table = live_processes() if table is None else table
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        below = [child for child, (parent, _) in table.items() if parent == pid]
        found.extend(below)
        todo.extend(below)
    return found


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of a live process and its live descendants: a server with its children,
    PostgreSQL with its backends, Redis."""
    table = live_processes()
    return sum(table[pid][1] for pid in [root, *descendants(root, table)] if pid in table) / CLK_TCK


def measure(targets: list[Any], tables: int, seconds: float, seed: int,
            roots: dict[str, int], alone: dict[str, int] | None = None,
            profile: Path | None = None, caps: CpuCaps | None = None) -> dict[str, Any]:
    """Drive ``targets`` (objects with a ``port``), ``tables`` tables split evenly, each with its own load
    client (two in all: two for one target, one each for two), all measured in the same window."""
    deadline = time.time() + seconds + 180
    per_client = 2 if len(targets) == 1 else 1
    with contextlib.ExitStack() as stack:
        groups = [stack.enter_context(Clients(target, tables // len(targets), per_client, "fast", 50.0,  # type: ignore[arg-type]
                                              seed * 10 + number, deadline, False))
                  for number, target in enumerate(targets)]
        for clients in groups:
            clients.collect("ready", 240)
        go = time.time() + 0.3
        t0, t1 = go + 2.0, go + 2.0 + seconds
        for clients in groups:
            clients.send(("go", go, t0, t1))
        client_pids = [process.pid for clients in groups for process in clients.processes]
        alone = alone or {}
        time.sleep(max(0.0, t0 - time.time()))
        profilers = []
        if profile is not None:
            servers = [pid for pid in children(roots["server"]) if Path(f"/proc/{pid}/task").exists()]
            profilers = [(start_py_spy(pid, seconds, profile.with_name(f"{profile.name}-{index}.txt")),
                          profile.with_name(f"{profile.name}-{index}.txt")) for index, pid in enumerate(servers)]
        cpu0 = {name: tree_cpu(sid) for name, sid in roots.items()}
        cpu0 |= {name: own_cpu(pid) for name, pid in alone.items()}
        cpu0["clients"] = sum(own_cpu(pid) for pid in client_pids if pid)
        throttled0 = caps.throttled_seconds() if caps else 0.0
        time.sleep(max(0.0, t1 - time.time()))
        cpu1 = {name: tree_cpu(sid) for name, sid in roots.items()}
        cpu1 |= {name: own_cpu(pid) for name, pid in alone.items()}
        cpu1["clients"] = sum(own_cpu(pid) for pid in client_pids if pid)
        throttled1 = caps.throttled_seconds() if caps else 0.0
        results = [result for clients in groups for result in clients.collect("result", seconds + 90)]
    rtts: list[float] = []
    for result in results:
        values = array("d")
        values.frombytes(result["rtts"])
        rtts.extend(values)
    acked = sum(r["acked"] for r in results)
    run = {"tables": tables, "seconds": seconds, "acked": acked, "actions_per_s": acked / seconds,
           "rtt_p50_ms": percentile(rtts, 0.5), "rtt_p99_ms": percentile(rtts, 0.99)}
    if caps:  # the share of the window the capped processes spent waiting for their quota, summed over them
        run["throttled_fraction"] = (throttled1 - throttled0) / seconds
    for name in cpu0:  # CPU per acknowledged action, microseconds
        run[f"{name}_cpu_us_per_action"] = (cpu1[name] - cpu0[name]) / acked * 1e6 if acked else None
    # The most actions a second these costs allow on this machine's cores, were nothing else running: servers,
    # PostgreSQL, Redis and the load clients all share them (the parent is inside the server's tree).
    spent = sum(value for key, value in run.items() if key.endswith("_cpu_us_per_action") and value
                and key != "parent_cpu_us_per_action")
    run["cpu_bound_actions_per_s"] = (os.cpu_count() or 1) * 1e6 / spent if spent else None
    for profiler, path in profilers:
        if profiler is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                profiler.wait(seconds + 30)
            if path.exists():
                run.setdefault("profiles", []).append(summarize_profile(path))
    return run


def saturation(processes: int, postgres: Any, redis: Any, tables: int, seconds: float, seed: int,
               workdir: Path, profile: Path | None = None, caps: CpuCaps | None = None) -> dict[str, Any]:
    # A long lease: on a busy machine a late renewal would give every table up in the middle of the run (the
    # failover runs keep the default).
    server = ClusterServer(processes, postgres.new_database(), redis.url,
                           workdir / f"sat-{processes}-{seed}.log", lease_seconds=SATURATION_LEASE).start()
    try:
        time.sleep(1.0)
        assert server.process is not None
        if caps:
            for pid in server_processes(server.process.pid):
                caps.cap(pid)
        run = measure([server], tables, seconds, seed, {"server": server.process.pid,
                                                        "postgres": postgres.process.pid,
                                                        "redis": redis.process.pid},
                      alone={"parent": server.process.pid},
                      profile=None if profile is None else profile.with_name(f"{profile.name}-{processes}p-{seed}"),
                      caps=caps)
    finally:
        server.kill()
        if caps:
            caps.release()
    return {"server": "divedeck", "processes": processes, **run}


def minimal_saturation(processes: int, tables: int, seconds: float, seed: int, workdir: Path,
                       caps: CpuCaps | None = None) -> dict[str, Any]:
    """The hardware's ceiling: the minimal server of the server benchmark as ``processes`` processes (each on a
    port of its own with its share of the tables, so that a table's sockets all meet in one process, as divedeck's
    are routed), under the same load clients."""
    with contextlib.ExitStack() as stack:
        if caps:  # last out: after the servers have stopped
            stack.callback(caps.release)
        servers = [stack.enter_context(Server("minimal", workdir)) for _ in range(processes)]
        time.sleep(1.0)
        if caps:
            for server in servers:
                caps.cap(server.pid)
        run = measure(servers, tables, seconds, seed, {f"server{index}": server.pid
                                                       for index, server in enumerate(servers)}, caps=caps)
    cpu = [run.pop(f"server{index}_cpu_us_per_action") for index in range(processes)]
    run["server_cpu_us_per_action"] = sum(cpu) if None not in cpu else None
    return {"server": "minimal", "processes": processes, **run}


async def one_failover(servers: list[ClusterServer], rng: random.Random) -> float:
    """Seconds from killing a table's owner to the first update a spectator on another process gets."""
    import urllib.request

    from websockets.asyncio.client import connect

    maker = rng.choice(servers)
    body = json.dumps({"game": "snorkeling", "options": {},
                       "seats": [{"kind": "bot", "bot": "easy"}] * 4}).encode()
    request = urllib.request.Request(f"http://{HOST}:{maker.port}/api/tables", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        table_id = json.loads(response.read())["table"]["id"]
    others = [server for server in servers if server is not maker]

    async def watch(server: ClusterServer) -> Any:
        ws = await connect(f"ws://{HOST}:{server.port}/ws/tables/{table_id}", open_timeout=10)
        await ws.send(json.dumps({"type": "hello", "protocol": 3, "spectator": True}))
        return ws

    ws = await watch(others[0])
    while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "update":
        pass
    maker.kill()
    killed = time.monotonic()
    with contextlib.suppress(Exception):
        while True:
            await asyncio.wait_for(ws.recv(), 30)
    while True:  # the page reconnects, as client.js does, to any live process
        try:
            ws = await watch(rng.choice(others))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "update":
                    moved = time.monotonic() - killed
                    await ws.close()
                    maker.start()
                    return moved
        except Exception:  # noqa: BLE001 - refused or closed while the table moves: try again
            await asyncio.sleep(0.2)


def failover(postgres: Any, bus: str, kills: int, workdir: Path, seed: int) -> list[float]:
    database = postgres.new_database()
    servers = [ClusterServer(1, database, bus, workdir / f"failover-{index}.log", bot_delay=0.3).start()
               for index in range(3)]
    rng = random.Random(seed)
    try:
        return [asyncio.run(one_failover(servers, rng)) for _ in range(kills)]
    finally:
        for server in servers:
            server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description="divedeck on 2 processes against 1, and its failover time")
    parser.add_argument("--tables", type=int, default=50, help="tables in the saturation phase")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds of each saturation run")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of (1 process, 2 processes)")
    parser.add_argument("--kills", type=int, default=20, help="kills in the failover phase (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-minimal", dest="minimal", action="store_false",
                        help="leave out the minimal server's 1 and 2 processes (the machine's ceiling)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1 round of 10 s, 5 kills")
    parser.add_argument("--json", type=Path, help="write the measurements here too")
    parser.add_argument("--cpu-per-process", type=float, metavar="SHARE",
                        help="cap every server process at this share of one core (a CPU cgroup each, needs root): "
                             "emulates a core per process on a machine with too few for the servers, the load "
                             "clients and PostgreSQL (for instance 0.4)")
    parser.add_argument("--profile", type=Path,
                        help="py-spy every divedeck server process over its window (raw files named from this)")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.kills = 1, 10.0, 5
    load = os.getloadavg()
    runs: list[dict[str, Any]] = []
    caps = CpuCaps(args.cpu_per_process) if args.cpu_per_process else None
    with contextlib.ExitStack() as stack:
        postgres = stack.enter_context(running_postgres())
        redis = stack.enter_context(running_redis())
        workdir = Path(stack.enter_context(__import__("tempfile").TemporaryDirectory(prefix="bench-cluster-")))
        kinds = ["divedeck", *(["minimal"] if args.minimal else [])]
        for round_number in range(args.rounds):
            order = (1, 2) if round_number % 2 == 0 else (2, 1)
            for kind in kinds if round_number % 2 == 0 else kinds[::-1]:
                for processes in order:
                    seed = args.seed + round_number
                    run = (saturation(processes, postgres, redis, args.tables, args.seconds, seed, workdir,
                                      args.profile, caps)
                           if kind == "divedeck" else
                           minimal_saturation(processes, args.tables, args.seconds, seed, workdir, caps))
                    run["round"] = round_number
                    runs.append(run)
                    costs = ", ".join(f"{key.removesuffix('_cpu_us_per_action')} {value:.0f}"
                                      for key, value in run.items() if key.endswith("_cpu_us_per_action") and value)
                    print(f"round {round_number}, {kind}, {processes} process(es): {run['actions_per_s']:.0f} "
                          f"actions/s, p50 {run['rtt_p50_ms'] or 0:.1f} ms, p99 {run['rtt_p99_ms'] or 0:.1f} ms; "
                          f"CPU us/action: {costs}; the cores allow at most "
                          f"{run['cpu_bound_actions_per_s'] or 0:.0f} actions/s at these costs; "
                          + (f"capped at {caps.share:.2f} of a core each, throttled "
                             f"{run['throttled_fraction']:.2f} of the window; " if caps else "") +
                          f"load {os.getloadavg()[0]:.1f}", flush=True)
        times = failover(postgres, redis.url, args.kills, workdir, args.seed) if args.kills else []

    def ratio(kind: str) -> float | None:
        ones = [r for r in runs if r["server"] == kind and r["processes"] == 1]
        twos = [r for r in runs if r["server"] == kind and r["processes"] == 2]
        ratios = [two["actions_per_s"] / one["actions_per_s"] for one, two in zip(ones, twos, strict=True)
                  if one["actions_per_s"]]
        return statistics.median(ratios) if ratios else None

    load_after = os.getloadavg()
    summary = {"load_before": load, "load_after": load_after, "cores": os.cpu_count(), "runs": runs,
               "cpu_per_process": args.cpu_per_process,
               "ratio_2_over_1": ratio("divedeck"), "minimal_ratio_2_over_1": ratio("minimal"), "failover_s": times,
               "failover_p50_s": percentile(times, 0.5), "failover_p95_s": percentile(times, 0.95)}
    print(f"2 processes / 1: {summary['ratio_2_over_1'] or 0:.2f}x actions/s (median of rounds; target >= 1.7x)")
    if args.minimal:
        print(f"minimal server, 2 processes / 1: {summary['minimal_ratio_2_over_1'] or 0:.2f}x actions/s "
              "(the machine's ceiling in the same run)")
    if times:
        print(f"failover over {len(times)} kills: p50 {summary['failover_p50_s']:.2f} s, "
              f"p95 {summary['failover_p95_s']:.2f} s (target p95 <= 5 s)")
    print(f"load average before {load[0]:.1f}, after {load_after[0]:.1f} on {os.cpu_count()} cores")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
