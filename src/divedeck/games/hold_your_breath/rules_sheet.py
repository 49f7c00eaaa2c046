"""Hold Your Breath!'s rules sheet for people at the table: goal, a turn, every card, the end, the variant in play
and a legend of the card icons, in player words (from docs/games/hold-your-breath.md). Sent in the static data."""

from __future__ import annotations

from typing import Any

from .config import HoldYourBreathConfig

# The glyph drawn on a card for its kind and for each action icon (never a code), and its meaning.
ICONS = {
    "air": ("○", "Air: play it for its value to breathe"),
    "swim": ("≈", "Swim: play it for its value to swim"),
    "draw": ("+", "Draw: play it to draw a card"),
    "discard": ("−", "Discard: an opponent with a full hand loses a random card"),
    "calm": ("✓", "Calm: clear a Panic or the Shark from your Swim Pile"),
    "panic": ("!", "Panic: put a Panic on an opponent, who cannot Swim until calmed"),
    "shark": ("▲", "Shark: put the Shark on an opponent"),
    "kraken": ("✷", "Kraken: chase the Shark away, or make everyone discard"),
    "dolphin": ("★", "Dolphin: play it as any card"),
}


def rules_sheet(config: HoldYourBreathConfig) -> dict[str, Any]:
    table = config.table
    cards: list[dict[str, Any]] = []
    for info in table.info():
        kind, icon = info["kind"], info["icon"]
        if kind in ("air", "swim"):
            text = (f"{info['value']} feet of {kind.capitalize()} for moving, or played instead for its action: "
                    f"{ICONS[icon][1].split(': ', 1)[1]}.")
            symbol = f"{ICONS[kind][0]} {ICONS[icon][0]}"
        else:
            text = ICONS[kind][1].split(": ", 1)[1] + "."
            symbol = ICONS[kind][0]
        cards.append({"name": info["name"], "symbol": symbol, "text": text, "count": info["count"]})
    depth = config.depth_limit
    variant = [f"The Depth Board goes down to {depth} feet, in steps of {table.step}."]
    variant.append("If you hold an Air card or a Dolphin, you must play one for Air before you stop."
                   if config.forced_breath else "You may stop without playing Air (and then panic).")
    variant.append("At the end, divers who reached the surface win first." if config.winner_rule == "surfaced_first"
                   else "At the end, total distance (down and up) decides for everyone.")
    return {
        "title": "Hold Your Breath!",
        "goal": ("Dive deepest, then come back up: the diver who dove deepest wins the moment they break the "
                 "surface on the way back."),
        "sections": [
            {"title": "Your turn", "items": [
                "Play as many cards as you like, each either for its value (Air or Swim, in feet) or for its "
                "action icon.",
                "When you stop, your pirate moves by the smaller of your Air total and your Swim total "
                "(two Air 5 and a Swim 10 move you 10 feet).",
                "Played no Air at all? You are out of breath: put one card of your hand face down in your Swim "
                "Pile as a Panic.",
                "While a Panic or the Shark lies in your Swim Pile you cannot play Swim: clear it with Calm "
                "(a calmed Shark moves on to another diver) or chase the Shark with the Kraken.",
                f"Then discard any cards you do not want and refill your hand to {table.hand_size}.",
            ]},
            {"title": "Rounds and the end", "items": [
                "First round, the Descent, goes down. When a turn ends with the deck empty, everyone plays one "
                "last turn and each diver's depth is marked with an anchor (⚓).",
                "Second round, the Ascent, goes up; the shallowest diver starts.",
                "The deepest diver wins on reaching the surface. Otherwise a surfaced diver beats those still "
                "under water; if nobody surfaced, the greatest total distance wins, "
                f"{table.hindrance_penalty} feet off for each Panic or Shark still in a Swim Pile.",
            ]},
        ],
        "cards": cards,
        "legend": [{"symbol": glyph, "meaning": meaning} for glyph, meaning in ICONS.values()]
        + [{"symbol": "⚓", "meaning": "anchor: how deep a diver got in the Descent"}],
        "variant": variant,
    }
