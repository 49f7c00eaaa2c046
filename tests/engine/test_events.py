"""Events: public fields for everyone, private fields for their owners only."""

from __future__ import annotations

from divedeck.engine import LooseEvent


def test_private_fields_reach_only_their_seat() -> None:
    event = LooseEvent("draw", {"seat": 1}, {1: {"card": "Y3"}})
    assert event.for_seat(1) == {"kind": "draw", "seat": 1, "card": "Y3"}
    assert event.for_seat(0) == {"kind": "draw", "seat": 1}
    assert event.for_seat(None) == {"kind": "draw", "seat": 1}


def test_each_seat_gets_its_own_private_fields() -> None:
    event = LooseEvent("deal", {"round": 1}, {0: {"hand": ["Y1"]}, 1: {"hand": ["R2"]}})
    assert event.for_seat(0)["hand"] == ["Y1"]
    assert event.for_seat(1)["hand"] == ["R2"]
    assert "hand" not in event.for_seat(2)


def test_for_seat_returns_a_copy() -> None:
    event = LooseEvent("pass", {"seat": 0})
    shown = event.for_seat(0)
    shown["seat"] = 3
    assert event.for_seat(0) == {"kind": "pass", "seat": 0}
