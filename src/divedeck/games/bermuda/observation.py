"""Bermuda's observation for learners (``Bermuda.observation``; ``docs/rl.md`` lists the blocks).

Card values from ``static_data(config)["values"]``; one column per seat.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from typing import Any

from ...engine.observation import ObservationEncoder


class BermudaObservation(ObservationEncoder):
    PHASES = ("prepare", "dive", "over")
    STATUSES = ("hidden", "empty", "building", "complete", "too_long", "broken")
    TIME_SCALE_MS = 60_000.0  # time since the dive began is divided by this

    def __init__(self, game: Any, config: Any) -> None:
        super().__init__(game, config)
        static = game.static_data(config)
        self.values = [int(v) for v in static["values"]]
        self.value_index = {v: i for i, v in enumerate(self.values)}
        self.hand_size = float(static["hand_size"])
        self.countdown = float(static["countdown_ms"]) or 1.0
        treasures = static["treasures"]
        self.max_treasure_depth = float(max(t["depth"] for t in treasures))
        self.max_protection = float(max(t["protection"] for t in treasures)) or 1.0
        self.rounds = float(static["rounds"])
        self.total_treasures = float(len(treasures))
        self.columns = self.players
        v, n, c = len(self.values), self.players, self.columns
        self.blocks = [("hand", v), ("phase", len(self.PHASES)), ("round", 1), ("since_dive", 1),
                       ("countdown_left", 1), ("deck_size", 1), ("treasures_won", 1), ("protection", 1)]
        for k in range(c):
            self.blocks += [(f"column{k}_shown", 1), (f"column{k}_depth", 1), (f"column{k}_protection", 1),
                            (f"column{k}_length", 1), (f"column{k}_cards", v), (f"column{k}_last", v),
                            (f"column{k}_status", len(self.STATUSES)), (f"column{k}_accepts", v),
                            (f"column{k}_signalled", 1)]
        for r in range(n):
            self.blocks += [(f"seat{r}_holding", 1), (f"seat{r}_hand_size", 1), (f"seat{r}_signal", c + 1)]
        at = self.offsets()
        self.phase_at = {name: at["phase"] + i for i, name in enumerate(self.PHASES)}
        self.round_at = at["round"]
        self.status_index = {name: i for i, name in enumerate(self.STATUSES)}
        self.column_base = at["column0_shown"]
        self.column_stride = 5 + 3 * v + len(self.STATUSES)
        self.seat_base = at["seat0_holding"]
        self.seat_stride = 3 + c

    def fill(self, out: MutableSequence[float], view: Mapping[str, Any], seat: int) -> None:
        v, n, c, index = len(self.values), self.players, self.columns, self.value_index
        now = view["now"]
        step = 3.0 / self.hand_size
        for card in view.get("hand", ()):
            out[index[card]] += step
        out[self.phase_at[view["phase"]]] = 1.0
        at = self.round_at
        out[at] = view["round"] / self.rounds
        t0, dive_at = view["t0"], view["dive_at"]
        if t0 is not None:
            out[at + 1] = (now - t0) / self.TIME_SCALE_MS
        if dive_at is not None and dive_at > now:
            out[at + 2] = (dive_at - now) / self.countdown
        out[at + 3] = view["deck_size"] / self.total_treasures
        out[at + 4] = view["treasures_won"] / self.total_treasures
        out[at + 5] = view["protection"] / (self.max_protection * self.total_treasures)
        signals = view["signals"]
        statuses = self.status_index
        at = self.column_base - self.column_stride
        for column in view["columns"]:
            at += self.column_stride
            treasure = column["treasure"]
            cards = column["cards"]
            k = column["column"]
            if treasure is not None:
                out[at] = 1.0
                out[at + 1] = treasure["depth"] / self.max_treasure_depth
                out[at + 2] = treasure["protection"] / self.max_protection
            out[at + 3] = len(cards) / self.max_treasure_depth
            base = at + 4
            for card in cards:
                out[base + index[card]] += 0.25
            if cards:
                out[base + v + index[cards[-1]]] = 1.0
            base += 2 * v
            out[base + statuses[column["status"]]] = 1.0
            base += len(statuses)
            for card in column["accepts"]:
                out[base + index[card]] += 1.0
            out[base + v] = signals.count(k) / n
        at = self.seat_base
        holding, hand_sizes = view["holding"], view["hand_sizes"]
        for r in range(n):
            s = (seat + r) % n
            signal = signals[s]
            if holding[s]:
                out[at] = 1.0
            out[at + 1] = hand_sizes[s] / self.hand_size
            out[at + 2 + (c if signal is None else signal - 1)] = 1.0
            at += self.seat_stride
