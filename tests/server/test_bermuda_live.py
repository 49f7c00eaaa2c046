"""Bermuda on the server: several players' sockets laying cards at once, one breathing in the middle of it, bot
teammates on the server's clock, and a lost connection as a breath. Every player's final view must agree with the
server's log replayed through the rules."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from divedeck.engine import Match, get_game
from divedeck.sim.clock import ManualClock

from .clocked import run_clock
from .conftest import Harness, Socket

BERMUDA = get_game("bermuda")
START = 5_000_000


def new_table(app: Harness, seats: tuple[str, ...], **options: Any) -> tuple[str, list[Any]]:
    specs = [{"kind": "human"} if kind == "human" else {"kind": "bot", "bot": kind} for kind in seats]
    body = {"game": "bermuda", "options": {"num_players": len(seats), **options}, "seats": specs}
    response = app.client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    answer = response.json()
    return answer["table"]["id"], answer["tokens"]


def settle(sockets: list[Socket], version: int) -> None:
    for socket_ in sockets:
        socket_.until_version(version)
        socket_.drain(0.05)


def replayed(app: Harness, table_id: str) -> Match:
    """The table's log as the server stored it, replayed through the rules from its seed."""
    live = app.live(table_id)
    stored = app.manager.storage.load(table_id)
    assert stored is not None
    logged = [(seat, action) for seat, action, _ in stored.actions]
    assert logged == [(seat, BERMUDA.format_action(action)) for seat, action in live.match.actions]
    match = Match.start("bermuda", stored.options, stored.seed)
    match.replay([[seat, action] for seat, action in logged])
    return match


def stamps(match: Match) -> list[int]:
    return [int(re.search(r"@(\d+)$", BERMUDA.format_action(a)).group(1)) for _, a in match.actions]  # type: ignore


def test_players_lay_cards_at_once_one_breathes_mid_stream_and_every_view_agrees_with_the_log(app: Harness) -> None:
    table_id, tokens = new_table(app, ("human", "human", "human"), countdown_ms=0)
    sockets = [app.connect(table_id, token, name=f"seat {seat}") for seat, token in enumerate(tokens)]
    for socket_ in sockets:
        assert socket_.act("hold", version=None)["type"] == "ack"
    settle(sockets, 3)
    view = sockets[0].last["view"]  # type: ignore[index]
    assert view["phase"] == "dive"
    hands = [s.last["view"]["hand"] for s in sockets]  # type: ignore[index]
    # A burst: every player sends lays without waiting for any answer (all with the version they saw at the
    # start, so all "old"); seat 1 breathes in the middle of it.
    sent: list[tuple[int, str, str]] = []
    for k in range(8):
        for seat, socket_ in enumerate(sockets):
            if k == 4 and seat == 1:
                client_id = f"breath-{seat}"
                socket_.send({"type": "act", "client_id": client_id, "action": "release", "version": 3})
                sent.append((seat, client_id, "release"))
                continue
            action = f"lay {hands[seat][k]} c{(seat + k) % 3 + 1}"
            client_id = f"lay-{seat}-{k}"
            socket_.send({"type": "act", "client_id": client_id, "action": action, "version": 3})
            sent.append((seat, client_id, action))
    replies = {client_id: sockets[seat].reply(client_id) for seat, client_id, _ in sent}
    match = replayed(app, table_id)
    settle(sockets, len(match.actions))
    accepted = [(seat, action) for seat, client_id, action in sent if replies[client_id]["type"] == "ack"]
    refused = [replies[client_id] for _, client_id, _ in sent if replies[client_id]["type"] == "error"]
    assert ("1", "release") in [(str(s), a) for s, a in accepted]
    # Nothing was refused as stale: the only refusals are lays that arrived after the breath ended the dive.
    assert refused and all(r["code"] == "illegal_action" and r["rule"] == "BRM-R13" for r in refused)
    assert len(accepted) + len(refused) == len(sent)
    logged = [(seat, BERMUDA.format_action(a).rsplit(" @", 1)[0]) for seat, a in match.actions[3:]]
    assert logged == accepted  # the server applied them one at a time, in arrival order
    release_at = logged.index((1, "release"))
    assert all(action.startswith("lay ") for _, action in logged[:release_at])
    times = stamps(match)
    assert times == sorted(times)
    # Every player (and a spectator joining now) sees exactly the state the log leads to.
    for seat, socket_ in enumerate(sockets):
        assert socket_.last is not None and socket_.last["version"] == len(match.actions)
        assert socket_.last["view"] == BERMUDA.view(match.state, seat)
    spectator = app.connect(table_id, spectator=True)
    assert spectator.welcome is not None and spectator.welcome["view"] == BERMUDA.view(match.state, None)
    result = sockets[2].last["view"]["last_result"]  # type: ignore[index]
    assert result["reason"] == "release" and result["seat"] == 1
    laid = sum(1 for _, action in logged[:release_at] if action.startswith("lay "))
    assert sum(len(column["cards"]) for column in result["columns"]) == laid


def test_two_lays_on_one_column_in_one_burst_both_land_in_arrival_order(app: Harness) -> None:
    table_id, tokens = new_table(app, ("human", "human"), countdown_ms=0)
    sockets = [app.connect(table_id, token) for token in tokens]
    for socket_ in sockets:
        assert socket_.act("hold", version=None)["type"] == "ack"
    settle(sockets, 2)
    hands = [s.last["view"]["hand"] for s in sockets]  # type: ignore[index]
    sockets[0].send({"type": "act", "client_id": "a", "action": f"lay {hands[0][0]} c1", "version": 2})
    sockets[1].send({"type": "act", "client_id": "b", "action": f"lay {hands[1][0]} c1", "version": 2})
    assert sockets[0].reply("a")["type"] == "ack" and sockets[1].reply("b")["type"] == "ack"
    settle(sockets, 4)
    for seat, socket_ in enumerate(sockets):
        assert socket_.last["view"]["columns"][0]["cards"] == [hands[0][0], hands[1][0]], seat  # type: ignore[index]


def test_bot_teammates_dive_on_the_servers_clock_and_a_lost_connection_is_a_breath(
        make_app: Callable[..., Harness]) -> None:
    clock = ManualClock(START)
    app = make_app(clock=clock)
    table_id, tokens = new_table(app, ("human", "fast-diver", "fast-diver"), countdown_ms=200)
    table = app.live(table_id)
    me = app.connect(table_id, tokens[0])
    assert me.act("hold", version=None)["type"] == "ack"
    # the bots hold too, the countdown runs out (a tick), and they start laying at their pace
    for _ in range(600):
        run_clock(table, clock, 100)
        view = BERMUDA.view(table.match.state, 0)
        if view["phase"] == "dive" and sum(view["hand_sizes"][1:]) <= 20:
            break
    else:
        raise AssertionError("the bots did not dive within a minute of the server's clock")
    app.close(me)  # the page closes in the middle of the dive: that is breathing
    deadline = time.monotonic() + 20  # the server takes the leave action on its own loop: wait for it
    while BERMUDA.view(table.match.state, None)["last_result"] is None:
        assert time.monotonic() < deadline, "the lost connection was not taken as a breath"
        time.sleep(0.01)
    watcher = app.connect(table_id, spectator=True)
    match = replayed(app, table_id)
    actions = [(seat, BERMUDA.format_action(a)) for seat, a in match.actions]
    assert any(seat == -1 and text.startswith("tick @") for seat, text in actions)  # the countdown's end
    release = next(i for i, (seat, text) in enumerate(actions) if text.startswith("release"))
    assert actions[release][0] == 0
    bot_lays = [int(text.rsplit("@", 1)[1]) for seat, text in actions[:release] if seat in (1, 2)
                and text.startswith("lay ")]
    assert len(bot_lays) >= 4
    gaps = [b - a for a, b in zip(bot_lays, bot_lays[1:], strict=False)]
    assert max(gaps) > 0  # human-like: spread over time, not all at once
    assert watcher.welcome is not None
    result = watcher.welcome["view"]["last_result"]
    assert result["reason"] == "release" and result["seat"] == 0
