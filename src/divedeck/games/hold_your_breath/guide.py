"""Hold Your Breath!'s guided first game: a fixed deal against one bot, and a hint for each decision in player words
(what to look at, the good move and why). The suggested move is the greedy bot's choice."""

from __future__ import annotations

from typing import Any

from ...engine.decision import decide
from .actions import Air, Calm, Discard, Draw, Drop, EndPlay, Gasp, Keep, Kraken, Lose, Mass, Panic, Shark, Swim
from .bots import GreedyBot
from .state import OVER, HoldYourBreathState

GUIDE: dict[str, Any] = {
    "seed": 20261201,
    "options": {},
    "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "bot": "greedy", "name": "Coach"}],
    "intro": "A game against Coach: dive down, then race back up. Follow the hints: each one says what to look at "
             "and which move is good.",
}

WHY: list[tuple[type, str]] = [
    (Air, "Air is your breath this turn: your pirate moves by the smaller of your Air total and your Swim total, "
          "so match your Air with Swim."),
    (Swim, "Swim is your effort: together with the Air you play, it moves your pirate."),
    (Draw, "Played for its Draw icon, this card brings you a new card to choose from."),
    (Discard, "Slow the other diver down: with a full hand they lose a random card."),
    (Panic, "Put a Panic on the other diver: they cannot Swim until they calm it."),
    (Shark, "Send the Shark to the other diver: they cannot Swim until it is calmed or chased away."),
    (Kraken, "The Kraken chases the Shark away from a Swim Pile."),
    (Mass, "The Kraken makes everyone discard."),
    (Calm, "Look at your Swim Pile: something there stops you from swimming. Calm it first."),
    (EndPlay, "You have played what helps: stop now and your pirate moves."),
    (Keep, "Keep the cards you still want; your hand is then refilled to full."),
    (Drop, "Throw away a card you do not want before your hand is refilled."),
    (Gasp, "You played no Air, so you are out of breath: lay a card face down as a Panic; pick the one you need "
           "least."),
    (Lose, "This card has to go."),
]


def hint(game: Any, state: HoldYourBreathState, seat: int) -> dict[str, Any] | None:
    if state.phase == OVER:
        return {"text": "The game is over: the deepest dive that made it back up wins. Start a real game from the "
                        "lobby when ready.", "notation": None}
    if not game.legal_actions(state, seat):
        return {"text": "Watch the other diver play: their cards and their pirate's move show on the board.",
                "notation": None}
    action = decide(GreedyBot(0), game, state, seat)
    record = game.action_record(state, seat, action)
    why = next((text for kind, text in WHY if isinstance(action, kind)), "This is the move to make now.")
    return {"text": f"{why} Good move: {record['label']}.", "notation": record["notation"]}
