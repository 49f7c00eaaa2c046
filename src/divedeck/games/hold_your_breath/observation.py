"""Hold Your Breath!'s observation for learners (``HoldYourBreath.observation``; ``docs/rl.md`` lists the blocks).

Faces in the order of the static card table (``static_data(config)["cards"]``); counts per face are divided by the
face's copies in the deck.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from typing import Any

from ...engine.observation import ObservationEncoder


class HoldYourBreathObservation(ObservationEncoder):
    ROUNDS = ("descent", "ascent")
    PHASES = ("play", "kraken", "breath", "discard", "over")
    TURN_SCALE = 60.0  # Air and Swim totals of a turn are divided by this

    def __init__(self, game: Any, config: Any) -> None:
        super().__init__(game, config)
        static = game.static_data(config)
        cards = static["cards"]
        self.faces = [card["label"] for card in cards]
        self.face_index = {face: i for i, face in enumerate(self.faces)}
        self.copies = [float(card["count"]) for card in cards]
        # One step per copy: each face's count is divided by its copies.
        self.face_step = {face: 1.0 / copies for face, copies in zip(self.faces, self.copies, strict=True)}
        self.total = float(sum(self.copies))
        self.hand_size = float(static["hand_size"])
        self.max_depth = float(static["max_depth"])
        self.score_scale = self.max_depth
        f, n = len(self.faces), self.players
        self.blocks = [("hand", f), ("discard", f), ("deck_size", 1), ("round", len(self.ROUNDS)),
                       ("phase", len(self.PHASES)), ("turn_air_swim_move", 3), ("final_trigger", n + 1),
                       ("final_turns_left", 1), ("kraken_given", f)]
        for r in range(n):
            self.blocks += [(f"seat{r}_depth", 1), (f"seat{r}_anchor", 1), (f"seat{r}_distance", 1),
                            (f"seat{r}_hand_size", 1), (f"seat{r}_surfaced", 1), (f"seat{r}_active", 1),
                            (f"seat{r}_actor", 1), (f"seat{r}_kraken_waiting", 1), (f"seat{r}_kraken_chosen", 1),
                            (f"seat{r}_winner", 1), (f"seat{r}_pile_face_up", f), (f"seat{r}_pile_face_down_seen", f),
                            (f"seat{r}_pile_face_down_unseen", 1)]
        at = self.offsets()
        self.round_at = {name: at["round"] + i for i, name in enumerate(self.ROUNDS)}
        self.phase_at = {name: at["phase"] + i for i, name in enumerate(self.PHASES)}
        self.deck_at, self.turn_at = at["deck_size"], at["turn_air_swim_move"]
        self.trigger_at, self.turns_left_at, self.given_at = at["final_trigger"], at["final_turns_left"], \
            at["kraken_given"]
        self.seat_base = at["seat0_depth"]
        self.seat_stride = 11 + 2 * f

    def fill(self, out: MutableSequence[float], view: Mapping[str, Any], seat: int) -> None:
        index, step, f, n = self.face_index, self.face_step, len(self.faces), self.players
        for card in view.get("hand", ()):
            out[index[card]] += step[card]
        for card in view["discard"]:
            out[f + index[card]] += step[card]
        out[self.deck_at] = view["deck_size"] / self.total
        out[self.round_at[view["round"]]] = 1.0
        out[self.phase_at[view["phase"]]] = 1.0
        turn = view["turn"]
        at, scale = self.turn_at, self.TURN_SCALE
        out[at] = turn["air"] / scale
        out[at + 1] = turn["swim"] / scale
        out[at + 2] = turn["move"] / scale
        final = view["final"]
        trigger = final["trigger"]
        out[self.trigger_at + (n if trigger is None else (trigger - seat) % n)] = 1.0
        out[self.turns_left_at] = final["turns_left"] / n
        given = view.get("kraken_given")
        if given is not None:
            out[self.given_at + index[given]] = 1.0
        anchors, distances, kraken = view["anchors"], view["distances"], view["kraken"]
        depths, hand_sizes, piles = view["depths"], view["hand_sizes"], view["piles"]
        actors, surfaced, winners, active = view["actors"], view["surfaced"], view["winners"], view["active"]
        waiting = kraken["waiting"] if kraken else ()
        chosen = kraken["chosen"] if kraken else ()
        depth, hand_size = self.max_depth, self.hand_size
        at = self.seat_base
        for r in range(n):
            s = (seat + r) % n
            out[at] = depths[s] / depth
            if anchors:
                out[at + 1] = anchors[s] / depth
            if distances:
                out[at + 2] = distances[s] / (2 * depth)
            out[at + 3] = hand_sizes[s] / hand_size
            if s in surfaced:
                out[at + 4] = 1.0
            if s == active:
                out[at + 5] = 1.0
            if s in actors:
                out[at + 6] = 1.0
            if s in waiting:
                out[at + 7] = 1.0
            if s in chosen:
                out[at + 8] = 1.0
            if s in winners:
                out[at + 9] = 1.0
            up, down = at + 10, at + 10 + f
            unseen = 0
            for item in piles[s]:
                card = item["card"]
                if not item["face_down"]:
                    out[up + index[card]] += step[card]
                elif card is not None:
                    out[down + index[card]] += step[card]
                else:
                    unseen += 1
            out[down + f] = unseen / 5.0
            at += self.seat_stride
