"""After ``leave`` a seat has one player, its bot (issue 13, item 7): the person's sockets are refused until they
connect again, and a bot that waited its delay moves only if it is still its seat's turn."""

from __future__ import annotations

from typing import Any

from divedeck.engine.decision import Decision
from divedeck.sim.clock import ManualClock

from .conftest import FAST, wait_for


def test_a_seat_that_left_cannot_act_beside_its_bot(make_app: Any) -> None:
    clock = ManualClock()  # the bot waits its delay until the test moves the clock
    app = make_app(bot_delay=1.0, clock=clock)
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    first = app.connect(table_id, tokens[0])
    first.send({"type": "leave"})
    wait_for(lambda: app.live(table_id).seats[0].controller == "bot", "seat 0's bot")
    first.drain()
    version = app.live(table_id).version
    reply = first.act(first.legal[0], version=None)
    assert reply["type"] == "error" and reply["code"] == "left", reply
    check = first.check(first.legal[0])
    assert app.live(table_id).version == version and check["type"] in ("check", "error")
    # Connecting again takes the seat back, and then the person acts.
    back = app.connect(table_id, tokens[0])
    assert back.welcome is not None and back.welcome["table"]["seats"][0]["controller"] == "human"
    assert back.act(back.legal[0])["type"] == "ack"


class Spy:
    """A bot that records whether it was ever asked to move for a seat with nothing to do."""

    def __init__(self) -> None:
        self.asked_without_moves = 0
        self.asked = 0

    def choose(self, decision: Decision) -> Any:
        self.asked += 1
        if not decision.legal:
            self.asked_without_moves += 1
            raise IndexError("Cannot choose from an empty sequence")
        return decision.legal[0]


def test_a_bot_whose_turn_went_while_it_waited_does_not_move(make_app: Any) -> None:
    clock = ManualClock()
    app = make_app(bot_delay=1.0, clock=clock)
    table_id, tokens, _ = app.create(["human", "human"], {**FAST, "first_player": 0})
    table = app.live(table_id)
    other = app.connect(table_id, tokens[1])
    first = app.connect(table_id, tokens[0])
    first.send({"type": "leave"})
    wait_for(lambda: table.bot_task is not None, "seat 0's bot to wait its delay")
    spy = Spy()
    table.seats[0].bot = spy
    # Seat 0's person comes back and plays the whole turn, then leaves again: the bot is still waiting.
    back = app.connect(table_id, tokens[0])
    while back.last is not None and back.last["view"]["active"] == 0 and back.last["outcome"] is None:
        ends = [n for n in back.legal if n in ("end", "pass")]
        assert back.act(ends[0] if ends else back.legal[0])["type"] == "ack"
    assert 0 not in table.game.actors(table.match.state)
    back.send({"type": "leave"})
    wait_for(lambda: table.seats[0].controller == "bot", "seat 0's bot again")
    version = table.version
    clock.advance(1_000)
    other.sync()
    wait_for(lambda: table.bot_task is None, "the waiting bot to give up")
    assert spy.asked_without_moves == 0 and table.version == version
