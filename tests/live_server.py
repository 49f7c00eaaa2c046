"""A real ``divedeck serve`` process on a free loopback port, for tests that need one (always stopped)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LiveServer:
    process: subprocess.Popen[bytes]
    port: int
    database: Path
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks run, as in a crash."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)


def start_server(database: Path, log: Path, *extra: str, port: int | None = None) -> LiveServer:
    port = port or free_port()
    command = [sys.executable, "-m", "divedeck.cli", "serve", "--port", str(port), "--db", f"sqlite:///{database}",
               *extra]
    with log.open("ab") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env={**os.environ})
    server = LiveServer(process, port, database, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited at start-up:\n{log.read_text(errors='replace')}")
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{server.url}/api/games", timeout=1):
            return server
        time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"the server did not answer within 30 s:\n{log.read_text(errors='replace')}")


@contextlib.contextmanager
def running_server(directory: Path, *extra: str) -> Iterator[LiveServer]:
    server = start_server(directory / "divedeck.sqlite3", directory / "server.log", *extra)
    try:
        yield server
    finally:
        server.kill()
