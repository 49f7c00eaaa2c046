"""What a designer's report measures in a game of Hold your Hat (``divedeck report hold-your-hat``): what its
events tell of bots' play (the specials, the timer and the scoring; the words are the word bots')."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.declaration import CardKinds, Metric, MetricKind, Metrics, Pace
from .actions import Binoculars, ExtraTime, Raid, Skip, Theft
from .events import BinocularsPlayed, ExtraTimePlayed, Fouled, RaidPlayed, SkipPlayed, TheftPlayed, TurnEnd, WordWon

_SPECIALS = {BinocularsPlayed: "binoculars", RaidPlayed: "raid", TheftPlayed: "theft", SkipPlayed: "skip",
             ExtraTimePlayed: "extra time"}


def measure(state: Any, outcome: Any, events: Sequence[Any]) -> dict[str, Any]:
    n = len(outcome.scores)
    played: list[dict[str, int]] = [{} for _ in range(n)]
    points_by_round: dict[str, int] = {}
    words = turns = fouls = contested = 0
    for event in events:
        kind = type(event)
        special = _SPECIALS.get(kind)
        if special is not None:
            uses = played[event.seat]
            uses[special] = uses.get(special, 0) + 1
        if kind is WordWon:
            words += 1
            points_by_round[str(event.round)] = points_by_round.get(str(event.round), 0) + event.points
            contested += len(event.claimed_by) > 1
        elif kind is TurnEnd:
            turns += 1
        elif kind is Fouled:
            fouls += 1
    totals = sorted(outcome.details.get("team_totals", []), reverse=True)
    return {
        "words_per_turn": words / turns if turns else 0.0,
        "points_by_round": points_by_round,
        "fouls": fouls,
        "contested_words": contested,
        "margin": totals[0] - totals[1] if len(totals) > 1 else 0,
        "played": played,
    }


# The special cards a team plays (HYH-C4), by the action that plays one.
_SPECIAL_PLAYS = {Binoculars: "binoculars", Raid: "raid", Theft: "theft", Skip: "skip", ExtraTime: "extra time"}


def _special_played(config: Any, action: Any) -> tuple[str, ...]:
    kind = _SPECIAL_PLAYS.get(type(action))
    return (kind,) if kind else ()


METRICS = Metrics(
    measure=measure,
    declared=(
        Metric("words_per_turn", "words won per turn", unit="words"),
        Metric("points_by_round", "points scored by round (all teams)", MetricKind.GROUPED, "points"),
        Metric("fouls", "fouls per game", unit="fouls"),
        Metric("contested_words", "words more than one team claimed (a raid)", unit="words"),
        Metric("margin", "the winning team's lead over the next", unit="points"),
        Metric("played", "specials played per player and game, and the win share of those who played them",
               MetricKind.PLAYED, "plays"),
    ),
    # Real time: the simulated clock runs the sand timer; a round's set-up and count take about half a minute.
    pace=Pace(round=30.0, game=60.0),
    notes=("The word bots give clues and guess from the deck's association data (docs/bots.md): how fast words "
           "are found here is the bots', not people's.",),
    teams=lambda config: config.members(),
    starter_option="first_team",
    standing=lambda state: [state.total(team) for team in state.context.team_of],  # HYH-R28.2: totals so far
    card_kinds=CardKinds(lambda config: tuple(_SPECIAL_PLAYS.values()), _special_played),  # the specials
)
