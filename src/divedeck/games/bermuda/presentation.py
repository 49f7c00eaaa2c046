"""Bermuda in player words: the one log writer, the labels of legal actions, how a column stands, and the static
data a page needs once (the treasure table, the options, what the board's symbols mean).

Treasures are always named, never shown by id. Log lines are built from ``event.for_seat(seat)`` alone, so a seat
never reads what it may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from ...engine.events import Event
from ...engine.records import ActionRecord, LogPart, card, seat, text
from .actions import Action, Hold, Lay, Release, Signal, Sort, Tick
from .cards import HAND_SIZE, VALUES
from .config import BermudaConfig
from .events import ColumnResult
from .rules import protection, treasures_won
from .rules_sheet import rules_sheet
from .state import DIVE, BermudaState

DEPTH_SYMBOL = "⇣"
PROTECTION_SYMBOL = "♆"
SIGNAL_SYMBOL = "☛"

_REASONS = {"bad_step": "a bad step", "empty": "no card", "too_short": "too short", "too_long": "too long"}
_ENDS = {"time": "time ran out", "empty": "every hand was empty", "full": "every column was deep enough"}


def seconds(ms: int) -> str:
    """Tenths of a second, cut (not rounded): what a clock on the table would show."""
    return f"{ms // 1000}.{ms % 1000 // 100} s"


def column_words(status: str, depth: int | None, length: int, accepts: Sequence[int]) -> str:
    """How a column stands during a dive, for people."""
    if status == "hidden":
        return "face down until the dive"
    if status == "empty":
        return f"needs {depth}: any card starts it"
    if status == "building":
        return f"{(depth or 0) - length} more · next {' or '.join(map(str, accepts))}"
    return {"complete": "complete ✓", "too_long": "too long: lost", "broken": "a bad step: lost"}[status]


def failure_words(result: ColumnResult) -> str:
    """Why a judged column failed ("too short: 8 of 10 cards; a bad step: 3 on 1"); empty if it won."""
    cards, depth = result["cards"], result["depth"]
    words = []
    for reason in result["reasons"]:
        if reason == "bad_step":
            first = result["bad_steps"][0]
            words.append(f"a bad step: {cards[first - 1]} on {cards[first - 2]}")
        elif reason == "empty":
            words.append("no card laid")
        else:
            words.append(f"{_REASONS[reason]}: {len(cards)} of {depth} cards")
    return "; ".join(words)


def end_words(reason: str) -> str:
    """How a dive ended, after the name of whoever breathed for ``release``."""
    return "breathed" if reason == "release" else _ENDS[reason]


class Score(TypedDict):
    text: str
    title: str  # what it means, for a tooltip ("" if nothing to add)
    kind: str  # form (the game's form: a challenge), score (the team's), keeper (the Keeper's), or plain


def scoreboard(state: BermudaState) -> list[Score]:
    """The scores as a page shows them (BRM-R30; the single-breath challenge counts instead, BRM-V3)."""
    won = treasures_won(state)
    match state.config.challenge:
        case "chained":
            return [{"text": "Single-breath challenge", "title": "", "kind": "form"},
                    {"text": f"Successful dives {state.dives}", "title": "", "kind": "score"},
                    {"text": f"Treasures {won}", "title": "", "kind": "plain"}]
        case "one_round":
            return [{"text": "Single-breath round", "title": "", "kind": "form"},
                    {"text": f"Treasures {won}", "title": "", "kind": "score"}]
    return [{"text": f"Round {min(state.round, state.config.rounds)} of {state.config.rounds}", "title": "",
             "kind": "plain"},
            {"text": f"Treasures {won}", "title": "Treasures you won (W)", "kind": "score"},
            {"text": f"Keeper's protection {protection(state)}",
             "title": "Kusalochka's protection points (P): win with W ≥ P", "kind": "keeper"}]


# -- legal actions ---------------------------------------------------------------------------------------------------


def _column_name(state: BermudaState, column: int) -> str:
    treasure = state.table.treasures[state.layout[column - 1]]
    return f"the {treasure.name} (column {column})"


def action_record(state: BermudaState, action: Action, notation: str) -> ActionRecord:
    kind = type(action).__name__.lower()
    match action:
        case Lay(card=value, column=column):
            return {"notation": notation, "kind": kind, "cards": [str(value)], "target": column,
                    "label": f"lay {value} under {_column_name(state, column)}"}
        case Signal(column=column):
            return {"notation": notation, "kind": kind, "cards": [], "target": column,
                    "label": f"point at {_column_name(state, column)}"}
        case Hold():
            label = "take a deep breath and hold it"
        case Release():
            label = "breathe: the dive ends for everyone" if state.phase == DIVE else "breathe out before the dive"
        case Sort():
            label = "sort your hand from low to high"
        case Tick():
            label = "the clock"
    return {"notation": notation, "kind": kind, "cards": [], "target": None, "label": label}


# -- the log ---------------------------------------------------------------------------------------------------------


def _cards(values: Sequence[int]) -> list[LogPart]:
    parts: list[LogPart] = []
    for i, value in enumerate(values):
        if i:
            parts.append(text(" "))
        parts.append(card(str(value)))
    return parts


def _hand(shown: dict[str, Any], lead: str) -> list[LogPart]:
    return [text(lead), *_cards(shown["hand"])] if "hand" in shown else []


def _columns(columns: Sequence[ColumnResult]) -> list[LogPart]:
    parts: list[LogPart] = []
    for i, column in enumerate(columns):
        verdict = "won" if column["won"] else "lost: " + ", ".join(_REASONS[r] for r in column["reasons"])
        parts.append(text(("; " if i else "") + f"{column['name']} ["))
        parts.extend(_cards(column["cards"]) or [text("empty")])
        parts.append(text(f"] {verdict}"))
    return parts


def _how(shown: dict[str, Any]) -> list[LogPart]:
    if shown["reason"] == "release":
        return [seat(shown["seat"]), text(" breathed")]
    return [text(end_words(shown["reason"]))]


def log_parts(event: Event, viewer: int | None) -> list[LogPart]:
    """``event`` as ``viewer`` may read it: a log line as parts (seats and Diver cards as references)."""
    shown = event.for_seat(viewer)
    match shown["kind"]:
        case "round_start":
            treasures = ", ".join(shown["names"]) if shown["names"] else f"{shown['columns']} face down"
            return [text(f"round {shown['round']}: treasures {treasures}"), *_hand(shown, "; your hand ")]
        case "layout_start":
            return [text(f"layout {shown['layout']}: treasures {', '.join(shown['names'])}"),
                    *_hand(shown, "; your hand ")]
        case "hold":
            return [seat(shown["seat"]), text(" took a deep breath")]
        case "countdown":
            return [text(f"every breath is held: the dive starts in {seconds(shown['until'] - shown['t'])}")]
        case "release" if shown["cancelled"]:
            return [seat(shown["seat"]), text(" breathed out before the dive: the countdown stops")]
        case "release":
            return [seat(shown["seat"]), text(" breathed")]
        case "dive_start":
            return [text("the dive starts" + (f": treasures {', '.join(shown['names'])}" if shown["revealed"] else ""))]
        case "sort":
            return [seat(shown["seat"]), text(" sorted the hand"), *_hand(shown, ": ")]
        case "lay":
            return [seat(shown["seat"]), text(" laid "), card(str(shown["card"])),
                    text(f" under the {shown['treasure']} (column {shown['column']})")]
        case "signal":
            return [seat(shown["seat"]), text(f" pointed at the {shown['treasure']} (column {shown['column']})")]
        case "time_up":
            return [text("time is up")]
        case "round_end":
            return [text(f"round {shown['round']} over ("), *_how(shown), text("): "), *_columns(shown["columns"]),
                    text(f". Treasures won so far: {shown['won']}, the Keeper's protection: {shown['protection']}")]
        case "layout_end":
            dive = " - a successful dive!" if shown["dive"] else ""
            return [text(f"layout {shown['layout']} over ("), *_how(shown), text("): "), *_columns(shown["columns"]),
                    text(f"{dive} (dives {shown['dives']}, treasures {shown['found']})")]
        case "game_over":
            return [text(game_over_words(shown))]
    return [text(shown["kind"])]


def game_over_words(shown: dict[str, Any]) -> str:
    if shown["challenge"] == "chained":
        return f"game over: {shown['dives']} successful dive(s) and {shown['treasures']} treasure(s) on one breath"
    if shown["challenge"] == "one_round":
        return f"game over: {shown['treasures']} treasure(s) on one breath"
    verdict = "the divers win" if shown["verdict"] == "players" else "Kusalochka the Keeper wins"
    return f"game over: {shown['treasures']} treasure(s) against {shown['protection']} protection point(s): {verdict}"


# -- what never changes in a game --------------------------------------------------------------------------------------


def static_data(config: BermudaConfig) -> dict[str, Any]:
    """The treasure table, the Diver values, the options a page shows, and the meaning of the board's symbols."""
    treasures = [{"id": t.id, "name": t.name, "depth": t.depth, "protection": t.protection}
                 for t in config.table.treasures]
    return {
        "treasures": treasures,
        "values": list(VALUES),
        "hand_size": HAND_SIZE,
        "rounds": config.rounds,
        "challenge": config.challenge,
        "countdown_ms": config.countdown_ms,
        "max_dive_ms": config.max_dive_ms,
        "badges": [words for on, words in ((config.hidden_treasures, "Experienced: face down"),
                                           (config.placement_check == "strict", "Strict placement"),
                                           (config.sorting != "never", "Sorting allowed")) if on],
        "hidden_treasures": config.hidden_treasures,
        "symbols": {DEPTH_SYMBOL: "depth: exactly this many cards win the treasure",
                    PROTECTION_SYMBOL: "the Keeper's protection points if the treasure is lost",
                    SIGNAL_SYMBOL: "a diver points at this column"},
        "rules": rules_sheet(config),
    }
