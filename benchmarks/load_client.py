"""The load client of the server benchmark: tables of 4 websocket seats playing random legal moves.

One worker process drives a share of the tables over loopback (asyncio, uvloop when installed, the ``websockets``
library). It speaks divedeck's protocol (docs/protocol.md): ``POST /api/tables`` with 4 human seats, one socket
per seat with a ``hello`` and the seat's token, and an ``act`` with a fresh ``client_id`` and the version it saw
whenever its seat's ``legal`` list is not empty. ``benchmarks/minimal_server.py`` speaks the same subset, so the
same client drives both servers.

A worker is told what to do over a ``multiprocessing`` pipe by ``bench_server.py``:

1. it receives a :class:`WorkerSpec`, opens its tables at a paced rate (``ramp`` tables a second), every seat
   waiting for its ``welcome``, and reports ``("ready", {...})``;
2. it receives ``("go", t_go, t0, t1)`` (wall-clock times) or ``("stop",)``. From ``t_go`` the seats act: at once
   (``mode="fast"``: saturation) or 1-3 s after the seat's turn began (``mode="human"``). Whatever is
   acknowledged inside ``[t0, t1]`` is counted; the round trip of an action is the time from sending its ``act``
   to receiving its ``ack``. A finished game is followed by a new table (paced like the ramp).
3. after ``t1`` it sends ``("result", {...})`` and exits without closing its sockets politely (the server is
   killed next anyway).

Every loop is bounded in time: the worker gives up at ``deadline`` whatever happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import json
import os
import random
import resource
import time
from array import array
from collections import Counter
from dataclasses import dataclass
from typing import Any

import orjson
import websockets
from websockets.asyncio.client import ClientConnection, connect

SEATS = 4
PROTOCOL = 3
RESEND_AFTER = 5.0  # seconds without an ack before the same act (same client_id) is sent again
GIVE_UP_AFTER = 30.0  # seconds without an ack before an act is counted as lost


def notations(records: list[dict[str, Any]]) -> list[str]:
    """What an act may send: the notation of each legal action record."""
    return [record["notation"] for record in records]


@dataclass
class WorkerSpec:
    worker: int
    host: str
    port: int
    tables: int
    seed: int
    mode: str  # "fast" (no think time) or "human" (think 1-3 s)
    ramp: float  # new tables a second, for this worker
    deadline: float  # wall-clock time by which the worker stops, whatever happens
    think: tuple[float, float] = (1.0, 3.0)
    deflate: bool = False  # offer permessage-deflate, as browsers do


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# --- plain HTTP/1.1 with keep-alive, enough for POST /api/tables ---------------------------------------------


class HttpConnection:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post_json(self, path: str, body: dict[str, Any], timeout: float = 10.0) -> tuple[int, Any]:
        return await asyncio.wait_for(self._post_json(path, body), timeout)

    async def _post_json(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        data = json.dumps(body).encode()
        request = (f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(data)}\r\n\r\n").encode() + data
        for attempt in range(2):  # a kept-alive connection the server closed is opened again once
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                assert self.reader is not None
                self.writer.write(request)
                await self.writer.drain()
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionError("closed")
                status = int(status_line.split()[1])
                length = 0
                while True:
                    line = await self.reader.readline()
                    if line in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                payload = await self.reader.readexactly(length)
                return status, json.loads(payload) if payload else None
            except (ConnectionError, OSError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- the tables ---------------------------------------------------------------------------------------------


class Worker:
    def __init__(self, spec: WorkerSpec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.loop = asyncio.get_running_loop()
        self.http_pool: asyncio.Queue[HttpConnection] = asyncio.Queue()
        for _ in range(4):
            self.http_pool.put_nowait(HttpConnection(spec.host, spec.port))
        self.next_slot = 0.0
        self.go_at: float | None = None  # wall clock
        self.go_event = asyncio.Event()
        self.stopping = False
        self.window = (float("inf"), float("inf"))
        self.counts: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.rtts = array("d")  # ms, acks inside the window
        self.acked_in_window = 0
        self.update_bytes = 0
        self.updates = 0
        self.ready_tables = 0
        self.all_ready = asyncio.Event()
        self.ids = itertools.count()
        self.seats: set[Seat] = set()
        self.cpu_marks: dict[str, float] = {}
        self.lags = array("d")  # ms this client's event loop was late, sampled every 20 ms inside the window

    async def pace(self) -> None:
        """Connection setup is paced: at most ``ramp`` new tables a second from this worker."""
        now = self.loop.time()
        slot = max(now, self.next_slot)
        self.next_slot = slot + 1.0 / self.spec.ramp
        if slot > now:
            await asyncio.sleep(slot - now)

    async def create_table(self) -> tuple[str, list[str]]:
        http = await self.http_pool.get()
        try:
            status, body = await http.post_json("/api/tables", {"game": "snorkeling",
                                                                 "seats": [{"kind": "human"}] * SEATS})
        finally:
            self.http_pool.put_nowait(http)
        if status != 201:
            raise RuntimeError(f"create table: HTTP {status} {body}")
        return body["table"]["id"], body["tokens"]

    async def run_table(self, index: int) -> None:
        first = True
        failures = 0
        while not self.stopping and time.time() < self.spec.deadline:
            if first or self.go_at is not None:
                await self.pace()
            if self.stopping:
                return
            table = TableClient(self, index)
            try:
                await table.open()
            except Exception as problem:  # noqa: BLE001 - counted and retried a bounded number of times
                self.counts["setup_failed"] += 1
                self.errors[f"setup: {type(problem).__name__}: {str(problem)[:80]}"] += 1
                table.abort()
                failures += 1
                if failures >= 5:
                    return
                await asyncio.sleep(1.0)
                continue
            self.counts["tables_opened"] += 1
            if first:
                first = False
                self.ready_tables += 1
                if self.ready_tables == self.spec.tables:
                    self.all_ready.set()
            await table.finished.wait()
            if table.game_over:
                self.counts["games_finished"] += 1
                for _ in range(40):  # the last action's ack comes just after the final update
                    if all(seat.pending is None for seat in table.seats):
                        break
                    await asyncio.sleep(0.025)
            table.abort()
            if self.go_at is None:  # a table that ends before the go (it should not) is not replaced
                return

    def start(self, go_at: float, t0: float, t1: float) -> None:
        self.go_at, self.window = go_at, (t0, t1)
        delay = max(0.0, go_at - time.time())
        self.loop.call_later(delay, self._go)
        self.loop.call_later(max(0.0, t0 - time.time()), self._mark_cpu, "t0")
        self.loop.call_later(max(0.0, t1 - time.time()), self._mark_cpu, "t1")

    def _go(self) -> None:
        self.go_event.set()
        for seat in list(self.seats):
            seat.maybe_act()

    def _mark_cpu(self, name: str) -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        self.cpu_marks[name] = usage.ru_utime + usage.ru_stime

    async def lag_probe(self) -> None:
        """How late this process's own event loop runs: a late client inflates the round trips it measures."""
        period = 0.02
        while not self.stopping:
            before = time.perf_counter()
            await asyncio.sleep(period)
            late = (time.perf_counter() - before - period) * 1000.0
            now = time.time()
            if self.window[0] <= now <= self.window[1]:
                self.lags.append(late)

    async def watchdog(self) -> None:
        """Resend an act whose ack does not come (same client_id: never applied twice); give up after a while."""
        while not self.stopping:
            await asyncio.sleep(1.0)
            now = time.perf_counter()
            for seat in list(self.seats):
                if seat.pending is None:
                    continue
                client_id, sent, last_sent, message = seat.pending
                if now - sent > GIVE_UP_AFTER:
                    self.counts["acts_lost"] += 1
                    seat.pending = None
                elif now - last_sent > RESEND_AFTER:
                    self.counts["acts_resent"] += 1
                    seat.pending = (client_id, sent, now, message)
                    seat.send_soon(message)

    def record_ack(self, rtt_ms: float) -> None:
        now = time.time()
        if self.window[0] <= now <= self.window[1]:
            self.acked_in_window += 1
            self.rtts.append(rtt_ms)

    def result(self) -> dict[str, Any]:
        open_sockets = sum(1 for seat in self.seats if seat.ws is not None)
        cpu = (self.cpu_marks.get("t1", 0.0) - self.cpu_marks.get("t0", 0.0)) if "t1" in self.cpu_marks else None
        return {"worker": self.spec.worker, "acked": self.acked_in_window, "rtts": self.rtts.tobytes(),
                "counts": dict(self.counts), "errors": dict(self.errors), "open_sockets": open_sockets,
                "update_bytes": self.update_bytes, "updates": self.updates, "client_cpu_s": cpu,
                "lags": self.lags.tobytes()}


class TableClient:
    def __init__(self, worker: Worker, index: int) -> None:
        self.worker = worker
        self.index = index
        self.seats: list[Seat] = []
        self.finished = asyncio.Event()
        self.game_over = False

    async def open(self) -> None:
        table_id, tokens = await self.worker.create_table()
        spec = self.worker.spec
        url = f"ws://{spec.host}:{spec.port}/ws/tables/{table_id}"
        for number, token in enumerate(tokens):
            ws = await asyncio.wait_for(
                connect(url, compression="deflate" if spec.deflate else None, ping_interval=None,
                        open_timeout=20, close_timeout=1, max_queue=64), 30)
            seat = Seat(self, number, ws)
            self.seats.append(seat)
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}))
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if welcome.get("type") != "welcome":
                raise RuntimeError(f"expected a welcome, got {str(welcome)[:100]}")
            seat.version = welcome["version"]
            seat.legal = notations(welcome["legal"])
            seat.turn_began = time.time()
        for seat in self.seats:
            self.worker.seats.add(seat)
            seat.reader = asyncio.create_task(seat.read())
        for seat in self.seats:
            seat.maybe_act()

    def end(self, game_over: bool) -> None:
        self.game_over = self.game_over or game_over
        self.finished.set()

    def abort(self) -> None:
        for seat in self.seats:
            self.worker.seats.discard(seat)
            if seat.reader is not None:
                seat.reader.cancel()
            if seat.act_task is not None:
                seat.act_task.cancel()
            if seat.ws is not None:
                transport = seat.ws.transport
                if transport is not None:
                    transport.abort()
                seat.ws = None


class Seat:
    def __init__(self, table: TableClient, number: int, ws: ClientConnection) -> None:
        self.table = table
        self.worker = table.worker
        self.number = number
        self.ws: ClientConnection | None = ws
        self.version = 0
        self.legal: list[str] = []
        self.turn_began = 0.0
        self.acted_version = -1  # the version this seat last acted at (one act per turn position)
        self.pending: tuple[str, float, float, str] | None = None  # client_id, first send, last send, message
        self.reader: asyncio.Task[None] | None = None
        self.act_task: asyncio.Task[None] | None = None

    async def read(self) -> None:
        worker = self.worker
        ws = self.ws
        assert ws is not None
        try:
            while True:
                # Bytes, parsed by orjson: the load client shares the 2 cores with the servers, so every
                # microsecond it spends per message is one the servers cannot have (it was ~300 µs an action).
                raw = await ws.recv(decode=False)
                message = orjson.loads(raw)
                kind = message.get("type")
                if kind == "update":
                    worker.updates += 1
                    worker.update_bytes += len(raw)
                    self.version = message["version"]
                    self.legal = notations(message["legal"])
                    self.turn_began = time.time()
                    if message.get("outcome") is not None:
                        self.table.end(game_over=True)  # the actor's ack may still come: keep reading
                    elif self.legal:
                        self.maybe_act()
                elif kind == "ack":
                    pending = self.pending
                    if pending is not None and pending[0] == message.get("client_id"):
                        self.pending = None
                        worker.record_ack((time.perf_counter() - pending[1]) * 1000.0)
                        self.maybe_act()  # the update giving this seat its next move came before the ack
                elif kind == "error":
                    code = message.get("code", "?")
                    worker.counts[f"error_{code}"] += 1
                    if code == "rate_limited" and self.pending is not None:
                        self.send_soon(self.pending[3], delay=0.25)
                    elif self.pending is not None and message.get("client_id") == self.pending[0]:
                        self.pending = None  # refused: the next update tells the seat what it may do
                        worker.errors[f"refused: {code}: {str(message.get('message'))[:60]}"] += 1
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            worker.counts[f"closed_{code}"] += 1
        except asyncio.CancelledError:
            raise
        except Exception as problem:  # noqa: BLE001 - counted; the table then ends
            worker.errors[f"read: {type(problem).__name__}: {str(problem)[:80]}"] += 1
        self.table.end(game_over=False)

    def maybe_act(self) -> None:
        worker = self.worker
        if not self.legal or worker.go_at is None or not worker.go_event.is_set() or worker.stopping:
            return
        if self.acted_version >= self.version or self.pending is not None:
            return
        self.acted_version = self.version
        if worker.spec.mode == "fast":
            self._send_act()
        else:
            low, high = worker.spec.think
            began = max(self.turn_began, worker.go_at)
            delay = max(0.0, began + worker.rng.uniform(low, high) - time.time())
            self.act_task = asyncio.create_task(self._act_later(delay))

    async def _act_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self.act_task = None
        self._send_act()

    def _send_act(self) -> None:
        if self.ws is None or not self.legal:
            return
        client_id = f"w{self.worker.spec.worker}-{next(self.worker.ids)}"
        message = json.dumps({"type": "act", "client_id": client_id, "action": self.worker.rng.choice(self.legal),
                              "version": self.version})
        now = time.perf_counter()
        self.pending = (client_id, now, now, message)
        self.send_soon(message)

    def send_soon(self, message: str, delay: float = 0.0) -> None:
        async def send() -> None:
            if delay:
                await asyncio.sleep(delay)
            if self.ws is not None:
                with contextlib.suppress(websockets.ConnectionClosed):
                    await self.ws.send(message)

        task = asyncio.ensure_future(send())
        task.add_done_callback(_quiet)


def _quiet(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


# --- the worker process -------------------------------------------------------------------------------------


async def _worker_main(pipe: Any, spec: WorkerSpec) -> None:
    worker = Worker(spec)
    reader = asyncio.get_running_loop()
    messages: asyncio.Queue[Any] = asyncio.Queue()
    reader.add_reader(pipe.fileno(), lambda: messages.put_nowait(pipe.recv()))
    os.set_blocking(pipe.fileno(), True)  # the event loop made it non-blocking: a large result must go out whole
    tasks = [asyncio.create_task(worker.run_table(i)) for i in range(spec.tables)]
    tasks.append(asyncio.create_task(worker.watchdog()))
    started = time.time()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(worker.all_ready.wait(), max(1.0, spec.deadline - time.time()))
    pipe.send(("ready", {"worker": spec.worker, "tables": worker.ready_tables, "seconds": time.time() - started,
                         "counts": dict(worker.counts), "errors": dict(worker.errors)}))
    try:
        command = await asyncio.wait_for(messages.get(), max(1.0, spec.deadline - time.time()))
    except TimeoutError:
        command = ("stop",)
    if command[0] == "go":
        _, go_at, t0, t1 = command
        # The tables opened so far live until the end: keep the collector from walking them again and again,
        # so that the client's own pauses do not show up as server round trips.
        gc.collect()
        gc.freeze()
        tasks.append(asyncio.create_task(worker.lag_probe()))
        worker.start(go_at, t0, t1)
        await asyncio.sleep(max(0.0, min(t1, spec.deadline) - time.time()) + 0.05)
    worker.stopping = True
    reader.remove_reader(pipe.fileno())
    os.set_blocking(pipe.fileno(), True)
    pipe.send(("result", worker.result()))
    pipe.close()
    os._exit(0)  # no polite closing of thousands of sockets: the server is killed right after


def worker_process(pipe: Any, spec: WorkerSpec) -> None:
    """Entry point of a client process (``multiprocessing``): runs until told to stop or the deadline."""
    raise_fd_limit()
    try:
        import uvloop

        uvloop.run(_worker_main(pipe, spec))
    except ImportError:
        asyncio.run(_worker_main(pipe, spec))
    except Exception as problem:  # noqa: BLE001 - reported to the parent, which says so
        with contextlib.suppress(Exception):
            pipe.send(("failed", f"{type(problem).__name__}: {problem}"))
    finally:
        pipe.close()
        os._exit(0)  # the sockets go with the process: the server is killed right after
