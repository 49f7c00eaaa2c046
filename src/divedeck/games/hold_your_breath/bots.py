"""Hold Your Breath!'s heuristic bot. It reads only its seat's view and the legal actions it is offered."""

from __future__ import annotations

import random
from typing import Any

from ...engine.decision import Decision
from .actions import Action, Air, Calm, Discard, Draw, Drop, EndPlay, Gasp, Keep, Kraken, Lose, Panic, Play, Shark, Swim
from .cards import label_card

_ICON_KEEP = {"calm": 6.0, "panic": 5.0, "draw": 4.0, "discard": 3.0, "shark": 5.0, "kraken": 5.0}


class GreedyBot:
    """One-step greedy: breathes, dives as far as its hand allows, panics the leader and clears its own pile.

    Each legal action gets a score from what the view shows; ties are broken by the bot's own seeded RNG.
    - Clearing its own Swim Pile comes first (a Calm, or the Kraken on its own Shark), so Swim becomes playable.
    - It plans the turn's move: the Air and Swim cards that reach the best min(A, S) with the fewest cards are
      played for value; the others are free for their icons (Draw first, then attacks on the leader).
    - The leader is the opponent deepest down in the Descent, and in the Ascent the diver with the deepest anchor
      (the one who would win by surfacing), the shallower first among equals.
    - It always breathes (one Air card at least); a breath penalty, a Kraken loss or a discard gives up the card
      it values least; it keeps the rest of its hand.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, decision: Decision) -> Action:
        turn = _Turn(decision.view, decision.seat)
        best: list[Action] = []
        best_score = float("-inf")
        for action in decision.legal:
            score = turn.score(action)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return self.rng.choice(best)


class _Turn:
    """What one decision needs from the view, worked out once."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.view = view
        self.seat = seat
        self.hand: list[str] = view.get("hand", [])
        self.info = {label: _card_info(label) for label in self.hand}
        self.pile: list[dict[str, Any]] = view["piles"][seat]
        self.diver = seat not in view["surfaced"]
        self.air = view["turn"]["air"]
        self.swim = view["turn"]["swim"]
        self.leader = self._leader()
        self.planned = self._plan()

    # -- reading the table ---------------------------------------------------------------------------------------
    def _leader(self) -> int | None:
        view, seat = self.view, self.seat
        others = [t for t in range(view["players"]) if t != seat and t not in view["surfaced"]]
        if not others:
            return None
        if view["round"] == "descent":
            return max(others, key=lambda t: view["depths"][t])
        anchors = view["anchors"]
        return max(others, key=lambda t: (anchors[t], -view["depths"][t]))

    def _room(self) -> int:
        """How far the pirate can still move this round."""
        view = self.view
        depth = view["depths"][self.seat]
        if view["round"] == "descent":
            return int(view["max_depth"]) - depth
        return depth

    def _can_clear(self) -> bool:
        """Whether the hand can clear every hindrance of the Swim Pile this turn."""
        if not self.pile:
            return True
        calms = sum(1 for card in self.hand if self.info[card]["icon"] == "calm" or card == "DO")
        krakens = sum(1 for card in self.hand if card == "KR")
        sharks = sum(1 for entry in self.pile if entry["kind"] == "shark")
        panics = len(self.pile) - sharks
        return calms + min(krakens, sharks) >= panics + sharks

    def _plan(self) -> set[str]:
        """The cards to play for value: the fewest Air and Swim cards that reach the best move of this turn."""
        if not self.diver:
            return set()
        airs = sorted((self.info[c]["value"], c) for c in self.hand if self.info[c]["kind"] == "air")
        swims = sorted((self.info[c]["value"], c) for c in self.hand if self.info[c]["kind"] == "swim")
        if not self._can_clear() or self._room() <= 0:
            # No Swim this turn (or no room to move): breathe with the smallest Air card only.
            return {airs[0][1]} if airs and not self.air else set()
        best = min(self.air + sum(v for v, _ in airs), self.swim + sum(v for v, _ in swims), self._room())
        chosen: set[str] = set()
        for cards, start in ((airs, self.air), (swims, self.swim)):
            total = start
            for value, card in reversed(cards):
                if total >= best:
                    break
                chosen.add(card)
                total += value
        if airs and not self.air and not any(self.info[c]["kind"] == "air" for c in chosen):
            chosen.add(airs[0][1])  # always breathe
        return chosen

    def keep_value(self, card: str) -> float:
        """How much the bot wants to keep ``card`` in hand (the lowest is given up first)."""
        info = self.info[card]
        if card == "DO":
            return 100.0
        if card in ("SH", "KR"):
            return 40.0
        value = float(info["value"] or 0)
        if info["icon"] == "calm" and self.pile:
            value += 30.0
        return value + _ICON_KEEP.get(info["icon"] or "", 0.0)

    # -- scoring -----------------------------------------------------------------------------------------------------
    def score(self, action: Action) -> float:
        match action:
            case EndPlay():
                return 0.0
            case Keep():
                return 1.0
            case Gasp() | Lose():
                return -self.keep_value(action.card)
            case Drop():
                return -1.0 - self.keep_value(action.card)
        return self._play_score(action)

    def _play_score(self, action: Play) -> float:
        card = action.card
        wild = card == "DO"
        match action:
            case Calm(target=target):
                shark_to_leader = 5.0 if target >= 0 and target == self.leader else 0.0
                return 100.0 + shark_to_leader - (15.0 if wild else 0.0)
            case Kraken(target=target):
                return (95.0 if target == self.seat else -5.0) - (15.0 if wild else 0.0)
            case Air() | Swim():
                return self._value_score(action)
        if wild:
            return -5.0  # a Dolphin is kept for a Calm or a missing value
        if card in self.planned:
            return -20.0
        match action:
            case Draw():
                return 70.0 if self.view["deck_size"] else -1.0
            case Panic(target=target):
                return 65.0 if target == self.leader else 40.0
            case Shark(target=target):
                return 66.0 if target == self.leader else 40.0
            case Discard(target=target):
                return 35.0 if target == self.leader else 25.0
        # mass: worth it when opponents lose cards and the bot keeps a short hand.
        size = self.view["hand_size"]
        victims = sum(1 for t, n in enumerate(self.view["hand_sizes"]) if t != self.seat and n >= size)
        return 20.0 * victims - (25.0 if len(self.hand) - 1 >= size else 0.0)

    def _value_score(self, action: Air | Swim) -> float:
        card = action.card
        value = action.value or self.info[card]["value"]
        if action.verb == "air" and not self.air and card != "DO":
            return 80.0 - value / 10.0 if card in self.planned else 60.0 - value
        if card in self.planned:
            return 50.0 + value
        if card == "DO":
            if action.verb == "air" and not self.air and not any(self.info[c]["kind"] == "air" for c in self.hand):
                return 55.0 - value  # no Air card: the Dolphin is the breath
            # A Dolphin fills the short side when that lets the pirate move further.
            short = self.air < self.swim if action.verb == "air" else self.swim < self.air
            gain = min(self.air + (value if action.verb == "air" else 0), self.swim + (
                value if action.verb == "swim" else 0), self._room()) - min(self.air, self.swim)
            return 30.0 + gain if short and gain > 0 else -10.0
        return -10.0


def _card_info(label: str) -> dict[str, Any]:
    kind, value, icon = label_card(label)
    return {"kind": kind, "value": value or None, "icon": icon or None}
