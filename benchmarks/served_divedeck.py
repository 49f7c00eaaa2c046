"""A ``divedeck serve`` process on a free loopback port for the benchmarks, and a seat's socket on it.

Shared by the benchmarks that start their own server and time one table's ping (bot isolation, replay load)."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"
PROTOCOL = 3
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


class DivedeckServer:
    """``divedeck serve`` on SQLite in ``directory``, in its own session; stopped with SIGTERM (as an operator
    would), killed if it lingers. Bots move at once (``--bot-delay 0``); ``extra`` adds flags."""

    def __init__(self, directory: Path, name: str, extra: list[str], start_within: float = 60.0) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "divedeck.cli", "serve", "--port", str(self.port),
                   "--db", f"sqlite:///{directory / f'{name}.sqlite3'}", "--bot-delay", "0", *extra]
        self.log = (directory / f"{name}.log").open("ab")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT,
                                        start_new_session=True)
        deadline = time.monotonic() + start_within
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start-up (see {self.log.name})")
            with contextlib.suppress(OSError), urllib.request.urlopen(f"{self.url}/api/games", timeout=1):
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer within {start_within:.0f} s")

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def request(self, path: str, body: Any = None) -> Any:
        """GET ``path``, or POST ``body`` to it as JSON; the decoded answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=data, method="GET" if body is None else "POST",
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def create(self, seats: list[dict[str, Any]], options: dict[str, Any] | None = None) -> tuple[str, list[Any]]:
        """A new Snorkeling table with ``seats``: its id and its seats' tokens."""
        answer = self.request("/api/tables", {"game": "snorkeling", "options": options or {}, "seats": seats})
        return answer["table"]["id"], answer["tokens"]

    async def join(self, table_id: str, token: str | None) -> tuple[ClientConnection, dict[str, Any]]:
        """A socket at ``table_id``'s seat of ``token`` (a spectator for ``None``) and its welcome."""
        ws = await connect(f"ws://{HOST}:{self.port}/ws/tables/{table_id}", max_size=2**20, compression=None)
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "welcome":
                return ws, message
            if message["type"] == "error":
                raise RuntimeError(f"refused: {message}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()


async def ping_once(ws: ClientConnection) -> float:
    """One ``ping`` on a seat's socket: the round trip to its ``pong`` in ms (other messages are skipped)."""
    sent = time.monotonic()
    await ws.send('{"type":"ping"}')
    while json.loads(await ws.recv())["type"] != "pong":
        pass
    return (time.monotonic() - sent) * 1000
