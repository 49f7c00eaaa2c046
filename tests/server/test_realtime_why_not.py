""""Why not?" in the real-time games (issue 15, item 1): a ``check`` of a Bermuda lay or a Hold your Hat action is
answered with the reason and the rule, on the server's clock, and plays nothing."""

from __future__ import annotations

from typing import Any

from .conftest import Harness


def notations(message: dict[str, Any]) -> list[str]:
    return [record["notation"] for record in message["legal"]]


def test_a_bermuda_lay_is_explained_before_and_during_the_dive(app: Harness) -> None:
    # The deal is random, and a hand of 12 may hold every value from 1 to 9: deal again until it misses one.
    for _ in range(5):
        response = app.client.post("/api/tables", json={"game": "bermuda", "options": {"num_players": 2,
                                                                                        "countdown_ms": 0},
                                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert response.status_code == 201, response.text
        table_id, tokens = response.json()["table"]["id"], response.json()["tokens"]
        sockets = [app.connect(table_id, token) for token in tokens]
        view = sockets[0].last["view"]  # type: ignore[index]
        if set(range(1, 10)) - set(view["hand"]):
            break
    card = view["hand"][0]
    before = sockets[0].check(f"lay {card} c1")
    assert before["type"] == "check" and before["legal"] is False, before
    assert before["rule"] == "BRM-A16" and "dive" in before["reason"], before
    missing = next(value for value in range(1, 10) if value not in view["hand"])
    for socket_ in sockets:
        assert socket_.act("hold", version=None)["type"] == "ack"
    # The count of three (0 ms here) ends in a clock tick of its own, which a loaded machine may send later.
    while sockets[0].last["view"]["phase"] != "dive":  # type: ignore[index]
        sockets[0].recv()
    version = app.live(table_id).version
    during = sockets[0].check(f"lay {missing} c1")
    assert during["legal"] is False and during["rule"] == "BRM-R12" and str(missing) in during["reason"], during
    legal = next(n for n in notations(sockets[0].last) if n.startswith("lay"))  # type: ignore[arg-type]
    assert sockets[0].check(legal)["legal"] is True
    assert app.live(table_id).version == version  # nothing was played


def test_a_hold_your_hat_action_out_of_turn_is_explained(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human"] * 4, {"deck_size": 5}, game="hold-your-hat")
    sockets = [app.connect(table_id, token) for token in tokens]
    giver = next(s for s in sockets if s.last is not None and "start" in notations(s.last))
    other = next(s for s in sockets if s is not giver and s.last is not None and "start" not in notations(s.last))
    answer = other.check("start")
    assert answer["type"] == "check" and answer["legal"] is False and answer["reason"], answer
    assert answer["rule"] and answer["rule"].startswith("HYH-"), answer
    assert giver.check("start")["legal"] is True
    assert app.live(table_id).version == 0
