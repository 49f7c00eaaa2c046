"""Hold Your Breath! in player words: action records, the log writer, the static card table, masked move text.

Cards appear by name ("Air 10 (Panic)"), never by notation code; seats as references the reader renders (a name,
or "you"). The log is written from ``event.for_seat(seat)`` alone, so a line never holds what that seat may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.records import ActionRecord, LogPart, card, seat, text
from .actions import (
    PLAYS,
    Action,
    Air,
    Calm,
    Discard,
    Draw,
    Drop,
    EndPlay,
    Gasp,
    Keep,
    Kraken,
    Lose,
    Mass,
    Panic,
    Shark,
    Swim,
)
from .cards import CardTable, label_name
from .state import DESCENT

# What each use of a card does, for people choosing one.
USE_HELP = {
    "air": "breathe: adds to this turn's Air",
    "swim": "swim: adds to this turn's Swim",
    "draw": "draw a card",
    "discard": "an opponent with a full hand discards a random card",
    "calm": "clear a hindrance from your Swim Pile",
    "panic": "put a Panic on an opponent",
    "shark": "put the Shark on an opponent",
    "kraken": "chase a Shark away",
    "mass": "everyone with a full hand discards a card",
}
USE_NAME = {"draw": "Draw", "discard": "Discard", "calm": "Calm", "panic": "Panic", "shark": "Shark",
            "kraken": "Chase the Shark", "mass": "All discard"}


def describe_action(action: Action, who: Callable[[int], str]) -> str:
    """``action`` in words, seats named by ``who``."""
    match action:
        case EndPlay():
            return "stop playing cards: move, then finish the turn"
        case Keep():
            return "keep the rest of your hand and refill it"
        case Gasp(card=label):
            return f"lay {label_name(label)} face down in your Swim Pile as a Panic"
        case Drop(card=label):
            return f"discard {label_name(label)}"
        case Lose(card=label):
            return f"give up {label_name(label)} to the Kraken"
        case Air(card=label, value=value) | Swim(card=label, value=value):
            way = "breathe" if isinstance(action, Air) else "swim"
            declared = f" as {action.verb.capitalize()} {value}" if value else ""
            return f"{way} with {label_name(label)}{declared}"
        case Draw(card=label):
            return f"use {label_name(label)} to draw a card"
        case Discard(card=label, target=target):
            return f"use {label_name(label)}: {who(target)} discards a random card"
        case Calm(card=label, item=index, target=target) if target >= 0:
            return f"use {label_name(label)} to calm the Shark (hindrance {index}) onto {who(target)}"
        case Calm(card=label, item=index):
            return f"use {label_name(label)} to calm hindrance {index} of your Swim Pile"
        case Panic(card=label, target=target):
            return f"put {label_name(label)} on {who(target)} as a Panic"
        case Shark(card=label, target=target):
            return f"put {label_name(label)} on {who(target)} as the Shark"
        case Kraken(card=label, target=target):
            return f"use {label_name(label)} as the Kraken: chase {who(target)}'s Shark away"
        case Mass(card=label):
            return f"use {label_name(label)} as the Kraken: everyone with a full hand discards a card"
    raise TypeError(f"not a Hold Your Breath! action: {action!r}")


def _seat_words(index: int) -> str:
    return f"seat {index + 1}"  # seats are numbered from 1 wherever a player reads them


def action_record(action: Action) -> ActionRecord:
    """The record of a legal action: kind, card, target seat (the Shark's new diver for a Calm), words."""
    target = getattr(action, "target", -1)
    label = getattr(action, "card", None)
    return {"notation": str(action), "kind": type(action).__name__.lower(), "cards": [label] if label else [],
            "target": target if target >= 0 else None, "label": describe_action(action, _seat_words)}


def static_data(table: CardTable, max_depth: int) -> dict[str, Any]:
    """The card table (names, kinds, values, icons, copies and the uses of each card, legal or not) and the
    board, for pages that draw cards and offer every use of a card."""
    cards = []
    for face, info in enumerate(table.info()):
        uses: list[dict[str, Any]] = []
        for verb in ("air", "swim"):
            if verb in table.face_verbs[face]:
                values = table.dolphin_values if table.face_kind[face] == "dolphin" else (0,)
                uses.extend({"kind": verb, "value": value or table.face_value[face],
                             "label": f"{verb.capitalize()} {value or table.face_value[face]}",
                             "notation": str(PLAYS[verb](info["label"], value)),  # type: ignore[call-arg]
                             "help": USE_HELP[verb]} for value in values)
        uses.extend({"kind": verb, "label": USE_NAME[verb], "help": USE_HELP[verb],
                     **_use_notation(verb, info["label"])} for verb in table.face_actions[face])
        cards.append({**info, "uses": uses})
    return {"cards": cards, "max_depth": max_depth, "step": table.step,
            "hindrance_penalty": table.hindrance_penalty, "hand_size": table.hand_size}


def _use_notation(verb: str, label: str) -> dict[str, str]:
    """How a page writes a use: its notation when it names nothing more, else an example to ask "why not?" with
    (``{seat}`` stands for a seat to aim at)."""
    kind = PLAYS[verb]
    if kind is Draw or kind is Mass:
        return {"notation": str(kind(label))}  # type: ignore[call-arg]
    return {"example": f"calm {label} 0" if kind is Calm else f"{verb} {label}>{{seat}}"}


# -- the log ----------------------------------------------------------------------------------------------------------

def _card(label: str) -> LogPart:
    return card(label_name(label))


def _cards(labels: list[str]) -> list[LogPart]:
    parts: list[LogPart] = []
    for index, label in enumerate(labels):
        parts += [text(", "), _card(label)] if index else [_card(label)]
    return parts


def _seats(seats: list[int]) -> list[LogPart]:
    parts: list[LogPart] = []
    for index, other in enumerate(seats):
        parts += [text(" and "), seat(other)] if index else [seat(other)]
    return parts


def _play_parts(shown: dict[str, Any]) -> list[LogPart] | None:
    """A card play's line, or ``None`` if ``shown`` is not a card play."""
    kind = shown["kind"]
    if kind not in PLAYS:
        return None
    me, played = seat(shown["seat"]), _card(shown["card"])
    if kind in ("air", "swim"):
        return [me, text(" breathed with " if kind == "air" else " swam with "), played,
                text(f" (+{shown['value']} {kind.capitalize()})")]
    if kind == "draw":
        if not shown["drew"]:
            return [me, text(" played "), played, text(" to draw a card, but the Dive Deck is empty")]
        drawn = [text(": "), _card(shown["drawn"])] if "drawn" in shown else []
        return [me, text(" played "), played, text(" and drew a card"), *drawn]
    if kind == "discard":
        return [me, text(" played "), played, text(" on "), seat(shown["target"]), text(", who lost "),
                _card(shown["lost"]), text(" at random")]
    if kind == "calm":
        calmed = [me, text(" played "), played, text(f" to calm the {shown['hindrance'].capitalize()} ("),
                  _card(shown["removed"]), text(")")]
        if shown["hindrance"] == "panic":
            return calmed
        if shown["target"] is None:
            return [*calmed, text(", which swam away to the Discard Pile")]
        return [*calmed, text(" and sent it to "), seat(shown["target"])]
    if kind == "panic":
        return [me, text(" played "), played, text(" on "), seat(shown["target"]), text(" as a Panic")]
    if kind == "shark":
        return [me, text(" set "), played, text(" on "), seat(shown["target"]), text(" as the Shark")]
    if kind == "kraken":
        return [me, text(" played "), played, text(": the Kraken chased the Shark ("), _card(shown["removed"]),
                text(") away from "), seat(shown["target"])]
    if not shown["victims"]:
        return [me, text(" played "), played, text(" as the Kraken: nobody holds a full hand")]
    return [me, text(" played "), played, text(" as the Kraken: "), *_seats(shown["victims"]),
            text(" must discard a card")]


_WON_BY = {
    "deepest_surfaced": " dove the deepest and reached the surface, and won",
    "surfaced_first": " won, the deepest diver to reach the surface",
}


def log_parts(shown: dict[str, Any]) -> list[LogPart]:
    """The log line of an event as one seat received it (``event.for_seat(seat)``)."""
    played = _play_parts(shown)
    if played is not None:
        return played
    kind = shown["kind"]
    who = seat(shown["seat"]) if "seat" in shown else text("")
    if kind == "deal":
        stage = "Descent" if shown["round"] == DESCENT else "Ascent"
        hand = [text("; your hand "), *_cards(shown["hand"])] if "hand" in shown else []
        return [text(f"the {stage} is dealt; first to play: "), seat(shown["first"]), *hand]
    if kind == "lose":
        given = [text(" ("), _card(shown["card"]), text(")")] if "card" in shown else []
        return [who, text(" set a card aside for the Kraken"), *given]
    if kind == "kraken_discards":
        parts: list[LogPart] = [text("the Kraken's victims discarded: ")]
        for index, (victim, label) in enumerate(shown["losses"]):
            parts += [*([text(", ")] if index else []), seat(victim), text(" "), _card(label)]
        return parts
    if kind == "end_play":
        return [who, text(f" ended play with Air {shown['air']} and Swim {shown['swim']}: move {shown['move']} ft")]
    if kind == "move":
        way = "dove" if shown["round"] == DESCENT else "swam up"
        return [who, text(f" {way} from {shown['start']} ft to {shown['end']} ft")]
    if kind == "surface":
        return [who, text(f" surfaced (number {shown['order']} to reach the surface)")]
    if kind == "gasp":
        if shown["blind"]:
            return [who, text(" took no Air with an empty hand: the deck's top card lies face down as a Panic")]
        laid = [text(" ("), _card(shown["card"]), text(")")] if "card" in shown else []
        return [who, text(" took no Air and laid a card face down as a Panic"), *laid]
    if kind == "drop":
        return [who, text(" discarded "), _card(shown["card"])]
    if kind == "replenish":
        drawn = [text(": "), *_cards(shown["cards"])] if "cards" in shown else []
        return [who, text(f" drew {shown['drew']} card{'s' if shown['drew'] != 1 else ''}"), *drawn]
    if kind == "final_turns":
        return [text("the Dive Deck is empty: one last turn each, ending with "), who]
    if kind == "descent_end":
        parts = [text("the Descent is over; anchors dropped:")]
        for diver, depth in enumerate(shown["anchors"]):
            parts += [text(" " if diver == 0 else ", "), seat(diver), text(f" at {depth} ft")]
        return parts
    if kind == "ascent_start":
        tie = [text(" (the tie-break chose among "), *_seats(shown["tied"]), text(")")] \
            if len(shown["tied"]) > 1 else []
        return [text("the Ascent begins with "), seat(shown["first"]), text(", the shallowest diver"), *tie]
    winners = _seats(shown["winners"])
    if shown["by"] in _WON_BY:
        return [text("game over: "), *winners, text(_WON_BY[shown["by"]])]
    best = shown["distances"][shown["winners"][0]]
    return [text("game over: "), *winners, text(f" won with the greatest total distance, {best} ft (down and back "
                                                   "up, less a penalty for each Panic or Shark still in a Swim Pile)")]
