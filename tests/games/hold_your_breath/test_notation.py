"""Hold Your Breath!'s notations: actions, the one-line state, and a seat's masked copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from divedeck.engine import MalformedInput
from divedeck.games.hold_your_breath import (
    END,
    KEEP,
    Air,
    Calm,
    Discard,
    Draw,
    Drop,
    Gasp,
    Kraken,
    Lose,
    Mass,
    Panic,
    Shark,
    Swim,
)

from .helpers import GAME, act, fields, position

EXAMPLES = {
    "air A5D": Air("A5D"),
    "air DO 10": Air("DO", 10),
    "swim S10C": Swim("S10C"),
    "swim DO 5": Swim("DO", 5),
    "draw A5D": Draw("A5D"),
    "discard A5X>2": Discard("A5X", 2),
    "calm S5C 0": Calm("S5C", 0),
    "calm S5C 1>3": Calm("S5C", 1, 3),
    "panic A5P>1": Panic("A5P", 1),
    "shark SH>1": Shark("SH", 1),
    "kraken KR>2": Kraken("KR", 2),
    "mass KR": Mass("KR"),
    "end": END,
    "keep": KEEP,
    "gasp S10C": Gasp("S10C"),
    "drop A5D": Drop("A5D"),
    "lose A5D": Lose("A5D"),
}


@pytest.mark.parametrize(("text", "action"), EXAMPLES.items())
def test_every_kind_of_action_parses_and_formats_back(text: str, action: object) -> None:
    assert GAME.parse_action(text) == action
    assert GAME.format_action(action) == text


def test_actions_forgive_case_and_spaces() -> None:
    assert GAME.parse_action("  AIR  do 10 ") == Air("DO", 10)
    assert GAME.parse_action("Panic a5p>1") == Panic("A5P", 1)


@pytest.mark.parametrize("text", [
    "air DO", "air DO 0", "air A5D 5", "panic A5P", "panic A5P>x", "calm S5C", "calm S5C x", "draw", "mass KR>1",
    "swim Z5D", "air A5Q", "end now", "keep A5D", "lose", "dive A5D", "shark SH 1",
])
def test_malformed_actions_say_so(text: str) -> None:
    with pytest.raises(MalformedInput):
        GAME.parse_action(text)


def test_a_card_not_in_the_deck_is_malformed_not_illegal() -> None:
    state = position("hands=A5D/?5 deck=?")
    with pytest.raises(MalformedInput, match="no card A15D"):
        GAME.check(state, 0, GAME.parse_action("air A15D"))


def test_the_state_notation_round_trips_and_lists_every_field() -> None:
    state = GAME.new(GAME.make_config({"num_players": 3}), 5)
    text = GAME.state_notation(state)
    assert text.startswith("hold-your-breath round=descent first=0 active=0 phase=play hands=")
    assert GAME.state_notation(GAME.parse_state(text)) == text
    assert list(fields(state)) == ["round", "first", "active", "phase", "hands", "deck", "discard", "piles",
                                   "depths", "anchors", "surfaced", "air", "swim", "final", "kraken", "turns",
                                   "ended", "rng"]


def test_a_seat_copy_masks_hands_the_deck_face_down_panics_kraken_cards_and_the_seed() -> None:
    state = position("hands=KR,A5D,A5X,S5C,S5D,A10D/S10P,S10C,S10D,S10X,A10C piles=dS10P/bSH deck=? rng=4:2")
    act(state, "mass KR")
    act(state, "lose S10P", seat=1)
    copy = fields(state, 0, masked=True)
    assert copy["hands"] == "A5D,A5X,A10D,S5D,S5C/?4"
    assert copy["deck"] == f"?{len(fields(state)['deck'].split(','))}"
    assert copy["piles"] == "dS10P/b?"
    assert copy["kraken"] == "?/*"
    assert copy["rng"] == "?"
    spectator = fields(state, None, masked=True)
    assert spectator["piles"] == "d?/b?" and spectator["hands"] == "?5/?4"


def test_a_masked_copy_parses_into_a_state_with_the_same_copy() -> None:
    """Unknowns are filled with unused cards, so the copy is a position of its own (for bug reports)."""
    state = position("hands=A5D,S5C/A5X,S5D,A10D,S10C/?5 piles=dS10D/bKR,pA5P/- deck=? discard=SH")
    copy = GAME.seat_notation(state, 1)
    parsed = GAME.parse_state(copy)
    assert GAME.seat_notation(parsed, 1) == copy
    assert GAME.card_count(parsed) == 68


@pytest.mark.parametrize(("text", "message"), [
    ("hold-your-breath deck=?", "hands="),
    ("snorkeling hands=A5D/?5", "starts with"),
    ("hold-your-breath hands=A5D,A5D,A5D,A5D,A5D/?5 deck=?", "more copies of A5D"),
    ("hold-your-breath hands=?5/?5 anchors=10,10 deck=?", "Ascent only"),
    ("hold-your-breath hands=?5/?5 depths=7,0 deck=?", "multiples of 5"),
    ("hold-your-breath hands=?5/?5 piles=xA5D/- deck=?", "Swim Pile item"),
    ("hold-your-breath hands=?5/?5 piles=p?/- deck=?", "face-down"),
    ("hold-your-breath hands=?5/?5 phase=kraken deck=?", "kraken="),
    ("hold-your-breath hands=?5/?5 phase=over deck=?", "ended="),
    ("hold-your-breath hands=?5/?5 deck=A5D", "nowhere in the notation"),
    ("hold-your-breath hands=?5/?5 colour=red deck=?", "unknown field"),
    ("hold-your-breath hands=?5 deck=?", "2 to 4 hands"),
])
def test_bad_state_notation_is_malformed_input(text: str, message: str) -> None:
    with pytest.raises(MalformedInput, match=message):
        GAME.parse_state(text)


def test_the_documented_position_and_its_seat_copy_are_what_the_engine_writes() -> None:
    """docs/games/hold-your-breath.md section 7.2: the example line parses, and seat 1's copy printed there is the
    engine's."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "games" / "hold-your-breath.md").read_text("utf-8")
    section = doc[doc.index("### 7.2 State notation"):doc.index("### 7.3")]
    lines = [line for line in section.splitlines() if line.startswith("hold-your-breath ")]
    assert len(lines) == 2
    state = GAME.parse_state(lines[0])
    assert GAME.seat_notation(state, 1) == lines[1]
    assert GAME.state_notation(GAME.parse_state(GAME.state_notation(state))) == GAME.state_notation(state)
