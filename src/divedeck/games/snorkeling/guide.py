"""Snorkeling's guided first game: a fixed deal against one bot, first to 5 points, and a hint for each decision in
player words (what to look at, the good move and why). The suggested move is the greedy bot's choice."""

from __future__ import annotations

from typing import Any

from ...engine.decision import decide
from .actions import EndTurn, Pass, PlayCenter, PlayPile
from .bots import GreedyBot
from .state import GAME_OVER, SnorkelingState

GUIDE: dict[str, Any] = {
    "seed": 20261201,
    "options": {"target_score": 5},
    "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "bot": "greedy", "name": "Coach"}],
    "intro": "A short game against Coach, first to 5 points. Follow the hints: each one says what to look at and "
             "which move is good.",
}


def hint(game: Any, state: SnorkelingState, seat: int) -> dict[str, Any] | None:
    if state.phase == GAME_OVER:
        return {"text": "The game is over: see who stayed deepest. Start a real game from the lobby when ready.",
                "notation": None}
    if not game.legal_actions(state, seat):
        return {"text": "Watch the other diver play: their cards land on the centre pile and maybe on your pile.",
                "notation": None}
    action = decide(GreedyBot(0), game, state, seat)
    record = game.action_record(state, seat, action)
    table = state.context.table
    top = table.name(game.view(state, seat)["center"][-1]) if state.center else "nothing"
    match action:
        case PlayCenter():
            why = (f"Look at the centre pile: it shows {top}. A card of its colour, or one exactly one higher, may "
                   "go on it. Emptying your hand is good: you then take back the top card of your own pile.")
        case PlayPile(target=target):
            why = (f"Now look at the other piles: a card exactly one lower than a pile's top covers it, and that "
                   f"diver scores less (seat {target + 1}'s pile shows {state.pile_top_value(target)}).")
        case EndTurn():
            why = "Nothing more is worth playing now: end your turn and draw a card."
        case Pass():
            why = f"No card of yours fits the centre ({top}): pass, and you draw a card."
        case _:
            why = "This is the move to make now."
    return {"text": f"{why} Good move: {record['label']}.", "notation": record["notation"]}
