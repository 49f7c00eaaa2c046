"""Fixed-size numeric observations, one encoder per game, built from a seat's view alone (``game.view``).

An encoder is made once per config (the sizes depend on the player count and the card table) and turns a view into
a flat ``float32`` vector in [0, 1]. Seats are written relative to the observer: block 0 is the observer, block 1
the next seat on its left, and so on, so a policy learnt in one seat plays in every seat. Counts are divided by a
bound the config gives (copies of a face, hand size, target score) and clipped to 1. ``docs/rl.md`` lists every
block of each encoding.

Only the view is read, never the state: whatever the view hides, the encoding cannot show (``tests/rl`` checks that
an observation does not change when only unseen cards do).

The encoders are keyed by game name here rather than declared by each game, because the rl extra is optional and
the games must not depend on numpy; a game that wants learners adds an encoder below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..engine.game import Game


class Encoder:
    """Turns one seat's view into a vector of ``size`` floats; ``blocks`` names each part, in order, with its size."""

    size: int
    blocks: list[tuple[str, int]]
    # What the score rewards (``rewards.py``) are divided by, so that they stay near [-1, 1].
    score_scale: float = 1.0

    def __init__(self, game: Game[Any, Any], config: Any) -> None:
        self.game = game
        self.config = config
        self.players = game.num_players(config)

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        raise NotImplementedError

    def _finish(self, values: list[float]) -> np.ndarray:
        out = np.array(values, dtype=np.float32)
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def _rel(self, seat: int, observer: int) -> int:
        return (seat - observer) % self.players


def _counts(cards: Sequence[Any], index: Mapping[Any, int], size: int, scale: float) -> list[float]:
    out = [0.0] * size
    step = 1.0 / scale
    for card in cards:
        out[index[card]] += step
    return out


def _one_hot(index: int | None, size: int) -> list[float]:
    out = [0.0] * size
    if index is not None:
        out[index] = 1.0
    return out


class SnorkelingEncoder(Encoder):
    """Snorkeling: faces in the order of the static card table (``static_data(config)["cards"]``)."""

    PHASES = ("center", "opponents", "over")
    COPIES = 4.0  # counts per face are divided by this (the standard deck has 3 copies of each face)

    def __init__(self, game: Game[Any, Any], config: Any) -> None:
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
        self.size = sum(size for _, size in self.blocks)

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        index, f, n, copies = self.face_index, len(self.faces), self.players, self.COPIES
        center = view["center"]
        turn = view["turn"]
        out = _counts(view.get("hand", ()), index, f, copies)
        out += _one_hot(index[center[-1]] if center else None, f)
        out += _counts(center, index, f, copies)
        out.append(len(center) / 20.0)
        out.append(view["deck_size"] / (f * copies))
        out += _one_hot(self.PHASES.index(view["phase"]), len(self.PHASES))
        out.append(turn["center_played"] / 5.0)
        out += _one_hot(index.get(turn["t0"]), f)
        out.append(view["round"] / 20.0)
        out.append(view["turns_in_round"] / 50.0)
        targets = set(turn["targets"])
        active, starter = view["active"], view["starter"]
        for r in range(n):
            s = (seat + r) % n
            out += [view["scores"][s] / self.target, view["pile_tops"][s] / self.top_value,
                    len(view["piles"][s]) / 10.0, view["hand_sizes"][s] / 10.0, float(s == active),
                    float(s == starter), float(s in targets)]
            out += _counts(view["piles"][s], index, f, copies)
            out += _counts(view["known_in_hand"][s], index, f, copies)
        return self._finish(out)


class HoldYourBreathEncoder(Encoder):
    """Hold Your Breath!: faces in the order of the static card table (``static_data(config)["cards"]``)."""

    ROUNDS = ("descent", "ascent")
    PHASES = ("play", "kraken", "breath", "discard", "over")
    TURN_SCALE = 60.0  # Air and Swim totals of a turn are divided by this

    def __init__(self, game: Game[Any, Any], config: Any) -> None:
        super().__init__(game, config)
        static = game.static_data(config)
        cards = static["cards"]
        self.faces = [card["label"] for card in cards]
        self.face_index = {face: i for i, face in enumerate(self.faces)}
        self.copies = [float(card["count"]) for card in cards]
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
        self.size = sum(size for _, size in self.blocks)

    def _faces(self, cards: Sequence[str]) -> list[float]:
        out = [0.0] * len(self.faces)
        for card in cards:
            i = self.face_index[card]
            out[i] += 1.0 / self.copies[i]
        return out

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        f, n = len(self.faces), self.players
        out = self._faces(view.get("hand", ()))
        out += self._faces(view["discard"])
        out.append(view["deck_size"] / self.total)
        out += _one_hot(self.ROUNDS.index(view["round"]), len(self.ROUNDS))
        out += _one_hot(self.PHASES.index(view["phase"]), len(self.PHASES))
        turn = view["turn"]
        out += [turn["air"] / self.TURN_SCALE, turn["swim"] / self.TURN_SCALE, turn["move"] / self.TURN_SCALE]
        final = view["final"]
        trigger = final["trigger"]
        out += _one_hot(n if trigger is None else self._rel(trigger, seat), n + 1)
        out.append(final["turns_left"] / n)
        given = view.get("kraken_given")
        out += _one_hot(None if given is None else self.face_index[given], f)
        anchors, distances, kraken = view["anchors"], view["distances"], view["kraken"]
        actors, surfaced, winners = set(view["actors"]), set(view["surfaced"]), set(view["winners"])
        waiting = set(kraken["waiting"]) if kraken else set()
        chosen = set(kraken["chosen"]) if kraken else set()
        depth = self.max_depth
        for r in range(n):
            s = (seat + r) % n
            out += [view["depths"][s] / depth, anchors[s] / depth if anchors else 0.0,
                    distances[s] / (2 * depth) if distances else 0.0, view["hand_sizes"][s] / self.hand_size,
                    float(s in surfaced), float(s == view["active"]), float(s in actors), float(s in waiting),
                    float(s in chosen), float(s in winners)]
            pile = view["piles"][s]
            out += self._faces([item["card"] for item in pile if not item["face_down"]])
            out += self._faces([item["card"] for item in pile if item["face_down"] and item["card"] is not None])
            out.append(sum(1 for item in pile if item["face_down"] and item["card"] is None) / 5.0)
        return self._finish(out)


class BermudaEncoder(Encoder):
    """Bermuda: card values from ``static_data(config)["values"]``; one column per seat."""

    PHASES = ("prepare", "dive", "over")
    STATUSES = ("hidden", "empty", "building", "complete", "too_long", "broken")
    TIME_SCALE_MS = 60_000.0  # time since the dive began is divided by this

    def __init__(self, game: Game[Any, Any], config: Any) -> None:
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
        self.size = sum(size for _, size in self.blocks)

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        v, n, c, index = len(self.values), self.players, self.columns, self.value_index
        now = view["now"]
        out = _counts(view.get("hand", ()), index, v, self.hand_size / 3)
        out += _one_hot(self.PHASES.index(view["phase"]), len(self.PHASES))
        out.append(view["round"] / self.rounds)
        t0, dive_at = view["t0"], view["dive_at"]
        out.append((now - t0) / self.TIME_SCALE_MS if t0 is not None else 0.0)
        out.append((dive_at - now) / self.countdown if dive_at is not None and dive_at > now else 0.0)
        out.append(view["deck_size"] / self.total_treasures)
        out.append(view["treasures_won"] / self.total_treasures)
        out.append(view["protection"] / (self.max_protection * self.total_treasures))
        signals = view["signals"]
        for column in view["columns"]:
            treasure = column["treasure"]
            cards = column["cards"]
            k = column["column"]
            out += [float(treasure is not None), treasure["depth"] / self.max_treasure_depth if treasure else 0.0,
                    treasure["protection"] / self.max_protection if treasure else 0.0,
                    len(cards) / self.max_treasure_depth]
            out += _counts(cards, index, v, 4.0)
            out += _one_hot(index[cards[-1]] if cards else None, v)
            out += _one_hot(self.STATUSES.index(column["status"]), len(self.STATUSES))
            out += _counts(column["accepts"], index, v, 1.0)
            out.append(sum(1 for signal in signals if signal == k) / n)
        for r in range(n):
            s = (seat + r) % n
            signal = signals[s]
            out += [float(view["holding"][s]), view["hand_sizes"][s] / self.hand_size]
            out += _one_hot(c if signal is None else signal - 1, c + 1)
        return self._finish(out)


ENCODERS: dict[str, Callable[[Game[Any, Any], Any], Encoder]] = {
    "snorkeling": SnorkelingEncoder,
    "hold-your-breath": HoldYourBreathEncoder,
    "bermuda": BermudaEncoder,
}


def encoder_for(game: Game[Any, Any], config: Any) -> Encoder:
    """The encoder of ``game`` under ``config``; ``ValueError`` for a game that has none."""
    try:
        return ENCODERS[game.name](game, config)
    except KeyError:
        raise ValueError(f"{game.title} has no observation encoding; the games with one are: "
                         f"{', '.join(ENCODERS)}") from None
