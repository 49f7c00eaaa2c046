"""Bermuda behind the engine contract: the one object every caller talks to."""

from __future__ import annotations

import random
from typing import Any

from ...engine.declaration import BotEntry, Frontend, Levels
from ...engine.events import Event
from ...engine.game import Game
from . import information, notation, rules
from .actions import Action, Tick, parse_action, stamped
from .bots import PRESET_DESCRIPTIONS, PRESETS, bot_factories
from .config import BermudaConfig
from .state import BermudaState


class Bermuda(Game[BermudaState, Action]):
    name = "bermuda"
    title = "Bermuda"
    config_type = BermudaConfig
    realtime = True
    seat_rule = "BRM-R1"
    over_rule = "BRM-R30"
    # Timed bots: the presets are offered to people; the grid of paces and breaths is for the simulator.
    bots = {name: BotEntry(factory, PRESET_DESCRIPTIONS.get(name, ""), offered=name in PRESETS)
            for name, factory in bot_factories().items()}
    levels = Levels(easy="slow-diver", medium="diver", hard_iterations=None)
    frontends = frozenset({Frontend.TERMINAL, Frontend.BROWSER})

    def num_players(self, config: BermudaConfig) -> int:
        return config.num_players

    def new_with_events(self, config: BermudaConfig, seed: int) -> tuple[BermudaState, list[Event]]:
        """The new state and the first deal as events (each seat's hand is private to it)."""
        return rules.new_state(config, seed)

    actors = staticmethod(rules.actors)
    legal_actions = staticmethod(rules.legal_actions)
    validate = staticmethod(rules.check)
    perform = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)

    def view(self, state: BermudaState, seat: int | None) -> dict[str, Any]:
        return information.view(state, seat)

    def determinize(self, state: BermudaState, seat: int, rng: random.Random) -> BermudaState:
        return information.determinize(state, seat, rng)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return str(action)

    def state_notation(self, state: BermudaState) -> str:
        return notation.format_state(state)

    def seat_notation(self, state: BermudaState, seat: int | None) -> str:
        return notation.format_state(state, seat, masked=True)

    def parse_state(self, text: str, config: BermudaConfig | None = None) -> BermudaState:
        return notation.parse_state(text, config)

    def card_count(self, state: BermudaState) -> int:
        """Diver cards (hands, columns, set aside) plus treasures (deck, layout, both piles): always 63 + 28."""
        divers = sum(map(len, state.hands)) + sum(map(len, state.columns)) + len(state.aside)
        treasures = len(state.deck) + len(state.layout) + len(state.won) + len(state.keeper)
        return divers + treasures

    def format_event(self, event: Event, seat: int | None = None, names: list[str] | None = None) -> str:
        return describe_event(event.for_seat(seat), seat)

    # -- time (BRM-R5) ---------------------------------------------------------------------------------------
    def at(self, action: Action, t: int) -> Action:
        return stamped(action, t)

    def deadline(self, state: BermudaState) -> int | None:
        return rules.deadline(state)

    def tick(self, t: int) -> Action:
        return Tick(t)

    def leave_action(self, state: BermudaState, seat: int, t: int) -> Action | None:
        return rules.leave_action(state, seat, t)


def _who(seat: int, viewer: int | None) -> str:
    return "you" if seat == viewer else f"seat {seat}"


def _seconds(ms: int) -> str:
    """Tenths of a second, cut (not rounded), so the browser's log writes exactly the same."""
    return f"{ms // 1000}.{ms % 1000 // 100} s"


_REASONS = {"bad_step": "a bad step", "empty": "no card", "too_short": "too short", "too_long": "too long"}


def describe_column(column: dict[str, Any]) -> str:
    """One column of a round's result: ``T05 (6 deep) 3 4 5 6 5 4: won`` or ``... lost: too short``."""
    cards = " ".join(map(str, column["cards"])) or "-"
    verdict = "won" if column["won"] else "lost: " + ", ".join(_REASONS[r] for r in column["reasons"])
    return f"{column['treasure']} [{cards}] {verdict}"


def describe_event(shown: dict[str, Any], viewer: int | None = None) -> str:
    """A log line in words; a hand the viewer may not see is simply not mentioned."""
    kind = shown["kind"]
    if kind == "round_start":
        treasures = ", ".join(shown["treasures"]) if shown["treasures"] else f"{shown['columns']} face down"
        hand = f"; your hand {' '.join(map(str, shown['hand']))}" if "hand" in shown else ""
        return f"round {shown['round']}: treasures {treasures}{hand}"
    if kind == "hold":
        return f"{_who(shown['seat'], viewer)} took a deep breath"
    if kind == "countdown":
        return f"every breath is held: the dive starts in {_seconds(shown['until'] - shown['t'])}"
    if kind == "release":
        if shown["cancelled"]:
            return f"{_who(shown['seat'], viewer)} breathed out before the dive: the countdown stops"
        return f"{_who(shown['seat'], viewer)} breathed"
    if kind == "dive_start":
        shown_now = f": treasures {', '.join(shown['treasures'])}" if shown["revealed"] else ""
        return f"the dive starts{shown_now}"
    if kind == "sort":
        hand = f": {' '.join(map(str, shown['hand']))}" if "hand" in shown else ""
        return f"{_who(shown['seat'], viewer)} sorted the hand{hand}"
    if kind == "lay":
        return f"{_who(shown['seat'], viewer)} laid {shown['card']} under column {shown['column']}"
    if kind == "signal":
        return f"{_who(shown['seat'], viewer)} pointed at column {shown['column']}"
    if kind == "time_up":
        return "time is up"
    if kind in ("round_end", "layout_end"):
        how = {"release": "someone breathed", "time": "time ran out", "empty": "every hand was empty",
               "full": "every column was deep enough"}[shown["reason"]]
        if shown["reason"] == "release":
            how = f"{_who(shown['seat'], viewer)} breathed"
        columns = "; ".join(describe_column(c) for c in shown["columns"])
        if kind == "layout_end":
            dive = " - a successful dive!" if shown["dive"] else ""
            return (f"layout {shown['layout']} over ({how}): {columns}{dive} "
                    f"(dives {shown['dives']}, treasures {shown['found']})")
        return (f"round {shown['round']} over ({how}): {columns} -> treasures {shown['won']}, "
                f"keeper's protection {shown['protection']}")
    if kind == "layout_start":
        hand = f"; your hand {' '.join(map(str, shown['hand']))}" if "hand" in shown else ""
        return f"layout {shown['layout']}: treasures {', '.join(shown['treasures'])}{hand}"
    if kind == "game_over":
        if shown.get("challenge") == "chained":
            return (f"game over: {shown['dives']} successful dive(s) and {shown['treasures']} treasure(s) "
                    "on one breath")
        if shown.get("challenge") == "one_round":
            return f"game over: {shown['treasures']} treasure(s) on one breath"
        verdict = "the divers win" if shown["verdict"] == "players" else "Kusalochka the Keeper wins"
        return (f"game over: {shown['treasures']} treasure(s) against {shown['protection']} protection point(s): "
                f"{verdict}")
    return f"{kind} {shown}"
