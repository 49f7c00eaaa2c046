"""Hold your Hat's action and state notations: every action written and read back, the blank forms, times, and
clear refusals of text that is not an action or not a position."""

from __future__ import annotations

import pytest

from divedeck.engine import IllegalAction, MalformedInput

from .helpers import GAME, act, config, fields, small, started


@pytest.mark.parametrize("text", [
    "start", "binoculars", "order 3,1,2,5,4", "raid B", "guess ?", 'guess "sea horse"', "got A", "theft C ?",
    'theft B "anchor"', "theft B ok", "theft F miss", "skip", "foul", 'clue "a fish that stands up"', "extra",
    "end", "tick @60000", 'guess "sea horse" @12000', "order 1 @5", 'guess "ünïcödé \\"quotes\\""',
    'clue "👩\u200d🏫 🏴\u200d☠️ \U0001fa77"',  # emoji joined by a zero-width joiner; an emoji of Unicode 15
])
def test_every_action_round_trips(text: str) -> None:
    action = GAME.parse_action(text)
    assert GAME.format_action(action) == text
    assert GAME.parse_action(GAME.format_action(action)) == action


def test_every_shipped_clue_a_bot_may_type_is_stored_and_read_back() -> None:
    """A bot's clue goes into the table's stored log as notation: the parser must take it back (a mime clue's emoji
    joined by a zero-width joiner, or newer than Python's Unicode data, once made a stored game impossible to
    load)."""
    from divedeck.games.hold_your_hat.actions import Clue
    from divedeck.games.hold_your_hat.associations import load_associations

    associations = load_associations()
    for card in GAME.make_config({}).table.cards:
        for entry in card.entries:
            found = associations.get(entry.text)
            assert found is not None
            for text in (found.describe, *found.clues, " ".join(found.mime)):
                assert GAME.parse_action(GAME.format_action(Clue(text))) == Clue(text)


def test_forgiving_input_is_written_canonically() -> None:
    assert GAME.format_action(GAME.parse_action("  GOT a  ")) == "got A"
    assert GAME.format_action(GAME.parse_action('guess   "  sea   horse "  @7')) == 'guess "sea horse" @7'
    assert GAME.at(GAME.parse_action("skip @5"), 9) == GAME.parse_action("skip @9")


@pytest.mark.parametrize("text", [
    "guess sea horse", 'guess "unterminated', 'guess "two" "texts"', 'guess ""', 'guess "   "', "guess",
    'guess "a\\u0000b"', 'clue "ca\u200dge"', "clue ?", "raid", "raid G", "raid AB", "got", "theft", "theft B",
    "theft B maybe", "order", "order a,b", "start now", "tick @-5", "skip @", "skip @12x", "order 1,2 @@ 3",
    'guess "' + "x" * 81 + '"', "hello", "",
])
def test_text_that_is_no_action_is_malformed(text: str) -> None:
    with pytest.raises(MalformedInput):
        GAME.parse_action(text)


def test_well_formed_but_impossible_actions_are_illegal_not_malformed() -> None:
    state = started(3)
    with pytest.raises(IllegalAction) as caught:
        GAME.check(state, 2, GAME.parse_action("raid F"))
    assert caught.value.rule == "HYH-R1"
    with pytest.raises(IllegalAction):
        GAME.check(state, 0, GAME.parse_action("order 9"))


def test_state_notation_round_trips_in_every_phase() -> None:
    state = small(8, "held=BE/TR")
    texts = [GAME.state_notation(state)]
    for seat, move, t in [(2, "raid B", 1), (0, "binoculars", 2), (0, "order 2,1,3,4,5", 3), (0, "start", 4),
                          (1, 'guess "w002-orange"', 5), (3, 'guess "w001-orange"', 6), (0, "foul", 400),
                          (-1, "tick", 61_004), (1, "extra", 61_100)]:
        act(state, seat, move, t)
        texts.append(GAME.state_notation(state))
    assert {fields(state)["phase"] for state in [state]} == {"extra"}
    for text in texts:
        parsed = GAME.parse_state(text, config(deck_size=8))
        assert GAME.state_notation(parsed) == text


def test_a_seat_copy_parses_to_a_state_with_the_same_copy() -> None:
    state = small(8, "held=B/-")
    act(state, 0, "binoculars", 1)
    for seat in (None, 0, 1, 2):
        copy = GAME.seat_notation(state, seat)
        parsed = GAME.parse_state(copy, config(deck_size=8))
        assert GAME.seat_notation(parsed, seat) == copy
    assert fields(state, 0, masked=True)["deck"].startswith("?3,")


@pytest.mark.parametrize(("text", "message"), [
    ("round=1 bogus=1", "unknown field"),
    ("round=1 round=2", "appears twice"),
    ("phase=main", "timer= is a time exactly while the timer runs"),
    ("deck=W001,W001", "appears twice"),
    ("deck=W999", "not a card of the word list"),
    ("set=W001,W002 deck=W001", "leaves 0 unknown, not 1"),
    ("held=R/RRRR", "more special cards of one kind"),
    ("specials=B", "do not add up to the 17"),
    ("raiders=Z", "team letters"),
    ("claim=A@5", "needs a current word"),
    ("used=x", "used= is"),
])
def test_a_position_that_cannot_be_is_malformed(text: str, message: str) -> None:
    with pytest.raises(MalformedInput, match=message):
        GAME.parse_state(f"hold-your-hat set=W001,W002 {text}" if "set=" not in text else f"hold-your-hat {text}",
                         config(deck_size=2))
