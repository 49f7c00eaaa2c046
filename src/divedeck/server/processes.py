"""``divedeck serve --processes N``: N server processes on one machine, sharing a PostgreSQL database, behind one
listening socket that this parent process accepts from.

The parent serves nothing itself. It accepts each connection, reads the start of its request line without taking
it off the socket (``MSG_PEEK``) and hands the connection itself (its file descriptor, ``SCM_RIGHTS`` over a Unix
socket) to one server process, which serves it as if it had accepted it (serving.py). A table's websockets
(``/ws/tables/<id>``) go to the table's *home*, the process chosen by a hash of the table id (``home_of``); every
other request goes to the processes in turn. A process creates tables only with ids whose home is itself
(manager.py), and owns what it creates, so in the steady state every socket of a table reaches its owner and
nothing is relayed through the bus. After a process dies, another takes its tables (their leases, ownership.py)
while the process started in its place becomes their home: their sockets then reach a process that does not own
them, and are served through the bus (routing.py) until the table ends.

The parent also starts the servers (spawned, never forked from a process with threads) and starts a new one when
one dies. Which server drives which table is settled by leases in the database, so a server that dies loses
nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import multiprocessing
import os
import re
import selectors
import signal
import socket
import sys
import threading
import time
import zlib
from multiprocessing.process import BaseProcess
from types import FrameType

from .settings import ServerSettings

RESTART_PAUSE = 0.5  # seconds between a server's death and its replacement, so a crash loop cannot spin
PEEK_BYTES = 512  # enough for a request line's method and path
HAND_TIMEOUT = 0.5  # seconds to wait for a server's queue of handed connections before trying another server
READY = b"ready"  # what a server process sends its parent once it serves
TABLE_SOCKET = re.compile(rb"[A-Z]+ /ws/tables/([A-Za-z0-9_-]{1,32})[ ?/]")


def home_of(table_id: str, count: int) -> int:
    """The server process (0 to count - 1) that a table's sockets are handed to: a stable hash of its id."""
    return zlib.crc32(table_id.encode()) % count


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    return sock


def _run(settings: ServerSettings, port: int, channel: socket.socket) -> None:
    from .serving import serve_handed

    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    serve_handed(settings, port, channel)


def _exit_with_parent(parent: int) -> None:
    """A server whose parent is gone (killed, so it could not stop them) stops too, rather than serve alone."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


class Dispatcher:
    """Accepts connections and hands each to a server process (see the module's doc); runs in a thread."""

    def __init__(self, listening: socket.socket, count: int, header_timeout: float) -> None:
        self.listening = listening
        self.count = count
        self.header_timeout = header_timeout
        self.channels: list[socket.socket | None] = [None] * count  # the parent's end of each server's Unix socket
        self.ready = [False] * count  # the server said it serves (until then its connections go to the others)
        self.turn = itertools.cycle(range(count))
        self.stopping = False
        self.handed = [0] * count  # connections handed to each server (for tests and operators)

    def run(self) -> None:
        selector = selectors.DefaultSelector()
        self.listening.setblocking(False)
        selector.register(self.listening, selectors.EVENT_READ)
        waiting: dict[socket.socket, float] = {}  # accepted, request line not read yet: their deadlines
        partial: dict[socket.socket, float] = {}  # part of a request line came: looked at again shortly
        while not self.stopping:
            self._hear_ready()
            for key, _ in selector.select(0.05 if partial or not all(self.ready) else 0.5):
                if key.fileobj is self.listening:
                    self._accept(selector, waiting)
                else:
                    connection = key.fileobj
                    assert isinstance(connection, socket.socket)
                    selector.unregister(connection)
                    deadline = waiting.pop(connection)
                    if not self._route(connection):
                        partial[connection] = deadline
            now = time.monotonic()
            for connection, deadline in list(partial.items()):
                if self._route(connection):
                    del partial[connection]
                elif now > deadline:
                    del partial[connection]
                    connection.close()
            for connection, deadline in list(waiting.items()):
                if now > deadline:
                    selector.unregister(connection)
                    del waiting[connection]
                    connection.close()
        selector.close()

    def _accept(self, selector: selectors.BaseSelector, waiting: dict[socket.socket, float]) -> None:
        for _ in range(64):
            try:
                connection, _address = self.listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors, say: the connection waits in the backlog
                return
            connection.setblocking(False)
            waiting[connection] = time.monotonic() + self.header_timeout
            selector.register(connection, selectors.EVENT_READ)

    def _route(self, connection: socket.socket) -> bool:
        """Hand ``connection`` on if its request line says where (True: handed or closed; False: not yet)."""
        try:
            start = connection.recv(PEEK_BYTES, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            connection.close()
            return True
        if not start:  # closed before sending anything
            connection.close()
            return True
        table = TABLE_SOCKET.match(start)
        if table is None and start.count(b" ") < 2 and b"\n" not in start and len(start) < PEEK_BYTES:
            return False  # the path has not all come yet
        first = home_of(table.group(1).decode(), self.count) if table else next(self.turn)
        self._hand(connection, first)
        return True

    def attach(self, index: int, channel: socket.socket | None) -> None:
        """Hand server ``index``'s connections over ``channel`` once it says it is ready (None: it is gone)."""
        self.ready[index] = False
        old, self.channels[index] = self.channels[index], channel
        if old is not None:
            old.close()

    def _hear_ready(self) -> None:
        for index, channel in enumerate(self.channels):
            if channel is not None and not self.ready[index]:
                with contextlib.suppress(BlockingIOError, InterruptedError, OSError):
                    if channel.recv(16, socket.MSG_DONTWAIT) == READY:
                        self.ready[index] = True

    def _hand(self, connection: socket.socket, first: int) -> None:
        order = [first, *(i for i in range(self.count) if i != first)]
        if any(self.ready):  # a server still starting gets nothing (a page would wait for it)
            order = [index for index in order if self.ready[index]]
        try:
            for index in order:
                channel = self.channels[index]
                if channel is None:
                    continue
                try:
                    socket.send_fds(channel, [b"c"], [connection.fileno()])
                except OSError:  # that server is gone (or its queue stayed full): the next one
                    continue
                self.handed[index] += 1
                return
        finally:
            connection.close()  # the server process holds its own copy now


def serve_processes(settings: ServerSettings, port: int, count: int) -> None:
    context = multiprocessing.get_context("spawn")
    listening = listening_socket(settings.host, port)
    dispatcher = Dispatcher(listening, count, settings.header_timeout)
    stopping = False

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start(index: int) -> BaseProcess:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ours.settimeout(HAND_TIMEOUT)
        home = dataclasses.replace(settings, home=(index, count))
        process = context.Process(target=_run, args=(home, port, theirs), name=f"divedeck-server-{index}")
        process.start()
        theirs.close()
        dispatcher.attach(index, ours)
        # Operators and tests find each server's pid here.
        print(f"server process {index}: pid {process.pid}", flush=True)
        return process

    servers = [start(index) for index in range(count)]
    accepting = threading.Thread(target=dispatcher.run, name="divedeck-dispatcher", daemon=True)
    accepting.start()
    try:
        while not stopping:
            time.sleep(0.1)
            for index, process in enumerate(servers):
                if not process.is_alive() and not stopping:
                    print(f"server process {index} (pid {process.pid}) ended with {process.exitcode}: "
                          "starting another", file=sys.stderr, flush=True)
                    dispatcher.attach(index, None)
                    time.sleep(RESTART_PAUSE)
                    servers[index] = start(index)
    finally:
        dispatcher.stopping = True
        accepting.join(timeout=2)
        for process in servers:
            if process.is_alive():
                process.terminate()
        for process in servers:
            process.join(timeout=15)
            if process.is_alive():
                process.kill()
                process.join()
        for channel in dispatcher.channels:
            if channel is not None:
                channel.close()
        listening.close()
