"""What each seat may know (HYH-R5): the current word only reaches the clue-giver, in views, events and notation;
the deck and the BINOCULARS peek stay secret; determinization resamples exactly what a seat cannot see."""

from __future__ import annotations

import json
import random

from divedeck.engine import Match
from divedeck.games.hold_your_hat.actions import Guess
from divedeck.games.hold_your_hat.events import WordWon

from .helpers import GAME, T0, WORDS, act, config, fields, small, started, tick


def test_HYH_R5_nothing_sent_to_another_seat_names_the_current_word() -> None:
    """HYH-R5: in a whole seeded game, the current word appears in the views and events of the clue-giver alone,
    until it is won (then it is public); the peek likewise."""
    options = {"cards": WORDS, "deck_size": 10, "rounds": 1}
    match = Match.start(GAME, options, 5)
    rng = random.Random(5)
    now = 0
    checked = 0
    while not match.over:
        state = match.state
        secret = set()
        if state.current >= 0:
            secret.add(state.entry(state.current)[0])
        if state.peek:
            secret.update(state.entry(card)[0] for card in state.deck[-state.peek:])
        giver = state.clue_giver() if state.phase != "over" else None
        due = GAME.deadline(state)
        now += rng.choice((0, 50, 400, 3000))
        seat = -1
        if due is not None and due <= now:
            events = match.act(-1, GAME.tick(now))
        else:
            actors = sorted(GAME.actors(state))
            seat = rng.choice(actors)
            legal = GAME.legal_actions(state, seat)
            action = rng.choice(legal)
            if isinstance(action, Guess) and state.current >= 0 and rng.random() < 0.3:
                action = Guess(state.entry(state.current)[0])
            events = match.act(seat, GAME.at(action, now))
        for viewer in (None, *range(4)):
            if viewer == giver:
                continue
            # The seat that typed a right guess knows its own words: its copy of that event is left out.
            shown = [e.for_seat(viewer) for e in events if viewer != seat or e.kind not in ("guess", "theft")]
            sent = json.dumps([GAME.view(state, viewer), shown])
            won_now = {e.word for e in events if isinstance(e, WordWon)}
            leaked = [w for w in secret - won_now if json.dumps(w) in sent]
            assert not leaked, f"seat {viewer} was shown {leaked}"
            checked += 1
    assert checked > 100


def test_HYH_R5_only_the_clue_giver_view_holds_the_word_and_the_set_aside_words() -> None:
    """HYH-R5: the clue-giver sees the current word (text, points, word count) and remembers what was set aside."""
    state = started(30)
    act(state, 0, "foul", 2000)
    view = GAME.view(state, 0)
    assert view["word"] == {"text": "w002-orange", "points": 1, "words": 1}
    assert view["set_aside"] == ["w001-orange"]
    for seat in (None, 1, 2, 3):
        assert "word" not in GAME.view(state, seat) and "set_aside" not in GAME.view(state, seat)
    assert fields(state, 1, masked=True)["current"] == "?" and fields(state, 0, masked=True)["current"] == "W002"
    assert fields(state, 1, masked=True)["aside"] == "?1"


def test_HYH_R5_the_seat_notation_hides_the_deck_and_the_round_one_word_set() -> None:
    """HYH-R5: the deck is secret (its count only); in round 1 even which words are in the game; from round 2 on
    every word has been won face up once, so the set is public."""
    state = GAME.new(config(deck_size=12), 4)
    masked = fields(state, 2, masked=True)
    assert masked["deck"] == "?12" and masked["set"] == "?12" and masked["rng"] == "?" and masked["specials"] == "?17"
    state = started(2, "round=2")
    assert fields(state, 2, masked=True)["set"] == "W001,W002"


def test_determinize_keeps_what_the_seat_sees_and_resamples_the_rest() -> None:
    """A determinization for a seat keeps its view; for a guesser the current word is resampled, for the
    clue-giver it stays."""
    state = started(40)
    act(state, 0, "foul", 2000)
    guesser_samples = {GAME.determinize(state, 1, random.Random(i)).current for i in range(20)}
    assert len(guesser_samples) > 5
    for i in range(10):
        sample = GAME.determinize(state, 0, random.Random(i))
        assert GAME.view(sample, 0) == GAME.view(state, 0)
        assert sample.current == state.current and sample.aside == state.aside


def test_binoculars_peek_is_kept_only_for_the_clue_giver() -> None:
    """HYH-A12: the clue-giver's determinization keeps the peeked cards on top; a teammate's does not."""
    state = small(20, "held=B/-")
    act(state, 1, "binoculars", 0)
    top = state.deck[-5:]
    assert all(GAME.determinize(state, 0, random.Random(i)).deck[-5:] == top for i in range(5))
    assert any(GAME.determinize(state, 1, random.Random(i)).deck[-5:] != top for i in range(5))


def test_public_action_hides_typed_text_from_other_seats() -> None:
    """HYH-R5: a typed guess may be the current word: relayed to other seats and spectators, its text (a private
    field of the action) reads ``?``; a THEFT's too."""
    action = GAME.at(GAME.parse_action('guess "w001-orange"'), 5)
    assert GAME.public_action(action, 1, 1) == 'guess "w001-orange" @5'
    assert GAME.public_action(action, 2, 1) == "guess ? @5"
    assert GAME.public_action(action, None, 1) == "guess ? @5"
    assert GAME.public_action(GAME.parse_action('theft B "w001-orange"'), 0, 2) == "theft B ?"
    clue = GAME.parse_action('clue "ocean"')
    assert GAME.public_action(clue, 2, 0) == 'clue "ocean"'
    tick_action = GAME.tick(9)
    assert GAME.public_action(tick_action, 2, -1) == "tick @9"


def test_a_spectator_sees_no_word_but_every_score() -> None:
    state = started(3, "held=-/T")
    act(state, 1, 'guess "w001-orange"', 2000)
    tick(state, 2301)
    view = GAME.view(state, None)
    assert "word" not in view and view["team"] is None
    assert view["teams"][0]["won"] == [{"word": "w001-orange", "points": 1}] and view["teams"][0]["total"] == 1
    assert view["deadline"] == T0 + 60_000 and view["clue_giver"] == 0
