"""The specification's invariants HYH-I1..I9, checked at every step of seeded random games with random times, typed
guesses (right and wrong) and every option that changes play."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any, NamedTuple

import pytest

from divedeck.engine import CLOCK, IllegalAction
from divedeck.games.hold_your_hat.actions import Foul, Got, Guess, Skip, Theft, TheftVerdict

from .helpers import GAME, config

OPTIONS = [
    {"deck_size": 12},
    {"deck_size": 10, "guess_judging": "clue_giver", "turn_seconds": 15},
    {"deck_size": 8, "num_players": 6, "teams": 3, "start_with_raid": True, "raid_in_extra_time": True},
    {"deck_size": 8, "party": True, "clue_giver_rotation": "per_round", "extra_time_words": 1},
]


def typed(state: Any, seat: int, action: Any, rng: random.Random) -> Any:
    """Half the blank guesses and thefts become typed ones, right or wrong, where the pace allows (HYH-A26)."""
    if isinstance(action, Guess | Theft) and action.text is None and rng.random() < 0.5:
        text = state.entry(state.current)[0] if rng.random() < 0.6 else "not it"
        if GAME.is_legal(state, seat, replace(action, text=text)):
            return replace(action, text=text)
    return action


def play(options: dict[str, Any], seed: int) -> list[tuple[Any, Any, int, Any, list[Any]]]:
    """A random game: (state before, seat, time, action, events) for every input."""
    cfg = config(**options)
    state = GAME.new(cfg, seed)
    rng = random.Random(seed)
    now = 0
    steps = []
    while GAME.outcome(state) is None:
        assert len(steps) < 20_000
        now += rng.choice((0, 0, 30, 200, 1500, 9000))
        due = GAME.deadline(state)
        before = state.clone()
        if due is not None and due <= now and rng.random() < 0.5:
            seat, action = CLOCK, GAME.tick(now)
        else:
            probe = state.clone()
            if due is not None and due <= now:
                GAME.apply(probe, CLOCK, GAME.tick(now))
            if GAME.outcome(probe) is not None:
                steps.append((before, CLOCK, now, GAME.tick(now), GAME.apply(state, CLOCK, GAME.tick(now))))
                break
            seat = rng.choice(sorted(GAME.actors(probe)))
            action = typed(probe, seat, GAME.at(rng.choice(GAME.legal_actions(probe, seat)), now), rng)
        events = GAME.apply(state, seat, action)
        steps.append((before, seat, now, action, events))
    steps.append((state, None, now, None, []))
    return steps


GAMES = [(options, seed) for options in OPTIONS for seed in (1, 2)]


class Played(NamedTuple):
    options: dict[str, Any]
    seed: int
    steps: list[tuple[Any, Any, int, Any, list[Any]]]


@pytest.fixture(scope="module", params=range(len(GAMES)), ids=lambda i: f"game{i}")
def game(request: pytest.FixtureRequest) -> Played:
    options, seed = GAMES[request.param]
    return Played(options, seed, play(options, seed))


def test_HYH_I1_every_word_of_the_set_is_in_exactly_one_place(game: Played) -> None:
    """HYH-I1: deck + current + set-aside + extra + won piles = the word set, each card once."""
    for state, *_ in game.steps:
        places = [*state.deck, *state.aside, *state.extra, *(c for pile in state.won for c in pile)]
        if state.current >= 0:
            places.append(state.current)
        assert sorted(places) == sorted(state.word_set) and len(set(places)) == len(places)


def test_HYH_I2_seventeen_special_cards_at_every_step(game: Played) -> None:
    """HYH-I2: special deck + discard + every team's held cards = the 17 (with the RAID variant too)."""
    for state, *_ in game.steps:
        found = Counter(state.specials + state.discard + "".join(state.held))
        assert found == {"B": 3, "E": 3, "S": 3, "T": 4, "R": 4}


def test_HYH_I3_each_word_is_won_once_per_round(game: Played) -> None:
    """HYH-I3: every word is won exactly once per round; a round awards the points of all its words."""
    by_round: dict[int, list[str]] = {}
    for _, _, _, _, events in game.steps:
        for event in events:
            if event.kind == "won":
                by_round.setdefault(event.round, []).append(event.word)
            if event.kind == "round_end":
                words = by_round[event.round]
                assert len(words) == len(set(words))
                final = game.steps[-1][0]
                assert len(words) == len(final.word_set)
                entries = {final.entry(card)[0]: final.entry(card)[1] for card in final.word_set}
                assert sum(event.points) == sum(entries[w] for w in words) == sum(entries.values())


def test_HYH_I4_totals_never_decrease_and_equal_the_cards_won(game: Played) -> None:
    """HYH-I4: a team's score is the points of the cards it won; totals never decrease."""
    previous = None
    for state, *_ in game.steps:
        totals = [state.total(team) for team in range(state.teams)]
        if previous is not None:
            assert all(a >= b for a, b in zip(totals, previous, strict=True))
        previous = totals


def test_HYH_I5_per_turn_limits(game: Played) -> None:
    """HYH-I5: per turn at most one BINOCULARS, one EXTRA TIME and one RAID per team; no RAID by the active team."""
    per_turn: Counter[tuple[str, int]] = Counter()
    active = game.steps[0][0].active
    for _, _, _, _, events in game.steps:
        for event in events:
            if event.kind == "turn_start":
                per_turn.clear()
                active = event.team
            if event.kind in ("binoculars", "extra_time", "raid"):
                per_turn[event.kind, event.team] += 1
                assert per_turn[event.kind, event.team] == 1
                if event.kind == "raid":
                    assert event.team != active


def test_HYH_I6_no_clue_giving_input_outside_the_running_timer(game: Played) -> None:
    """HYH-I6: no guess, theft, skip or foul is accepted outside MAIN/EXTRA or at/after the deadline; accepted
    times never decrease."""
    last = -1
    for state, _, t, action, _ in game.steps:
        if action is None:
            continue
        assert t >= last
        last = t
        if isinstance(action, Guess | Theft | TheftVerdict | Skip | Foul | Got):
            probe = state.clone()
            GAME.apply(probe, CLOCK, GAME.tick(t))  # what the input met: every deadline up to t fired
            assert probe.phase in ("main", "extra") and probe.timer > t, "a timer input was accepted late"


def test_HYH_I7_one_special_card_per_turn_while_any_is_left(game: Played) -> None:
    """HYH-I7: every turn end draws exactly one special card, unless deck and discard are both empty."""
    for _, _, _, _, events in game.steps:
        kinds = [e.kind for e in events]
        assert kinds.count("turn_end") == kinds.count("special_draw") + kinds.count("no_special")
        assert kinds.count("turn_end") <= 1


def test_HYH_I8_rounds_start_after_the_team_that_ended_the_last(game: Played) -> None:
    """HYH-I8: round r + 1 starts with the team after the one whose turn ended round r; pointers never reset."""
    teams = len(game.steps[0][0].context.members)
    for _, _, _, _, events in game.steps:
        ended = [e.team for e in events if e.kind == "turn_end"]
        started = [e.team for e in events if e.kind == "round_start"]
        if started and ended:
            assert started == [(ended[-1] + 1) % teams]


def test_HYH_I9_the_same_seed_and_inputs_give_the_same_game(game: Played) -> None:
    """HYH-I9: replaying the same timestamped inputs (as notation) from the same seed gives the same state at every
    step."""
    state = GAME.new(config(**game.options), game.seed)
    for before, seat, _, action, _ in game.steps[:-1]:
        assert GAME.state_notation(state) == GAME.state_notation(before)
        GAME.apply(state, seat, GAME.parse_action(GAME.format_action(action)))
    assert GAME.state_notation(state) == GAME.state_notation(game.steps[-1][0])


def test_refused_inputs_change_nothing(game: Played) -> None:
    """Along the game, inputs from the wrong seat are refused and leave the state as it was."""
    refused = 0
    for state, seat, _, action, _ in game.steps[:-1]:
        if seat is None or seat == CLOCK:
            continue
        other = (seat + 1) % state.context.seats
        probe = state.clone()
        try:
            GAME.apply(probe, other, action)
        except IllegalAction:
            assert GAME.state_notation(probe) == GAME.state_notation(state)
            refused += 1
    assert refused > 0
