"""What Hold Your Breath! sends people: action records, log parts, static data and the move text other seats read.

Cards are named in words ("Air 10 (Panic)") in labels and log lines, never by their notation code, and nothing a
seat may not see reaches it through a label, a log line or a move's text.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from divedeck.engine import Match
from divedeck.games.hold_your_breath.cards import label_name

from .helpers import GAME, act, config, position
from .test_components import deck_file

CODE = re.compile(r"\b(?:[AS]\d+[DXCPHK]|SH|KR|DO)\b")


def _games(seeds: range = range(3)) -> list[tuple[Match, list[tuple[int, object, list[object]]]]]:
    """Seeded random games: each match and its (seat, action, events) steps."""
    played = []
    for seed in seeds:
        match = Match.start("hold-your-breath", {"num_players": 3}, seed)
        rng = random.Random(seed)
        steps = []
        while not match.over:
            seat = min(GAME.actors(match.state))
            action = rng.choice(GAME.legal_actions(match.state, seat))
            steps.append((seat, action, list(match.act(seat, action))))
        played.append((match, steps))
    return played


def test_a_face_down_card_is_masked_in_the_move_text_for_every_seat_but_the_actor() -> None:
    """A breath penalty's card and a Kraken victim's card lie face down: the move reads ``gasp ?`` / ``lose ?`` to
    every other seat and to spectators, and in full to the one who made it."""
    gasp, lose = GAME.parse_action("gasp S10P"), GAME.parse_action("lose A5D")
    for action, masked in ((gasp, "gasp ?"), (lose, "lose ?")):
        assert GAME.public_action(action, 1, 1) == str(action)
        assert GAME.public_action(action, 0, 1) == masked
        assert GAME.public_action(action, None, 1) == masked
    for face_up in ("drop A5D", "panic A5P>1", "air DO 10", "end"):
        assert GAME.public_action(GAME.parse_action(face_up), 0, 1) == face_up


def test_legal_records_name_kind_card_target_and_words() -> None:
    state = position("hands=A5P,S5C,DO/?5 air=5 deck=?")
    records = {record["notation"]: record for record in
               (GAME.action_record(state, 0, action) for action in GAME.legal_actions(state, 0))}
    assert records["panic A5P>1"] == {"notation": "panic A5P>1", "kind": "panic", "cards": ["A5P"], "target": 1,
                                      "label": "put Air 5 (Panic) on seat 2 as a Panic"}  # seats from 1
    assert records["air DO 10"]["label"] == "breathe with Dolphin as Air 10"
    assert records["end"] == {"notation": "end", "kind": "endplay", "cards": [], "target": None,
                              "label": "stop playing cards: move, then finish the turn"}
    assert {record["kind"] for record in records.values()} == {"endplay", "air", "swim", "panic", "draw", "discard",
                                                               "shark", "mass"}
    assert all(not CODE.search(record["label"]) for record in records.values())


def test_log_parts_name_cards_in_words_and_show_no_seat_what_it_may_not_see() -> None:
    """Every event of seeded games as each seat and a spectator read it: card parts are card names, no text part
    holds a code, and a card appears in a seat's line only if that seat's copy of the event holds it."""
    checked = 0
    for match, steps in _games():
        for event in (event for _, _, step_events in steps for event in step_events):
            for viewer in (None, 0, 1, 2):
                parts = GAME.log_parts(event, viewer)
                visible = {label_name(code) for code in CODE.findall(json.dumps(event.for_seat(viewer)))}
                named = {part["card"] for part in parts if "card" in part}
                assert named <= visible, (event, viewer, parts)
                assert not any(CODE.search(part.get("text", "")) for part in parts), parts
                checked += bool(event.private_parts()) and viewer not in event.private_parts()
        assert match.over
    assert checked


def test_a_face_down_penalty_never_reaches_another_seat_in_any_form() -> None:
    """The breath penalty laid from the hand: its owner's log line names it, another seat's line, the move text
    and the view do not."""
    state = position("hands=S10P,S5D/?5 deck=?")
    act(state, "end")
    events = act(state, "gasp S10P")
    gasp = events[0]
    assert "Swim 10 (Panic)" in GAME.format_event(gasp, 0)
    for viewer in (1, None):
        line = GAME.format_event(gasp, viewer)
        assert "Swim 10" not in line and "S10P" not in line
        assert "S10P" not in json.dumps(GAME.view(state, viewer)["piles"])
        assert GAME.public_action(GAME.parse_action("gasp S10P"), viewer, 0) == "gasp ?"


def test_static_data_carries_the_card_table_and_board_and_the_view_does_not(tmp_path: Path) -> None:
    """The card table (with each card's uses) and the board are static: sent once, never in a view; a custom deck
    renders with its own cards."""
    static = GAME.static_data(config())
    cards = {card["label"]: card for card in static["cards"]}
    assert static["hindrance_penalty"] == 10 and static["step"] == 5 and static["max_depth"] == 150
    assert [use["label"] for use in cards["A10P"]["uses"]] == ["Air 10", "Panic"]
    assert [use["notation"] for use in cards["DO"]["uses"] if "notation" in use] == [
        "air DO 5", "air DO 10", "swim DO 5", "swim DO 10", "draw DO", "mass DO"]
    assert cards["A5P"]["uses"][1]["example"] == "panic A5P>{seat}"
    assert [use["kind"] for use in cards["KR"]["uses"]] == ["kraken", "mass"]
    view = GAME.view(GAME.new(config(), 1), 0)
    assert "cards" not in view and "hindrance_penalty" not in view
    assert len(json.dumps(view)) < 1000
    rows = [("air", 5, "draw", 34), ("swim", 15, "calm", 30), ("shark", None, None, 2), ("kraken", None, None, 1),
            ("dolphin", None, None, 1)]
    custom = GAME.static_data(config(cards=str(deck_file(tmp_path, rows, board="max_depth = 60\nstep = 5\n"
                                                                              "hindrance_penalty = 15\n"))))
    assert [card["name"] for card in custom["cards"]] == ["Air 5 (Draw)", "Swim 15 (Calm)", "Shark", "Kraken",
                                                          "Dolphin"]
    assert (custom["max_depth"], custom["hindrance_penalty"]) == (60, 15)
