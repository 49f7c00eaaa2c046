"""Bermuda's guided first game: one short round with a bot teammate, and a hint for each moment in player words
(holding your breath, laying divers under the treasures, when to come up, and the goal: treasures against the
Keeper's protection). Bermuda is cooperative and real-time: the teammate lays its own cards meanwhile, and the
suggested lay is the one the teammate bots would choose (``bots.lay_scores``)."""

from __future__ import annotations

from typing import Any

from .actions import HOLD, RELEASE, SORT, Action, Lay
from .bots import lay_scores, value_counts
from .state import DIVE, GAME_OVER, PREPARE, BermudaState

GUIDE: dict[str, Any] = {
    "seed": 20261202,
    # Two divers and one round, hands sorted for a beginner, a short count of three.
    "options": {"num_players": 2, "rounds": 1, "sorting": "every_round", "countdown_ms": 1000},
    "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "bot": "fast-diver", "name": "Coach"}],
    "intro": "One dive with Coach as your teammate: hold your breath together, lay your Diver cards under the "
             "treasures, and come up when the columns are done. Follow the hints.",
}

GOAL = ("The team wins if it brings up at least as many treasures as the Keeper's protection points (♆) of the "
        "treasures it loses.")


def _best_lay(view: dict[str, Any], legal: list[Action]) -> tuple[Lay, dict[str, Any]] | None:
    """The lay a teammate bot would choose from ``view``'s hand, and its column; ``None`` if no card keeps a column
    winnable."""
    hand = tuple(view["hand"])
    if not hand:
        return None
    counts = value_counts(hand)
    columns = view["columns"]
    started = any(column["status"] == "building" for column in columns)
    own = view["seat"] % len(columns) + 1
    best: tuple[float, Lay, dict[str, Any]] | None = None
    for column in columns:
        if column["status"] not in ("empty", "building"):
            continue
        scores = lay_scores(counts, tuple(column["accepts"]), column["treasure"]["depth"], len(column["cards"]),
                            column["column"] == own, started)
        for card, score in scores:
            lay = Lay(card, column["column"])
            if lay in legal and (best is None or score > best[0]):
                best = (score, lay, column)
    return None if best is None else (best[1], best[2])


def hint(game: Any, state: BermudaState, seat: int) -> dict[str, Any] | None:
    view = game.view(state, seat)
    if state.phase == GAME_OVER:
        return {"text": f"The dive is over: the team brought up {view['treasures_won']} treasure(s) against the "
                        f"Keeper's {view['protection']} protection point(s). Start a real game from the lobby when "
                        "ready.", "notation": None}
    legal = game.legal_actions(state, seat)
    if state.phase == PREPARE:
        if SORT in legal:
            return {"text": "Look at your hand of Diver cards: sorting it puts neighbouring numbers side by side, "
                            "which is what a column needs. Good move: sort your hand.", "notation": str(SORT)}
        if HOLD in legal:
            return {"text": "Before a dive everyone takes a deep breath and holds it: the dive starts with a count "
                            "of three once all divers hold. Good move: hold your breath.", "notation": str(HOLD)}
        return {"text": f"You hold your breath: wait for your teammate, then the count of three. {GOAL}",
                "notation": None}
    if state.phase != DIVE:
        return None
    choice = _best_lay(view, legal)
    if choice is not None:
        lay, column = choice
        treasure = column["treasure"]
        need = treasure["depth"] - len(column["cards"])
        if column["cards"]:
            why = (f"Column {lay.column} ({treasure['name']}) ends with a {column['cards'][-1]}: the next diver must "
                   f"be one higher or one lower, and it needs {need} more card(s).")
        else:
            why = (f"{treasure['name']} lies at depth {treasure['depth']} (⇣): its column needs exactly that many "
                   "cards, each one higher or one lower than the one above. Start it with a card you can run on "
                   "from.")
        return {"text": f"{why} Good move: lay your {lay.card} under {treasure['name']}.", "notation": str(lay)}
    if RELEASE in legal:
        others = sum(size for other, size in enumerate(view["hand_sizes"]) if other != seat)
        if others and any(column["status"] in ("empty", "building") for column in view["columns"]):
            return {"text": "No card of yours keeps a column right now: watch your teammate lay theirs, and keep "
                            "holding your breath. A card that breaks a column's run loses its treasure. " + GOAL,
                    "notation": None}
        else:
            why = "Every column is done or lost: nothing more to lay. Breathe out to end the dive for everyone."
        return {"text": f"{why} {GOAL} Good move: breathe (release).", "notation": str(RELEASE)}
    return None
