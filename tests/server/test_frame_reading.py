"""Against a real server process: the client frames the server reads itself (frame_reader.py) and those it hands
to the websockets library are answered alike, however the bytes arrive (one byte at a time, many frames in one
write, a frame split anywhere), and every frame the library refuses still closes the socket with its code."""

from __future__ import annotations

import json
import random
import socket
import time
from collections.abc import Iterator

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from tests.live_server import ServerProcess, running_server

PING = json.dumps({"type": "ping"}).encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # Every test opens a table of its own: more than an address may open a minute by default.
    with running_server(tmp_path_factory.mktemp("frame-reading"), "--tables-per-minute", "1000") as live:
        yield live


def frame(opcode: Opcode, payload: bytes, fin: bool = True, masked: bool = True, rsv1: bool = False) -> bytes:
    """A client's frame as bytes: masked as RFC 6455 requires unless told otherwise, and with the first reserved
    bit set if told (the server must refuse both)."""
    data = Frame(opcode, payload, fin=fin).serialize(mask=masked, extensions=[])
    return bytes([data[0] | 0x40]) + data[1:] if rsv1 else data


class RawSocket:
    """A websocket whose frames the test writes byte for byte; the server's frames are read by the library."""

    def __init__(self, server: ServerProcess, table_id: str) -> None:
        self.protocol = ClientProtocol(parse_uri(f"{server.ws_url}/ws/tables/{table_id}"), max_size=None)
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        self.protocol.send_request(self.protocol.connect())
        self.sock.sendall(b"".join(self.protocol.data_to_send()))
        self.events: list[object] = []
        response = self.next_event()
        assert isinstance(response, Response) and response.status_code == 101, response

    def write(self, data: bytes, pieces: int = 1, rng: random.Random | None = None) -> None:
        """Write ``data`` in ``pieces`` writes cut at random places (every byte alone when ``pieces`` is 0)."""
        if pieces == 0:
            cuts = list(range(1, len(data)))
        else:
            cuts = sorted((rng or random.Random(0)).sample(range(1, len(data)), min(pieces - 1, len(data) - 1)))
        for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True):
            try:
                self.sock.sendall(data[start:end])
            except (BrokenPipeError, ConnectionResetError):
                return  # the server refused what it had read and closed: its close frame says why
            if pieces == 0 or len(cuts) < 50:
                time.sleep(0.002)  # separate reads on the server's side, most of the time

    def next_event(self) -> object:
        while not self.events:
            data = self.sock.recv(65536)
            if data:
                self.protocol.receive_data(data)
            else:
                self.protocol.receive_eof()
            self.events.extend(self.protocol.events_received())
            if not data and not self.events:
                raise EOFError("the server closed the connection")
        return self.events.pop(0)

    def next_message(self) -> dict:
        """The next text message but the presence ones (``table``)."""
        while True:
            event = self.next_event()
            assert isinstance(event, Frame), event
            if event.opcode is Opcode.TEXT:
                message = json.loads(event.data)
                if message["type"] != "table":
                    return message

    def close_code(self) -> int:
        """The code of the server's close frame (the messages before it are skipped)."""
        while True:
            event = self.next_event()
            assert isinstance(event, Frame), event
            if event.opcode is Opcode.CLOSE:
                return Close.parse(event.data).code

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def seat(server: ServerProcess) -> Iterator[RawSocket]:
    status, body = server.request("POST", "/api/tables", {"game": "snorkeling", "seats": [{"kind": "human"}] * 2})
    assert status == 201, body
    raw = RawSocket(server, body["table"]["id"])
    hello = json.dumps({"type": "hello", "protocol": 3, "token": body["tokens"][0]}).encode()
    raw.write(frame(Opcode.TEXT, hello), pieces=0)  # the first frame, one byte at a time
    assert raw.next_message()["type"] == "welcome"
    try:
        yield raw
    finally:
        raw.close()


@pytest.mark.parametrize("pieces", [0, 1, 3, 17])
def test_messages_are_read_whole_however_their_bytes_arrive(seat: RawSocket, pieces: int) -> None:
    """Short and long (16-bit length) text frames, a message in fragments with a ping frame between them, a message
    that is not JSON: in one write, byte by byte, or cut anywhere, each is answered once and in order. (The ping
    frame is answered by the protocol at once, the messages by the table: only each kind's own order is fixed.)"""
    long_ping = json.dumps({"type": "ping", "padding": "x" * 300}).encode()  # 126 <= length < 65536
    data = b"".join([frame(Opcode.TEXT, PING), frame(Opcode.TEXT, long_ping),
                     frame(Opcode.TEXT, PING[:5], fin=False), frame(Opcode.PING, b"are you there"),
                     frame(Opcode.CONT, PING[5:9], fin=False), frame(Opcode.CONT, PING[9:]),
                     frame(Opcode.TEXT, "é".encode() + b"not json"), frame(Opcode.TEXT, PING)] * 2)
    seat.write(data, pieces, random.Random(pieces))
    answers: list[str] = []
    pongs: list[bytes] = []
    while len(answers) + len(pongs) < 12:
        event = seat.next_event()
        assert isinstance(event, Frame), event
        if event.opcode is Opcode.PONG:
            pongs.append(bytes(event.data))
        elif event.opcode is Opcode.TEXT and json.loads(event.data)["type"] != "table":
            message = json.loads(event.data)
            answers.append(message["type"] if message["type"] == "pong" else message["code"])
    assert answers == ["pong", "pong", "pong", "malformed", "pong"] * 2
    assert pongs == [b"are you there"] * 2


def test_a_frame_past_the_size_limit_closes_the_socket_with_1009(seat: RawSocket) -> None:
    # Only the frame's head, which says enough (a server that closes with bytes unread resets the connection,
    # and the client would never read the close frame).
    seat.write(frame(Opcode.TEXT, PING) + frame(Opcode.TEXT, b" " * 70_000)[:20], pieces=0)
    assert seat.next_message()["type"] == "pong"  # the frame before it was read
    assert seat.close_code() == 1009


def test_a_frame_the_client_did_not_mask_closes_the_socket_with_1002(seat: RawSocket) -> None:
    seat.write(frame(Opcode.TEXT, PING, masked=False))
    assert seat.close_code() == 1002


def test_a_frame_with_a_reserved_bit_closes_the_socket_with_1002(seat: RawSocket) -> None:
    seat.write(frame(Opcode.TEXT, PING, rsv1=True))
    assert seat.close_code() == 1002


def test_a_text_frame_not_in_utf8_closes_the_socket_with_1007(seat: RawSocket) -> None:
    seat.write(frame(Opcode.TEXT, PING) + frame(Opcode.TEXT, b'{"type": "\xff"}'), pieces=0)
    assert seat.next_message()["type"] == "pong"
    assert seat.close_code() == 1007


def test_a_close_frame_is_answered_and_frames_after_it_are_not_read(seat: RawSocket) -> None:
    seat.write(frame(Opcode.CLOSE, Close(1000, "bye").serialize()) + frame(Opcode.TEXT, PING), pieces=2)
    assert seat.close_code() == 1000


@pytest.mark.parametrize("seed", range(4))
def test_random_cuts_of_many_messages_lose_none(seat: RawSocket, seed: int) -> None:
    """As many messages as a socket may send at once (its burst), written in pieces cut at random."""
    seat.write(frame(Opcode.TEXT, PING) * 18, pieces=12, rng=random.Random(seed))
    assert [seat.next_message()["type"] for _ in range(18)] == ["pong"] * 18
