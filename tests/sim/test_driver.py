"""The real-time driver: each bot seat's plan, replanning the seats whose view changed, the game's deadline as a
tick for the clock (first on a tie, then the seat that waited longest), the pace of bots without a sense of time
and the pause after a refused plan. On the test buzzer (tests/server/buzzer.py) and on Bermuda with its divers."""

from __future__ import annotations

from typing import Any

from divedeck.bots import Decision
from divedeck.engine import CLOCK, LooseEvent, get_game
from divedeck.games.bermuda import DiverBot
from divedeck.sim.clock import ManualClock
from divedeck.sim.driver import RETRY_MS, UNTIMED_PACE_MS, RealtimeDriver
from tests.server.buzzer import GAME as BUZZER
from tests.server.buzzer import BuzzerConfig, SteadyPresser

BERMUDA = get_game("bermuda")


class Chooser:
    """A bot with no sense of time: it always presses."""

    name = "chooser"

    def choose(self, decision: Decision) -> Any:
        return next(a for a in decision.legal if a.kind == "press")


def buzzer(players: int = 2, length_ms: int = 1000) -> Any:
    return BUZZER.new(BuzzerConfig(players, length_ms), 0)


def step(driver: RealtimeDriver, state: Any, game: Any = BUZZER) -> Any:
    due = driver.due(state)
    assert due is not None
    game.apply(state, due.seat, due.action)
    driver.applied(state, due.seat, due.t)
    return due


def test_each_bot_seat_plans_and_a_tie_goes_to_the_lower_seat() -> None:
    state = buzzer()
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(1, SteadyPresser(pace_ms=50), state, 0)
    driver.seat_bot(0, SteadyPresser(pace_ms=50), state, 0)
    assert driver.plan(0) == driver.plan(1) == (50, BUZZER.parse_action("press"))
    due = driver.due(state)
    assert due is not None and (due.t, due.seat, BUZZER.format_action(due.action)) == (50, 0, "press @50")


def test_same_millisecond_ties_go_to_the_seat_that_waited_longest_so_no_seat_wins_every_race_by_its_number() -> None:
    """Issue 25: a tie always given to the lower seat let Hold your Hat's team A win every raid two identical bots
    answered in the same millisecond. Two seats pressing at one pace now take the ties in turn."""
    state = buzzer(length_ms=10_000)
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(0, SteadyPresser(pace_ms=50), state, 0)
    driver.seat_bot(1, SteadyPresser(pace_ms=50), state, 0)
    winners = []
    for _ in range(6):
        plans = driver.plan(0), driver.plan(1)
        assert plans[0] is not None and plans[1] is not None and plans[0][0] == plans[1][0]  # a tie every time
        winners.append(step(driver, state).seat)
    assert winners == [0, 1, 0, 1, 0, 1]


def test_after_an_action_every_seat_whose_view_changed_plans_again_and_its_old_plan_is_dropped() -> None:
    state = buzzer()
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(0, SteadyPresser(pace_ms=50), state, 0)
    driver.seat_bot(1, SteadyPresser(pace_ms=80), state, 0)
    assert step(driver, state).seat == 0  # at 50: everyone's view shows the press
    plan = driver.plan(1)
    assert plan is not None and plan[0] == 130  # seat 1 planned again at 50, its plan for 80 dropped
    assert step(driver, state).t == 100  # seat 0 again, before seat 1's new plan
    assert driver.plan(1) == (180, plan[1])


def test_a_seat_whose_view_did_not_change_keeps_its_plan() -> None:
    class Blind(SteadyPresser):
        def plan(self, decision: Decision) -> tuple[int, Any] | None:
            self.asked = getattr(self, "asked", 0) + 1
            return super().plan(decision)

    state = buzzer()
    driver = RealtimeDriver(BUZZER)
    bot = Blind(pace_ms=70)
    driver.seat_bot(0, bot, state, 0)
    driver.replan(state, 30)  # nothing changed
    assert bot.asked == 1 and driver.plan(0) == (70, BUZZER.parse_action("press"))
    driver.replan(state, 30, also=(0,))
    assert bot.asked == 2 and driver.plan(0) == (100, BUZZER.parse_action("press"))


def test_a_bot_that_notices_events_keeps_its_plan_unless_it_says_they_may_change_it() -> None:
    class Noticing(SteadyPresser):
        def __init__(self, pace_ms: int, cares: bool) -> None:
            super().__init__(pace_ms=pace_ms)
            self.cares, self.asked, self.noticed = cares, 0, []

        def plan(self, decision: Decision) -> tuple[int, Any] | None:
            self.asked += 1
            return super().plan(decision)

        def notice(self, events: Any) -> bool:
            self.noticed.append(list(events))
            return self.cares

    state = buzzer(3)
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(0, SteadyPresser(pace_ms=50), state, 0)
    keeps, cares = Noticing(80, cares=False), Noticing(90, cares=True)
    driver.seat_bot(1, keeps, state, 0)
    driver.seat_bot(2, cares, state, 0)
    due = driver.due(state)
    assert due is not None and due.seat == 0
    events = BUZZER.apply(state, due.seat, due.action)
    driver.applied(state, due.seat, due.t, events)  # the view of every seat changed (it shows the press)
    assert keeps.noticed == cares.noticed == [events]
    assert keeps.asked == 1 and driver.plan(1) == (80, BUZZER.parse_action("press"))  # kept, view not rebuilt
    assert cares.asked == 2 and driver.plan(2) == (140, BUZZER.parse_action("press"))  # planned again at 50
    driver.applied(state, 1, 60)  # without events: the views decide, as before
    assert keeps.asked == 2 and keeps.noticed == [events]


def test_a_noticing_bot_is_told_only_what_its_seat_may_see_of_the_events() -> None:
    class Noticing(SteadyPresser):
        def __init__(self) -> None:
            super().__init__(pace_ms=500)
            self.noticed: list[Any] = []

        def notice(self, events: Any) -> bool:
            self.noticed.extend(events)
            return False

    state = buzzer(3)
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(0, SteadyPresser(pace_ms=50), state, 0)
    watchers = {seat: Noticing() for seat in (1, 2)}
    for seat, bot in watchers.items():
        driver.seat_bot(seat, bot, state, 0)
    secret = LooseEvent("deal", {"round": 1}, {1: {"hand": ["Y1"]}, 2: {"hand": ["R2"]}})
    public = LooseEvent("press", {"seat": 0})
    driver.applied(state, 0, 50, [public, secret])
    assert watchers[1].noticed == [public, LooseEvent("deal", {"round": 1}, {1: {"hand": ["Y1"]}})]
    assert watchers[2].noticed == [public, LooseEvent("deal", {"round": 1}, {2: {"hand": ["R2"]}})]
    assert watchers[1].noticed[0] is public  # a record without secrets is handed on as it is


def test_the_deadline_is_a_clock_tick_and_goes_before_a_plan_at_the_same_time() -> None:
    state = buzzer(length_ms=100)
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(0, SteadyPresser(pace_ms=50), state, 0)
    assert step(driver, state).t == 50  # the first press starts the buzzer: its deadline is 150
    assert step(driver, state).t == 100
    due = driver.due(state)  # seat 0 plans for 150, the deadline is 150: the clock first
    assert due is not None and (due.seat, BUZZER.format_action(due.action)) == (CLOCK, "tick @150")
    assert driver.plan(0) == (150, BUZZER.parse_action("press"))
    step(driver, state)
    assert BUZZER.outcome(state) is not None and driver.due(state) is None and driver.plan(0) is None


def test_a_bot_without_a_sense_of_time_acts_at_the_untimed_pace_after_its_own_actions() -> None:
    state = buzzer(length_ms=10 * UNTIMED_PACE_MS)
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(0, Chooser(), state, 0)
    driver.seat_bot(1, SteadyPresser(pace_ms=300), state, 0)
    seen = [(due.seat, due.t) for due in (step(driver, state) for _ in range(6))]
    untimed = [t for seat, t in seen if seat == 0]
    assert untimed[0] == UNTIMED_PACE_MS  # not at once when seated
    assert [b - a for a, b in zip(untimed, untimed[1:], strict=False)] == [UNTIMED_PACE_MS] * (len(untimed) - 1)
    assert any(seat == 1 for seat, _ in seen)  # others' actions do not push it back, nor starve them


def test_the_server_pace_is_never_faster_than_the_floor() -> None:
    assert RealtimeDriver(BUZZER, untimed_pace_ms=0).untimed_pace_ms > 0


def test_a_refused_plan_is_tried_again_only_after_a_pause() -> None:
    state = buzzer()
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(0, SteadyPresser(pace_ms=10), state, 0)
    driver.refused(state, 0, 10)
    assert driver.plan(0) == (10 + RETRY_MS, BUZZER.parse_action("press"))


def test_a_person_taking_the_seat_back_drops_its_bot() -> None:
    state = buzzer()
    driver = RealtimeDriver(BUZZER)
    driver.seat_bot(0, SteadyPresser(), state, 0)
    driver.unseat(0)
    assert driver.plan(0) is None and driver.due(state) is None


def test_bermuda_divers_hold_the_countdown_ticks_then_they_lay_at_their_pace() -> None:
    state = BERMUDA.new(BERMUDA.make_config({"num_players": 2}), 5)
    driver = RealtimeDriver(BERMUDA)
    for seat in (0, 1):
        driver.seat_bot(seat, DiverBot(seat, pace_ms=1000), state, 0)
    holds = []
    while (due := driver.due(state)) is not None and due.seat != CLOCK:
        holds.append(step(driver, state, BERMUDA))
    assert sorted(BERMUDA.format_action(d.action).split(" @")[0] for d in holds) == ["hold", "hold"]
    assert due is not None and due.t == BERMUDA.deadline(state)  # the countdown's end, on the clock
    tick = step(driver, state, BERMUDA)
    assert BERMUDA.view(state, 0)["phase"] == "dive"
    lays = [step(driver, state, BERMUDA) for _ in range(4)]
    assert all(d.seat in (0, 1) and BERMUDA.format_action(d.action).startswith("lay ") for d in lays)
    assert [d.t for d in lays] == sorted(d.t for d in lays) and lays[0].t > tick.t


def test_a_manual_clock_calls_back_in_time_order_only_when_moved() -> None:
    import asyncio

    async def scenario() -> list[int]:
        clock = ManualClock(100)
        fired: list[int] = []
        clock.call_at(300, lambda: fired.append(300))
        clock.call_at(200, lambda: fired.append(200))
        clock.call_at(250, lambda: fired.append(250)).cancel()
        await asyncio.sleep(0)
        assert fired == []
        clock.advance(150)
        await asyncio.sleep(0)
        assert fired == [200]
        clock.set(1000)
        await asyncio.sleep(0)
        return fired

    assert asyncio.run(scenario()) == [200, 300]
