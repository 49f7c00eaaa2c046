"""Undo within one's own turn (issue 15, item 5; docs/protocol.md, "Undo"): a move the game declares undoable (it
revealed and drew nothing) may be taken back while the turn goes on; the server rebuilds the state from the log
without it, so every other seat's view is what it was before the move, and a restart replays the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from divedeck.engine.config import config_to_options
from divedeck.engine.match import Match
from divedeck.engine.registry import get_game

from .conftest import FAST, Harness, Socket, running_app


def undo(socket_: Socket) -> dict[str, Any]:
    """Send an undo; the ``undone`` message or the error that answers it."""
    socket_.send({"type": "undo"})
    return socket_.next("undone", "error")


def seat_to_move(sockets: dict[int, Socket]) -> int:
    return next(seat for seat, s in sockets.items() if s.last is not None and s.last["legal"])


def play(sockets: dict[int, Socket], seat: int, notation: str) -> None:
    reply = sockets[seat].act(notation)
    assert reply["type"] == "ack", reply
    for socket_ in sockets.values():
        socket_.until_version(reply["version"])


def two_humans(app: Harness) -> tuple[str, dict[int, Socket]]:
    """A new two-seat table whose first mover can play a card (a deal may leave only ``pass``: then another)."""
    table_id, tokens = dealt(app)
    return table_id, {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}


def dealt(app: Harness) -> tuple[str, list[Any]]:
    for _ in range(50):
        table_id, tokens, _ = app.create(["human", "human"])
        match = app.live(table_id).match
        seat = min(match.game.actors(match.state))
        if any(match.game.format_action(a).startswith(("c ", "p ")) for a in match.game.legal_actions(match.state,
                                                                                                       seat)):
            return table_id, tokens
    raise AssertionError("no deal with a card to play")


def a_plain_play(socket_: Socket) -> str:
    """A play to the centre or onto a pile (before ``end``) the mover may take."""
    return next(n for n in socket_.legal if n.startswith(("c ", "p ")))


def test_a_play_before_end_is_taken_back_and_nobody_can_tell(app: Harness) -> None:
    table_id, sockets = two_humans(app)
    mover = seat_to_move(sockets)
    other = 1 - mover
    views_before = {seat: s.last["view"] for seat, s in sockets.items()}  # type: ignore[index]
    legal_before = sockets[mover].legal
    play(sockets, mover, a_plain_play(sockets[mover]))
    assert sockets[other].last["view"] != views_before[other]  # type: ignore[index]  # the play was seen
    assert sockets[mover].last["can_undo"] is True and sockets[other].last["can_undo"] is False  # type: ignore[index]
    answer = undo(sockets[mover])
    assert answer["type"] == "undone", answer
    told = sockets[other].next("undone")
    assert told["view"] == views_before[other] and told["actor"] == mover
    assert answer["view"] == views_before[mover] and [r["notation"] for r in answer["legal"]] == legal_before
    assert told["legal"] == []  # the other seat still waits
    # Versions only grow: a page never sees one twice.
    assert answer["version"] > sockets[mover].last["version"]  # type: ignore[index]
    # The state is the one the log without the move gives.
    live = app.live(table_id)
    fresh = Match.start("snorkeling", config_to_options(live.match.config), live.match.seed)
    game = get_game("snorkeling")
    assert game.state_notation(live.match.state) == game.state_notation(fresh.state)
    # The mover plays on from there.
    sockets[mover].last = answer
    assert sockets[mover].act(a_plain_play(sockets[mover]), version=answer["version"])["type"] == "ack"


def test_a_move_that_drew_cannot_be_taken_back_nor_another_seats(app: Harness) -> None:
    _, sockets = two_humans(app)
    mover = seat_to_move(sockets)
    other = 1 - mover
    assert undo(sockets[mover])["code"] == "not_undoable"  # nothing played yet
    play(sockets, mover, a_plain_play(sockets[mover]))
    assert undo(sockets[other])["code"] == "not_undoable"  # not the other seat's move
    end = "end" if "end" in sockets[mover].legal else "pass"
    play(sockets, mover, end)  # ends the turn and draws
    assert sockets[mover].last["can_undo"] is False  # type: ignore[index]
    assert undo(sockets[mover])["code"] == "not_undoable"  # the turn is over, the draw was seen
    next_mover = seat_to_move(sockets)
    assert undo(sockets[next_mover])["code"] == "not_undoable"  # the end was not the next mover's move


def test_a_play_that_draws_is_refused_by_the_game() -> None:
    """The declaration itself: a centre play whose events drew a card is not undoable."""
    game = get_game("snorkeling")
    match = Match.start("snorkeling", FAST, 3)
    seat = min(game.actors(match.state))
    action = next(a for a in game.legal_actions(match.state, seat) if game.format_action(a).startswith("c "))
    before = match.state.clone()
    events = game.apply(match.state, seat, action)
    assert game.undoable(before, seat, action, events)
    drew = [*events, *game.apply(match.state.clone(), seat, game.parse_action("end"))]
    assert not game.undoable(before, seat, action, drew)
    assert not game.undoable(before, seat, game.parse_action("end"), events)
    hyb = get_game("hold-your-breath")
    hyb_match = Match.start("hold-your-breath", {}, 3)
    hyb_seat = min(hyb.actors(hyb_match.state))
    hyb_before = hyb_match.state.clone()
    for candidate in hyb.legal_actions(hyb_match.state, hyb_seat):
        probe = hyb_before.clone()
        hyb_events = hyb.apply(probe, hyb_seat, candidate)
        kinds = {event.kind for event in hyb_events}
        assert hyb.undoable(hyb_before, hyb_seat, candidate, hyb_events) == (
            hyb.format_action(candidate).startswith(("air", "swim")) and kinds <= {"air", "swim"})


def test_an_undone_move_stays_undone_after_a_restart(tmp_path: Path) -> None:
    with running_app(tmp_path) as app:
        table_id, tokens = dealt(app)
        sockets = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}
        mover = seat_to_move(sockets)
        play(sockets, mover, a_plain_play(sockets[mover]))
        answer = undo(sockets[mover])
        assert answer["type"] == "undone"
        sockets[mover].last = answer
        played = a_plain_play(sockets[mover])
        reply = sockets[mover].act(played, version=answer["version"])
        assert reply["type"] == "ack"
        state = app.manager.get(table_id).match
        expected = state.game.state_notation(state.state)
        version = reply["version"]
    with running_app(tmp_path) as app:
        again = app.connect(table_id, tokens[mover])
        restored = app.manager.get(table_id).match
        assert restored.game.state_notation(restored.state) == expected
        assert again.welcome is not None and again.welcome["version"] == version


def test_undo_is_offered_and_works_after_a_restart_mid_turn(tmp_path: Path) -> None:
    """The table's "may be undone" is rebuilt from the stored log: a restart between a play and its undo changes
    neither the offer nor the result."""
    with running_app(tmp_path) as app:
        table_id, tokens = dealt(app)
        sockets = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}
        mover = seat_to_move(sockets)
        other = 1 - mover
        views_before = {seat: s.last["view"] for seat, s in sockets.items()}  # type: ignore[index]
        play(sockets, mover, a_plain_play(sockets[mover]))
        assert sockets[mover].last["can_undo"] is True  # type: ignore[index]
    with running_app(tmp_path) as app:
        again = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}
        assert again[mover].welcome is not None and again[mover].welcome["can_undo"] is True
        assert again[other].welcome is not None and again[other].welcome["can_undo"] is False
        assert undo(again[other])["code"] == "not_undoable"
        answer = undo(again[mover])
        assert answer["type"] == "undone", answer
        assert answer["view"] == views_before[mover]
        assert again[other].next("undone")["view"] == views_before[other]
        assert answer["can_undo"] is False  # nothing more of this turn to take back


def test_a_move_that_ended_the_turn_is_not_offered_after_a_restart(tmp_path: Path) -> None:
    with running_app(tmp_path) as app:
        table_id, tokens = dealt(app)
        sockets = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}
        mover = seat_to_move(sockets)
        play(sockets, mover, a_plain_play(sockets[mover]))
        play(sockets, mover, "end" if "end" in sockets[mover].legal else "pass")
    with running_app(tmp_path) as app:
        again = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}
        assert all(s.welcome is not None and s.welcome["can_undo"] is False for s in again.values())
