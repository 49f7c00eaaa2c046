"""Snorkeling behind the engine contract: the one object every caller talks to."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...engine.declaration import BotEntry, Frontend, Levels
from ...engine.events import Event
from ...engine.game import Game
from . import information, notation, playout, rules
from .actions import Action, parse_action
from .bots import SEARCH_CUTOFF, GreedyBot
from .config import SnorkelingConfig
from .state import SnorkelingState


class Snorkeling(Game[SnorkelingState, Action]):
    name = "snorkeling"
    title = "Snorkeling"
    config_type = SnorkelingConfig
    seat_rule = "SNK-R1"
    turn_rule = "SNK-R5"
    over_rule = "SNK-R15"
    bots = {"greedy": BotEntry(GreedyBot, "plays its highest card, keeps its pile safe")}
    levels = Levels(medium="greedy", hard_iterations=4000, hard_cutoff=SEARCH_CUTOFF)
    frontends = frozenset({Frontend.TERMINAL, Frontend.BROWSER, Frontend.HOTSEAT})

    def num_players(self, config: SnorkelingConfig) -> int:
        return config.num_players

    def new_with_events(self, config: SnorkelingConfig, seed: int) -> tuple[SnorkelingState, list[Event]]:
        """The new state and the deal as events (each seat's first hand is private to it)."""
        return rules.new_state(config, seed)

    # The hot calls are the rules' functions themselves: one Python call less per decision for every caller.
    actors = staticmethod(rules.actors)
    legal_actions = staticmethod(rules.legal_actions)
    validate = staticmethod(rules.check)
    perform = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)

    def random_playout(self, state: SnorkelingState, random_float: Callable[[], float], max_actions: int,
                       stop_events: frozenset[str] = frozenset()) -> int:
        """The contract's playout in Snorkeling's own fast loop, which can stop only at the end of a round."""
        if stop_events <= playout.ROUND_EVENTS:
            return playout.random_playout(state, random_float, max_actions, stop_events)
        return super().random_playout(state, random_float, max_actions, stop_events)

    def view(self, state: SnorkelingState, seat: int | None) -> dict[str, Any]:
        return information.view(state, seat)

    def determinize(self, state: SnorkelingState, seat: int, rng: random.Random) -> SnorkelingState:
        return information.determinize(state, seat, rng)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return str(action)

    def state_notation(self, state: SnorkelingState) -> str:
        return notation.format_state(state)

    def seat_notation(self, state: SnorkelingState, seat: int | None) -> str:
        return notation.format_state(state, seat, masked=True)

    def parse_state(self, text: str, config: SnorkelingConfig | None = None) -> SnorkelingState:
        return notation.parse_state(text, config)

    def card_count(self, state: SnorkelingState) -> int:
        return (len(state.deck) + len(state.center) + sum(map(len, state.hands))
                + sum(map(len, state.piles)))

    def format_event(self, event: Event, seat: int | None = None, names: list[str] | None = None) -> str:
        return describe_event(event.for_seat(seat), seat)


def _who(seat: int, viewer: int | None) -> str:
    return "you" if seat == viewer else f"seat {seat}"


def describe_event(shown: dict[str, Any], viewer: int | None = None) -> str:
    """A log line in words; a card the viewer may not see is written ``??`` (the log notation's unknown)."""
    kind = shown["kind"]
    if kind == "round_start":
        hand = f"; your hand {' '.join(shown['hand'])}" if "hand" in shown else ""
        return (f"round {shown['round']} begins with {_who(shown['starter'], viewer)}; the centre shows "
                f"{shown['center']}{hand}")
    if kind == "play_center":
        return f"{_who(shown['seat'], viewer)} played {shown['card']} to the centre"
    if kind == "play_pile":
        pile = "your" if shown["target"] == viewer else f"seat {shown['target']}'s"
        return f"{_who(shown['seat'], viewer)} played {shown['card']} onto {pile} pile"
    if kind == "pass":
        return f"{_who(shown['seat'], viewer)} passed"
    if kind == "end_turn":
        return f"{_who(shown['seat'], viewer)} ended the turn"
    if kind == "draw":
        return f"{_who(shown['seat'], viewer)} drew {shown.get('card', '??')}"
    if kind == "no_draw":
        return f"{_who(shown['seat'], viewer)} could not draw: no cards left"
    if kind == "refill":
        return f"the centre pile was shuffled into a new deck of {shown['deck']}"
    if kind == "retrieve":
        return f"{_who(shown['seat'], viewer)} emptied the hand and took back {shown['card']} from the pile"
    if kind == "round_end":
        reason = {"beach": "a Beach landed on a pile", "stall": "nobody could play or draw",
                  "turn_cap": "the turn limit was reached"}[shown["reason"]]
        gains = " ".join(f"+{g}" for g in shown["gains"])
        return f"round {shown['round']} over ({reason}): {gains} -> totals {' '.join(map(str, shown['totals']))}"
    if kind == "game_over":
        winners = " and ".join(_who(seat, viewer) for seat in shown["winners"])
        best = shown["totals"][shown["winners"][0]]
        if shown["reason"] == "round_cap":
            return f"game over after the last allowed round: {winners} won with {best} points"
        return f"game over: {winners} won with {best} points"
    return f"{kind} {shown}"
