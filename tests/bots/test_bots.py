"""Bots: they play only legal actions, are reproducible from their seed, see only their seat's information, and
the greedy Snorkeling bot beats random play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from divedeck.bots import Decision, bot_names, decide, make_bot
from divedeck.engine import ConfigError, get_game

GAME = get_game("snorkeling")
BOTS = ("random", "greedy")
CONFIGS: list[dict[str, Any]] = [{}, {"num_players": 2}, {"expert_diving": True, "num_players": 5},
                                 {"opponent_play_limit": "unlimited", "allow_own_pile": True}]


def play(options: dict[str, Any], seed: int, seats: list[str], bot_seed: int = 0) -> tuple[list[str], Any]:
    """A game between ``seats`` (bot names); the actions taken, written out, and the outcome."""
    config = GAME.make_config(options)
    state = GAME.new(config, seed)
    bots = [make_bot("snorkeling", name, bot_seed * 100 + seat) for seat, name in enumerate(seats)]
    log = []
    while GAME.outcome(state) is None:
        (seat,) = GAME.actors(state)
        action = decide(bots[seat], GAME, state, seat)
        legal = [GAME.format_action(a) for a in GAME.legal_actions(state, seat)]
        assert GAME.format_action(action) in legal, f"{seats[seat]} chose {action!r}, not among {legal}"
        GAME.apply(state, seat, action)
        log.append(GAME.format_action(action))
    return log, GAME.outcome(state)


def test_the_bots_are_listed_and_an_unknown_one_is_a_config_error() -> None:
    assert set(BOTS) <= set(bot_names("snorkeling"))
    with pytest.raises(ConfigError, match="nope"):
        make_bot("snorkeling", "nope", 1)


@pytest.mark.parametrize("options", CONFIGS, ids=["default", "2p", "expert5", "unlimited-own"])
def test_bots_only_choose_legal_actions(options: dict[str, Any]) -> None:
    players = options.get("num_players", 4)
    for seed in (1, 2):
        seats = [BOTS[(seat + seed) % 2] for seat in range(players)]
        log, outcome = play(options, seed, seats)
        assert log and outcome is not None


@pytest.mark.parametrize("name", BOTS)
def test_a_bot_is_deterministic_for_its_seed(name: str) -> None:
    first = play({"num_players": 3}, 9, [name] * 3, bot_seed=4)
    assert play({"num_players": 3}, 9, [name] * 3, bot_seed=4) == first
    assert play({"num_players": 3}, 9, [name] * 3, bot_seed=5)[0] != first[0]


@pytest.mark.parametrize("name", BOTS)
def test_a_bots_choice_does_not_depend_on_cards_its_seat_cannot_see(name: str) -> None:
    """The choice is the same in every state that the seat cannot tell from the true one (a determinization)."""
    rng = random.Random(3)
    compared = changed = 0
    for seed in (21, 22, 23):
        state = GAME.new(GAME.make_config({}), seed)
        mover = make_bot("snorkeling", "random", seed)
        while GAME.outcome(state) is None:
            (seat,) = GAME.actors(state)
            sample = GAME.determinize(state, seat, random.Random(rng.getrandbits(32)))
            if GAME.state_notation(sample) != GAME.state_notation(state):
                changed += 1
            on_true = decide(make_bot("snorkeling", name, seed), GAME, state, seat)
            on_sample = decide(make_bot("snorkeling", name, seed), GAME, sample, seat)
            assert on_sample == on_true
            compared += 1
            GAME.apply(state, seat, decide(mover, GAME, state, seat))
    assert compared > 100 and changed > compared // 2


def test_decide_gives_the_bot_only_its_seats_view_and_a_determinizer() -> None:
    seen: list[Decision] = []

    class Recorder:
        name = "recorder"

        def choose(self, decision: Decision) -> Any:
            seen.append(decision)
            return decision.legal[0]

    state = GAME.new(GAME.make_config({}), 4)
    action = decide(Recorder(), GAME, state, 0)
    (decision,) = seen
    assert action == GAME.legal_actions(state, 0)[0]
    assert decision.seat == 0
    assert decision.view == GAME.view(state, 0)
    assert list(decision.legal) == list(GAME.legal_actions(state, 0))
    sample = decision.determinize(random.Random(1))
    assert GAME.view(sample, 0) == GAME.view(state, 0)


def test_greedy_beats_random_in_two_player_games() -> None:
    """Over 80 seat-balanced 2-player games against a random bot, greedy wins more than 60% (about 72% over
    thousands of games)."""
    wins = 0
    games = 80
    for index in range(games):
        greedy_seat = index % 2
        seats = ["greedy" if seat == greedy_seat else "random" for seat in range(2)]
        _, outcome = play({"num_players": 2}, 5000 + index, seats, bot_seed=index)
        wins += outcome.winners == (greedy_seat,)
    assert wins / games > 0.6, f"greedy won {wins} of {games}"
