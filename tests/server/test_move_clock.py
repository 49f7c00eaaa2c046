"""The clock per move (issue 26, item 10; docs/protocol.md, "The clock"): chosen when a table is made, counted on the
server's clock (a manual one here: no test sleeps for game time), its seat handed to the stand-in bot when its time
runs out, given back at the person's next action, and restored after a restart from the stored table and log."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from divedeck.server.move_clock import PROFILES, MoveClock
from divedeck.sim.clock import ManualClock

from .conftest import FAST, GAME, Harness, Socket, drive, running_app, wait_for

START = 1_000_000
FAST_CLOCK = PROFILES["fast"]  # 20 s a move, 60 s in reserve
FIRST = {**FAST, "first_player": 0}


def clocked(app: Harness, profile: str = "fast", **extra: Any) -> tuple[str, list[Any], dict[str, Any]]:
    return app.create(["human", "human"], FIRST, clock=profile, **extra)


def seat_of(app: Harness, table_id: str, seat: int) -> dict[str, Any]:
    return dict(app.live(table_id).public()["seats"][seat])


def play_turn(app: Harness, table_id: str, socket_: Socket, seat: int) -> None:
    """``seat`` plays until its turn is over (a turn may take several actions)."""
    table = app.live(table_id)
    while seat in table.game.actors(table.match.state) and not table.finished:
        socket_.until_version(table.version)
        assert socket_.act(socket_.legal[0])["type"] == "ack"


# -- the bookkeeping, on times given by hand -------------------------------------------------------------------------

def test_a_turn_spends_its_seconds_per_move_first_then_the_bank() -> None:
    clock = MoveClock.start(FAST_CLOCK, 2, [0], 0)
    assert clock.deadline(0) == 20_000 + 60_000 and clock.deadline(1) is None
    clock.moved([0], 5_000)  # an action within the turn: the turn goes on counting from its start
    assert clock.deadline(0) == 80_000
    clock.moved([1], 15_000)  # within its 20 s: the bank is untouched
    assert clock.banks == [60_000, 60_000] and clock.deadline(1) == 15_000 + 80_000
    clock.moved([0], 15_000 + 30_000)  # 10 s beyond its 20: taken from its bank
    assert clock.banks == [60_000, 50_000]
    clock.moved([1], 45_000 + 200_000)  # far beyond: the bank is empty, never below
    assert clock.banks == [0, 50_000] and clock.deadline(1) == 245_000 + 20_000 + 50_000
    clock.restart(1, 300_000)
    assert clock.deadline(1) == 300_000 + 70_000


# -- choosing it -------------------------------------------------------------------------------------------------------

def test_games_declare_whether_a_clock_per_move_makes_sense(app: Harness) -> None:
    games = {game["name"]: game for game in app.client.get("/api/games").json()["games"]}
    assert [c["name"] for c in games["snorkeling"]["clocks"]] == ["relaxed", "normal", "fast"]
    assert [c["name"] for c in games["hold-your-breath"]["clocks"]] == ["relaxed", "normal", "fast"]
    assert games["bermuda"]["clocks"] == [] and games["hold-your-hat"]["clocks"] == []  # their own clocks
    fast = games["snorkeling"]["clocks"][2]
    assert (fast["per_move"], fast["bank"]) == (20, 60) and "20 s a move" in fast["label"]


def test_a_clock_is_refused_where_it_makes_no_sense(app: Harness) -> None:
    def create(body: dict[str, Any]) -> Any:
        return app.client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}], **body})
    for body, words in [({"game": "bermuda", "clock": "fast"}, "own time"),
                        ({"game": GAME, "clock": "sometimes"}, "unknown clock"),
                        ({"game": GAME, "clock": "fast", "hotseat": True}, "several screens")]:
        answer = create(body)
        assert answer.status_code == 400, body
        assert answer.json()["error"]["code"] == "bad_config" and words in answer.json()["error"]["message"]
    assert create({"game": GAME, "clock": "off"}).json()["table"]["clock"] is None
    assert create({"game": "hold-your-breath", "clock": "relaxed"}).json()["table"]["clock"]["per_move"] == 90
    off = create({"game": GAME}).json()["table"]  # off by default
    assert off["clock"] is None and off["seats"][0]["time_until"] is None and off["seats"][0]["bank"] is None


# -- running out -------------------------------------------------------------------------------------------------------

def test_time_runs_out_the_stand_in_plays_and_the_next_action_takes_the_seat_back(make_app: Any) -> None:
    clock = ManualClock(START)
    app = make_app(clock=clock, bot_delay=1.0)  # the stand-in waits a second of the manual clock before moving
    table_id, tokens, table = clocked(app)
    assert table["clock"]["name"] == "fast" and table["seats"][0]["bank"] == 60_000
    ann, bo = app.connect(table_id, tokens[0]), app.connect(table_id, tokens[1])
    # Everyone sees when the seat to move runs out of time: its 20 s, then its 60 s in reserve.
    assert bo.welcome is not None and bo.welcome["table"]["seats"][0]["time_until"] == START + 80_000
    assert bo.welcome["table"]["seats"][1]["time_until"] is None  # not its turn
    clock.advance(79_999)
    ann.sync()
    assert seat_of(app, table_id, 0)["controller"] == "human"
    clock.advance(1)
    wait_for(lambda: seat_of(app, table_id, 0)["controller"] == "bot", "the stand-in to take the seat")
    told = bo.next("table")["table"]["seats"][0]
    assert told["controller"] == "bot" and told["timed_out"] is True and told["time_until"] is None
    version = app.live(table_id).version
    clock.advance(1_000)  # the stand-in's delay: it plays the seat's move
    wait_for(lambda: app.live(table_id).version > version, "the stand-in's move")
    update = bo.next("update")
    assert update["actor"] == 0
    # Its person's next action takes the seat back (here while the stand-in still waits its delay).
    table_ = app.live(table_id)
    while 0 not in table_.game.actors(table_.match.state):
        play_turn(app, table_id, bo, 1)
    wait_for(lambda: table_.bot_task is not None, "the stand-in to wait its delay")
    ann.until_version(table_.version)
    assert ann.act(ann.legal[0])["type"] == "ack"
    seat = seat_of(app, table_id, 0)
    assert seat["controller"] == "human" and seat["timed_out"] is False
    assert seat["bank"] == 0  # the time it ran out of is spent


def test_back_takes_the_seat_back_without_a_move(make_app: Any) -> None:
    clock = ManualClock(START)
    app = make_app(clock=clock, bot_delay=1.0)
    table_id, tokens, _ = clocked(app)
    ann, _bo = app.connect(table_id, tokens[0]), app.connect(table_id, tokens[1])
    clock.advance(80_000)
    wait_for(lambda: seat_of(app, table_id, 0)["controller"] == "bot", "the stand-in to take the seat")
    ann.send({"type": "back"})
    wait_for(lambda: seat_of(app, table_id, 0)["controller"] == "human", "the seat taken back")
    # Still its turn and its time out: the turn counts afresh (its 20 s; the bank is spent), not at once again.
    assert seat_of(app, table_id, 0)["time_until"] == START + 80_000 + 20_000
    assert app.live(table_id).version == 0


def test_a_seat_nobody_opened_yet_waits_for_its_person(make_app: Any) -> None:
    clock = ManualClock(START)
    app = make_app(clock=clock, bot_delay=0.0)
    table_id, tokens, _ = clocked(app)
    app.connect(table_id, tokens[1])
    clock.advance(200_000)
    assert seat_of(app, table_id, 0)["controller"] == "human" and seat_of(app, table_id, 0)["time_until"] is None
    app.connect(table_id, tokens[0])  # its first visit: its time counts from now
    assert seat_of(app, table_id, 0)["time_until"] == START + 200_000 + 80_000


def test_realtime_tables_and_tables_without_a_clock_never_hand_a_seat_over(make_app: Any) -> None:
    clock = ManualClock(START)
    app = make_app(clock=clock)
    table_id, tokens, _ = app.create(["human", "human"], FIRST)
    app.connect(table_id, tokens[0]), app.connect(table_id, tokens[1])
    clock.advance(10_000_000)
    assert seat_of(app, table_id, 0)["controller"] == "human" and app.live(table_id).clock_timer is None


# -- a restart ---------------------------------------------------------------------------------------------------------

def test_the_clock_survives_a_restart(tmp_path: Path) -> None:
    clock = ManualClock(START)
    with running_app(tmp_path, clock=clock, bot_delay=0.0) as app:
        table_id, tokens, _ = app.create(["human", "human"], FIRST, clock="normal")  # 45 s a move, 180 s reserve
        ann, bo = app.connect(table_id, tokens[0]), app.connect(table_id, tokens[1])
        clock.advance(50_000)  # 5 s beyond the move's 45
        play_turn(app, table_id, ann, 0)
        clock.advance(10_000)
        assert app.live(table_id).move_clock.banks == [175_000, 180_000]
        turn = app.live(table_id).move_clock.since
        assert turn == {1: START + 50_000}
        wait_for(lambda: app.manager.storage.load(table_id).times[-1] == START + 50_000, "the log's times")
        del bo
    clock = ManualClock(clock.now())  # the first server's timers died with it
    with running_app(tmp_path, clock=clock, bot_delay=0.0) as app:
        restored = app.live(table_id)
        assert restored.move_clock.banks == [175_000, 180_000] and restored.move_clock.since == turn
        seat = restored.public()["seats"][1]
        assert seat["time_until"] == START + 50_000 + 45_000 + 180_000
        assert restored.public()["clock"]["name"] == "normal"
        # and it still runs out: Bo never comes back, and the stand-in plays Bo's move
        version = restored.version
        clock.advance(45_000 + 180_000 - 10_000)
        wait_for(lambda: restored.version > version, "the stand-in's move after the restart")
        assert restored.seats[1].timed_out or restored.seats[1].controller == "bot"


def test_a_rooms_clock_starts_with_its_game(make_app: Any) -> None:
    clock = ManualClock(START)
    app = make_app(clock=clock)
    made = app.client.post("/api/rooms", json={"game": GAME, "options": FIRST, "players": 2, "clock": "fast"})
    assert made.status_code == 201, made.text
    code, host, table_id = made.json()["room"]["code"], made.json()["host"], made.json()["room"]["table"]["id"]
    tokens = [app.client.post("/api/rooms/join", json={"code": code, "name": name}).json()["token"]
              for name in ("Ann", "Bo")]
    for token in tokens:
        app.connect(table_id, token)
    clock.advance(500_000)  # held: nobody's time runs
    assert seat_of(app, table_id, 0)["time_until"] is None and seat_of(app, table_id, 0)["controller"] == "human"
    assert app.client.post(f"/api/rooms/{code}/start", json={"host": host}).status_code == 200
    assert seat_of(app, table_id, 0)["time_until"] == START + 500_000 + 80_000


def test_a_rematch_keeps_the_clock(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"], FAST, clock="relaxed")
    sockets = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}
    drive(sockets, random.Random(3))
    sockets[0].send({"type": "rematch"})
    sockets[1].send({"type": "rematch", "accept": True})
    new_id = sockets[0].next("rematch")["table"]
    assert app.client.get(f"/api/tables/{new_id}").json()["table"]["clock"]["name"] == "relaxed"
