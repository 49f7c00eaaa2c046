"""The replay of a finished table (issue 15, item 5; docs/protocol.md, "Replay"): step N as seat S is exactly the
view seat S was sent after N actions, with the same log lines; a spectator's replay is a spectator's view; a table
still in play cannot be replayed."""

from __future__ import annotations

import random
from typing import Any

from .conftest import Harness, Socket, drive


def seen_views(socket_: Socket) -> dict[int, dict[str, Any]]:
    """Each version's view as the socket was sent it (welcome and updates)."""
    return {m["version"]: m for m in socket_.messages if m.get("type") in ("welcome", "update")}


def test_each_step_is_what_the_seat_saw(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human", "greedy"])
    sockets = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens) if token is not None}
    spectator = app.connect(table_id, spectator=True)
    assert app.client.get(f"/api/tables/{table_id}/replay").status_code == 409  # not over yet
    drive(sockets, random.Random(7))
    final = sockets[0].last
    assert final is not None and final["outcome"] is not None
    for socket_ in (*sockets.values(), spectator):
        socket_.until_version(final["version"])
    for seat, socket_ in [(0, sockets[0]), (1, sockets[1]), (None, spectator)]:
        query = "" if seat is None else f"?seat={seat}"
        headers = {} if seat is None else {"X-Seat-Token": str(tokens[seat])}
        answer = app.client.get(f"/api/tables/{table_id}/replay{query}", headers=headers)
        assert answer.status_code == 200, answer.text
        replay = answer.json()
        steps = replay["steps"]
        assert len(steps) == final["version"] + 1 and replay["seat"] == seat
        assert replay["outcome"] == final["outcome"]
        seen = seen_views(socket_)
        assert seen, "the socket saw nothing"
        for version, message in seen.items():
            assert steps[version]["view"] == message["view"], (seat, version)
            if message["type"] == "update":
                assert steps[version]["events"] == message["events"], (seat, version)
                assert steps[version]["action"] == message["action"] and steps[version]["actor"] == message["actor"]
        # Every step between the versions this socket saw is there too (the welcome came at version 0).
        assert set(seen) == set(range(final["version"] + 1))
    assert app.client.get(f"/api/tables/{table_id}/replay?seat=9").status_code == 400
    # A seat's replay shows its hand: not without that seat's token, nor with another seat's.
    assert app.client.get(f"/api/tables/{table_id}/replay?seat=0").status_code == 403
    assert app.client.get(f"/api/tables/{table_id}/replay?seat=0",
                          headers={"X-Seat-Token": str(tokens[1])}).status_code == 403
    assert app.client.get(f"/api/tables/{table_id}/replay?seat=2",
                          headers={"X-Seat-Token": str(tokens[0])}).status_code == 403  # a bot's seat has no token
    assert app.client.get("/api/tables/nosuchtable/replay").status_code == 404
    page = app.client.get(f"/replay/{table_id}")
    assert page.status_code == 200 and "replay.js" in page.text
