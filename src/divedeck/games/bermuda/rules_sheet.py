"""Bermuda's rules sheet for people at the table: goal, a round, the cards, scoring, the variant in play and a
legend of the board's symbols, in player words (from docs/games/bermuda.md). Sent in the static data."""

from __future__ import annotations

from typing import Any

from .cards import HAND_SIZE, VALUES
from .config import BermudaConfig

DEPTH_SYMBOL = "⇣"
PROTECTION_SYMBOL = "♆"
SIGNAL_SYMBOL = "☛"


def rules_sheet(config: BermudaConfig) -> dict[str, Any]:
    treasures = config.table.treasures
    low, high = VALUES[0], VALUES[-1]
    cards: list[dict[str, Any]] = [
        {"name": "Diver card", "symbol": f"{low}–{high}",
         "text": f"Numbered {low} to {high}; you get {HAND_SIZE} each round. Lay them under the treasures."},
        {"name": "Treasure card", "symbol": f"{DEPTH_SYMBOL} {PROTECTION_SYMBOL}",
         "text": f"One per diver each round. {DEPTH_SYMBOL} is how many Diver cards its column needs; "
                 f"{PROTECTION_SYMBOL} is what the Keeper scores if you fail it. The treasures: "
                 + "; ".join(f"{t.name} ({DEPTH_SYMBOL}{t.depth} {PROTECTION_SYMBOL}{t.protection})"
                             for t in treasures) + "."},
    ]
    if not config.challenge:
        cards.append({"name": "The Keeper", "symbol": "",
                      "text": "Takes every treasure you fail and scores its protection points against you."})
    variant = [f"{config.rounds} round{'s' if config.rounds != 1 else ''}."]
    if config.challenge:
        variant.append("Single-breath challenge: no Keeper; count how many treasures you bring up on one breath"
                       + (", layout after layout." if config.challenge == "chained" else ", in one round."))
    if config.hidden_treasures:
        variant.append("Experienced divers: the treasures stay face down until the dive starts.")
    variant.append({"never": "You may not sort your hand.", "first_round": "You may sort your hand in the first round.",
                    "every_round": "You may sort your hand before every dive."}[config.sorting])
    variant.append("Strict placement: a card that does not fit its column is refused." if config.placement_check
                   == "strict" else "A card that does not fit is allowed, but its column then fails.")
    return {
        "title": "Bermuda",
        "goal": ("Together, bring up treasures. After the last round the divers win if the number of treasures "
                 f"won is at least the Keeper's {PROTECTION_SYMBOL} points (treasures ≥ protection)."
                 if not config.challenge else "Bring up as many treasures as you can on one breath."),
        "sections": [
            {"title": "A round", "items": [
                "Look at the treasures and your cards. When everyone is ready, all hold their breath (hold the "
                "button or the key).",
                "The dive: everybody lays cards from their hand under any treasure, all at once, no turns. A card "
                "once laid stays. You may not talk, but you may point.",
                "The dive ends the moment anyone breathes (lets go).",
            ]},
            {"title": "Winning a treasure", "items": [
                f"A column wins its treasure if it holds exactly {DEPTH_SYMBOL} cards and each card differs by one "
                f"from the card before it; {high} and {low} count as neighbours (…{high - 1}-{high}-{low}-{low + 1}…).",
                "The first card can be anything; an equal card (3 then 3) breaks the column.",
            ]},
            {"title": "Scoring", "items": [
                "Won treasures count 1 each for the divers; failed ones give the Keeper their "
                f"{PROTECTION_SYMBOL} points. The whole team wins or loses together.",
            ]},
        ],
        "cards": cards,
        "legend": [
            {"symbol": DEPTH_SYMBOL, "meaning": "depth: exactly this many cards win the treasure"},
            {"symbol": PROTECTION_SYMBOL, "meaning": "protection: the Keeper's points if the treasure is lost"},
            {"symbol": SIGNAL_SYMBOL, "meaning": "a diver points at this column"},
        ],
        "variant": variant,
    }
