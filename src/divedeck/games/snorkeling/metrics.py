"""What a designer's report measures in a game of Snorkeling (``divedeck report snorkeling``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.declaration import CardKinds, Metric, MetricKind, Metrics, Pace
from .actions import PlayCenter, PlayPile
from .events import PlayedPile, RoundEnded, RoundStarted


def measure(state: Any, outcome: Any, events: Sequence[Any]) -> dict[str, Any]:
    n = len(outcome.scores)
    beached = [0] * n
    endings: dict[str, int] = {}
    first = 0
    for event in events:
        if isinstance(event, RoundEnded):
            endings[str(event.reason)] = endings.get(str(event.reason), 0) + 1
            if event.beached is not None:
                beached[event.beached] += 1
        elif isinstance(event, RoundStarted) and event.round == 1:
            first = event.starter
    winners = outcome.winners
    return {
        "beached": beached,
        "round_endings": endings,
        "first_player_share": (1 / len(winners)) if first in winners else 0.0,
    }


def _card_kinds(config: Any) -> tuple[str, ...]:
    """Each colour, then each value (``value 0`` ...): the card data's, whatever the file."""
    table = config.table
    return (*(color.name for color in table.colors), *(f"value {v}" for v in range(table.num_values)))


def _card_played(config: Any, action: Any) -> tuple[str, ...]:
    """A card played to the centre or onto a pile plays its colour and its value; a pass or an end plays none."""
    if not isinstance(action, PlayCenter | PlayPile):
        return ()
    table = config.table
    face = table.face_by_label.get(action.card)
    if face is None:
        return ()
    return table.colors[table.face_color[face]].name, f"value {table.face_value[face]}"


METRICS = Metrics(
    measure=measure,
    declared=(
        Metric("beached", "rounds a seat was beached in, per game", MetricKind.PER_SEAT, "rounds"),
        Metric("round_endings", "rounds per game by how they ended (beach, stall, turn cap)", MetricKind.GROUPED,
               "rounds", stalls=("stall", "turn_cap")),
        Metric("first_player_share", "win share of the seat that starts the first round", unit="share",
               equal_share=True),
    ),
    # A card or a pass takes a person a few seconds; a round's deal and scoring about half a minute.
    pace=Pace(decision=3.0, round=30.0, game=60.0),
    starter_option="first_player",
    standing=lambda state: state.scores,  # SNK-R12: the totals so far
    attacked=lambda event: (event.target,) if isinstance(event, PlayedPile) else (),  # a card on another's pile
    card_kinds=CardKinds(_card_kinds, _card_played),  # colours and values (SNK-C1)
)
