"""Cluster benchmark: ``divedeck serve`` as 2 processes against 1, on PostgreSQL and Redis, driven by the load
client of the server benchmark; and the failover time when a process is killed.

* **saturation**: R tables of 4 seats with no think time (``load_client.py``, "fast") against ``divedeck serve
  --processes N --db postgresql://… --bus redis://…`` for N = 1 and N = 2 (alternating, ``--rounds`` rounds, a
  fresh database each run). The kernel hands each socket to either process, so with 2 processes about half the
  sockets of a table reach the process that does not own it and are relayed through the bus. Reported: acked
  actions a second and the p50/p99 round trip of an action, for each N, and the ratio of actions a second.
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

from bench_server import HOST, Clients, free_port, percentile  # noqa: E402
from tests.services import running_postgres, running_redis  # noqa: E402

LIMITS = ["--max-open-tables", "1000000", "--tables-per-minute", "1000000",
          "--open-tables-per-address", "1000000", "--address-messages-per-second", "1000000",
          "--seat-messages-per-second", "1000000", "--messages-per-second", "1000000", "--grace", "600"]


class ClusterServer:
    """``divedeck serve --processes N`` (its own process group, killed whole at the end)."""

    def __init__(self, processes: int, database: str, bus: str, log: Path, bot_delay: float = 0.0) -> None:
        self.port = free_port()
        self.log = log
        self.command = [sys.executable, "-m", "divedeck.cli", "serve", "--host", HOST, "--port", str(self.port),
                        "--db", database, "--bus", bus, "--processes", str(processes), *LIMITS,
                        "--bot-delay", str(bot_delay)]
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


def saturation(processes: int, postgres: Any, bus: str, tables: int, seconds: float, seed: int,
               workdir: Path) -> dict[str, Any]:
    server = ClusterServer(processes, postgres.new_database(), bus, workdir / f"sat-{processes}-{seed}.log").start()
    try:
        time.sleep(1.0)
        with Clients(server, tables, min(2, tables), "fast", 50.0, seed, time.time() + seconds + 180,  # type: ignore[arg-type]
                     False) as clients:
            clients.collect("ready", 120)
            go = time.time() + 0.3
            t0, t1 = go + 2.0, go + 2.0 + seconds
            clients.send(("go", go, t0, t1))
            results = clients.collect("result", seconds + 90)
    finally:
        server.kill()
    rtts: list[float] = []
    for result in results:
        values = array("d")
        values.frombytes(result["rtts"])
        rtts.extend(values)
    acked = sum(r["acked"] for r in results)
    return {"processes": processes, "tables": tables, "seconds": seconds, "acked": acked,
            "actions_per_s": acked / seconds, "rtt_p50_ms": percentile(rtts, 0.5),
            "rtt_p99_ms": percentile(rtts, 0.99)}


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
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1 round of 10 s, 5 kills")
    parser.add_argument("--json", type=Path, help="write the measurements here too")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.kills = 1, 10.0, 5
    load = os.getloadavg()
    runs: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        postgres = stack.enter_context(running_postgres())
        redis = stack.enter_context(running_redis())
        workdir = Path(stack.enter_context(__import__("tempfile").TemporaryDirectory(prefix="bench-cluster-")))
        for round_number in range(args.rounds):
            order = (1, 2) if round_number % 2 == 0 else (2, 1)
            for processes in order:
                run = saturation(processes, postgres, redis.url, args.tables, args.seconds,
                                 args.seed + round_number, workdir)
                run["round"] = round_number
                runs.append(run)
                print(f"round {round_number}, {processes} process(es): {run['actions_per_s']:.0f} actions/s, "
                      f"p50 {run['rtt_p50_ms'] or 0:.1f} ms, p99 {run['rtt_p99_ms'] or 0:.1f} ms", flush=True)
        times = failover(postgres, redis.url, args.kills, workdir, args.seed) if args.kills else []
    ratios = [two["actions_per_s"] / one["actions_per_s"] for one, two in
              zip([r for r in runs if r["processes"] == 1], [r for r in runs if r["processes"] == 2], strict=True)
              if one["actions_per_s"]]
    summary = {"load_before": load, "load_after": os.getloadavg(), "cores": os.cpu_count(), "runs": runs,
               "ratio_2_over_1": statistics.median(ratios) if ratios else None, "failover_s": times,
               "failover_p50_s": percentile(times, 0.5), "failover_p95_s": percentile(times, 0.95)}
    print(f"2 processes / 1: {summary['ratio_2_over_1'] or 0:.2f}x actions/s (median of rounds; target >= 1.7x)")
    if times:
        print(f"failover over {len(times)} kills: p50 {summary['failover_p50_s']:.2f} s, "
              f"p95 {summary['failover_p95_s']:.2f} s (target p95 <= 5 s)")
    print(f"load average before {load[0]:.1f}, after {summary['load_after'][0]:.1f} on {os.cpu_count()} cores")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
