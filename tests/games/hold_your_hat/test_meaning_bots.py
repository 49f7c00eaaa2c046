"""Hold your Hat's word bots with word meaning (issue 29): clues for any entry, guesses by meaning.

They need the shipped word vectors (the ``words`` extra, in the dev group). The custom list and the evaluation set
are the benchmark's (``benchmarks/data``): entries that are not in the shipped deck, without association data.
"""

from __future__ import annotations

import tomllib
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from divedeck.engine import IllegalAction
from divedeck.engine.decision import Decision
from divedeck.games.hold_your_hat import meaning_bots
from divedeck.games.hold_your_hat.actions import Clue, Foul, Guess
from divedeck.games.hold_your_hat.associations import NONE, load_associations
from divedeck.games.hold_your_hat.bots import WordBot
from divedeck.games.hold_your_hat.judging import clue_problem, entry_keys, guess_matches
from divedeck.games.hold_your_hat.meaning import load_vectors
from divedeck.games.hold_your_hat.meaning_bots import MeaningBot, MeaningKnowledge, word_bot
from divedeck.games.hold_your_hat.words import COLORS, load_words
from divedeck.sim.driver import RealtimeDriver

from .helpers import GAME, position

DATA = Path(__file__).resolve().parents[3] / "benchmarks" / "data"
CUSTOM = str(DATA / "hold_your_hat_custom40.txt")  # 40 orange words not in the shipped deck, no associations
EVALUATION = DATA / "hold_your_hat_eval.toml"
VECTORS = load_vectors()


def decision(state: Any, seat: int, now: int | None = None) -> Decision:
    return Decision(GAME, seat, GAME.view(state, seat), GAME.legal_actions(state, seat),
                    partial(GAME.determinize, state, seat), state.now if now is None else now)


def test_the_vectors_load_offline_from_the_installed_package() -> None:
    assert VECTORS is not None
    assert VECTORS.embed(["ocean", "sea", "kitten"]).shape == (3, 256)


def test_every_clue_the_meaning_clue_giver_can_give_for_the_shipped_deck_passes_the_clue_rules() -> None:
    """HYH-R24, HYH-A21: for every entry of the shipped deck in every colour, every word of meaning the clue-giver
    may type (round 1: its clues, each of a few words; round 2: the one word) passes the game's clue check."""
    assert VECTORS is not None
    table, associations = load_words(None), load_associations(None)
    checked = 0
    for color in range(len(COLORS)):
        knowledge = MeaningKnowledge(table, associations, color, VECTORS)
        for card in table.cards:
            entry = card.entries[color]
            first, second = knowledge.script(entry.text, 1), knowledge.script(entry.text, 2)
            assert first and len(second) == 1 and len(second[0].split()) == 1, entry.text
            for round_number, clues in ((1, first), (2, second)):
                for clue in clues:
                    assert clue_problem(clue, entry.text, entry.alternates, round_number) is None, (entry.text, clue)
                    checked += 1
    assert checked >= 882 * 3


def test_the_evaluation_set_has_a_hundred_entries_outside_the_deck_with_clues_that_pass_the_rules() -> None:
    """HYH-R24: the benchmark's evaluation set: at least 100 entries, none in the shipped deck, several people's
    clues each for round 1 and round 2 (one word), each passing the clue check."""
    entries = tomllib.loads(EVALUATION.read_text(encoding="utf-8"))["entry"]
    shipped = {key for card in load_words(None).cards for entry in card.entries for key in entry_keys(entry.text)}
    assert len(entries) >= 100
    for text, clues in entries.items():
        assert not entry_keys(text) & shipped, text
        assert len(clues["round1"]) >= 2 and len(clues["round2"]) >= 2, text
        for round_number in (1, 2):
            for clue in clues[f"round{round_number}"]:
                assert clue_problem(clue, text, (), round_number) is None, (text, clue)


def playing(state: Any, seat: int, clue: str, level: str = "hard", seed: int = 1, tries: int = 4) -> list[str]:
    """The guesses a guesser at ``seat`` types after ``clue`` (given at t=1000), a few at most."""
    GAME.apply(state, 0, GAME.at(Clue(clue), 1000))
    bot = MeaningBot(seed, level, VECTORS)
    typed, now = [], 1000
    for _ in range(tries):
        planned = bot.plan(decision(state, seat, now))
        if planned is None:
            break
        now += planned[0]
        assert isinstance(planned[1], Guess) and planned[1].text is not None
        typed.append(planned[1].text)
        bot.plan(decision(state, seat, now))
    return typed


def custom_position(current: str) -> Any:
    rest = ",".join(card for card in ("W003", "W004", "W005") if card != current)
    return position(f"phase=main timer=61000 now=1000 deck={rest} current={current} set=W003,W004,W005",
                    cards=CUSTOM, deck_size=3)


def test_on_a_list_without_associations_the_guesser_finds_a_word_by_meaning_not_by_the_word() -> None:
    """A person's clue that shares no word with anything the bot was given ("hoots"?) brings the entry to mind
    from the meaning of its words; the guesses are the same whatever the current word is (a guesser's view has
    none): it reads the clues only."""
    assert load_associations(CUSTOM) is NONE
    clue = "insect that makes honey in a hive"  # for "bee", the orange entry of card W005
    typed = playing(custom_position("W005"), 1, clue)
    assert any(guess_matches(text, "bee") for text in typed)
    assert typed == playing(custom_position("W003"), 1, clue) == playing(custom_position("W004"), 1, clue)


def test_levels_differ_by_how_far_down_their_list_they_go_and_how_fast() -> None:
    """A vague clue: easy tries at most 2 entries and types its first guess later than hard, which tries 4."""
    def first_and_count(level: str) -> tuple[int, int]:
        state = custom_position("W005")
        GAME.apply(state, 0, GAME.at(Clue("thing"), 1000))
        bot = MeaningBot(3, level, VECTORS)
        count, now, first = 0, 1000, None
        for _ in range(8):
            planned = bot.plan(decision(state, 1, now))
            if planned is None:
                break
            now += planned[0]
            first = now if first is None else first
            count += 1
            bot.plan(decision(state, 1, now))
        assert first is not None
        return first, count

    (easy_first, easy_count), (hard_first, hard_count) = first_and_count("easy"), first_and_count("hard")
    assert (easy_count, hard_count) == (2, 4)
    assert easy_first > hard_first


def test_the_clue_giver_clues_any_entry_in_rounds_1_and_2_and_passes_in_round_3_without_pictures() -> None:
    """HYH-R24, HYH-A21: an entry of a list without associations: round 1 a few words, round 2 one word, both
    accepted by the game; round 3 (pictures only) it has none, so it passes the word at once (a foul)."""
    for round_number in (1, 2, 3):
        state = position(f"round={round_number} phase=main timer=61000 now=1000 deck=W004 current=W003 "
                         "set=W003,W004", cards=CUSTOM, deck_size=2)
        planned = MeaningBot(1, "hard", VECTORS).plan(decision(state, 0))
        assert planned is not None
        if round_number == 3:
            assert isinstance(planned[1], Foul)
            continue
        assert isinstance(planned[1], Clue)
        words = planned[1].text.split()
        assert len(words) == (3 if round_number == 1 else 1)
        GAME.apply(state, 0, GAME.at(planned[1], 1000 + planned[0]))  # the game's own check (HYH-R24) takes it


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_bot_only_games_on_a_custom_list_without_associations_give_every_team_words(level: str) -> None:
    """A custom list with no association file (its orange words: not in the shipped deck): four bots of one level
    play two rounds (describe, one word; round 3 needs pictures) and every team wins words, in every seed; the
    game refuses none of their clues (HYH-R24, HYH-A21) or guesses (HYH-A26)."""
    for seed in range(5):
        config = GAME.make_config({"cards": CUSTOM, "deck_size": 12, "color": "orange", "rounds": 2,
                                   "turn_seconds": 15})
        state = GAME.new(config, seed)
        driver = RealtimeDriver(GAME)
        for seat in range(4):
            driver.seat_bot(seat, MeaningBot(seed * 10 + seat, level, VECTORS), state, 0)
        while (outcome := GAME.outcome(state)) is None:
            due = driver.due(state)
            assert due is not None and due.t < 3600 * 1000
            try:
                events = GAME.apply(state, due.seat, due.action)
            except IllegalAction:
                assert not isinstance(due.action, (Clue, Guess)), due.action
                driver.refused(state, due.seat, due.t)
                continue
            driver.applied(state, due.seat, due.t, events)
        assert all(total > 0 for total in outcome.details["team_totals"]), (seed, outcome.details)


def test_without_the_vectors_the_levels_are_association_word_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``words`` extra missing: the lobby's word bots play from the association data alone (docs/bots.md)."""
    assert isinstance(word_bot("hard")(1), MeaningBot)
    monkeypatch.setattr(meaning_bots, "load_vectors", lambda: None)
    made = word_bot("hard")(1)
    assert isinstance(made, WordBot) and not isinstance(made, MeaningBot)
    with pytest.raises(RuntimeError, match="divedeck\\[words\\]"):
        MeaningBot(1, "hard")
