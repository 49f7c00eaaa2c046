"""Bermuda's invariants BRM-I1..I9, checked at every step of seeded random real-time games (random times, the
clock ticking, deadlines firing inside inputs) under several configs."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest

from divedeck.engine import CLOCK
from divedeck.games.bermuda.cards import DIVER_DECK
from tests.conformance import Step, playout

from .helpers import GAME, config

CONFIGS: list[dict[str, Any]] = [
    {},
    {"num_players": 1},
    {"num_players": 5, "countdown_ms": 0},
    {"num_players": 3, "hidden_treasures": True, "max_dive_ms": 15000},
    {"num_players": 2, "single_breath_challenge": True},
    {"num_players": 2, "placement_check": "strict", "countdown_ms": 0},
]
IDS = [",".join(f"{k}={v}" for k, v in options.items()) or "default" for options in CONFIGS]
DEPTH = {t.id: t.depth for t in config().table.treasures}
PROTECTION = {t.id: t.protection for t in config().table.treasures}


@cache
def games(index: int) -> tuple[tuple[list[Step], Any], ...]:
    """Three random games under CONFIGS[index], played once per test session."""
    cfg = config(**CONFIGS[index])
    return tuple(playout(GAME, cfg, 300 + 10 * index + k) for k in range(3))


def fields(state: Any) -> dict[str, str]:
    return dict(word.split("=", 1) for word in GAME.state_notation(state).split()[1:])


def ids(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


def digits(text: str) -> list[int]:
    """Diver cards written as digits; '-' (an empty hand or column) and separators are skipped."""
    return [int(c) for c in text if c.isdigit()]


def columns(state: Any) -> list[list[int]]:
    return [column["cards"] for column in GAME.view(state, None)["columns"]]


def states(steps: list[Step], final: Any) -> list[Any]:
    return [step.before for step in steps] + [final]


def reference_verdict(depth: int, cards: list[int]) -> bool:
    """BRM-R21 written out again, independently of the engine."""
    steps_ok = all((b - a) % 9 in (1, 8) for a, b in zip(cards, cards[1:], strict=False))
    return len(cards) == depth and steps_ok


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_BRM_I1_the_63_diver_cards_are_conserved_and_each_deal_gives_twelve(index: int) -> None:
    """BRM-I1: hands + columns + set-aside cards are the 63 Diver cards at every step; each hand starts with 12."""
    for steps, final in games(index):
        for state in states(steps, final):
            f = fields(state)
            cards = digits(f["hands"]) + digits(f["columns"]) + digits(f["aside"])
            assert Counter(cards) == Counter(DIVER_DECK)
    for k, (steps, _) in enumerate(games(index)):
        opening = GAME.new_with_events(config(**CONFIGS[index]), 300 + 10 * index + k)[1]
        deals = [e for e in opening + [e for s in steps for e in s.events]
                 if e.kind in ("round_start", "layout_start")]
        assert deals
        for event in deals:
            assert event.hand and all(len(event.for_seat(seat)["hand"]) == 12 for seat in event.hand)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_BRM_I2_the_28_treasures_are_conserved(index: int) -> None:
    """BRM-I2: treasure deck + layout + won pile + Keeper's (or lost) pile = the 28 distinct treasures."""
    for steps, final in games(index):
        for state in states(steps, final):
            f = fields(state)
            every = ids(f["deck"]) + ids(f["layout"]) + ids(f["won"]) + ids(f["keeper"])
            assert sorted(every) == sorted(DEPTH)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_BRM_I3_columns_only_grow_and_only_during_the_dive(index: int) -> None:
    """BRM-I3: between resolutions a column only gains cards at its end, only by a lay during the dive."""
    grew = 0
    for steps, final in games(index):
        for step, after in zip(steps, [*(s.before for s in steps[1:]), final], strict=True):
            if any(e.kind in ("round_end", "layout_end") for e in step.events):
                continue
            before_cols, after_cols = columns(step.before), columns(after)
            if before_cols == after_cols:
                continue
            assert GAME.format_action(step.action).startswith("lay ")
            assert fields(step.before)["phase"] == "dive" or any(e.kind == "dive_start" for e in step.events)
            changed = [k for k in range(len(after_cols)) if before_cols[k] != after_cols[k]]
            assert len(changed) == 1 and after_cols[changed[0]][:-1] == before_cols[changed[0]]
            grew += 1
    assert grew > 0


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_BRM_I4_no_lay_outside_the_dive_and_times_never_go_back(index: int) -> None:
    """BRM-I4: every accepted lay happened after the dive started and before it ended; the time of accepted inputs
    never decreases."""
    lays = 0
    for steps, final in games(index):
        last_time = 0
        diving_since: int | None = None
        for step in steps:
            assert step.time >= last_time
            last_time = step.time
            for event in step.events:
                shown = event.for_seat(None)
                if event.kind == "dive_start":
                    diving_since = shown["t"]
                elif event.kind in ("round_end",) or (event.kind == "layout_end" and shown["reason"] != "full"
                                                     and shown["reason"] != "empty"):
                    diving_since = None
                elif event.kind == "lay":
                    assert diving_since is not None and shown["t"] >= diving_since
                    lays += 1
        assert int(fields(final)["now"]) == last_time
    assert lays > 0


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_BRM_I5_each_revealed_treasure_is_resolved_once_into_exactly_one_pile(index: int) -> None:
    """BRM-I5: each resolution judges exactly the layout's treasures, each into one pile (won or Keeper's/lost)."""
    for steps, final in games(index):
        for step, after in zip(steps, [*(s.before for s in steps[1:]), final], strict=True):
            ends = [e.for_seat(None) for e in step.events if e.kind in ("round_end", "layout_end")]
            if not ends:
                continue
            (end,) = ends
            layout = ids(fields(step.before)["layout"])
            assert [c["treasure"] for c in end["columns"]] == layout
            f = fields(after)
            if f["won"] != "-" or f["keeper"] != "-":  # the chained challenge may have reshuffled them away
                for column in end["columns"]:
                    pile = ids(f["won"]) if column["won"] else ids(f["keeper"])
                    other = ids(f["keeper"]) if column["won"] else ids(f["won"])
                    assert column["treasure"] in pile and column["treasure"] not in other


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_BRM_I6_a_columns_verdict_depends_only_on_the_depth_and_its_cards(index: int) -> None:
    """BRM-I6: every resolved column's verdict equals BRM-R21 computed from (depth, card values in order)."""
    judged = 0
    for steps, _ in games(index):
        for step in steps:
            for event in step.events:
                if event.kind in ("round_end", "layout_end"):
                    for column in event.for_seat(None)["columns"]:
                        assert column["won"] is reference_verdict(DEPTH[column["treasure"]], column["cards"])
                        judged += 1
    assert judged > 0


@pytest.mark.parametrize("index", [0, 1, 2, 3], ids=IDS[:4])
def test_BRM_I7_each_round_lays_out_one_treasure_per_player_and_a_game_uses_5n(index: int) -> None:
    """BRM-I7: every round lays out min(n, remaining) treasures; the standard game uses exactly 5n of them."""
    n = config(**CONFIGS[index]).num_players
    for steps, final in games(index):
        starts = [e.for_seat(None) for s in steps for e in s.events if e.kind == "round_start"]
        assert all(start["columns"] == n for start in starts)
        f = fields(final)
        assert len(ids(f["won"])) + len(ids(f["keeper"])) == 5 * n
        assert len(ids(f["deck"])) == 28 - 5 * n


@pytest.mark.parametrize("index", [0, 1, 2, 3], ids=IDS[:4])
def test_BRM_I8_the_players_win_iff_w_reaches_p(index: int) -> None:
    """BRM-I8: the verdict is the players' iff W (treasures won) >= P (the Keeper's protection points)."""
    for _, final in games(index):
        f = fields(final)
        w = len(ids(f["won"]))
        p = sum(PROTECTION[t] for t in ids(f["keeper"]))
        outcome = GAME.outcome(final)
        assert outcome is not None
        n = config(**CONFIGS[index]).num_players
        assert outcome.winners == (tuple(range(n)) if w >= p else ())


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=IDS)
def test_BRM_I9_same_seed_and_same_timestamped_inputs_give_the_same_game(index: int) -> None:
    """BRM-I9: determinism: replaying the same inputs (with their times, and the clock's ticks) from the same seed
    gives the same state at every step."""
    cfg = config(**CONFIGS[index])
    steps, final = games(index)[0]
    seed = 300 + 10 * index
    state = GAME.new(cfg, seed)
    for step in steps:
        assert GAME.state_notation(state) == GAME.state_notation(step.before)
        seat = CLOCK if step.seat == CLOCK else step.seat
        GAME.apply(state, seat, GAME.parse_action(GAME.format_action(step.action)))
    assert GAME.state_notation(state) == GAME.state_notation(final)
