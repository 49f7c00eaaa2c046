"""Snorkeling's heuristic bot. It reads only its seat's view and the legal actions it is offered."""

from __future__ import annotations

import random
from typing import Any

from ...engine.decision import Decision
from ...engine.declaration import Cutoff, Evaluator, win_chances
from .actions import Action, EndTurn, Pass, PlayCenter, PlayPile


def _value(card: str) -> int:
    return int(card[1:])


class GreedyBot:
    """One-step greedy: sheds cards, pushes the leader's pile down, and keeps its own pile high.

    Each legal action gets a score from what the view shows; ties are broken by the bot's own seeded RNG.
    - A pile play onto an opponent beats a centre play, and the higher that opponent's total, the better.
    - A Beach onto a pile ends the round: only if, after scoring, the bot would be ahead of everyone else.
    - Centre plays shed cards, but keep a card that could go onto a pile this turn; emptying the hand is worth
      extra while the bot's own pile is below its Lanternfish (the top card comes back, raising the pile).
    - Passing is the last resort; ending the turn waits until nothing useful is left.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, decision: Decision) -> Action:
        view = decision.view
        best: list[Action] = []
        best_score = float("-inf")
        for action in decision.legal:
            score = self._score(view, decision.seat, action, decision.legal)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return self.rng.choice(best)

    def _score(self, view: dict[str, Any], seat: int, action: Action, legal: Any) -> float:
        if isinstance(action, Pass):
            return -1.0
        if isinstance(action, EndTurn):
            return 0.0
        if isinstance(action, PlayPile):
            return self._pile_score(view, seat, action)
        assert isinstance(action, PlayCenter)
        hand: list[str] = view["hand"]
        tops: list[int] = view["pile_tops"]
        score = 10.0
        wanted = {tops[t] - 1 for t in range(len(tops)) if t != seat and tops[t] > 0}
        if _value(action.card) in wanted and hand.count(action.card) == 1:
            followers = [a for a in legal if isinstance(a, PlayCenter) and a != action]
            if followers or view["turn"]["center_played"] == 0:
                score -= 6.0  # keep it for a pile this turn, if something else can open the turn
        same_color = sum(1 for card in hand if card[0] == action.card[0]) - 1
        if view["turn"]["center_played"] == 0 and action.card[0] == view["center"][-1][0]:
            score += same_color  # colour mode sheds more cards this turn
        if len(hand) == 1 and view["piles"][seat]:
            score += 5.0  # emptying the hand takes back the top of our own pile
        return score

    def _pile_score(self, view: dict[str, Any], seat: int, action: PlayPile) -> float:
        scores: list[int] = view["scores"]
        tops: list[int] = view["pile_tops"]
        target = action.target
        if _value(action.card) == 0:  # a Beach ends the round now: is the scoring good for us?
            after = [scores[s] + (0 if s == target else tops[s]) for s in range(len(scores))]
            mine = after[seat]
            others = max(after[s] for s in range(len(after)) if s != seat)
            return 60.0 if mine > others else -30.0
        rank = sorted(scores).index(scores[target])
        return 20.0 + 3.0 * rank + tops[target]


def evaluator(scale: float = 3.0) -> Evaluator:
    """For a search: the totals as they would be if the round were scored now (total + pile top, SNK-R14)."""

    def evaluate(game: Any, state: Any) -> list[float]:
        view = game.view(state, None)
        return win_chances([s + t for s, t in zip(view["scores"], view["pile_tops"], strict=True)], scale)

    return evaluate


# Rollouts cut at the end of the round (its scoring is exact, the next deal is noise) or after 40 actions, tuned
# with head-to-head matches at equal time (docs/bots.md).
SEARCH_CUTOFF = Cutoff(evaluator(), 40, frozenset({"round_end"}))
