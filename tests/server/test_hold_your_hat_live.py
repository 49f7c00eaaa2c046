"""Hold your Hat over the server: a typed guess may be the secret word, so while its claim is open only its author
reads it (HYH-R5: the current word is seen only by the clue-giver). The server relays each seat the action as
``Game.public_action`` words it for that seat."""

from __future__ import annotations

import json
from typing import Any

from .conftest import Harness


def notations(message: dict[str, Any]) -> list[str]:
    """The legal actions of a welcome or update (protocol 3 sends them as records)."""
    return [record["notation"] for record in message["legal"]]


def test_a_right_guess_is_not_relayed_to_the_other_seats_while_its_claim_is_open(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human"] * 4, {"deck_size": 5, "simultaneous_window_ms": 2000},
                                     game="hold-your-hat")
    spectator = app.connect(table_id, spectator=True)
    sockets = [app.connect(table_id, token) for token in tokens]
    giver = next(s for s in sockets if s.last is not None and "start" in notations(s.last))
    assert giver.act("start")["type"] == "ack"
    started = giver.until_version(1)
    word = started["view"]["word"]["text"]
    guesser = next(s for s in sockets
                   if s is not giver and any(a.startswith("guess") for a in notations(s.until_version(1))))
    reply = guesser.act(f"guess {json.dumps(word)}")
    assert reply["type"] == "ack", reply
    version = reply["version"]
    for socket_ in [*sockets, spectator]:
        socket_.until_version(version)
        relayed = [message for message in socket_.messages
                   if message.get("type") == "update" and message.get("version") == version]
        assert len(relayed) == 1
        action = relayed[0]["action"]
        guess_events = [event for event in relayed[0]["events"] if event["kind"] == "guess"]
        assert guess_events
        if socket_ is guesser:
            assert word in action
        elif socket_ is not giver:  # the clue-giver knows the word anyway
            assert all(word not in json.dumps(event) for event in guess_events)
            # (a guess nobody else can claim is judged at once, and a won word is public: that is in the events)
            assert word not in action and action.startswith("guess ? @"), f"{socket_.name} read {action!r}"
