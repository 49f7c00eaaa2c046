"""Events: public fields for everyone, private fields for their owners only."""

from __future__ import annotations

from divedeck.engine import LooseEvent, get_game
from divedeck.engine.events import events_seen_by
from divedeck.games.bermuda.events import RoundStarted


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



def test_a_record_seen_by_a_seat_keeps_only_that_seats_secrets() -> None:
    bermuda = get_game("bermuda")
    _, events = bermuda.new_with_events(bermuda.make_config({}), 3)
    dealt = next(event for event in events if isinstance(event, RoundStarted))
    mine = dealt.seen_by(1)
    assert type(mine) is RoundStarted and set(mine.hand) == {1} and mine.hand[1] == dealt.hand[1]
    assert mine.for_seat(1) == dealt.for_seat(1) and dealt.seen_by(None).hand == {}
    public = LooseEvent("pass", {"seat": 0})
    assert public.seen_by(0) is public
    assert events_seen_by([public], 2) == [public]
    narrowed = events_seen_by([public, dealt], 2)
    assert narrowed[0] is public and narrowed[1].hand == {2: dealt.hand[2]}
