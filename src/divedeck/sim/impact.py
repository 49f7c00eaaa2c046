"""Card and action impact: how much a kind of card or action is worth to the bots that play it (Jaffe, Miller,
Andersen, Liu, Karlin, Popovic and Popovic, "Evaluating Competitive Game Balance with Restricted Play", AIIDE
2012).

A game declares its kinds (``Metrics.card_kinds``: Snorkeling's colours and values, Hold Your Breath!'s action
icons and special cards, Hold your Hat's specials) and which kinds each action plays. For each kind, one side (a
seat, or a team in a team game: its seats share the team's specials) is **barred** from it: its bots are not
offered an action of that kind while they have another legal choice, and the other sides play as usual. The barred
side is moved over every side, on the same deals (the same game seeds, the same bots' seeds), and each barred game
is compared with the same deal played unbarred: the change in the barred side's win share, in points, averaged
per deal over the sides, with a 95% interval over the deals. A kind whose barring costs many points is one the
bots lean on; one whose barring changes nothing is one they could do without, or rarely get to play; one whose
barring helps is one the bots play badly.

Cost: ``len(kinds) * sides * games`` games, besides ``games`` unbarred ones (those of the report itself when it
played them with the same seats and seed).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.decision import Decision
from ..engine.registry import get_game
from .runner import GameResult, SimulationSpec, simulate
from .sides import Sides, mean_p, side_shares, sides_of
from .stats import mean_interval

ALPHA = 0.05  # a change is "shown" when its interval leaves 0 (a finding, not a red flag)


class BarredBot:
    """``bot``, never offered an action that plays ``kind`` (``plays(action)`` names the kinds an action plays)
    while it has another legal choice. A timed bot (a real-time game's: ``plan``) always has one, to wait: it is
    never offered the kind, and plans nothing when only the kind is left. It keeps its ``notice``."""

    def __init__(self, bot: Any, kind: str, plays: Callable[[Any], Sequence[str]]) -> None:
        self.bot = bot
        self.kind = kind
        self.plays = plays
        self.name = f"{getattr(bot, 'name', 'bot')} barred from {kind}"
        if callable(getattr(bot, "plan", None)):
            self.plan = self._plan
        notice = getattr(bot, "notice", None)
        if callable(notice):
            self.notice = notice

    def narrowed(self, decision: Decision, waiting: bool = False) -> Decision | None:
        """The decision without the barred kind's actions; when they are all it has, the decision as it is, or
        ``None`` if the bot may wait instead (``waiting``)."""
        allowed = [action for action in decision.legal if self.kind not in self.plays(action)]
        if len(allowed) == len(decision.legal):
            return decision
        if not allowed:
            return None if waiting else decision
        return dataclasses.replace(decision, legal=allowed)

    def choose(self, decision: Decision) -> Any:
        narrowed = self.narrowed(decision)
        assert narrowed is not None
        return self.bot.choose(narrowed)

    def _plan(self, decision: Decision) -> tuple[int, Any] | None:
        narrowed = self.narrowed(decision, waiting=True)
        return None if narrowed is None else self.bot.plan(narrowed)  # type: ignore[no-any-return]


def barred_bots(game_name: str, options: dict[str, Any], bots: Sequence[Any],
                barred: tuple[tuple[int, ...], str]) -> list[Any]:
    """``bots`` with those in the seats of ``barred`` barred from its kind (``SimulationSpec.barred``)."""
    game = get_game(game_name)
    kinds = game.metrics.card_kinds if game.metrics is not None else None
    if kinds is None:
        raise ValueError(f"{game.title} declares no card kinds to bar")
    config = game.make_config(options)
    seats, kind = barred

    def plays(action: Any) -> Sequence[str]:
        return kinds.of_action(config, action)

    return [BarredBot(bot, kind, plays) if seat in seats else bot for seat, bot in enumerate(bots)]


def card_kinds(game_name: str, options: dict[str, Any]) -> list[str]:
    """The kinds a game declares for this config, in its order (none: the game declares none)."""
    game = get_game(game_name)
    kinds = game.metrics.card_kinds if game.metrics is not None else None
    return list(kinds.kinds(game.make_config(options))) if kinds is not None else []


def _same_game(one: GameResult, other: GameResult) -> bool:
    return (one.winners, one.scores, one.decisions) == (other.winners, other.scores, other.decisions)


def kind_change(baseline: Sequence[GameResult], barred: Sequence[Sequence[GameResult]],
                sides: Sides) -> dict[str, Any]:
    """One kind's impact from ``baseline`` (deal ``i`` unbarred) and ``barred[side]`` (deal ``i`` with that side
    barred): per deal, the barred side's share minus its unbarred share, averaged over the sides; the mean over
    the deals in points with its interval and p-value; the barred sides' share and the unbarred share; how
    many barred games came out different from their deal unbarred."""
    deals = len(baseline)
    per_deal = []
    differ = 0
    barred_share = base_share = 0.0
    for i in range(deals):
        base = side_shares(baseline[i], sides)
        changes = []
        for side, games in enumerate(barred):
            share = side_shares(games[i], sides)[side]
            changes.append(share - base[side])
            barred_share += share
            base_share += base[side]
            differ += not _same_game(games[i], baseline[i])
        per_deal.append(100 * sum(changes) / len(changes))
    mean, low, high = mean_interval(per_deal)
    played = deals * len(barred)
    return {"change": mean, "ci95_low": low, "ci95_high": high, "p_value": mean_p(per_deal), "deals": deals,
            "games": played, "barred_share": barred_share / played if played else 0.0,
            "unbarred_share": base_share / played if played else 0.0,
            "changed_games": differ / played if played else 0.0}


def card_impact(game_name: str, options: dict[str, Any], bots: Sequence[str], games: int, seed: int = 0,
                workers: int | None = None) -> dict[str, Any]:
    """Every declared kind's impact over ``games`` deals (JSON-safe): the bots are the report's seats, unrotated;
    the unbarred games are the report's own games of the same seed (a session's checkpoint gives them back)."""
    game = get_game(game_name)
    seats = len(bots)
    sides = sides_of(game_name, options, seats)
    kinds = card_kinds(game_name, options)
    out: dict[str, Any] = {"deals": games, "seed": seed, "bots": list(bots), "word": sides.word,
                           "sides": len(sides.seats), "kinds": []}
    if len(sides.seats) < 2 or not kinds:
        out["applies"] = False
        out["why"] = ("a cooperative game: its seats share one result" if len(sides.seats) < 2 else
                      f"{game.title} declares no card kinds")
        return out
    out["applies"] = True
    baseline = simulate(SimulationSpec(game_name, tuple(bots), options, seed), games, workers)
    for kind in kinds:
        barred = [simulate(SimulationSpec(game_name, tuple(bots), options, seed, barred=(members, kind)), games,
                           workers) for members in sides.seats]
        out["kinds"].append({"kind": kind, **kind_change(baseline, barred, sides)})
    out["games_played"] = games * len(kinds) * len(sides.seats)
    return out


def verdict(row: dict[str, Any], word: str) -> str:
    """What a kind's change says, in a few words."""
    if row["ci95_low"] > 0:
        return "barred does better: the bots may misplay it"
    if row["ci95_high"] < 0:
        return f"costs a barred {word}"
    if row["changed_games"] < 0.05:
        return "rarely comes into play"
    return "no change shown"


def impact_lines(impact: dict[str, Any]) -> list[str]:
    """The impact in a few sentences, for a page's caption or a terminal."""
    if not impact.get("applies"):
        return [f"Card impact: not measured ({impact['why']})."]
    word = impact["word"]
    return [f"Card impact ({impact['deals']} deals, each played once with each {word} barred from each kind: "
            f"{impact['games_played']} games; bots {','.join(impact['bots'])}): the change in the barred {word}'s "
            "win share against the same deal unbarred, in points (95% interval)"
            + (f"; from {impact['deals']} deals the intervals are rough (30 or more make them fair)."
               if impact["deals"] < 30 else ".")
            + f" With {len(impact['kinds'])} kinds, about one interval in twenty leaves 0 by chance alone: read a "
            "change near its edge as a lead to follow with more deals."]
