"""Snorkeling in player words: the one log writer (parts of log lines) and the labels of actions.

The browser and the terminal both render what this module writes, so a log line reads the same everywhere. Log
parts are built from ``event.for_seat(seat)`` alone, so they can hold nothing that seat may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.events import Event
from ...engine.records import LogPart, card, seat, text
from .actions import Action, EndTurn, Pass, PlayCenter, PlayPile
from .events import PlayedPile, RoundEnded

ROUND_END_REASONS = {
    "beach": "a Beach landed on a pile",
    "stall": "nobody could play or draw",
    "turn_cap": "the turn limit was reached",
}


def action_label(action: Action, card_name: Callable[[str], str], pile_of: Callable[[int], str]) -> str:
    """``action`` in words: cards by ``card_name`` (``yellow 3 (Turtle)``), piles by ``pile_of`` (``Ana's``)."""
    match action:
        case Pass():
            return "play nothing this turn, draw a card"
        case EndTurn():
            return "end your turn, draw a card"
        case PlayCenter(card=label):
            return f"play {card_name(label)} to the centre"
        case PlayPile(card=label, target=target):
            return f"play {card_name(label)} onto {pile_of(target)} pile"
    raise TypeError(f"not a Snorkeling action: {action!r}")


def _pile(owner: int, viewer: int | None) -> list[LogPart]:
    return [text(" your pile")] if owner == viewer else [text(" "), seat(owner), text("'s pile")]


def readers_apart(event: Event) -> set[int]:
    """The seats that read ``event`` otherwise than a spectator does: those shown a private field of it (a drawn
    card, a hand) and the seat whose pile its line names ("your pile"). Every other seat reads the spectator's."""
    seats = {seat for name in event.private_fields for seat in getattr(event, name)}
    if isinstance(event, PlayedPile):
        seats.add(event.target)
    elif isinstance(event, RoundEnded) and event.beached is not None:
        seats.add(event.beached)
    return seats


def log_parts(shown: dict[str, Any], viewer: int | None) -> list[LogPart]:
    """The log line of an event as ``viewer`` received it (``shown`` is ``event.for_seat(viewer)``)."""
    match shown["kind"]:
        case "round_start":
            parts = [text(f"round {shown['round']} begins with "), seat(shown["starter"]),
                     text("; the centre shows "), card(shown["center"])]
            if "hand" in shown:
                parts.append(text("; your hand"))
                for label in shown["hand"]:
                    parts += [text(" "), card(label)]
            return parts
        case "play_center":
            return [seat(shown["seat"]), text(" played "), card(shown["card"]), text(" to the centre")]
        case "play_pile":
            return [seat(shown["seat"]), text(" played "), card(shown["card"]), text(" onto"),
                    *_pile(shown["target"], viewer)]
        case "pass":
            return [seat(shown["seat"]), text(" passed")]
        case "end_turn":
            return [seat(shown["seat"]), text(" ended the turn")]
        case "draw":
            drawn = [text(" drew "), card(shown["card"])] if "card" in shown else [text(" drew ??")]  # the unknown
            return [seat(shown["seat"]), *drawn]
        case "no_draw":
            return [seat(shown["seat"]), text(" could not draw: no cards left")]
        case "refill":
            return [text(f"the centre pile was shuffled into a new deck of {shown['deck']}")]
        case "retrieve":
            return [seat(shown["seat"]), text(" emptied the hand and took back "), card(shown["card"]),
                    text(" from the pile")]
        case "round_end":
            return _round_end(shown, viewer)
        case "game_over":
            parts = [text("game over after the last allowed round: " if shown["reason"] == "round_cap"
                          else "game over: ")]
            for i, winner in enumerate(shown["winners"]):
                parts += [*([text(" and ")] if i else []), seat(winner)]
            parts.append(text(f" won with {shown['totals'][shown['winners'][0]]} points"))
            return parts
    raise ValueError(f"not a Snorkeling event: {shown['kind']!r}")


def _round_end(shown: dict[str, Any], viewer: int | None) -> list[LogPart]:
    """``round 2 over: a Beach landed on Ben's pile: Ana +4 with R4, Ben +0 with G0, Cleo +5 with the Lanternfish.
    Totals: Ana 9, Ben 3, Cleo 7`` (cards as card parts, which each front end names)."""
    beached = shown["beached"]
    if beached is None:
        parts = [text(f"round {shown['round']} over ({ROUND_END_REASONS[shown['reason']]}):")]
    else:
        parts = [text(f"round {shown['round']} over: a Beach landed on"), *_pile(beached, viewer), text(":")]
    for owner, (gain, top) in enumerate(zip(shown["gains"], shown["tops"], strict=True)):
        parts += [text(" " if owner == 0 else ", "), seat(owner), text(f" +{gain} with ")]
        parts += [card(top)] if top is not None else [text("the Lanternfish")]
    parts.append(text(". Totals:"))
    for owner, total in enumerate(shown["totals"]):
        parts += [text(" " if owner == 0 else ", "), seat(owner), text(f" {total}")]
    return parts
