"""What a designer's report measures in a game of Hold Your Breath! (``divedeck report hold-your-breath``), and
the deck numbers a sweep may vary (``--vary deck.panic=2..6``)."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from importlib import resources
from typing import Any

from ...engine.declaration import CardKinds, DataField, Metric, MetricKind, Metrics, Pace
from .actions import Calm, Discard, Draw, Kraken, Mass, Panic, Shark
from .cards import ACTION_VERBS, DECK_SIZE, SPECIAL_LABELS
from .events import (
    Breathed,
    Calmed,
    Discarded,
    DrewCard,
    KrakenStruck,
    Panicked,
    SharkChased,
    SharkSet,
    Swam,
)
from .rules import distance

# The uses of a card, by the event each one makes (the card's kind of play).
_USES = {Breathed: "air", Swam: "swim", DrewCard: "draw", Discarded: "discard", Calmed: "calm",
         Panicked: "panic", SharkSet: "shark", SharkChased: "kraken", KrakenStruck: "kraken mass"}


def measure(state: Any, outcome: Any, events: Sequence[Any]) -> dict[str, Any]:
    n = len(outcome.scores)
    played: list[dict[str, int]] = [{} for _ in range(n)]
    for event in events:
        use = _USES.get(type(event))
        if use is not None:
            uses = played[event.seat]
            uses[use] = uses.get(use, 0) + 1
    anchors = list(state.anchors)
    surfaced = set(state.surfaced)
    return {
        "descent_depth": sum(anchors) / n if anchors else 0.0,
        "deepest_anchor": max(anchors, default=0),
        "anchor": anchors,
        "surfaced_share": len(surfaced) / n,
        "played": played,
    }


def _panic_deck(copies: int) -> str:
    """The default deck with ``copies`` of each of its four Panic-icon card types (default 4); the Draw-icon card of
    the same kind and value makes up the difference, so the deck keeps its 68 cards (HYB-C1)."""
    text = resources.files(__package__).joinpath("data/deck.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    rows = data["cards"]
    for row in rows:
        if row.get("icon") == "panic":
            partner = next(r for r in rows if r.get("icon") == "draw" and r["kind"] == row["kind"]
                           and r["value"] == row["value"])
            partner["count"] += row["count"] - copies
            row["count"] = copies
    if any(row["count"] < 0 for row in rows) or sum(row["count"] for row in rows) != DECK_SIZE:
        raise ValueError(f"no deck of {DECK_SIZE} cards has {copies} of each Panic card")
    lines = [f"# The default Dive Deck with {copies} of each Panic card type (divedeck sweep/tune: deck.panic).",
             "", "[board]"]
    lines += [f"{key} = {value}" for key, value in data["board"].items()]
    for row in rows:
        lines += ["", "[[cards]]"] + [f"{key} = {value!r}".replace("'", '"') for key, value in row.items()]
    return "\n".join(lines) + "\n"


def _attacked(event: Any) -> tuple[int, ...]:
    """The seats a Panic or a Shark is set on, and the Kraken's victims."""
    if isinstance(event, Panicked | SharkSet):
        return (event.target,)
    if isinstance(event, KrakenStruck):
        return tuple(event.victims)
    return ()


# The special cards by label, as a report names them.
_SPECIAL_CARDS = {label: f"{kind.capitalize()} card" for kind, label in SPECIAL_LABELS.items()}
_ACTION_PLAYS = (Draw, Discard, Calm, Panic, Shark, Kraken, Mass)


def _card_kinds(config: Any) -> tuple[str, ...]:
    """The action icons' uses (HYB-R12; ``mass`` is the Kraken's other use), then the special cards."""
    return (*ACTION_VERBS, *_SPECIAL_CARDS.values())


def _card_played(config: Any, action: Any) -> tuple[str, ...]:
    """A card played for an action plays that action; a special card (Shark, Kraken, Dolphin) plays itself
    whatever its use (a Dolphin for Air too). Air and Swim for a printed value, ending a turn and the end-of-turn
    choices play neither."""
    kinds: tuple[str, ...] = (action.verb,) if isinstance(action, _ACTION_PLAYS) else ()
    card = _SPECIAL_CARDS.get(getattr(action, "card", "")) if hasattr(action, "verb") else None
    return (*kinds, card) if card else kinds


METRICS = Metrics(
    measure=measure,
    declared=(
        Metric("descent_depth", "Descent depth: the mean anchor depth", unit="ft"),
        Metric("deepest_anchor", "the deepest anchor of the game", unit="ft"),
        Metric("anchor", "anchor depth by seat", MetricKind.PER_SEAT, "ft"),
        Metric("surfaced_share", "surfacing rate: the share of divers back at the surface", unit="share"),
        Metric("played", "card uses per player and game, and the win share of those who used them",
               MetricKind.PLAYED, "uses"),
    ),
    # A turn is several plays, each about four seconds for a person; dealing both halves about two minutes.
    pace=Pace(decision=4.0, game=120.0),
    starter_option="first_player",
    standing=lambda state: [distance(state, seat) for seat in range(len(state.depths))],  # HYB-R41
    attacked=_attacked,
    card_kinds=CardKinds(_card_kinds, _card_played),  # the action icons and the special cards
    data_fields=(
        DataField("deck.panic", "cards", "copies of each of the four Panic-icon card types (default 4); the "
                  "Draw-icon card of the same kind and value makes up the difference, so the deck keeps 68 cards",
                  0, 8, _panic_deck),
    ),
)
