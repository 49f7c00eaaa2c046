"""Real PostgreSQL and Redis servers for the cluster tests: Debian's binaries, started in temporary folders on free
loopback ports, stopped by PID (never a system service, nothing left running).

PostgreSQL refuses to run as root: as root, its folder is given to the unprivileged user ``nobody`` and it runs as
that user.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.live_server import free_port

POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")


def postgres_available() -> bool:
    return (POSTGRES_BIN / "postgres").exists()


@dataclass
class Postgres:
    port: int
    process: subprocess.Popen[bytes]
    _databases: int = 0

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _as_unprivileged() -> dict[str, object]:
    """Popen arguments that run a command as ``nobody`` when we are root (PostgreSQL refuses root)."""
    if os.geteuid() != 0:
        return {}
    nobody = pwd.getpwnam("nobody")
    return {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, what: str) -> None:
    import socket

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited at start-up:\n{log.read_text(errors='replace')}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen within 30 s:\n{log.read_text(errors='replace')}")


def _stop(process: subprocess.Popen[bytes], sig: int) -> None:
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextlib.contextmanager
def running_postgres() -> Iterator[Postgres]:
    # Not pytest's tmp_path: its parents are closed to other users, and PostgreSQL may run as nobody.
    folder = Path(tempfile.mkdtemp(prefix="divedeck-pg-"))
    folder.chmod(0o755)
    data, log = folder / "data", folder / "postgres.log"
    user = _as_unprivileged()
    if user:
        os.chown(folder, int(user["user"]), int(user["group"]))  # type: ignore[call-overload]
    process = None
    try:
        subprocess.run([str(POSTGRES_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True, **user)  # type: ignore[call-overload]
        port = free_port()
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [str(POSTGRES_BIN / "postgres"), "-D", str(data), "-p", str(port), "-k", str(folder),
                 "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200"],
                stdout=sink, stderr=subprocess.STDOUT, start_new_session=True, **user)  # type: ignore[call-overload]
        _wait_for_port(port, process, log, "PostgreSQL")
        server = Postgres(port, process)
        deadline = time.monotonic() + 30
        while True:  # listening comes a moment before accepting logins
            try:
                server.new_database()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield server
    finally:
        if process is not None:
            _stop(process, signal.SIGINT)  # PostgreSQL's fast shutdown
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Redis:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@contextlib.contextmanager
def running_redis() -> Iterator[Redis]:
    folder = Path(tempfile.mkdtemp(prefix="divedeck-redis-"))
    log = folder / "redis.log"
    process = None
    try:
        port = free_port()
        with log.open("wb") as sink:
            process = subprocess.Popen(
                ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", str(folder)], stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
        _wait_for_port(port, process, log, "Redis")
        yield Redis(port, process)
    finally:
        if process is not None:
            _stop(process, signal.SIGTERM)
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class HAProxy:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@contextlib.contextmanager
def running_haproxy(config: Path, servers: list[str]) -> Iterator[HAProxy]:
    """HAProxy with the repository's configuration (deploy/haproxy.cfg), in front of ``servers`` (host:port)."""
    folder = Path(tempfile.mkdtemp(prefix="divedeck-haproxy-"))
    log = folder / "haproxy.log"
    process = None
    try:
        port = free_port()
        env = {**os.environ, "DIVEDECK_LISTEN": f"127.0.0.1:{port}",
               **{f"DIVEDECK_SERVER_{index}": address for index, address in enumerate(servers, 1)}}
        with log.open("wb") as sink:
            process = subprocess.Popen(["haproxy", "-db", "-f", str(config)], stdout=sink, stderr=subprocess.STDOUT,
                                       env=env, start_new_session=True)
        _wait_for_port(port, process, log, "HAProxy")
        yield HAProxy(port, process)
    finally:
        if process is not None:
            _stop(process, signal.SIGTERM)
        shutil.rmtree(folder, ignore_errors=True)
