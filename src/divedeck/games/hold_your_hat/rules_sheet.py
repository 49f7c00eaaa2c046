"""Hold your Hat's rules sheet for people at the table: goal, a turn, the rounds, the word and special cards, the
variant in play and a legend of the screen's marks, in player words (from docs/games/hold-your-hat.md). Sent in the
static data."""

from __future__ import annotations

from typing import Any

from .config import HoldYourHatConfig
from .state import ROUND_TYPES, SPECIAL_NAMES, SPECIAL_ORDER

SPECIAL_TEXT = {
    "B": "Before your timer starts: look at the top five words and put them in any order.",
    "E": "After your timer ran out: a few more words and the timer again.",
    "S": "Skip the current word and take the next one.",
    "T": "During another team's turn: one guess at their word; if right, you take the card.",
    "R": "Before another team's turn: your team guesses their words too.",
}


def rules_sheet(config: HoldYourHatConfig) -> dict[str, Any]:
    from .presentation import ROUND_NAMES  # the presentation sends this sheet: imported late, no import cycle

    cards: list[dict[str, Any]] = [
        {"name": "Word card", "symbol": "1 / 2",
         "text": "Six words, one per colour; only the colour chosen for the game is played. A word your team "
                 "guesses is worth 1, a hat phrase 2."},
    ]
    cards += [{"name": SPECIAL_NAMES[letter], "symbol": letter, "text": SPECIAL_TEXT[letter]}
              for letter in SPECIAL_ORDER]
    rounds = [f"Round {i + 1}, {ROUND_NAMES[kind][0]}: {ROUND_NAMES[kind][1]}"
              for i, kind in enumerate(ROUND_TYPES[:config.rounds])]
    variant = [f"{config.teams} teams, {config.deck_size} words, {config.turn_seconds} seconds on the timer, "
               f"{config.rounds} round{'s' if config.rounds != 1 else ''}."]
    variant.append("Party mode: one screen passed around; the clue-giver confirms the guesses spoken aloud. Clues "
                   "and guesses may be typed too, for players who are not in the room."
                   if config.party else
                   "Guesses are typed and judged by the game." if config.guess_judging == "auto"
                   else "Guesses are spoken and the clue-giver confirms them.")
    if config.start_with_raid:
        variant.append("Every team starts with a RAID card.")
    return {
        "title": "Hold your Hat",
        "goal": "Guess more words than the other teams. After the last round the team with the most points wins.",
        "sections": [
            {"title": "Your team's turn", "items": [
                "One of you is the clue-giver: start the timer, look at the word and make your teammates say it.",
                "Each word they get is a card for your team; go straight on to the next word.",
                "When time is up the turn ends and your team draws a special card.",
                "A round ends when every word has been won; the next round plays the same words again, shuffled.",
            ]},
            {"title": "The rounds", "items": rounds},
        ],
        "cards": cards,
        "legend": [{"symbol": letter, "meaning": f"the special card {SPECIAL_NAMES[letter]}"}
                   for letter in SPECIAL_ORDER]
        + [{"symbol": "A, B, C…", "meaning": "the teams, each with its colour and its letter"}],
        "variant": variant,
    }
