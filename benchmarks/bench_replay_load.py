"""Replay load benchmark (issue 23, item 3): a quiet table's ping while clients fetch a long game's replay.

The outside attack fetched one 349-action replay (206 KB, 75 ms to compute) from 4 clients for 15 s and a quiet
table's ping went from p50 0.7 ms to 73 ms (max 135 ms). Now a finished table's replay is built once per viewer
and kept, and each address may ask ``--replays-per-minute`` (default 20). For each scenario a fresh
``divedeck serve`` on 127.0.0.1 gets:

* a **long finished game**: an all-bot Snorkeling table (four ``random`` bots, ``--target-score`` 18) played to
  its end by the server itself (``--bot-delay 0``), again until one has ``--min-actions`` (340), whose spectator
  replay the fetchers ask for;
* a **quiet table**: one connected seat sending a ``ping`` every ``1 / --rate`` s and timing its ``pong``;
* ``--fetchers`` **fetcher processes** (default 4; processes, so their work does not delay the pinger), each
  asking ``GET /api/tables/{id}/replay`` in a loop, as fast as answers come, for ``--seconds`` (default 15).

The pings of a quiet ``--baseline`` window before the fetchers start, then those while they run, give p50/p95/max;
the fetchers' answers are counted by status. Scenarios: ``limited`` (the server's defaults) and ``cached`` (the
per-address limit lifted, ``--replays-per-minute 1000000``: the cache alone). ``--scenarios plain`` runs the
server with no extra flag, for a server from before the cache (``git stash``). The target: p95 under 20 ms.

    uv run python benchmarks/bench_replay_load.py                       # both scenarios, about a minute
    uv run python benchmarks/bench_replay_load.py --json replay.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from served_divedeck import DivedeckServer, ping_once  # noqa: E402

TARGET_P95_MS = 20.0
SCENARIOS = {"limited": [], "cached": ["--replays-per-minute", "1000000"], "plain": []}

# One fetcher: GET the URL in a loop until the deadline; print how many answers had each status.
FETCHER = """
import collections, json, sys, time, urllib.error, urllib.request
url, deadline = sys.argv[1], time.monotonic() + float(sys.argv[2])
counts = collections.Counter()
size = 0
while time.monotonic() < deadline:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            size = len(response.read())
            counts[response.status] += 1
    except urllib.error.HTTPError as error:
        error.read()
        counts[error.code] += 1
print(json.dumps({"counts": counts, "size": size}))
"""


@dataclass
class Result:
    scenario: str
    actions: int  # actions in the replayed game
    replay_kb: float
    baseline_p50_ms: float
    baseline_p95_ms: float
    p50_ms: float
    p95_ms: float
    max_ms: float
    pings: int
    answers: dict[str, int]  # HTTP status -> how many the fetchers got
    load_before: float


def long_game(server: DivedeckServer, target_score: int) -> str:
    """An all-bot table played to its end by the server; its id."""
    seats = [{"kind": "bot", "bot": "random"} for _ in range(4)]
    table_id, _ = server.create(seats, {"target_score": target_score})
    deadline = time.monotonic() + 300
    while server.request(f"/api/tables/{table_id}")["table"]["status"] != "finished":
        if time.monotonic() > deadline:
            raise RuntimeError("the bots did not finish their game within 5 minutes")
        time.sleep(0.2)
    return table_id


async def ping_window(server: DivedeckServer, rate: float, seconds: float) -> list[float]:
    """A quiet table's seat pinging every ``1 / rate`` s for ``seconds``: the round trips in ms."""
    table_id, tokens = server.create([{"kind": "human"}, {"kind": "human"}])
    ws, _ = await server.join(table_id, tokens[0])
    async with ws:
        samples = []
        start = time.monotonic()
        for k in range(int(seconds * rate)):
            await asyncio.sleep(max(0.0, start + k / rate - time.monotonic()))
            samples.append(await ping_once(ws))
        return samples


def quantiles(samples: list[float]) -> tuple[float, float]:
    return statistics.median(samples), statistics.quantiles(samples, n=100, method="inclusive")[94]


def run(scenario: str, args: argparse.Namespace) -> Result:
    with tempfile.TemporaryDirectory(prefix="bench-replay-") as folder:
        server = DivedeckServer(Path(folder), "bench", SCENARIOS[scenario])
        try:
            longest: tuple[int, str] = (-1, "")
            for _ in range(8):  # the server deals: play until a game is long enough (else take the longest)
                table_id = long_game(server, args.target_score)
                steps = len(server.request(f"/api/tables/{table_id}/replay")["steps"])
                longest = max(longest, (steps - 1, table_id))
                if steps - 1 >= args.min_actions:
                    break
            url = f"{server.url}/api/tables/{longest[1]}/replay"
            with urllib.request.urlopen(url, timeout=60) as response:  # also warms the cache if there is one
                replay = json.loads(response.read())
            load_before = os.getloadavg()[0]
            baseline = asyncio.run(ping_window(server, args.rate, args.baseline))
            fetchers = [subprocess.Popen([sys.executable, "-c", FETCHER, url, str(args.seconds)],
                                         stdout=subprocess.PIPE) for _ in range(args.fetchers)]
            try:
                samples = asyncio.run(ping_window(server, args.rate, args.seconds))
                outputs = [json.loads(f.communicate(timeout=120)[0]) for f in fetchers]
            finally:
                for fetcher in fetchers:
                    if fetcher.poll() is None:
                        fetcher.kill()
                        fetcher.wait()
        finally:
            server.stop()
    answers: dict[str, int] = {}
    for output in outputs:
        for status, count in output["counts"].items():
            answers[status] = answers.get(status, 0) + count
    size = len(json.dumps(replay, separators=(",", ":")).encode())
    (base50, base95), (p50, p95) = quantiles(baseline), quantiles(samples)
    return Result(scenario, len(replay["steps"]) - 1, size / 1024, base50, base95, p50, p95, max(samples),
                  len(samples), answers, load_before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", default="limited,cached", help="comma-separated: limited, cached, plain")
    parser.add_argument("--fetchers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15.0, help="how long the fetchers run")
    parser.add_argument("--baseline", type=float, default=5.0, help="quiet seconds measured first")
    parser.add_argument("--rate", type=float, default=10.0, help="pings a second (the server allows 20)")
    parser.add_argument("--target-score", type=int, default=18, help="the long game's Snorkeling target score")
    parser.add_argument("--min-actions", type=int, default=340, help="replay a game of at least this many actions")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    results = []
    for scenario in args.scenarios.split(","):
        result = run(scenario, args)
        results.append(result)
        print(f"{result.scenario:8} {result.actions} actions, replay {result.replay_kb:.0f} KB | quiet ping "
              f"p50 {result.baseline_p50_ms:.1f} p95 {result.baseline_p95_ms:.1f} ms | with {args.fetchers} "
              f"fetchers: p50 {result.p50_ms:.1f} p95 {result.p95_ms:.1f} max {result.max_ms:.1f} ms "
              f"({result.pings} pings) | answers {result.answers} | load {result.load_before:.1f} | "
              f"p95 target {TARGET_P95_MS:g} ms: {'met' if result.p95_ms < TARGET_P95_MS else 'MISSED'}",
              flush=True)
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))


if __name__ == "__main__":
    main()
