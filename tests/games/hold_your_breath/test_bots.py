"""Hold Your Breath!'s greedy bot: it plays only legal actions, is reproducible from its seed, sees only its
seat's information, does what its description says, and beats random play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from divedeck.bots import Decision, bot_names, decide, make_bot
from divedeck.games.hold_your_breath import GreedyBot

from .helpers import GAME, config, position


def play(options: dict[str, Any], seed: int, seats: list[str]) -> tuple[list[str], Any]:
    """A game between ``seats`` (bot names); the actions taken, written out, and the outcome."""
    state = GAME.new(config(**options), seed)
    bots = [make_bot("hold-your-breath", name, seed * 10 + seat) for seat, name in enumerate(seats)]
    log = []
    while GAME.outcome(state) is None:
        for seat in sorted(GAME.actors(state)):
            action = decide(bots[seat], GAME, state, seat)
            legal = [GAME.format_action(a) for a in GAME.legal_actions(state, seat)]
            assert GAME.format_action(action) in legal, f"{seats[seat]} chose {action!r}, not among {legal}"
            GAME.apply(state, seat, action)
            log.append(f"{seat}:{GAME.format_action(action)}")
    return log, GAME.outcome(state)


def choice(state: Any, seed: int = 0) -> str:
    (seat,) = GAME.actors(state)
    return GAME.format_action(decide(GreedyBot(seed), GAME, state, seat))


def test_greedy_is_the_packages_bot_and_is_offered_by_name() -> None:
    assert {name: entry.factory for name, entry in GAME.bots.items()} == {"greedy": GreedyBot}
    assert {"random", "greedy"} <= set(bot_names("hold-your-breath"))


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 3, "kraken_discard": "owner_choice"},
                                     {"num_players": 4, "forced_breath": False}])
def test_greedy_only_chooses_legal_actions_and_is_reproducible(options: dict[str, Any]) -> None:
    players = options["num_players"]
    seats = ["greedy", "random"] * 2
    first_log, first_outcome = play(options, 5, seats[:players])
    again_log, again_outcome = play(options, 5, seats[:players])
    assert first_log == again_log and first_outcome == again_outcome


def test_greedy_clears_its_own_swim_pile_first() -> None:
    state = position("hands=A10D,S10D,S5C,A5P/?5 piles=pA10P/- deck=?")
    assert choice(state) == "calm S5C 0"


def play_turn(state: Any) -> list[str]:
    """Seat 0's plays, up to and including ``end``, chosen by the greedy bot."""
    played = []
    bot = GreedyBot(1)
    while not played or played[-1] != "end":
        action = decide(bot, GAME, state, 0)
        played.append(GAME.format_action(action))
        GAME.apply(state, 0, action)
    return played


def test_greedy_breathes_and_dives_as_far_as_its_hand_allows() -> None:
    state = position("hands=A10D,A5X,S10D,S5X,S10C/?5 deck=?")
    played = play_turn(state)
    assert GAME.view(state, None)["depths"][0] == 15  # Air 15, Swim 25: the lesser is the best move
    assert "air A10D" in played and "air A5X" in played


def test_greedy_panics_the_leader_with_a_card_its_move_does_not_need() -> None:
    state = position("hands=A5P,A10D,S10D/?5/?5 depths=10,40,20 deck=?")
    assert choice(state) == "air A10D"  # breathing first
    assert play_turn(state) == ["air A10D", "panic A5P>1", "swim S10D", "end"]


def test_greedy_gives_up_its_least_useful_card_to_a_breath_penalty() -> None:
    state = position("hands=S5D,S10C,DO/?5 phase=breath deck=?")
    assert choice(state) == "gasp S5D"


def test_greedy_decides_from_its_own_information_only() -> None:
    """The same view gives the same choice, whatever the hidden cards are."""
    state = position("hands=A5P,A10D,S10D,S5C/?5/?5 depths=10,40,20 piles=-/-/dS5D deck=?")
    choices = set()
    for seed in range(5):
        sample = GAME.determinize(state, 0, random.Random(seed))
        decision = Decision(GAME, 0, GAME.view(sample, 0), GAME.legal_actions(sample, 0),
                            lambda rng, s=sample: GAME.determinize(s, 0, rng))
        choices.add(GAME.format_action(GreedyBot(3).choose(decision)))
    assert len(choices) == 1


def test_greedy_beats_random_play() -> None:
    wins = 0
    games = 30
    for seed in range(games):
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        _, outcome = play({"num_players": 2}, 100 + seed, seats)
        wins += seats.index("greedy") in outcome.winners
    assert wins >= games * 0.65
