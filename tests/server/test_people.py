"""People at the table (issue 14, item 4): names typed on joining, a notice with a countdown when a person drops out,
and a rematch that asks every person (docs/protocol.md, "Names", "Leaving", "Rematch")."""

from __future__ import annotations

import random
from typing import Any

from divedeck.sim.clock import ManualClock

from .conftest import PROTOCOL, Harness, Socket, drive, wait_for


def hello(app: Harness, table_id: str, token: str | None, **extra: Any) -> Socket:
    socket_ = app.open(table_id)
    socket_.send({"type": "hello", "protocol": PROTOCOL, "token": token, **extra})
    assert socket_.next("welcome", "error")["type"] == "welcome"
    return socket_


def table_message(socket_: Socket, condition: Any) -> dict[str, Any]:
    """The next ``table`` message whose table meets ``condition``."""
    while True:
        message = socket_.next("table")
        assert message["type"] == "table", message
        if condition(message["table"]):
            return message


def finished(app: Harness, seats: tuple[str, ...] = ("human", "human", "greedy")) -> tuple[str, list[Any],
                                                                                           dict[int, Socket]]:
    table_id, tokens, _ = app.create(list(seats))
    sockets = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens) if token is not None}
    drive(sockets, random.Random(5))
    return table_id, tokens, sockets


def vote(table: dict[str, Any]) -> dict[int, str] | None:
    question = table["rematch_vote"]
    return None if question is None else {entry["seat"]: entry["answer"] for entry in question["seats"]}


# -- names ------------------------------------------------------------------------------------------------------------

def test_a_name_in_the_hello_names_the_seat_for_everyone_and_is_kept(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"])
    first = app.connect(table_id, tokens[0])
    second = hello(app, table_id, tokens[1], name="  Anna   Maria ")
    assert second.welcome is not None and second.welcome["table"]["seats"][1]["name"] == "Anna Maria"
    told = table_message(first, lambda t: t["seats"][1]["name"] == "Anna Maria")
    assert told["table"]["seats"][1]["named"] is True
    # Unnamed seats keep the name the server gave them, and say a person may still give one.
    assert told["table"]["seats"][0]["name"] == "Player 1" and told["table"]["seats"][0]["named"] is False
    assert app.client.get(f"/api/tables/{table_id}").json()["table"]["seats"][1]["name"] == "Anna Maria"
    wait_for(lambda: app.manager.storage.load(table_id).seats[1]["name"] == "Anna Maria", what="the name stored")


def test_a_name_message_renames_a_seat_and_names_are_text_of_1_to_40_characters(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"])
    first = app.connect(table_id, tokens[0])
    second = app.connect(table_id, tokens[1])
    markup = "<img src=x onerror=alert(1)>"  # kept as typed: pages show names as text, never as markup
    second.send({"type": "name", "name": markup})
    assert table_message(first, lambda t: t["seats"][1]["name"] == markup)
    for wrong in ("", "   ", "x" * 41, "bell\x07", 7, None, ["Ben"]):
        second.send({"type": "name", "name": wrong})
        refusal = second.next("error")
        assert refusal["code"] == "malformed" and "1 to 40" in refusal["message"], wrong
    assert app.live(table_id).seats[1].name == markup
    spectator = app.connect(table_id, spectator=True)
    spectator.send({"type": "name", "name": "Eve"})
    assert spectator.next("error")["code"] == "spectator"
    # A name that is no name in the hello: the seat is taken all the same, and the hello's name refused.
    again = app.open(table_id)
    again.send({"type": "hello", "protocol": PROTOCOL, "token": tokens[0], "name": "x" * 41})
    assert again.next("welcome")["seat"] == 0 and again.next("error")["code"] == "malformed"


# -- dropping out ---------------------------------------------------------------------------------------------------

def test_a_person_dropping_out_shows_when_the_grace_period_ends_then_that_a_bot_plays(make_app: Any) -> None:
    clock = ManualClock(1_000_000)
    app = make_app(grace_period=30.0, clock=clock)
    table_id, tokens, _ = app.create(["human", "human"], {"target_score": 5, "first_player": 0})
    first = app.connect(table_id, tokens[0])
    second = app.connect(table_id, tokens[1])
    assert first.table is not None and first.table["seats"][1]["away_until"] is None
    app.close(second)
    gone = table_message(first, lambda t: not t["seats"][1]["connected"])
    assert gone["table"]["seats"][1]["away_until"] == 1_030_000 and gone["now"] == 1_000_000
    assert gone["table"]["seats"][1]["controller"] == "human"
    clock.advance(29_999)
    assert [m for m in first.drain(0.1) if m["type"] == "table"] == []
    clock.advance(1)
    replaced = table_message(first, lambda t: t["seats"][1]["controller"] == "bot")
    assert replaced["table"]["seats"][1]["away_until"] is None
    back = app.connect(table_id, tokens[1])
    assert back.welcome is not None and back.welcome["now"] == 1_030_000
    seat = table_message(first, lambda t: t["seats"][1]["controller"] == "human")["table"]["seats"][1]
    assert seat["connected"] and seat["away_until"] is None


def test_leaving_hands_the_seat_to_a_bot_at_once_without_a_countdown(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "human"], {"target_score": 5})
    first = app.connect(table_id, tokens[0])
    second = app.connect(table_id, tokens[1])
    second.send({"type": "leave"})
    seat = table_message(first, lambda t: t["seats"][1]["controller"] == "bot")["table"]["seats"][1]
    assert seat["away_until"] is None


# -- rematch -----------------------------------------------------------------------------------------------------------

def test_a_spectator_cannot_ask_for_a_rematch_nor_answer_one(app: Harness) -> None:
    table_id, _, sockets = finished(app)
    watcher = app.connect(table_id, spectator=True)
    for message in ({"type": "rematch"}, {"type": "rematch", "accept": False}, {"type": "rematch", "start": True}):
        watcher.send(message)
        assert watcher.next("error")["code"] == "spectator"
    assert app.live(table_id).vote_by is None and app.live(table_id).rematch_id is None
    sockets[0].send({"type": "rematch"})
    question = table_message(watcher, lambda t: t["rematch_vote"] is not None)["table"]["rematch_vote"]
    assert question["by"] == 0  # the spectator sees the question, and who answered, but has no say
    watcher.send({"type": "rematch"})
    assert watcher.next("error")["code"] == "spectator"
    assert vote(app.live(table_id).public()) == {0: "accepted", 1: "waiting"}


def test_a_rematch_asks_every_person_and_starts_when_all_accepted(app: Harness) -> None:
    table_id, _, sockets = finished(app)
    sockets[1].send({"type": "rematch"})
    for socket_ in sockets.values():
        asked = table_message(socket_, lambda t: t["rematch_vote"] is not None)["table"]
        assert asked["rematch_vote"]["by"] == 1 and vote(asked) == {0: "waiting", 1: "accepted"}  # bots do not vote
        assert asked["rematch"] is None
    assert not [m for m in sockets[0].drain(0.1) if m["type"] == "rematch"]  # nothing starts before the answers
    sockets[0].send({"type": "rematch", "accept": True})
    offers = {seat: socket_.next("rematch") for seat, socket_ in sockets.items()}
    new_id = offers[0]["table"]
    assert offers[1]["table"] == new_id and offers[0]["token"] and offers[1]["token"]
    new = app.client.get(f"/api/tables/{new_id}").json()["table"]
    assert [(s["kind"], s["bot"]) for s in new["seats"]] == [("human", None), ("human", None), ("bot", "greedy")]
    old = app.live(table_id).public()
    assert old["rematch"] == new_id and old["rematch_vote"] is None


def test_a_decline_lets_the_asker_move_on_with_those_who_accepted_and_bots_for_the_others(app: Harness) -> None:
    table_id, tokens, sockets = finished(app, ("human", "human", "human"))
    sockets[0].send({"type": "rematch"})
    sockets[1].send({"type": "rematch", "accept": False})
    answered = table_message(sockets[0], lambda t: (vote(t) or {}).get(1) == "declined")["table"]
    assert vote(answered) == {0: "accepted", 1: "declined", 2: "waiting"}
    # Only the asker moves on without the others.
    sockets[2].send({"type": "rematch", "start": True})
    assert sockets[2].next("error")["code"] == "malformed"
    sockets[2].send({"type": "rematch"})
    table_message(sockets[0], lambda t: (vote(t) or {}).get(2) == "accepted")
    sockets[0].send({"type": "rematch", "start": True})
    offers = {seat: socket_.next("rematch") for seat, socket_ in sockets.items()}
    assert offers[0]["token"] and offers[2]["token"] and "token" not in offers[1]  # who declined may watch
    new = app.client.get(f"/api/tables/{offers[0]['table']}").json()["table"]
    assert [s["kind"] for s in new["seats"]] == ["human", "bot", "human"]
    assert new["seats"][1]["bot"] == app.settings.replacement_bot
    # Coming back to the old table later: told again, with a token only for who sits at the rematch.
    assert app.connect(table_id, tokens[2]).next("rematch") == offers[2]
    assert app.connect(table_id, tokens[1]).next("rematch") == offers[1]


def test_the_asker_may_take_the_question_back_and_nobody_declines_what_was_not_asked(app: Harness) -> None:
    table_id, _, sockets = finished(app)
    sockets[1].send({"type": "rematch", "accept": False})
    assert sockets[1].next("error")["code"] == "malformed"
    sockets[1].send({"type": "rematch", "accept": "yes"})
    assert sockets[1].next("error")["code"] == "malformed"
    sockets[1].send({"type": "rematch"})
    table_message(sockets[0], lambda t: t["rematch_vote"] is not None)
    sockets[1].send({"type": "rematch", "accept": False})
    table_message(sockets[0], lambda t: t["rematch_vote"] is None)
    assert app.live(table_id).rematch_id is None


def test_no_rematch_is_asked_for_before_the_game_is_over(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "greedy"], {"target_score": 5})
    socket_ = app.connect(table_id, tokens[0])
    socket_.send({"type": "rematch"})
    assert socket_.next("error")["code"] == "malformed"
    assert app.live(table_id).vote_by is None


def test_alone_with_bots_the_rematch_starts_at_once(app: Harness) -> None:
    table_id, _, sockets = finished(app, ("human", "greedy"))
    sockets[0].send({"type": "rematch"})
    assert sockets[0].next("rematch")["token"]
