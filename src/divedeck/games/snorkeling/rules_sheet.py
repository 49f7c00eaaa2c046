"""Snorkeling's rules sheet for people at the table: goal, a turn, the cards, scoring, the variant in play and a
legend of the symbols the board shows, in player words (from docs/games/snorkeling.md). Sent in the static data."""

from __future__ import annotations

from typing import Any

from .config import SnorkelingConfig


def rules_sheet(config: SnorkelingConfig) -> dict[str, Any]:
    table = config.table
    top = len(table.value_names) - 1
    lantern = table.lanternfish_name
    cards = [{"name": f"{name} ({value})", "symbol": str(value),
              "text": (f"Reef card worth {value}: the Beach. Put on a pile, it ends the round at once." if value == 0
                       else f"Reef card worth {value}, in every colour.")}
             for value, name in enumerate(table.value_names)]
    cards.append({"name": lantern, "symbol": str(table.lanternfish_value),
                  "text": f"Lies at the bottom of every diver's own pile and never leaves the table: while nothing "
                          f"covers it, it is worth {table.lanternfish_value}."})
    variant = [f"First to {config.target_score} points or more, alone at the top, wins."]
    variant.append("Expert Diving: at the centre, each card only has to match the card just below it (same colour "
                   "or one higher), as many as you like." if config.expert_diving
                   else "Base game (no Expert Diving): at the centre, play one card one higher, or cards of one "
                        "colour.")
    limit = {"one_per_opponent": "At most one card onto each other diver's pile per turn.",
             "one_total": "At most one card onto any pile per turn.",
             "unlimited": "As many cards onto other piles as fit."}[config.opponent_play_limit]
    variant.append(limit)
    if config.allow_own_pile:
        variant.append("You may also cover your own pile.")
    return {
        "title": "Snorkeling",
        "goal": (f"Stay deep. When a round ends you score the card on top of your own pile ({lantern} "
                 f"{table.lanternfish_value}, Beach 0). First to {config.target_score} points wins."),
        "sections": [
            {"title": "Your turn", "items": [
                "Look at the centre pile's top card.",
                "Either pass, or play to the centre: one card one higher than the top (after "
                f"{top} comes 0), or any number of cards of the top card's colour.",
                "Only after playing to the centre, you may cover other divers' piles: each card must be exactly one "
                f"lower than the pile's top card (a bare {lantern} takes a {top}).",
                "Then end your turn: you draw a card. If you emptied your hand, you also take back the top card of "
                f"your own pile (or draw one more if only your {lantern} is there).",
            ]},
            {"title": "End of a round", "items": [
                "The moment a 0 (Beach) lands on anyone's pile, that diver has surfaced and the round stops.",
                "Everyone scores the value on top of their own pile; then a new round is dealt.",
            ]},
        ],
        "cards": cards,
        "legend": [{"symbol": c.symbol, "meaning": f"the colour {c.name} (cards marked {c.symbol} are {c.name})"}
                   for c in table.colors],
        "variant": variant,
    }
