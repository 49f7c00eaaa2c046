"""Fixtures for the server tests: an in-process app (TestClient, lifespan running) and a real server process.

In-process sockets are wrapped in ``Socket``: every receive has a timeout (a missing message fails the test
instead of hanging it), every raw text is kept (the leak test reads the exact bytes), and the latest welcome or
update is remembered so a test can play from it. ``drive`` plays random legal moves for the seats a test holds.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from divedeck.engine.match import Match
from divedeck.engine.registry import get_game
from divedeck.server import ServerSettings, create_app
from tests.live_server import ServerProcess

GAME = "snorkeling"
SNORKELING = get_game(GAME)
FAST = {"target_score": 1}  # one round: a game of a few dozen actions
TIMEOUT = 5.0
PROTOCOL = 3
# docs/protocol.md's list
MESSAGE_TYPES = {"welcome", "update", "ack", "check", "error", "pong", "rematch", "table", "undone", "chat", "reaction"}

_client_ids = itertools.count(1)


def new_client_id() -> str:
    return f"t-{next(_client_ids)}"


class Gone(Exception):
    """The server side of a socket is gone without a close frame (its handler raised)."""


async def _receive(stream: Any, timeout: float) -> list[Any]:
    """The next message (waiting up to ``timeout``) and every one already queued behind it: one thread hop."""
    with anyio.fail_after(timeout):
        batch = [await stream.receive()]
    with contextlib.suppress(anyio.WouldBlock):
        while batch[-1]["type"] != "websocket.close":
            batch.append(stream.receive_nowait())
    return batch


class Socket:
    """One in-process websocket with timeouts, a record of every raw message, and the latest game message."""

    def __init__(self, session: Any, name: str = "") -> None:
        self.session = session
        self.name = name
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None  # the latest welcome or update
        self.table: dict[str, Any] | None = None  # the latest public table seen in any message
        self.close_code: int | None = None
        self.gone = False  # the server's handler ended without a close frame (it raised)
        self.pending: collections.deque[Any] = collections.deque()
        self.finished = False  # the test closed it

    # -- receiving ---------------------------------------------------------------------------------------------
    def poll(self, timeout: float = TIMEOUT) -> dict[str, Any] | None:
        """The next message (``{"type": "_closed", "code": ...}`` for a close frame), or None after ``timeout``."""
        if self.close_code is not None or self.gone:
            return {"type": "_closed", "code": self.close_code}
        if not self.pending:
            try:
                self.pending.extend(self.session.portal.call(_receive, self.session._send_rx, timeout))
            except TimeoutError:
                return None
            except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                self.gone = True
                return {"type": "_closed", "code": None}
        message = self.pending.popleft()
        if message["type"] == "websocket.close":
            self.close_code = message.get("code", 1000)
            return {"type": "_closed", "code": self.close_code}
        text = message.get("text")
        if text is None:
            text = message["bytes"].decode()
        self.raw.append(text)
        parsed = json.loads(text)
        self.messages.append(parsed)
        if isinstance(parsed, dict):
            if parsed.get("type") in ("welcome", "update"):
                self.last = parsed
            if parsed.get("type") == "welcome":
                self.welcome = parsed
            if isinstance(parsed.get("table"), dict):
                self.table = parsed["table"]
        return parsed

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message = self.poll(timeout)
        if message is None:
            raise AssertionError(f"{self.name}: no message within {timeout} s")
        return message

    def next(self, *types: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read until a message of one of ``types`` (``_closed`` included), skipping the others."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no {types} message within {timeout} s")
            message = self.recv(left)
            if message.get("type") in types or message["type"] == "_closed":
                return message

    def until_version(self, version: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read until the latest welcome/update has ``version`` (or more)."""
        deadline = time.monotonic() + timeout
        while self.last is None or self.last["version"] < version:
            message = self.recv(max(0.001, deadline - time.monotonic()))
            if message["type"] == "_closed":
                raise AssertionError(f"{self.name}: closed ({message['code']}) waiting for version {version}")
        return self.last

    def drain(self, quiet: float = 0.05) -> list[dict[str, Any]]:
        """Everything that arrives until nothing has for ``quiet`` seconds."""
        seen = []
        while (message := self.poll(quiet)) is not None:
            seen.append(message)
            if message["type"] == "_closed":
                break
        return seen

    def reply(self, client_id: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The ack or error for ``client_id``."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.001, deadline - time.monotonic()))
            if message["type"] == "_closed":
                raise AssertionError(f"{self.name}: closed ({message['code']}) before answering {client_id}")
            if message.get("type") in ("ack", "error") and message.get("client_id") == client_id:
                return message

    def sync(self, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """Send a ping and return every message before its pong: the answers to what was sent before."""
        self.send({"type": "ping"})
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.001, deadline - time.monotonic()))
            if message.get("type") == "pong":
                return seen
            if message["type"] == "_closed":
                raise AssertionError(f"{self.name}: closed ({message['code']}) instead of answering a ping")
            seen.append(message)

    # -- sending -----------------------------------------------------------------------------------------------
    def send(self, message: Any) -> None:
        self.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        self._send({"type": "websocket.receive", "text": text})

    def send_bytes(self, data: bytes) -> None:
        self._send({"type": "websocket.receive", "bytes": data})

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self.session.send(message)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            self.gone = True  # the server's handler is gone; the next receive says so

    def act(self, action: str, version: int | None | str = "latest", client_id: str | None = None) -> dict[str, Any]:
        """Send an act (by default with the latest version seen) and return its ack or error."""
        client_id = client_id or new_client_id()
        message: dict[str, Any] = {"type": "act", "client_id": client_id, "action": action}
        if version == "latest":
            assert self.last is not None
            message["version"] = self.last["version"]
        elif version is not None:
            message["version"] = version
        self.send(message)
        return self.reply(client_id)

    def check(self, action: Any) -> dict[str, Any]:
        """Send a check and return its answer, or the error that names it."""
        self.send({"type": "check", "action": action})
        while True:
            message = self.recv()
            if message["type"] == "_closed":
                raise AssertionError(f"{self.name}: closed ({message['code']}) before answering a check")
            if message["type"] == "check" or (message["type"] == "error" and "check" in message):
                return message

    @property
    def records(self) -> list[dict[str, Any]]:
        """The legal actions of the latest welcome or update, as the server's records."""
        assert self.last is not None
        return list(self.last["legal"])

    @property
    def legal(self) -> list[str]:
        """The notations of the legal actions: what an act sends back."""
        return [record["notation"] for record in self.records]


@dataclass
class Harness:
    """One in-process server: HTTP through ``client``, sockets through ``connect``; all closed at teardown."""

    client: TestClient
    stack: contextlib.ExitStack
    settings: ServerSettings
    database: Path
    crashes: list[BaseException] = field(default_factory=list)

    @property
    def manager(self) -> Any:
        return self.client.app.state.manager  # type: ignore[attr-defined]

    def live(self, table_id: str) -> Any:
        return self.manager.get(table_id)

    def create(self, seats: list[str] | tuple[str, ...] = ("human", "human"), options: dict[str, Any] | None = None,
               **extra: Any) -> tuple[str, list[str | None], dict[str, Any]]:
        """A new table; ``seats`` are "human" or a bot name. Returns (id, tokens, public table)."""
        specs = [{"kind": "human"} if kind == "human" else {"kind": "bot", "bot": kind} for kind in seats]
        body = {"game": GAME, "options": FAST if options is None else options, "seats": specs, **extra}
        response = self.client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        answer = response.json()
        return answer["table"]["id"], answer["tokens"], answer["table"]

    def open(self, table_id: str, name: str = "") -> Socket:
        """A socket that has sent nothing yet."""
        session = self.client.websocket_connect(f"/ws/tables/{table_id}")
        session.__enter__()
        socket_ = Socket(session, name or table_id)
        self.stack.callback(self._close, socket_)
        return socket_

    def connect(self, table_id: str, token: str | None = None, *, spectator: bool = False,
                name: str = "") -> Socket:
        """A socket that said hello and got its welcome."""
        socket_ = self.open(table_id, name or ("spectator" if spectator else f"token {str(token)[:6]}"))
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL}
        if spectator:
            hello["spectator"] = True
        else:
            hello["token"] = token
        socket_.send(hello)
        welcome = socket_.next("welcome", "error")
        assert welcome["type"] == "welcome", welcome
        return socket_

    def close(self, socket_: Socket) -> None:
        """Close a socket now (as a browser tab closing)."""
        self._close(socket_)

    def _close(self, socket_: Socket) -> None:
        if socket_.finished:
            return
        socket_.finished = True
        try:
            socket_.session.__exit__(None, None, None)
        except BaseException as crash:  # the server's handler raised
            self.crashes.append(crash)


def make_settings(database: Path, **overrides: Any) -> ServerSettings:
    values: dict[str, Any] = {"database_url": f"sqlite:///{database}", "bot_delay": 0.0, "grace_period": 60.0,
                              # tests play faster than people: only the rate-limit tests use the real limits
                              "messages_per_second": 100_000.0, "seat_messages_per_second": 100_000.0,
                              "address_messages_per_second": 100_000.0,
                              # and every in-process test client has one address
                              "tables_per_minute": 100_000.0, "open_tables_per_address": 100_000,
                              "sockets_per_address": 100_000, "sockets_per_table": 100_000,
                              "allowed_hosts": ("testserver",),
                              # gc.freeze is process-wide: leave this test process's collector alone
                              "gc_freeze_every": 0.0}
    values.update(overrides)
    return ServerSettings(**values)


@contextlib.contextmanager
def running_app(directory: Path, **overrides: Any) -> Iterator[Harness]:
    database = directory / "t.sqlite3"
    settings = make_settings(database, **overrides)
    with contextlib.ExitStack() as stack:
        client = stack.enter_context(TestClient(create_app(settings)))
        sockets = contextlib.ExitStack()
        harness = Harness(client, sockets, settings, database)
        with sockets:
            yield harness
    if harness.crashes:  # a test that provokes a crash on purpose reports it and clears this list
        raise AssertionError(f"a socket handler raised: {harness.crashes!r}")


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Harness]]:
    """A factory: ``make_app(grace_period=0.2, ...)`` starts an in-process server with those settings."""
    with contextlib.ExitStack() as stack:
        count = itertools.count()

        def start(**overrides: Any) -> Harness:
            directory = tmp_path / f"app{next(count)}"
            directory.mkdir()
            return stack.enter_context(running_app(directory, **overrides))

        yield start


@pytest.fixture
def app(make_app: Callable[..., Harness]) -> Harness:
    return make_app()


# -- playing ---------------------------------------------------------------------------------------------------

def wait_for(condition: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> None:
    """Wait (for the server's thread, not for game time) until ``condition()`` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def controller(socket_: Socket, seat: int) -> str:
    assert socket_.table is not None
    return str(socket_.table["seats"][seat]["controller"])


def drive(sockets: dict[int, Socket], rng: random.Random, *, max_actions: int | None = None,
          until: Callable[[dict[str, Any]], bool] | None = None,
          on_action: Callable[[int, str, dict[str, Any]], None] | None = None) -> list[tuple[int, str, int]]:
    """Play random legal moves for the seats in ``sockets`` (bots play the others) until the game is over,
    ``max_actions`` of ours were played, or ``until(latest update)`` holds. Returns (seat, action, acked version)
    for each of ours."""
    observer = next(iter(sockets.values()))
    played: list[tuple[int, str, int]] = []
    while max_actions is None or len(played) < max_actions:
        last = observer.last
        assert last is not None
        if last["outcome"] is not None or (until is not None and until(last)):
            break
        active = last["view"]["active"]
        if active in sockets and observer.table["seats"][active]["controller"] == "human":
            mine = sockets[active]
            mine.until_version(last["version"])
            assert mine.last is not None and mine.last["version"] == last["version"], "the table moved on its own"
            action = rng.choice(mine.legal)
            reply = mine.act(action)
            assert reply["type"] == "ack", reply
            assert reply["version"] == last["version"] + 1
            played.append((active, action, reply["version"]))
            if on_action is not None:
                on_action(active, action, reply)
            observer.until_version(reply["version"])
        else:
            message = observer.next("update")
            assert message["type"] == "update", f"{observer.name}: {message}"
    return played


def replay(game_options: dict[str, Any], seed: int, actions: list[tuple[int, str]]) -> list[Any]:
    """The state after each prefix of ``actions`` (index 0: the start)."""
    match = Match.start(GAME, game_options, seed)
    states = [match.state.clone()]
    for seat, action in actions:
        match.act(seat, action)
        states.append(match.state.clone())
    return states


def walk(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair in nested dicts and lists."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


# -- a real server process (tests/live_server.py) ----------------------------------------------------------

@pytest.fixture(scope="module")
def real_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real server process (bots without delay, a long grace period, every client on this one address playing
    as fast as it can); always killed at teardown."""
    directory = tmp_path_factory.mktemp("real_server")
    server = ServerProcess(directory / "divedeck.sqlite3", directory / "server.log",
                           ("--bot-delay", "0", "--grace", "600", "--address-messages-per-second", "100000",
                            "--seat-messages-per-second", "100000", "--messages-per-second", "100000",
                            "--tables-per-minute", "100000", "--open-tables-per-address", "100000",
                            "--sockets-per-address", "100000", "--sockets-per-table", "100000"))
    try:
        server.start()
        yield server
    finally:
        server.kill()
