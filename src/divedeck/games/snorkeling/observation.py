"""Snorkeling's observation for learners (``Snorkeling.observation``; ``docs/rl.md`` lists the blocks).

Faces in the order of the static card table (``static_data(config)["cards"]``); counts per face are divided by
``COPIES``.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from typing import Any

from ...engine.observation import ObservationEncoder


class SnorkelingObservation(ObservationEncoder):
    PHASES = ("center", "opponents", "over")
    COPIES = 4.0  # counts per face are divided by this (the standard deck has 3 copies of each face)

    def __init__(self, game: Any, config: Any) -> None:
        super().__init__(game, config)
        static = game.static_data(config)
        self.faces = list(static["cards"])
        self.face_index = {face: i for i, face in enumerate(self.faces)}
        self.top_value = float(static["lanternfish_value"])
        self.target = float(static["target_score"])
        self.score_scale = self.target
        f, n = len(self.faces), self.players
        self.blocks = [("hand", f), ("center_top", f), ("center", f), ("center_size", 1), ("deck_size", 1),
                       ("phase", len(self.PHASES)), ("turn_center_played", 1), ("turn_t0", f), ("round", 1),
                       ("turns_in_round", 1)]
        for r in range(n):
            self.blocks += [(f"seat{r}_score", 1), (f"seat{r}_pile_top", 1), (f"seat{r}_pile_size", 1),
                            (f"seat{r}_hand_size", 1), (f"seat{r}_active", 1), (f"seat{r}_starter", 1),
                            (f"seat{r}_targeted", 1), (f"seat{r}_pile", f), (f"seat{r}_known_in_hand", f)]
        self.seat_base = 4 * f + 8
        self.seat_stride = 7 + 2 * f
        self.phase_at = {phase: 3 * f + 2 + i for i, phase in enumerate(self.PHASES)}
        self.deck_scale = 1.0 / (f * self.COPIES)

    def fill(self, out: MutableSequence[float], view: Mapping[str, Any], seat: int) -> None:
        index, f, n = self.face_index, len(self.faces), self.players
        step = 1.0 / self.COPIES
        for card in view.get("hand", ()):
            out[index[card]] += step
        center = view["center"]
        if center:
            out[f + index[center[-1]]] = 1.0
        at = 2 * f
        for card in center:
            out[at + index[card]] += step
        at = 3 * f
        out[at] = len(center) / 20.0
        out[at + 1] = view["deck_size"] * self.deck_scale
        out[self.phase_at[view["phase"]]] = 1.0
        turn = view["turn"]
        out[at + 5] = turn["center_played"] / 5.0
        t0 = index.get(turn["t0"])
        if t0 is not None:
            out[at + 6 + t0] = 1.0
        out[4 * f + 6] = view["round"] / 20.0
        out[4 * f + 7] = view["turns_in_round"] / 50.0
        targets = turn["targets"]
        active, starter = view["active"], view["starter"]
        scores, tops, piles = view["scores"], view["pile_tops"], view["piles"]
        hand_sizes, known = view["hand_sizes"], view["known_in_hand"]
        target, top = self.target, self.top_value
        at = self.seat_base
        stride = self.seat_stride
        for r in range(n):
            s = (seat + r) % n
            pile = piles[s]
            out[at] = scores[s] / target
            out[at + 1] = tops[s] / top
            out[at + 2] = len(pile) / 10.0
            out[at + 3] = hand_sizes[s] / 10.0
            if s == active:
                out[at + 4] = 1.0
            if s == starter:
                out[at + 5] = 1.0
            if s in targets:
                out[at + 6] = 1.0
            base = at + 7
            for card in pile:
                out[base + index[card]] += step
            base += f
            for card in known[s]:
                out[base + index[card]] += step
            at += stride
