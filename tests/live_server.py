"""A real ``divedeck serve`` process on a free loopback port, for tests that need one (always stopped)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class ServerProcess:
    """``divedeck serve`` in a subprocess; ``kill`` is SIGKILL (no shutdown hook runs, as in a crash)."""

    database: Path
    log: Path
    extra: tuple[str, ...] = ()
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    db_url: str | None = None  # a database server's URL instead of the SQLite file ``database``

    @property
    def database_url(self) -> str:
        return self.db_url or f"sqlite:///{self.database}"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.process is None or self.process.poll() is not None, "already running"
        self.port = free_port()
        command = [sys.executable, "-m", "divedeck.cli", "serve", "--port", str(self.port),
                   "--db", self.database_url, *self.extra]
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=dict(os.environ),
                                            start_new_session=True)
        deadline = time.monotonic() + 60  # a busy machine may take that long to start a server
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start-up:\n{self.log.read_text(errors='replace')}")
            with contextlib.suppress(OSError), urllib.request.urlopen(f"{self.url}/api/games", timeout=1):
                return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not answer within 60 s:\n{self.log.read_text(errors='replace')}")

    def kill(self) -> None:
        """SIGKILL the server and every process it started (its own process group: ``--processes`` servers)."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGCONT)  # a frozen process cannot die until it runs again
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        elif self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def stored(self, table_id: str) -> Any:
        """The table as the server stored it (``StoredTable``: its options, seed, seats and action log), read back
        from the server's database."""
        from divedeck.server.storage import Storage

        storage = Storage(self.database_url)
        try:
            stored = storage.load(table_id)
        finally:
            storage.close()
        assert stored is not None, f"no table {table_id} in the database"
        return stored

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return self.request_via(self.url, method, path, body)

    @staticmethod
    def request_via(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """An HTTP request to ``base`` (this server, or a load balancer in front of it)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{base}{path}", data=data, method=method,
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


@contextlib.contextmanager
def running_server(directory: Path, *extra: str) -> Iterator[ServerProcess]:
    server = ServerProcess(directory / "divedeck.sqlite3", directory / "server.log", tuple(extra))
    try:
        server.start()
        yield server
    finally:
        server.kill()
