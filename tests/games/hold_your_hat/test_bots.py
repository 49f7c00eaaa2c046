"""Hold your Hat's bots: the generic RandomBot and the game's own bots play whole games, with and without a clock,
choosing only among the legal actions of their own seat's view."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

from divedeck.bots import Decision, make_bot
from divedeck.bots.registry import accepted_bot_names, bot_names
from divedeck.engine import CLOCK
from divedeck.games.hold_your_hat.actions import EndTurn, Start
from divedeck.sim.runner import SimulationSpec, play_game

from .helpers import GAME, WORDS, config

OPTIONS = {"cards": WORDS, "deck_size": 10}


def test_the_game_offers_its_word_bots_at_three_levels_and_keeps_its_other_bots_for_tests_and_stand_ins() -> None:
    """The word bots give clues and guess, so people are offered them, under the levels' names too; the team bot
    (no clues), the stand-in (declared as the bot that plays for a player who left) and the turn-based random bot
    are accepted by name only."""
    assert bot_names("hold-your-hat") == ["easy", "medium", "hard", "words", "words-easy", "words-hard"]
    assert {"random", "team", "standin"} <= set(accepted_bot_names("hold-your-hat"))
    assert [make_bot("hold-your-hat", level, 1).name for level in ("easy", "medium", "hard")] == [
        "words-easy", "words", "words-hard"]
    assert make_bot("hold-your-hat", GAME.levels.stand_in, 1).name == "standin"


@pytest.mark.parametrize("seats", [("random",) * 4, ("team", "random", "team", "random"),
                                   ("team", "standin", "standin", "team")])
def test_bots_finish_games_in_the_simulator(seats: tuple[str, ...]) -> None:
    """The simulator plays bots on its simulated clock: random, team and stand-in bots finish games."""
    for index in range(3):
        result = play_game(SimulationSpec("hold-your-hat", seats, OPTIONS, seed=3), index)
        assert result.winners and sum(result.scores) > 0


def decision(state: Any, seat: int, now: int) -> Decision:
    return Decision(GAME, seat, GAME.view(state, seat), GAME.legal_actions(state, seat),
                    partial(GAME.determinize, state, seat), now)


def play_timed(names: list[str], seed: int, **options: Any) -> tuple[Any, int]:
    """A game the way the server runs one: every bot plans (delay, action); the earliest plan or deadline goes
    first; every change asks everyone again. Returns the final state and the number of inputs."""
    state = GAME.new(config(**{**OPTIONS, **options}), seed)
    bots = [make_bot("hold-your-hat", name, seed * 10 + seat) for seat, name in enumerate(names)]
    now, inputs = 0, 0
    while GAME.outcome(state) is None:
        assert inputs < 5000
        plans = []
        for seat in sorted(GAME.actors(state)):
            planned = bots[seat].plan(decision(state, seat, now))  # type: ignore[attr-defined]
            if planned is not None:
                delay, action = planned
                assert action in GAME.legal_actions(state, seat), (names[seat], action)
                plans.append((now + max(0, delay), seat, action))
        due = GAME.deadline(state)
        if plans and (due is None or min(plans)[0] < due):
            t, seat, action = min(plans, key=lambda p: p[0])
            GAME.apply(state, seat, GAME.at(action, t))
        else:
            assert due is not None, "nobody plans anything and no clock runs: the game is stuck"
            t = due
            GAME.apply(state, CLOCK, GAME.tick(t))
        now = t
        inputs += 1
    return state, inputs


def test_team_bots_play_a_timed_game_to_its_end() -> None:
    """TeamBot plans legal actions at a human pace: raids, BINOCULARS, starts, words guessed, EXTRA TIME."""
    state, inputs = play_timed(["team"] * 4, 5, rounds=3)
    outcome = GAME.outcome(state)
    assert outcome is not None and inputs > 20
    assert sum(state.total(team) for team in range(2)) == 3 * sum(state.entry(c)[1] for c in state.word_set)
    assert state.now > 3 * 60_000  # words take time: several turns were needed


def test_standin_bots_only_keep_the_game_going() -> None:
    """StandInBot starts the timer as clue-giver and claims nothing; with spoken guesses nobody scores, and the
    game goes on turn after turn (here until the turn limit of this test)."""
    state = GAME.new(config(**OPTIONS, guess_judging="clue_giver"), 1)
    bots = [make_bot("hold-your-hat", "standin", seat) for seat in range(4)]
    now = 0
    for _ in range(12):
        giver = state.clue_giver()
        planned = bots[giver].plan(decision(state, giver, now))  # type: ignore[attr-defined]
        assert planned is not None and isinstance(planned[1], Start)
        now += planned[0]
        GAME.apply(state, giver, GAME.at(planned[1], now))
        for seat in range(4):
            assert bots[seat].plan(decision(state, seat, now)) is None  # type: ignore[attr-defined]
        now = GAME.deadline(state)
        GAME.apply(state, CLOCK, GAME.tick(now))
        if state.phase == "decision":
            planned = bots[giver].plan(decision(state, giver, now))  # type: ignore[attr-defined]
            assert planned is not None and isinstance(planned[1], EndTurn)
            GAME.apply(state, giver, GAME.at(planned[1], now + planned[0]))
            now += planned[0]
    assert state.turns == 12 and [state.total(t) for t in range(2)] == [0, 0]


def test_a_random_bot_never_sees_the_word_it_does_not_own() -> None:
    """The decision a bot gets is its seat's view: a guesser's has no word."""
    state = GAME.new(config(**OPTIONS), 2)
    GAME.apply(state, 0, GAME.at(GAME.parse_action("start"), 0))
    assert "word" in decision(state, 0, 0).view and "word" not in decision(state, 1, 0).view
    bot = make_bot("hold-your-hat", "random", 1)
    choice = bot.choose(decision(state, 1, 0))
    assert GAME.format_action(choice) == "guess ?"
    assert random.Random(0)  # the bots own their randomness: nothing here reads module-level random
