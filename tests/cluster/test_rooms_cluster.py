"""Rooms across processes (issue 24, item 4): a room made on one process is joined, watched and started through
the others, and keeps working after the process that made it is killed."""

from __future__ import annotations

import random
import signal

from tests.live_server import ServerProcess
from tests.server.test_restart import Client, TableRecord, close_all, run

from .test_routing import play, reconnect


def test_a_room_is_served_by_every_process_and_outlives_its_maker(three_servers: list[ServerProcess]) -> None:
    maker, second, third = three_servers
    status, made = maker.request("POST", "/api/rooms", {"game": "snorkeling", "options": {"target_score": 1},
                                                        "players": 2})
    assert status == 201, made
    code, host = made["room"]["code"], made["host"]
    # Two phones join through the two other processes; a wrong code is refused there as on the maker.
    joined = []
    for server, name in ((second, "Ada"), (third, "Bo")):
        status, answer = server.request("POST", "/api/rooms/join", {"code": code.lower(), "name": name})
        assert status == 200, answer
        joined.append(answer)
    assert [answer["seat"] for answer in joined] == [0, 1]
    status, answer = third.request("POST", "/api/rooms/join", {"code": "ZZZZZZ", "name": "Cy"})
    assert (status, answer["error"]["code"]) == (404, "unknown_room")
    status, answer = second.request("POST", f"/api/rooms/{code}/start", {"host": "not the host"})
    assert (status, answer["error"]["code"]) == (403, "not_host")
    status, answer = third.request("POST", f"/api/rooms/{code}/start", {"host": host})
    assert status == 200 and answer["room"]["started"], answer

    record = TableRecord(["human", "human"])
    record.id, record.tokens = joined[0]["table"], [answer["token"] for answer in joined]

    async def scenario() -> None:
        phones = {0: await Client.open(third, record.id, record.tokens[0], "Ada"),
                  1: await Client.open(second, record.id, record.tokens[1], "Bo")}
        await play(record, phones, random.Random(1), 2)
        assert maker.process is not None
        maker.process.send_signal(signal.SIGKILL)
        maker.process.wait()
        for phone in phones.values():
            await phone.wait_for(lambda p=phone: p.closed, "the phone's socket to drop", timeout=15)
        await close_all(phones)
        phones = {0: await reconnect(third, record.id, record.tokens[0], "Ada again", within=15),
                  1: await reconnect(second, record.id, record.tokens[1], "Bo again", within=15)}
        assert phones[0].welcome is not None and phones[0].welcome["version"] == 2
        await play(record, phones, random.Random(2), 2)
        await close_all(phones)

    run(scenario)
    # The shared screen, reloaded, sees its room where its table went; a phone closed and opened again gets its
    # seat back with the token it kept, and its name alone does not open it.
    status, answer = second.request("GET", f"/api/rooms/{code}", None)
    assert status in (200, 403)
    status, answer = third.request("POST", "/api/rooms/join", {"code": code, "name": "Ada"})
    assert status == 409, answer
    status, answer = third.request("POST", "/api/rooms/join", {"code": code, "name": "Ada", "token": record.tokens[0]})
    assert status == 200 and answer["seat"] == 0, answer
