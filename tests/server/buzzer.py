"""A tiny real-time game used only to test the server's clock, independent of any real game's rules.

Every seat may ``press`` as often as it likes; the game ends at its deadline (``length_ms`` after the first press),
or at once when a seat leaves (``quit``, its leave action). Actions carry their time: ``press @1200``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from typing import Any

from divedeck.engine import CLOCK, BotEntry, Event, Game, IllegalAction, LooseEvent, MalformedInput, Outcome


@dataclass(frozen=True)
class BuzzerConfig:
    num_players: int = field(default=2, metadata={"help": "seats"})
    length_ms: int = field(default=1000, metadata={"help": "how long the game lasts after the first press"})


@dataclass(frozen=True)
class Act:
    kind: str  # press | quit | tick
    t: int = 0


@dataclass
class BuzzerState:
    config: BuzzerConfig
    presses: list[int]
    started: int | None = None
    last_time: int = 0
    over: bool = False

    def clone(self) -> BuzzerState:
        return BuzzerState(self.config, list(self.presses), self.started, self.last_time, self.over)


ACTION = re.compile(r"^(press|quit|tick) @(\d+)$")


class Buzzer(Game[BuzzerState, Act]):
    name = "test-buzzer"
    title = "Buzzer (test)"
    config_type = BuzzerConfig
    realtime = True
    over_rule = "TST-R2"

    def num_players(self, config: Any) -> int:
        return int(config.num_players)

    def new_with_events(self, config: Any, seed: int) -> tuple[BuzzerState, list[Event]]:
        return BuzzerState(config, [0] * config.num_players), []

    def actors(self, state: BuzzerState) -> frozenset[int]:
        return frozenset() if state.over else frozenset(range(len(state.presses)))

    def legal_actions(self, state: BuzzerState, seat: int) -> list[Act]:
        return [] if state.over else [Act("press"), Act("quit")]

    def deadline(self, state: BuzzerState) -> int | None:
        if state.over or state.started is None:
            return None
        return state.started + state.config.length_ms

    def _fire(self, state: BuzzerState, t: int) -> list[Event]:
        deadline = self.deadline(state)
        if deadline is not None and t >= deadline:
            state.over = True
            return [LooseEvent("time_up", {"t": deadline})]
        return []

    def validate(self, state: BuzzerState, seat: int, action: Act) -> None:
        if action.t < state.last_time:
            raise IllegalAction("time went backwards", rule="TST-R1")
        if state.over:
            raise IllegalAction("the game is over", rule="TST-R2")
        if action.kind == "tick" and seat != CLOCK:
            raise IllegalAction("only the clock ticks", rule="TST-R3")

    def perform(self, state: BuzzerState, seat: int, action: Act) -> list[Event]:
        self.validate(state, seat, action)
        state.last_time = action.t
        events = self._fire(state, action.t)
        if state.over or action.kind == "tick":
            return events
        if action.kind == "quit":
            state.over = True
            return [LooseEvent("quit", {"seat": seat, "t": action.t})]
        state.presses[seat] += 1
        if state.started is None:
            state.started = action.t
        return [LooseEvent("press", {"seat": seat, "t": action.t})]

    def at(self, action: Act, t: int) -> Act:
        return replace(action, t=t)

    def tick(self, t: int) -> Act:
        return Act("tick", t)

    def leave_action(self, state: BuzzerState, seat: int, t: int) -> Act | None:
        return None if state.over else Act("quit", t)

    def outcome(self, state: BuzzerState) -> Outcome | None:
        if not state.over:
            return None
        best = max(state.presses)
        return Outcome(winners=tuple(s for s, n in enumerate(state.presses) if n == best),
                       scores=tuple(state.presses), termination="TST-R2")

    def view(self, state: BuzzerState, seat: int | None) -> dict[str, Any]:
        return {"presses": list(state.presses), "over": state.over, "deadline": self.deadline(state)}

    def determinize(self, state: BuzzerState, seat: int, rng: random.Random) -> BuzzerState:
        return state.clone()

    def parse_action(self, text: str) -> Act:
        match = ACTION.match(text.strip()) or ACTION.match(text.strip() + " @0")
        if match is None:
            raise MalformedInput(f"not a buzzer action: {text!r}")
        return Act(match.group(1), int(match.group(2)))

    def format_action(self, action: Act) -> str:
        return f"{action.kind} @{action.t}"

    def state_notation(self, state: BuzzerState) -> str:
        return f"{','.join(map(str, state.presses))} {state.started} {state.last_time} {int(state.over)}"

    def seat_notation(self, state: BuzzerState, seat: int | None) -> str:
        return self.state_notation(state)

    def parse_state(self, text: str, config: Any | None = None) -> BuzzerState:
        raise MalformedInput("the buzzer has no state parser")


GAME = Buzzer()


class SteadyPresser:
    """A timed bot: presses every ``pace_ms``."""

    name = "steady"

    def __init__(self, seed: int = 0, pace_ms: int = 50) -> None:
        self.pace_ms = pace_ms

    def plan(self, decision: Any) -> tuple[int, Any] | None:
        return self.pace_ms, next(a for a in decision.legal if a.kind == "press")

    def choose(self, decision: Any) -> Any:
        return next(a for a in decision.legal if a.kind == "press")


Buzzer.bots = {"steady": BotEntry(SteadyPresser)}
