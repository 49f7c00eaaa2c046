"""``divedeck serve --processes N``: N server processes on one machine, all accepting from one listening socket
(the kernel hands each new connection to one of them), sharing a PostgreSQL database.

This parent process only binds the socket, starts the servers (spawned, never forked from a process with
threads) and starts a new one when one dies; it serves nothing. Which server drives which table is settled by
leases in the database (ownership.py), so a server that dies loses nothing: the others take its tables over,
and the one started in its place takes a share of the tables again as they come free.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from multiprocessing.process import BaseProcess
from types import FrameType

from .settings import ServerSettings

RESTART_PAUSE = 0.5  # seconds between a server's death and its replacement, so a crash loop cannot spin


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _run(settings: ServerSettings, port: int, listening: socket.socket) -> None:
    from .serving import serve_on

    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    serve_on(settings, port, listening)


def _exit_with_parent(parent: int) -> None:
    """A server whose parent is gone (killed, so it could not stop them) stops too, rather than serve alone."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def serve_processes(settings: ServerSettings, port: int, count: int) -> None:
    context = multiprocessing.get_context("spawn")
    listening = listening_socket(settings.host, port)
    stopping = False

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start(index: int) -> BaseProcess:
        process = context.Process(target=_run, args=(settings, port, listening), name=f"divedeck-server-{index}")
        process.start()
        # Operators and tests find each server's pid here.
        print(f"server process {index}: pid {process.pid}", flush=True)
        return process

    servers = [start(index) for index in range(count)]
    try:
        while not stopping:
            time.sleep(0.1)
            for index, process in enumerate(servers):
                if not process.is_alive() and not stopping:
                    print(f"server process {index} (pid {process.pid}) ended with {process.exitcode}: "
                          "starting another", file=sys.stderr, flush=True)
                    time.sleep(RESTART_PAUSE)
                    servers[index] = start(index)
    finally:
        for process in servers:
            if process.is_alive():
                process.terminate()
        for process in servers:
            process.join(timeout=15)
            if process.is_alive():
                process.kill()
                process.join()
        listening.close()
