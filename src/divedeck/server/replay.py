"""A finished table's game step by step, as one seat (or a spectator) saw it: the replay viewer's data.

Computed by replaying the stored log (undone actions left out, as the table itself was rebuilt) from the stored
seed: step 0 is the deal, step N the position after N actions, each with the view, the action as that seat could
read it and the log parts its events added, exactly what the seat was sent at the time.

A long game's replay is hundreds of kilobytes and tens of milliseconds of work, and a finished game's never
changes: ``ReplayCache`` builds each (table, viewer) once, off the event loop, keeps the encoded JSON (the least
recently asked for leave first beyond a size), and lets each client address ask a bounded number a minute.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..engine.match import Match
from ..sim.clock import Clock
from .connection import Bucket
from .storage import StoredTable

REMEMBERED_ADDRESSES = 10_000

Viewer = tuple[str, int | None]  # a table id, and a seat or None for a spectator


class ReplayCache:
    def __init__(self, max_bytes: int, per_minute: float, clock: Clock) -> None:
        self.max_bytes = max_bytes
        self.per_minute = per_minute
        self.clock = clock
        self.kept: OrderedDict[Viewer, bytes] = OrderedDict()
        self.size = 0
        self.building: dict[Viewer, asyncio.Future[bytes]] = {}
        self.budgets: dict[str, Bucket] = {}
        self.builds = 0  # how many replays were computed (the rest were served from memory)

    def allow(self, address: str) -> bool:
        """Spend one of ``address``'s replays a minute (a burst of as many); false when it has none left."""
        bucket = self.budgets.get(address)
        if bucket is None:
            if len(self.budgets) >= REMEMBERED_ADDRESSES:  # forget those with their whole budget back
                self.budgets = {a: b for a, b in self.budgets.items() if b.available() < b.burst}
            bucket = self.budgets[address] = Bucket(self.per_minute / 60, self.clock, burst=self.per_minute)
        return bucket.take()

    async def get(self, viewer: Viewer, build: Callable[[], bytes]) -> bytes:
        """The encoded replay for ``viewer``: kept, being built (then awaited with the others who asked), or
        built now by ``build`` in a thread."""
        body = self.kept.get(viewer)
        if body is not None:
            self.kept.move_to_end(viewer)
            return body
        task = self.building.get(viewer)
        if task is None:
            # A task of its own: a client that goes away does not cancel what the others wait for.
            task = self.building[viewer] = asyncio.get_running_loop().create_task(asyncio.to_thread(build))
            task.add_done_callback(lambda done: self._built(viewer, done))
        return await asyncio.shield(task)

    def _built(self, viewer: Viewer, task: asyncio.Task[bytes]) -> None:
        del self.building[viewer]
        if task.cancelled() or task.exception() is not None:
            return
        self.builds += 1
        body = task.result()
        if len(body) > self.max_bytes:
            return
        self.kept[viewer] = body
        self.size += len(body)
        while self.size > self.max_bytes:
            _, dropped = self.kept.popitem(last=False)
            self.size -= len(dropped)


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
