"""Against a real server process (issue 13, item 8): a client that opens an HTTP connection and sends its request
slowly, or not at all, is let go; invalid UTF-8 in a websocket text frame closes the socket without a traceback."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import ServerProcess, running_server

HEADER_TIMEOUT = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("slow"), "--header-timeout", str(HEADER_TIMEOUT),
                        "--keep-alive", "1") as live:
        yield live


def closed_within(connection: socket.socket, seconds: float) -> float:
    """Seconds until the server closed ``connection`` (fails after ``seconds``)."""
    start = time.monotonic()
    connection.settimeout(seconds)
    try:
        while connection.recv(4096):
            pass
    except TimeoutError:
        pytest.fail(f"the server kept the connection open for {seconds} s")
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def open_raw(server: ServerProcess) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=5)


def test_a_connection_that_sends_nothing_is_closed(server: ServerProcess) -> None:
    with open_raw(server) as connection:
        assert closed_within(connection, HEADER_TIMEOUT + 3) >= HEADER_TIMEOUT * 0.8


def test_a_request_head_dripped_slowly_is_cut_off(server: ServerProcess) -> None:
    with open_raw(server) as connection:
        connection.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n")
        start = time.monotonic()
        try:
            while time.monotonic() - start < HEADER_TIMEOUT + 3:
                connection.sendall(b"X-Slow: 1\r\n")  # a header line now and then, never the end of the head
                time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass
        else:
            closed_within(connection, 1)
        assert time.monotonic() - start < HEADER_TIMEOUT + 3


def test_many_half_open_requests_are_all_let_go(server: ServerProcess) -> None:
    connections = [open_raw(server) for _ in range(50)]
    try:
        for connection in connections:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        for connection in connections:
            closed_within(connection, HEADER_TIMEOUT + 3)
    finally:
        for connection in connections:
            connection.close()
    status, _ = server.request("GET", "/api/games")
    assert status == 200


def test_an_idle_keep_alive_connection_is_closed(server: ServerProcess) -> None:
    with open_raw(server) as connection:
        connection.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert connection.recv(4096).startswith(b"HTTP/1.1 200")
        closed_within(connection, 3)


def websocket_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    assert len(payload) < 126
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked


def test_invalid_utf8_in_a_text_frame_closes_cleanly(server: ServerProcess) -> None:
    status, created = server.request("POST", "/api/tables", {"game": "snorkeling",
                                                             "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert status == 201
    key = base64.b64encode(os.urandom(16)).decode()
    with open_raw(server) as connection:
        connection.sendall((f"GET /ws/tables/{created['table']['id']} HTTP/1.1\r\nHost: localhost\r\n"
                            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        assert connection.recv(4096).startswith(b"HTTP/1.1 101")
        hello = json.dumps({"type": "hello", "protocol": 3, "token": created["tokens"][0]}).encode()
        connection.sendall(websocket_frame(hello))
        time.sleep(0.2)
        connection.sendall(websocket_frame(b'{"type": "ping", "x": "\xff\xfe"}'))
        closed_within(connection, 5)
    time.sleep(0.2)
    status, _ = server.request("GET", f"/api/tables/{created['table']['id']}")
    assert status == 200
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log and "Exception" not in log, log


def test_the_log_has_no_traceback(server: ServerProcess) -> None:
    assert "Traceback" not in Path(server.log).read_text(errors="replace")
