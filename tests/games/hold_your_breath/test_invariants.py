"""Hold Your Breath!'s invariants, HYB-I1..I9, checked at every step of seeded random games (2, 3 and 4 players,
and the options that change the flow of a round)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from divedeck.engine import Event
from divedeck.games.hold_your_breath.events import (
    DescentEnded,
    FinalTurns,
    GameOver,
    Gasped,
    Moved,
    PlayEnded,
    Replenished,
)

from .helpers import DEFAULT_DECK, GAME, all_cards, config

CONFIGS = [{"num_players": 2}, {"num_players": 3, "final_turn_trigger": "short_hand"},
           {"num_players": 4, "kraken_discard": "random", "forced_breath": False}]
SEEDS = range(4)


@dataclass
class Step:
    before: Any
    seat: int
    action: str
    events: list[Event]
    after: Any = None


@dataclass
class Game:
    steps: list[Step] = field(default_factory=list)
    final: Any = None


def play(options: dict[str, Any], seed: int) -> Game:
    """A random game (each legal action equally likely), keeping a copy of the state before and after each action."""
    cfg = config(**options)
    rng = random.Random(seed)
    state = GAME.new(cfg, seed)
    game = Game()
    while GAME.outcome(state) is None:
        assert len(game.steps) < 5000, "a game did not end"
        seat = rng.choice(sorted(GAME.actors(state)))
        action = rng.choice(list(GAME.legal_actions(state, seat)))
        before = state.clone()
        events = GAME.apply(state, seat, action)
        game.steps.append(Step(before, seat, GAME.format_action(action), events, state.clone()))
    game.final = state
    return game


GAMES = [(options, seed) for options in CONFIGS for seed in SEEDS]
_played: dict[tuple[int, int], Game] = {}


def games() -> list[tuple[dict[str, Any], Game]]:
    """Every game of GAMES, played once for all the tests of this module."""
    out = []
    for index, (options, seed) in enumerate(GAMES):
        if (index, seed) not in _played:
            _played[index, seed] = play(options, seed)
        out.append((options, _played[index, seed]))
    return out


def view(state: Any) -> dict[str, Any]:
    return GAME.view(state, None)


def test_HYB_I1_every_card_is_somewhere_exactly_once_at_every_step() -> None:
    """HYB-I1: deck + Discard Pile + hands + Swim Piles (+ cards set aside for the Kraken) are the 68 cards of the
    deck data, each exactly once."""
    for _, game in games():
        for step in game.steps:
            assert all_cards(step.after) == DEFAULT_DECK
            assert GAME.card_count(step.after) == 68


def test_HYB_I2_hands_hold_at_most_five_outside_their_turn_and_five_after_replenishing() -> None:
    """HYB-I2: outside their own turn a player holds at most 5 cards; after replenishing exactly 5 unless the deck
    ran out."""
    for _, game in games():
        for step in game.steps:
            shown = view(step.after)
            for seat, size in enumerate(shown["hand_sizes"]):
                if seat != shown["active"]:
                    assert size <= 5
            same_round = shown["round"] == view(step.before)["round"]  # a new round deals fresh hands
            for event in step.events:
                if isinstance(event, Replenished) and same_round:
                    assert shown["hand_sizes"][event.seat] == 5 or event.deck == 0


def test_HYB_I3_depths_move_in_steps_the_right_way_once_per_turn_for_the_active_player() -> None:
    """HYB-I3: depth is a multiple of 5 within [0, max_depth]; non-decreasing in the Descent, non-increasing in the
    Ascent; it changes at most once per turn and only for the active player."""
    for _, game in games():
        moves_this_turn = 0
        for step in game.steps:
            before, after = view(step.before), view(step.after)
            for depth in after["depths"]:
                assert depth % 5 == 0 and 0 <= depth <= after["max_depth"]
            if before["round"] != after["round"]:
                moves_this_turn = 0
                continue
            changed = [s for s in range(before["players"]) if before["depths"][s] != after["depths"][s]]
            assert changed in ([], [step.seat])
            if changed:
                moves_this_turn += 1
                assert moves_this_turn == 1
                seat = changed[0]
                if after["round"] == "descent":
                    assert after["depths"][seat] > before["depths"][seat]
                else:
                    assert after["depths"][seat] < before["depths"][seat]
            if after["active"] != before["active"] or step.after.turns != step.before.turns:
                moves_this_turn = 0


def test_HYB_I4_no_swim_while_hindered_and_moving_needs_both_air_and_swim() -> None:
    """HYB-I4: a Swim play is never accepted while the player is hindered; m > 0 implies A > 0 and S > 0."""
    swims = 0
    for _, game in games():
        for step in game.steps:
            if step.action.startswith("swim"):
                swims += 1
                assert view(step.before)["piles"][step.seat] == []
            for event in step.events:
                if isinstance(event, PlayEnded) and event.move:
                    assert event.air > 0 and event.swim > 0
    assert swims > 0


def test_HYB_I5_never_two_sharks_and_an_opponents_panic_only_onto_a_pile_without_one() -> None:
    """HYB-I5: a Swim Pile never holds two Sharks; an opponent's Panic is only added to a pile with no Panic."""
    panics = 0
    for _, game in games():
        for step in game.steps:
            for items in view(step.after)["piles"]:
                assert sum(1 for entry in items if entry["kind"] == "shark") <= 1
            if step.action.startswith("panic"):
                panics += 1
                target = int(step.action.rsplit(">", 1)[1])
                assert all(entry["kind"] != "panic" for entry in view(step.before)["piles"][target])
    assert panics > 0


def test_HYB_I6_a_surfaced_player_is_never_hindered_never_breathless_and_never_moves() -> None:
    """HYB-I6: a surfaced player never has a hindrance, never takes a breath penalty and never moves again."""
    surfaced_seen = 0
    for _, game in games():
        for step in game.steps:
            shown = view(step.after)
            for seat in shown["surfaced"]:
                surfaced_seen += 1
                assert shown["piles"][seat] == [] and shown["depths"][seat] == 0
            for event in step.events:
                if isinstance(event, Gasped | Moved):
                    assert event.seat not in view(step.before)["surfaced"]
    assert surfaced_seen > 0


def test_HYB_I7_after_the_trigger_each_player_takes_exactly_one_more_turn_the_trigger_last() -> None:
    """HYB-I7: after the final-turn trigger every player gets exactly one more turn, the trigger player's last."""
    checked = 0
    for options, game in games():
        n = options["num_players"]
        trigger = None
        finished: list[int] = []
        for step in game.steps:
            if step.after.turns > step.before.turns and trigger is not None:
                finished.append(step.seat)
            for event in step.events:
                if isinstance(event, FinalTurns):
                    trigger, finished = event.seat, []
                if isinstance(event, DescentEnded | GameOver) and trigger is not None:
                    if isinstance(event, GameOver) and event.rule == "HYB-R22":
                        assert len(finished) <= n
                    else:
                        assert finished == [(trigger + 1 + i) % n for i in range(n)]
                        checked += 1
                    trigger = None
    assert checked > 0


def test_HYB_I8_every_game_has_exactly_one_outcome_by_the_end_of_the_ascent() -> None:
    """HYB-I8: one winner or a shared victory, decided no later than the end of the Ascent."""
    for _, game in games():
        outcome = GAME.outcome(game.final)
        assert outcome is not None and outcome.winners
        assert outcome.termination.rule in ("HYB-R22", "HYB-R41")
        assert view(game.final)["round"] == "ascent"
        overs = [e for step in game.steps for e in step.events if isinstance(e, GameOver)]
        assert len(overs) == 1 and overs[0].winners == outcome.winners


@pytest.mark.parametrize("options", CONFIGS)
def test_HYB_I9_the_same_seed_and_actions_give_the_same_state(options: dict[str, Any]) -> None:
    """HYB-I9: a game replayed from its seed and its actions passes through the same states."""
    game = play(options, 99)
    state = GAME.new(config(**options), 99)
    for step in game.steps:
        GAME.apply(state, step.seat, GAME.parse_action(step.action))
        assert GAME.state_notation(state) == GAME.state_notation(step.after)
