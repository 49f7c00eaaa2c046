"""Bermuda's bot teammates (timed bots) and the real-time simulator that plays them on a simulated clock."""

from __future__ import annotations

import json
import random
import statistics
from functools import partial
from typing import Any

import pytest
from typer.testing import CliRunner

from divedeck.bots import Decision, TimedBot, bot_names, make_bot
from divedeck.cli import app
from divedeck.engine import CLOCK, DivedeckError
from divedeck.games.bermuda import DiverBot
from divedeck.games.bermuda.actions import Lay
from divedeck.games.bermuda.cards import NEIGHBOURS
from divedeck.sim import SimulationSpec, simulate, summarize
from divedeck.sim.realtime import play_realtime

from .helpers import GAME, config


class Recorder:
    """Wraps a timed bot: checks each plan is legal and records what its seat did when."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.plans = 0

    def plan(self, decision: Decision) -> tuple[int, Any] | None:
        planned = self.bot.plan(decision)
        if planned is not None:
            delay, action = planned
            assert delay >= 0
            assert action in decision.legal, f"{action} is not among {decision.legal}"
            self.plans += 1
        return planned


def logged_game(options: dict[str, Any], seed: int, bots: list[Any]) -> tuple[Any, list[tuple[int, str]]]:
    """A simulated game; every applied input as (seat, notation)."""
    log: list[tuple[int, str]] = []
    original = GAME.apply

    def apply(state: Any, seat: int, action: Any) -> Any:
        events = original(state, seat, action)
        log.append((seat, GAME.format_action(action)))
        return events

    GAME.apply = apply  # type: ignore[method-assign]
    try:
        outcome, _, _ = play_realtime(GAME, config(**options), seed, bots)
    finally:
        del GAME.apply
    return outcome, log


def times(log: list[tuple[int, str]], seat: int, verb: str) -> list[int]:
    return [int(text.split("@")[1]) for who, text in log if who == seat and text.startswith(verb)]


def test_the_bots_are_timed_bots_with_presets_and_a_grid_of_paces_and_breaths() -> None:
    bot: TimedBot = make_bot("bermuda", "diver", 1)  # type: ignore[assignment]
    assert isinstance(bot, DiverBot) and callable(bot.plan) and bot.name == "diver"
    bots = {name: entry.factory for name, entry in GAME.bots.items()}
    assert {"diver", "fast-diver", "slow-diver", "diver-p500-b15", "diver-p3000-b45"} <= set(bots)
    assert (bots["fast-diver"](0).pace_ms, bots["fast-diver"](0).breath_ms) == (700, 40_000)
    assert (bots["diver-p1000-b30"](0).pace_ms, bots["diver-p1000-b30"](0).breath_ms) == (1000, 30_000)
    # people are offered the presets; the grid is accepted by name, for simulations
    assert {"diver", "fast-diver", "slow-diver"} <= set(bot_names("bermuda"))
    assert "diver-p500-b15" not in bot_names("bermuda")
    assert make_bot("bermuda", "diver-p500-b15", 1).pace_ms == 500  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        DiverBot(pace_ms=0)


@pytest.mark.parametrize("options", [
    {"num_players": 4}, {"num_players": 1}, {"num_players": 3, "hidden_treasures": True},
    {"num_players": 2, "sorting": "every_round"}, {"num_players": 3, "placement_check": "strict"},
    {"num_players": 2, "single_breath_challenge": True},
], ids=["4p", "solo", "hidden", "sorting", "strict", "chained"])
def test_bots_plan_only_legal_actions_and_finish_games(options: dict[str, Any]) -> None:
    n = options["num_players"]
    bots = [Recorder(make_bot("bermuda", "fast-diver", seat)) for seat in range(n)]
    outcome, log = logged_game(options, 11, bots)
    assert outcome is not None
    assert all(bot.plans > 0 for bot in bots)
    assert any(text.startswith("lay ") for _, text in log)
    if options.get("sorting"):
        assert any(text.startswith("sort") for _, text in log)


def test_a_bot_lays_at_its_pace_and_breathes_after_its_breath_length() -> None:
    """A diver's lays come about pace_ms apart (varied by its jitter); it breathes about breath_ms after the dive
    started unless every column is settled sooner."""
    bot = DiverBot(3, pace_ms=1000, breath_ms=9000, jitter=0.2)
    _, log = logged_game({"num_players": 1, "rounds": 3}, 5, [bot])
    starts = [int(text.split("@")[1]) for who, text in log if who == CLOCK]  # each countdown's end: a dive start
    lays = times(log, 0, "lay")
    releases = times(log, 0, "release")
    assert len(starts) == len(releases) == 3
    gaps = [b - a for a, b in zip(lays, lays[1:], strict=False) if b - a < 5000]
    assert gaps and 500 <= statistics.median(gaps) <= 1300
    for start, release in zip(starts, releases, strict=True):
        assert release - start <= 9000 * 1.2 + 1


def test_a_bot_with_a_short_breath_comes_up_while_columns_are_still_open() -> None:
    bot = DiverBot(1, pace_ms=3000, breath_ms=4000, jitter=0.0)
    _, log = logged_game({"num_players": 1, "rounds": 1}, 8, [bot])
    start = next(int(text.split("@")[1]) for who, text in log if who == CLOCK)
    assert times(log, 0, "release") == [start + 4000]
    assert len(times(log, 0, "lay")) == 1  # at 3000 ms; the next would come after it had to breathe


def test_a_bots_plan_depends_only_on_its_seats_view() -> None:
    """Bots never read other hands: a determinized state (other hands, the deck, the set-aside cards resampled)
    gives the same plan."""
    rng = random.Random(4)
    compared = 0
    for seed in (1, 2, 3):
        state = GAME.new(config(num_players=3, countdown_ms=0), seed)
        for seat in range(3):
            GAME.apply(state, seat, GAME.at(GAME.legal_actions(state, seat)[0], 10))
        for seat in range(3):
            sample = GAME.determinize(state, seat, random.Random(rng.getrandbits(32)))
            assert GAME.state_notation(sample) != GAME.state_notation(state)
            plans = []
            for source in (state, sample):
                decision = Decision(GAME, seat, GAME.view(source, seat), GAME.legal_actions(source, seat),
                                    partial(GAME.determinize, source, seat), 10)
                plans.append(DiverBot(seed).plan(decision))
            assert plans[0] == plans[1]
            compared += 1
    assert compared == 9


def test_a_simulated_game_is_reproducible_from_its_seed() -> None:
    def run(bot_seed: int) -> list[tuple[int, str]]:
        return logged_game({"num_players": 3}, 7, [make_bot("bermuda", "diver", bot_seed + s) for s in range(3)])[1]

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_quicker_divers_with_longer_breath_win_more_treasures() -> None:
    """The simulator shows what pace and breath are worth: fast divers with a long breath win more than slow ones
    with a short breath, over the same deals."""
    means = {}
    for name in ("diver-p1000-b45", "diver-p3000-b15"):
        spec = SimulationSpec("bermuda", (name,) * 3, {"num_players": 3}, 5)
        results = simulate(spec, 8, workers=1)
        means[name] = statistics.fmean(r.details["treasures"] for r in results)
    assert means["diver-p1000-b45"] > means["diver-p3000-b15"] + 3


def test_the_clock_ends_dives_at_the_time_limit_when_bots_breathe_late() -> None:
    """Deadlines fire as the clock's ticks: with max_dive_ms shorter than the bots' breath, time ends each dive."""
    bots = [DiverBot(s, pace_ms=500, breath_ms=60_000) for s in range(2)]
    _, log = logged_game({"num_players": 2, "max_dive_ms": 3000, "rounds": 2}, 3, bots)
    assert not times(log, 0, "release") and not times(log, 1, "release")
    assert sum(1 for who, _ in log if who == CLOCK) >= 4  # two countdowns and two time limits


def test_the_generic_random_bot_plays_when_the_dive_needs_no_countdown() -> None:
    """A turn-based bot acts at a fixed pace in the real-time loop; random finishes a game with countdown_ms=0,
    and with the default countdown the simulator stops with an error that says what to do."""
    spec = SimulationSpec("bermuda", ("random", "random"), {"num_players": 2, "countdown_ms": 0}, 1)
    assert len(simulate(spec, 2, workers=1)) == 2
    stuck = SimulationSpec("bermuda", ("random", "random"), {"num_players": 2}, 1)
    with pytest.raises(DivedeckError, match="countdown_ms=0"):
        simulate(stuck, 1, workers=1)


def test_divedeck_simulate_bermuda_reports_the_teams_win_rate() -> None:
    result = CliRunner().invoke(app, ["simulate", "bermuda", "--games", "4", "--workers", "1", "--json",
                                      "--seats", "fast-diver,fast-diver"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    rates = {row["win_rate"] for row in summary["seats"]}
    assert len(rates) == 1  # cooperative: one result for the whole team
    default = CliRunner().invoke(app, ["simulate", "bermuda", "--games", "2", "--workers", "1", "--json",
                                       "-o", "num_players=2"])
    assert default.exit_code == 0, default.output
    assert json.loads(default.output)["bots"] == ["medium", "medium"]  # the level that plays "diver"
    assert isinstance(make_bot("bermuda", "medium", 1), DiverBot) and make_bot("bermuda", "easy", 1).pace_ms == 3500
    assert summarize(SimulationSpec("bermuda", ("diver",), {"num_players": 1}), simulate(
        SimulationSpec("bermuda", ("diver",), {"num_players": 1}), 2, workers=1))["games"] == 2


def own_bad_steps(options: dict[str, Any], seed: int, bots: list[Any], max_time_ms: int) -> tuple[int, list[str]]:
    """A simulated game within ``max_time_ms`` of simulated time: its lays, and those of a bot that put a card
    that is not a neighbour (BRM-R20) on a card that bot had laid itself."""
    cards_by: dict[int, list[int]] = {}  # column -> the seat of each of its cards
    bad: list[str] = []
    lays = 0
    original = GAME.apply

    def apply(state: Any, seat: int, action: Any) -> Any:
        nonlocal lays
        before = [tuple(column) for column in state.columns]
        events = original(state, seat, action)
        if isinstance(action, Lay):
            lays += 1
            column = before[action.column - 1]
            seats = cards_by.get(action.column, [])[:len(column)]  # a new round's columns start empty
            if column and seats[-1] == seat and action.card not in NEIGHBOURS[column[-1]]:
                bad.append(f"seat {seat}: {GAME.format_action(action)} on its own {column[-1]}")
            cards_by[action.column] = [*seats, seat]
        return events

    GAME.apply = apply  # type: ignore[method-assign]
    try:
        play_realtime(GAME, config(**options), seed, bots, max_time_ms=max_time_ms)
    finally:
        del GAME.apply
    return lays, bad


@pytest.mark.parametrize("name", bot_names("bermuda"))
def test_every_offered_bot_finishes_its_tables_and_never_breaks_its_own_column(name: str) -> None:
    """Issue 14: a bot offered to people never stalls a table (each game ends well within its rounds' worth of
    breaths) and never lays a bad step (BRM-R21) on its own card; teammates' cards may still collide, as people's
    do (docs/games/bermuda.md, section 10)."""
    for players, seed in ((1, 1), (3, 2), (5, 3)):
        bots = [make_bot("bermuda", name, 10 * seed + s) for s in range(players)]
        bound = 5 * (3000 + 60_000)  # five rounds, each a count of three and a breath far longer than any bot's
        lays, bad = own_bad_steps({"num_players": players}, seed, bots, bound)
        assert lays >= 5 * players, f"{name} x{players} laid only {lays} cards"
        assert bad == [], f"{name} x{players}: {bad}"


def test_a_diver_keeps_its_plan_through_a_lay_elsewhere_and_thinks_again_when_its_columns_change() -> None:
    from divedeck.engine.decision import decision_for
    from divedeck.games.bermuda.events import Laid, Signalled

    state = GAME.new(config(num_players=4, countdown_ms=0), 3)
    for seat in range(4):
        GAME.apply(state, seat, GAME.parse_action("hold"), at=0)
    assert GAME.view(state, 0)["phase"] == "dive"
    bot = DiverBot(0)
    planned = bot.plan(decision_for(GAME, state, 0, state.now))
    assert planned is not None and isinstance(planned[1], Lay)
    watched = {1, planned[1].column}  # seat 0 looks after column 1, and reaches for its planned column
    elsewhere = next(column for column in range(1, 5) if column not in watched)
    assert not bot.notice([Laid(1, 5, elsewhere, "x", 10, 1), Signalled(2, elsewhere, "x", 10)])  # the plan stands
    assert bot._changed[elsewhere] == (1, 10)  # it noted when that column changed
    assert bot.notice([Laid(1, 5, planned[1].column, "x", 20, 1)])  # its planned column: it thinks again
    assert bot.notice([Laid(1, 5, 1, "x", 30, 1)])  # its own column too
