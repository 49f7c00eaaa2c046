"""Snorkeling's invariants SNK-I1..I8, checked at every step of seeded games (random and greedy players) under
several configs."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from divedeck.bots import decide, make_bot
from divedeck.engine import Event, Match
from divedeck.games.snorkeling.events import PlayedCenter, PlayedPile, Refilled, RoundEnded
from tests.conformance import configs_for

from .helpers import FACES, GAME, all_cards, center, config, hand, value

CONFIGS: list[dict[str, Any]] = configs_for("snorkeling")
IDS = [",".join(f"{k}={v}" for k, v in options.items()) or "default" for options in CONFIGS]


@dataclass
class Step:
    before: Any
    seat: int
    action: str
    events: list[Event]
    after: Any


@dataclass
class Game:
    options: dict[str, Any]
    steps: list[Step] = field(default_factory=list)


def play(options: dict[str, Any], seed: int, bot: str, start: Any = None) -> Game:
    cfg = config(**options)
    state = GAME.new(cfg, seed) if start is None else start
    bots = [make_bot("snorkeling", bot, seed * 10 + seat) for seat in range(cfg.num_players)]
    game = Game(options)
    while GAME.outcome(state) is None:
        assert len(game.steps) < 20_000
        (seat,) = GAME.actors(state)
        action = decide(bots[seat], GAME, state, seat)
        before = state.clone()
        events = GAME.apply(state, seat, action)
        game.steps.append(Step(before, seat, GAME.format_action(action), events, state.clone()))
    return game


_GAMES: dict[int, list[Game]] = {}


def games(index: int) -> list[Game]:
    """Three games under CONFIGS[index] (two random, one greedy), played once per test session."""
    if index not in _GAMES:
        options = CONFIGS[index]
        _GAMES[index] = [play(options, 100 + index, "random"), play(options, 200 + index, "random"),
                         play(options, 300 + index, "greedy")]
    return _GAMES[index]


def view(state: Any) -> dict[str, Any]:
    return GAME.view(state, None)


def turns(game: Game) -> list[list[Step]]:
    """The game's steps grouped by turn (a turn ends with end_turn, pass or the end of a round)."""
    grouped: list[list[Step]] = [[]]
    for step in game.steps:
        grouped[-1].append(step)
        if {"end_turn", "pass", "round_end"} & {e.kind for e in step.events}:
            grouped.append([])
    return [turn for turn in grouped if turn]


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_SNK_I1_every_state_holds_the_75_reef_cards(index: int) -> None:
    """SNK-I1: deck + centre + hands + piles hold exactly the 75 reef cards at every step."""
    full = Counter({face: 3 for face in FACES})
    for game in games(index):
        for step in game.steps:
            assert all_cards(step.after) == full, step.action
            assert GAME.card_count(step.after) == 75


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_SNK_I2_piles_read_down_from_the_lanternfish_and_show_a_beach_only_at_the_end(index: int) -> None:
    """SNK-I2: each personal pile reads 5 (Lanternfish), 4, 3, ... upward, one less each card; a Beach on top is
    never seen while the game goes on (a round ends the moment one lands)."""
    for game in games(index):
        for step in game.steps:
            shown = view(step.after)
            for seat, cards in enumerate(shown["piles"]):
                assert [value(c) for c in cards] == list(range(4, 4 - len(cards), -1)), cards
                top = shown["pile_tops"][seat]
                assert top == (value(cards[-1]) if cards else 5)
                if GAME.outcome(step.after) is None:
                    assert top != 0


def thin_deck_game(options: dict[str, Any], seed: int) -> Game:
    """A random game from a first round whose deck holds only a few cards, so it runs out (and is refilled)."""
    players = options.get("num_players", 4)
    each = (75 - 1 - 2) // players
    hands = "/".join([f"?{each}"] * players)
    start = GAME.parse_state(f"snorkeling hands={hands} center=Y3 deck=? rng={seed}:0", config(**options))
    return play(options, seed, "random", start)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_SNK_I3_the_centre_never_empties_and_a_refill_leaves_its_top(index: int) -> None:
    """SNK-I3: the centre pile always holds a card; a refill takes every centre card but the top one."""
    refills = 0
    for game in [*games(index), thin_deck_game(CONFIGS[index], 400 + index)]:
        for step in game.steps:
            assert center(step.after)
            for event in step.events:
                if isinstance(event, Refilled):
                    refills += 1
                    assert event.deck == len(center(step.before)) - 1
                    if "round_start" not in [e.kind for e in step.events]:
                        assert center(step.after) == center(step.before)[-1:]
    assert refills > 0


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_SNK_I4_a_turn_starts_with_two_cards_unless_draws_were_skipped(index: int) -> None:
    """SNK-I4: at the start of every turn the active player holds at least 2 cards, unless their draws were
    skipped for lack of cards."""
    for game in games(index):
        skipped: set[int] = set()
        for step in game.steps:
            if any(e.kind == "round_start" for e in step.events):
                skipped.clear()
            shown = view(step.before)
            if shown["turn"]["center_played"] == 0 and shown["phase"] == "center":
                active = shown["active"]
                assert len(hand(step.before, active)) >= 2 or active in skipped, step.action
            if any(e.kind in ("end_turn", "pass") for e in step.events):
                if any(e.kind == "no_draw" for e in step.events):
                    skipped.add(step.seat)
                else:
                    skipped.discard(step.seat)


@pytest.mark.parametrize("index", [i for i, options in enumerate(CONFIGS) if not options.get("expert_diving")],
                         ids=[IDS[i] for i, options in enumerate(CONFIGS) if not options.get("expert_diving")])
def test_SNK_I5_base_centre_play_is_one_plus_one_card_or_t0s_colour(index: int) -> None:
    """SNK-I5: in the base game a turn's centre cards are exactly one card of value T0 + 1, or all of T0's colour."""
    checked = 0
    for game in games(index):
        for turn in turns(game):
            t0 = view(turn[0].before)["turn"]["t0"]
            played = [e.card for step in turn for e in step.events if isinstance(e, PlayedCenter)]
            if not played:
                continue
            checked += 1
            one_up = len(played) == 1 and value(played[0]) == (value(t0) + 1) % 5
            assert one_up or all(card[0] == t0[0] for card in played), (t0, played)
    assert checked > 20


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_SNK_I6_pile_plays_follow_a_centre_play_within_the_turns_limit(index: int) -> None:
    """SNK-I6: no pile play without a centre play first in the same turn; by default no pile gets two cards in a
    turn and the own pile none (one_total: one pile card a turn; allow_own_pile: the own pile may get one)."""
    options = CONFIGS[index]
    limit = options.get("opponent_play_limit", "one_per_opponent")
    pile_plays = 0
    for game in games(index):
        for turn in turns(game):
            centre_seen = False
            targets: list[int] = []
            for step in turn:
                for event in step.events:
                    if event.kind == "play_center":
                        assert not targets, "a centre card after a pile play"
                        centre_seen = True
                    elif isinstance(event, PlayedPile):
                        assert centre_seen, "a pile play before any centre play"
                        targets.append(event.target)
                        if not options.get("allow_own_pile"):
                            assert event.target != event.seat
            pile_plays += len(targets)
            if limit == "one_per_opponent":
                assert len(targets) == len(set(targets)), targets
            elif limit == "one_total":
                assert len(targets) <= 1, targets
    assert pile_plays > 10


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_SNK_I7_totals_rise_by_0_to_5_a_round_and_the_winner_has_the_unique_highest_total(index: int) -> None:
    """SNK-I7: after each round every total rises by 0..5 and none falls; the game ends only with a unique highest
    total of at least 12."""
    for game in games(index):
        totals = [0] * config(**game.options).num_players
        for step in game.steps:
            for event in step.events:
                if isinstance(event, RoundEnded):
                    gains, new = list(event.gains), list(event.totals)
                    assert all(0 <= gain <= 5 for gain in gains)
                    assert new == [t + g for t, g in zip(totals, gains, strict=True)]
                    best = max(new)
                    decided = best >= 12 and new.count(best) == 1
                    assert decided == ("game_over" in [e.kind for e in step.events])
                    totals = new
        final = game.steps[-1].after
        outcome = GAME.outcome(final)
        assert outcome is not None
        assert list(outcome.scores) == totals
        assert len(outcome.winners) == 1
        assert outcome.scores[outcome.winners[0]] >= 12
        assert sorted(outcome.scores).count(max(outcome.scores)) == 1


@pytest.mark.parametrize("options", [{}, {"expert_diving": True, "num_players": 3}], ids=["default", "expert3"])
def test_SNK_I8_the_same_seed_and_actions_give_the_same_game(options: dict[str, Any]) -> None:
    """SNK-I8: replaying the same seed and action list yields identical states (and identical events)."""
    rng = random.Random(8)
    first = Match.start("snorkeling", options, seed=808)
    log: list[tuple[str, list[dict[str, Any]]]] = []
    while not first.over:
        (seat,) = GAME.actors(first.state)
        action = rng.choice(list(GAME.legal_actions(first.state, seat)))
        events = first.act(seat, action)
        log.append((GAME.state_notation(first.state), [e.for_seat(seat) for e in events]))
    second = Match.start("snorkeling", options, seed=808)
    for (seat, action), (notation, events) in zip(first.actions, log, strict=True):
        assert [e.for_seat(seat) for e in second.act(seat, GAME.format_action(action))] == events
        assert GAME.state_notation(second.state) == notation
    other = Match.start("snorkeling", options, seed=809)
    assert GAME.state_notation(other.state) != GAME.state_notation(Match.start("snorkeling", options, 808).state)
