"""Hold Your Breath! behind the engine contract: the one object every caller talks to."""

from __future__ import annotations

import random
from typing import Any

from ...engine.declaration import BotEntry, Frontend, Levels
from ...engine.events import Event
from ...engine.game import Game
from . import information, notation, rules
from .actions import Action, parse_action
from .bots import GreedyBot
from .config import HoldYourBreathConfig
from .state import HoldYourBreathState


class HoldYourBreath(Game[HoldYourBreathState, Action]):
    name = "hold-your-breath"
    title = "Hold Your Breath!"
    config_type = HoldYourBreathConfig
    seat_rule = "HYB-R1"
    turn_rule = "HYB-R26"
    over_rule = "HYB-R40"
    bots = {"greedy": BotEntry(GreedyBot, "swims as far as it can, hinders the leader")}
    levels = Levels(medium="greedy", hard_iterations=400)
    frontends = frozenset({Frontend.TERMINAL, Frontend.BROWSER, Frontend.HOTSEAT})

    def num_players(self, config: HoldYourBreathConfig) -> int:
        return config.num_players

    def new_with_events(self, config: HoldYourBreathConfig, seed: int) -> tuple[HoldYourBreathState, list[Event]]:
        """The new state and the deal as an event (each seat's first hand is private to it)."""
        return rules.new_state(config, seed)

    actors = staticmethod(rules.actors)
    legal_actions = staticmethod(rules.legal_actions)
    validate = staticmethod(rules.check)
    perform = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)

    def view(self, state: HoldYourBreathState, seat: int | None) -> dict[str, Any]:
        return information.view(state, seat)

    def determinize(self, state: HoldYourBreathState, seat: int, rng: random.Random) -> HoldYourBreathState:
        return information.determinize(state, seat, rng)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return str(action)

    def state_notation(self, state: HoldYourBreathState) -> str:
        return notation.format_state(state)

    def seat_notation(self, state: HoldYourBreathState, seat: int | None) -> str:
        return notation.format_state(state, seat, masked=True)

    def parse_state(self, text: str, config: HoldYourBreathConfig | None = None) -> HoldYourBreathState:
        return notation.parse_state(text, config)

    def card_count(self, state: HoldYourBreathState) -> int:
        return (len(state.deck) + len(state.discard) + sum(map(len, state.hands)) + sum(map(len, state.piles))
                + sum(1 for chosen in state.kraken if chosen >= 0))

    def format_event(self, event: Event, seat: int | None = None, names: list[str] | None = None) -> str:
        return describe_event(event.for_seat(seat), seat)


def _who(seat: int, viewer: int | None) -> str:
    return "you" if seat == viewer else f"seat {seat}"


def _whose(seat: int, viewer: int | None) -> str:
    return "your" if seat == viewer else f"seat {seat}'s"


def _seats(seats: list[int], viewer: int | None) -> str:
    return " and ".join(_who(seat, viewer) for seat in seats)


def _play_line(shown: dict[str, Any], viewer: int | None) -> str:
    who = _who(shown["seat"], viewer)
    verb, card = shown["verb"], shown["card"]
    target = shown.get("target", -1)
    if verb == "air":
        return f"{who} breathed with {card} (+{shown['value']} Air)"
    if verb == "swim":
        return f"{who} swam with {card} (+{shown['value']} Swim)"
    if verb == "draw":
        return f"{who} played {card} to draw a card"
    if verb == "discard":
        return f"{who} played {card} on {_who(target, viewer)}, who lost {shown['lost']} at random"
    if verb == "calm":
        if shown["hindrance"] == "panic":
            return f"{who} played {card} to calm a Panic ({shown['removed']})"
        if "target" not in shown:
            return f"{who} played {card} to calm the Shark ({shown['removed']}), which swam away to the Discard Pile"
        return f"{who} played {card} to calm the Shark ({shown['removed']}) and sent it to {_who(target, viewer)}"
    if verb == "panic":
        return f"{who} played {card} on {_who(target, viewer)} as a Panic"
    if verb == "shark":
        return f"{who} set {card} on {_who(target, viewer)} as the Shark"
    if verb == "kraken":
        return f"{who} played {card}: the Kraken chased {_whose(target, viewer)} Shark ({shown['removed']}) away"
    victims = shown["victims"]
    if not victims:
        return f"{who} played {card} as the Kraken: nobody holds a full hand"
    return f"{who} played {card} as the Kraken: {_seats(victims, viewer)} must discard a card"


def describe_event(shown: dict[str, Any], viewer: int | None = None) -> str:
    """A log line in words; a card the viewer may not see is not named."""
    kind = shown["kind"]
    if kind == "deal":
        stage = "Descent" if shown["round"] == "descent" else "Ascent"
        hand = f"; your hand {' '.join(shown['hand'])}" if "hand" in shown else ""
        return f"the {stage} is dealt; first to play: {_who(shown['first'], viewer)}{hand}"
    if kind == "play":
        return _play_line(shown, viewer)
    if kind == "draw":
        return f"{_who(shown['seat'], viewer)} drew {shown.get('card', 'a card')}"
    if kind == "no_draw":
        return f"{_who(shown['seat'], viewer)} could not draw: the Dive Deck is empty"
    if kind == "lose":
        given = f" ({shown['card']})" if "card" in shown else ""
        return f"{_who(shown['seat'], viewer)} set a card aside for the Kraken{given}"
    if kind == "kraken_discards":
        losses = ", ".join(f"{_who(seat, viewer)} {card}" for seat, card in shown["losses"])
        return f"the Kraken's victims discarded: {losses}"
    if kind == "end_play":
        return (f"{_who(shown['seat'], viewer)} ended play with Air {shown['air']} and Swim {shown['swim']}: "
                f"move {shown['move']} ft")
    if kind == "move":
        way = "dove" if shown["round"] == "descent" else "swam up"
        return f"{_who(shown['seat'], viewer)} {way} from {shown['from']} ft to {shown['to']} ft"
    if kind == "surface":
        return f"{_who(shown['seat'], viewer)} surfaced (number {shown['order']} to reach the surface)"
    if kind == "gasp":
        who = _who(shown["seat"], viewer)
        if shown["from"] == "deck":
            return f"{who} took no Air with an empty hand: the deck's top card lies face down as a Panic"
        card = f" ({shown['card']})" if "card" in shown else ""
        return f"{who} took no Air and laid a card face down as a Panic{card}"
    if kind == "drop":
        return f"{_who(shown['seat'], viewer)} discarded {shown['card']}"
    if kind == "replenish":
        cards = f": {' '.join(shown['cards'])}" if "cards" in shown else ""
        return f"{_who(shown['seat'], viewer)} drew {shown['drew']} card{'s' if shown['drew'] != 1 else ''}{cards}"
    if kind == "final_turns":
        return f"the Dive Deck is empty: one last turn each, ending with {_who(shown['seat'], viewer)}"
    if kind == "descent_end":
        anchors = " ".join(f"{depth}" for depth in shown["anchors"])
        return f"the Descent is over; anchors dropped at {anchors} ft"
    if kind == "ascent_start":
        tie = f" (the tie-break chose among {_seats(shown['tied'], viewer)})" if len(shown["tied"]) > 1 else ""
        return f"the Ascent begins with {_who(shown['first'], viewer)}, the shallowest diver{tie}"
    if kind == "game_over":
        winners = _seats(shown["winners"], viewer)
        if shown["by"] == "deepest_surfaced":
            return f"game over: {winners} dove the deepest and reached the surface, and won"
        if shown["by"] == "surfaced":
            return f"game over: {winners} won, the deepest diver to reach the surface"
        best = shown["distances"][shown["winners"][0]]
        return f"game over: {winners} won with the greatest total distance, {best} ft"
    return f"{kind} {shown}"
