"""A finished table's game step by step, as one seat (or a spectator) saw it: the replay viewer's data.

Computed by replaying the stored log (undone actions left out, as the table itself was rebuilt) from the stored
seed: step 0 is the deal, step N the position after N actions, each with the view, the action as that seat could
read it and the log parts its events added, exactly what the seat was sent at the time.
"""

from __future__ import annotations

from typing import Any

from ..engine.match import Match
from .storage import StoredTable


def replay_steps(stored: StoredTable, seat: int | None) -> dict[str, Any]:
    match = Match.start(stored.game, stored.options, stored.seed)
    game = match.game

    def parts(events: list[Any]) -> list[dict[str, Any]]:
        return [{**event.for_seat(seat), "parts": game.log_parts(event, seat)} for event in events]

    steps: list[dict[str, Any]] = [{"actor": None, "action": None, "view": game.view(match.state, seat),
                                    "events": parts(match.opening)}]
    for actor, notation in ((a, n) for a, n, _ in stored.actions):
        action = game.parse_action(notation)
        events = match.act(actor, action)
        shown = notation if seat == actor else game.public_action(action, seat, actor)
        steps.append({"actor": actor, "action": shown, "view": game.view(match.state, seat),
                      "events": parts(events)})
    outcome = game.outcome(match.state)
    return {"game": game.name, "title": game.title, "seat": seat, "static": game.static_data(match.config),
            "seats": [{"seat": index, "name": record.get("name"), "kind": record.get("kind")}
                      for index, record in enumerate(stored.seats)],
            "steps": steps, "outcome": None if outcome is None else outcome.to_dict()}
