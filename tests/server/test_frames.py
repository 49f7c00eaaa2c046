"""Against a real server process: the frames the server writes itself (send_many.py, for clients that did not ask
for compression) carry the same messages as the websockets library's (for those that did, as browsers do)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from websockets.frames import Frame, Opcode
from websockets.sync.client import ClientConnection, connect

from divedeck.server.send_many import text_frame
from tests.live_server import ServerProcess, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("frames")) as live:
        yield live


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 70000])
def test_a_text_frame_is_the_one_the_websockets_library_writes(size: int) -> None:
    payload = b"x" * size
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])


def next_message(ws: ClientConnection) -> dict:
    """The next message but the presence ones (``table``: who is connected), which come as the seats open."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] != "table":
            return message


def play(server: ServerProcess, compression: str | None, actions: int, seed: int) -> list[dict]:
    """Open a 4-seat Snorkeling table with one socket per seat and play ``actions`` random legal moves; return
    every message the seats received, in order."""
    status, body = server.request("POST", "/api/tables", {"game": "snorkeling", "seats": [{"kind": "human"}] * 4})
    assert status == 201, body
    url = f"{server.ws_url}/ws/tables/{body['table']['id']}"
    sockets: list[ClientConnection] = []
    received: list[dict] = []
    legal: list[list[str]] = []
    version = 0
    try:
        for token in body["tokens"]:
            ws = connect(url, compression=compression, open_timeout=10)
            sockets.append(ws)
            ws.send(json.dumps({"type": "hello", "protocol": 3, "token": token}))
            welcome = json.loads(ws.recv(timeout=10))
            assert welcome["type"] == "welcome"
            received.append(welcome)
            legal.append([record["notation"] for record in welcome["legal"]])
            version = welcome["version"]
        rng = random.Random(seed)
        for number in range(actions):
            seat = next(index for index, moves in enumerate(legal) if moves)
            sockets[seat].send(json.dumps({"type": "act", "client_id": f"a{number}", "action": rng.choice(legal[seat]),
                                           "version": version}))
            for index, ws in enumerate(sockets):
                update = next_message(ws)
                assert update["type"] == "update", update
                assert update["version"] == version + 1
                received.append(update)
                legal[index] = [record["notation"] for record in update["legal"]]
            ack = next_message(sockets[seat])
            assert ack == {"type": "ack", "client_id": f"a{number}", "version": version + 1}
            received.append(ack)
            version += 1
    finally:
        for ws in sockets:
            ws.close()
    return received


def test_updates_and_acks_arrive_whole_with_and_without_compression(server: ServerProcess) -> None:
    for compression in (None, "deflate"):
        received = play(server, compression, 40, seed=7)
        assert len(received) == 4 + 40 * 5  # the welcomes, then 4 updates and an ack an action, each whole JSON
        # Every seat saw its own hand in each update, and only its own (the views are built together).
        for message in received:
            if message["type"] in ("welcome", "update"):
                view = message["view"]
                assert len(view["hand"]) == view["hand_sizes"][view["seat"]]
