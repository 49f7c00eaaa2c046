"""A live table: one match, its seats and their sockets, the bots that play for some seats.

Every change goes through ``act``: validate with the game, append to storage, then apply, acknowledge and send
each seat its own view and events. One lock per table orders actions; tables never wait for each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bots import Bot, decide, make_bot
from ..engine.config import config_to_options
from ..engine.errors import IllegalAction, MalformedInput
from ..engine.events import Event
from ..engine.match import Match
from .connection import Connection
from .settings import ServerSettings
from .storage import Storage

if TYPE_CHECKING:
    from .manager import TableManager

PROTOCOL = 1
MAX_ACTION_LENGTH = 200
MAX_CLIENT_ID_LENGTH = 64
REMEMBERED_CLIENT_IDS = 1000


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_json(text: str) -> Any:
    """The JSON value in ``text``, or ``None`` for anything that is not JSON (too deeply nested included)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def encodable(text: str) -> bool:
    """Text that can be stored: no lone surrogates (which JSON escapes allow, and databases refuse)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **{k: v for k, v in extra.items() if v is not None}}


@dataclass
class SeatState:
    index: int
    kind: str  # "human" or "bot": what the table was created with
    name: str
    bot_name: str | None = None
    token_hash: str | None = None
    controller: str = "human"  # who plays now: "human", or "bot" for bot seats and humans who left
    connections: set[Connection] = field(default_factory=set)
    bot: Bot | None = None
    away_task: asyncio.Task[None] | None = None

    def record(self) -> dict[str, Any]:
        """What storage keeps about the seat (a hash of the token, never the token)."""
        return {"kind": self.kind, "name": self.name, "bot": self.bot_name, "token_hash": self.token_hash}


class LiveTable:
    def __init__(self, table_id: str, match: Match, seats: list[SeatState], *, hotseat: bool, created: float,
                 settings: ServerSettings, storage: Storage, manager: TableManager) -> None:
        self.id = table_id
        self.match = match
        self.game = match.game
        self.seats = seats
        self.hotseat = hotseat
        self.created = created
        self.settings = settings
        self.storage = storage
        self.manager = manager
        self.spectators: set[Connection] = set()
        # (seat, client id) -> the version its action produced: a retried action is acknowledged, not re-applied.
        self.client_ids: dict[tuple[int, str], int] = {}
        self.log: deque[Event] = deque(maxlen=settings.log_length)
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.rematch_id: str | None = None
        # New seat tokens of the rematch, kept in memory only, for players who were away when it was made.
        self.rematch_tokens: dict[int, str] = {}
        self.closing = False
        self.finished_at: float | None = None

    # -- what people see -----------------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.match.actions)

    @property
    def finished(self) -> bool:
        return self.match.over

    def status(self) -> str:
        if self.finished:
            return "finished"
        return "playing" if self.version else "waiting"

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": config_to_options(self.match.config),
            "seats": [{"seat": s.index, "kind": s.kind, "bot": s.bot_name, "name": s.name,
                       "connected": bool(s.connections) or s.controller == "bot", "controller": s.controller}
                      for s in self.seats],
            "status": self.status(),
            "hotseat": self.hotseat,
            "created": self.created,
            "rematch": self.rematch_id,
        }

    def _legal(self, seat: int | None) -> list[str]:
        state = self.match.state
        if seat is None or seat not in self.game.actors(state):
            return []
        return [self.game.format_action(action) for action in self.game.legal_actions(state, seat)]

    def _outcome(self) -> dict[str, Any] | None:
        outcome = self.game.outcome(self.match.state)
        return None if outcome is None else outcome.to_dict()

    def welcome(self, seat: int | None) -> dict[str, Any]:
        return {"type": "welcome", "protocol": PROTOCOL, "table": self.public(), "seat": seat,
                "version": self.version, "view": self.game.view(self.match.state, seat),
                "legal": self._legal(seat), "log": [event.for_seat(seat) for event in self.log],
                "outcome": self._outcome()}

    def _update(self, seat: int | None, actor: int, action: str, events: list[Event],
                table: dict[str, Any]) -> str:
        return json.dumps({"type": "update", "version": self.version, "actor": actor, "action": action,
                           "events": [event.for_seat(seat) for event in events],
                           "view": self.game.view(self.match.state, seat), "legal": self._legal(seat),
                           "outcome": self._outcome(), "table": table}, separators=(",", ":"))

    def _broadcast_update(self, actor: int, action: str, events: list[Event]) -> None:
        table = self.public()
        for seat in self.seats:
            if seat.connections:
                message = self._update(seat.index, actor, action, events, table)
                for connection in seat.connections:
                    connection.send(message)
        if self.spectators:
            message = self._update(None, actor, action, events, table)
            for connection in self.spectators:
                connection.send(message)

    def broadcast_table(self) -> None:
        """Tell everyone who is connected and who plays for whom (no game information in it)."""
        message = json.dumps({"type": "table", "table": self.public()})
        for connection in self.connections():
            connection.send(message)

    def connections(self) -> list[Connection]:
        return [c for seat in self.seats for c in seat.connections] + list(self.spectators)

    def seat_for_token(self, token: object) -> SeatState | None:
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat
        return None

    # -- sockets joining and leaving -----------------------------------------------------------------------------
    def join(self, connection: Connection) -> None:
        if connection.seat is None:
            self.spectators.add(connection)
        else:
            seat = self.seats[connection.seat]
            seat.connections.add(connection)
            if seat.away_task is not None:
                seat.away_task.cancel()
                seat.away_task = None
            seat.controller = "human"  # coming back takes the seat back from its replacement bot
        connection.send(self.welcome(connection.seat))
        if self.rematch_id is not None:
            notice: dict[str, Any] = {"type": "rematch", "table": self.rematch_id}
            if connection.seat is not None and connection.seat in self.rematch_tokens:
                notice["token"] = self.rematch_tokens[connection.seat]
            connection.send(notice)
        self.broadcast_table()

    def leave(self, connection: Connection) -> None:
        if connection.seat is None:
            self.spectators.discard(connection)
            return
        seat = self.seats[connection.seat]
        seat.connections.discard(connection)
        if seat.kind == "human" and not seat.connections and seat.controller == "human" and not self.finished:
            seat.away_task = asyncio.get_running_loop().create_task(self._replace_after_grace(seat))
        self.broadcast_table()

    async def _replace_after_grace(self, seat: SeatState) -> None:
        await asyncio.sleep(self.settings.grace_period)
        seat.away_task = None
        if not seat.connections:
            self.hand_to_bot(seat)

    def start_grace_periods(self) -> None:
        """After a restart nobody is connected yet: give every human seat the usual time to come back."""
        for seat in self.seats:
            if seat.kind == "human" and not seat.connections and seat.away_task is None:
                seat.away_task = asyncio.get_running_loop().create_task(self._replace_after_grace(seat))

    def hand_to_bot(self, seat: SeatState) -> None:
        if seat.controller == "bot" or self.finished:
            return
        seat.controller = "bot"
        if seat.bot is None:
            seat.bot = make_bot(self.game.name, self.settings.replacement_bot, self.match.seed + seat.index + 1)
        self.broadcast_table()
        self.schedule_bots()

    # -- messages from a socket ----------------------------------------------------------------------------------
    async def handle(self, connection: Connection, text: str) -> None:
        message = parse_json(text)
        if not isinstance(message, dict):
            connection.send(error("malformed", "a message must be a JSON object"))
            return
        kind = message.get("type")
        if kind == "ping":
            connection.send({"type": "pong"})
        elif kind == "act":
            await self._handle_act(connection, message)
        elif kind == "leave":
            if connection.seat is None:
                connection.send(error("spectator", "a spectator has no seat to leave"))
            else:
                self.hand_to_bot(self.seats[connection.seat])
        elif kind == "rematch":
            if not self.finished:
                connection.send(error("malformed", "a rematch can be asked for once the game is over"))
            else:
                await self.manager.rematch(self)
        else:
            connection.send(error("malformed", f"unknown message type {kind!r}"))

    async def _handle_act(self, connection: Connection, message: dict[str, Any]) -> None:
        action, client_id, version = message.get("action"), message.get("client_id"), message.get("version")
        if not isinstance(client_id, str) or not 0 < len(client_id) <= MAX_CLIENT_ID_LENGTH or not encodable(client_id):
            connection.send(error("malformed", "act needs a client_id: text of 1 to 64 characters"))
            return
        if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION_LENGTH or not encodable(action):
            connection.send(error("malformed", "act needs an action in the game's notation", client_id=client_id))
            return
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            connection.send(error("malformed", "version must be a whole number", client_id=client_id))
            return
        if connection.seat is None:
            connection.send(error("spectator", "spectators cannot act", client_id=client_id))
            return
        reply = await self.act(connection.seat, action, client_id, version)
        connection.send(reply)

    # -- the one way anything changes ----------------------------------------------------------------------------
    async def act(self, seat: int, text: str, client_id: str | None, version: int | None) -> dict[str, Any]:
        """Validate, store, apply, tell everyone. Returns the ack or the error for whoever asked."""
        async with self.lock:
            if client_id is not None and (seat, client_id) in self.client_ids:
                return {"type": "ack", "client_id": client_id, "version": self.client_ids[seat, client_id]}
            if self.finished:
                return error("game_over", "the game is over", client_id=client_id)
            if version is not None and version < self.version:
                return error("stale", f"the table has moved on (version {self.version}, you saw {version})",
                             client_id=client_id)
            state = self.match.state
            try:
                action = self.game.parse_action(text)
            except MalformedInput as problem:
                return error("malformed", str(problem), client_id=client_id)
            if seat not in self.game.actors(state):
                return error("not_your_turn", "it is not your turn", client_id=client_id)
            try:
                self.game.check(state, seat, action)
            except IllegalAction as problem:
                return error("illegal_action", problem.reason, rule=problem.rule, client_id=client_id)
            except MalformedInput as problem:
                return error("malformed", str(problem), client_id=client_id)
            notation = self.game.format_action(action)
            try:
                await self.storage.append_action(self.id, self.version, seat, notation, client_id)
            except Exception:
                return error("storage_failed", "the action could not be saved; nothing changed, try again",
                             client_id=client_id)
            events = self.match.act(seat, action)
            self.log.extend(events)
            if client_id is not None:
                self.client_ids[seat, client_id] = self.version
                if len(self.client_ids) > REMEMBERED_CLIENT_IDS:
                    del self.client_ids[next(iter(self.client_ids))]
            self._broadcast_update(seat, notation, events)
            if self.finished:
                self.finished_at = time.time()
                await self.storage.update_table(self.id, finished=self.finished_at)
                for other in self.seats:
                    if other.away_task is not None:
                        other.away_task.cancel()
                        other.away_task = None
            self.schedule_bots()
            return {"type": "ack", "client_id": client_id, "version": self.version}

    # -- bots ----------------------------------------------------------------------------------------------------
    def schedule_bots(self) -> None:
        if self.closing or self.finished or (self.bot_task is not None and not self.bot_task.done()):
            return
        movers = [s for s in sorted(self.game.actors(self.match.state)) if self.seats[s].controller == "bot"]
        if movers:
            self.bot_task = asyncio.get_running_loop().create_task(self._bot_move(movers[0]))

    async def _bot_move(self, seat_index: int) -> None:
        try:
            await asyncio.sleep(self.settings.bot_delay)
            seat = self.seats[seat_index]
            if seat.controller != "bot" or seat.bot is None:
                return
            version = self.version
            state = self.match.state.clone()
            # Off the event loop: a thinking bot must not hold up other tables.
            action = await asyncio.to_thread(decide, seat.bot, self.game, state, seat_index)
            # No client id: a bot never retries, and the version guards against a move chosen for an old position.
            await self.act(seat_index, self.game.format_action(action), None, version)
        finally:
            self.bot_task = None
            self.schedule_bots()

    async def close(self) -> None:
        self.closing = True
        for task in [self.bot_task, *(s.away_task for s in self.seats)]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
