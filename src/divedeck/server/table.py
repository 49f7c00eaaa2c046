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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, accepted_bot_names, make_bot
from ..engine.config import config_to_options
from ..engine.errors import IllegalAction, MalformedInput
from ..engine.events import Event
from ..engine.game import CLOCK
from ..engine.match import Match
from ..engine.records import ActionRecord
from ..sim.clock import Timer, sleep_until
from ..sim.driver import RETRY_MS, Due, RealtimeDriver
from .bot_workers import BotWorkers
from .connection import Bucket, Connection
from .move_clock import MoveClock
from .settings import ServerSettings
from .storage import Fenced, Storage
from .wire import encode

PROTOCOL = 3
# Protocol 3 changed what legal actions and events are (records, log parts): older pages are told to reload.
PROTOCOLS = (3,)
MAX_ACTION_LENGTH = 200
MAX_CLIENT_ID_LENGTH = 64
MAX_NAME_LENGTH = 40
REMEMBERED_CLIENT_IDS = 1000
# Table talk: quick reactions by name, and chat lines of up to MAX_CHAT_LENGTH characters; each seat may send
# CHAT_BURST of them (both kinds together) in any CHAT_WINDOW seconds. Spectators only read. Kept in memory only.
EMOTES = ("hello", "nice", "oops", "wow", "thinking", "good game")
MAX_CHAT_LENGTH = 200
CHAT_BURST = 5
CHAT_WINDOW = 10.0
REMEMBERED_CHAT = 30


# A seat's clock in the public table when the table has none (spread into each seat's entry, never changed).
NO_SEAT_CLOCK: dict[str, Any] = {"bank": None, "time_until": None, "timed_out": False}


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


def clean_name(value: object) -> str | None:
    """A player's name as typed, with its spaces tidied, or ``None`` if it is no name: 1 to 40 printable
    characters. Pages show it as text, never as markup."""
    if not isinstance(value, str) or len(value) > 4 * MAX_NAME_LENGTH or not encodable(value):
        return None
    name = " ".join(value.split())
    return name if 0 < len(name) <= MAX_NAME_LENGTH and name.isprintable() else None


def replacement_bot_name(game_name: str, preferred: str, stand_in: str) -> str:
    """The bot that plays a person's seat: the server's configured one where the game takes it, else the game's
    declared stand-in."""
    return preferred if preferred in accepted_bot_names(game_name) else stand_in


def undo_seat_after(game: Any, before: Any, after: Any, seat: int, action: Any, events: list[Event]) -> int | None:
    """The seat that may take back the move just made (``seat``'s, from state ``before`` to ``after``), if any:
    its turn goes on and the game declares the move undoable. Used live and when a restart rebuilds the table."""
    if seat == CLOCK or game.realtime or seat not in game.actors(after):
        return None
    return seat if game.undoable(before, seat, action, events) else None


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
    # Whether a person has ever connected to the seat: only then may a bot take it over (kept in storage, so a
    # restart does not hand a table nobody came to to bots).
    joined: bool = False
    connections: set[Connection] = field(default_factory=set)
    bot: Bot | None = None
    away_task: asyncio.Task[None] | None = None
    bucket: Bucket | None = None  # the message budget all the seat's sockets share
    away_until: int | None = None  # while its person is away: when the grace period hands the seat to a bot
    named: bool = False  # its name was given (by the table's creator or its person), not the server's default
    timed_out: bool = False  # its bot plays because its time per move ran out (its person's next action ends it)

    def record(self) -> dict[str, Any]:
        """What storage keeps about the seat (a hash of the token, never the token)."""
        return {"kind": self.kind, "name": self.name, "bot": self.bot_name, "token_hash": self.token_hash,
                "joined": self.joined, "named": self.named}


class LiveTable:
    def __init__(self, table_id: str, match: Match, seats: list[SeatState], *, hotseat: bool, created: float,
                 settings: ServerSettings, storage: Storage, bot_workers: BotWorkers,
                 rematch: Callable[[LiveTable, Connection, set[int]], Awaitable[Any]],
                 epoch: int | None = None, lost: Callable[[LiveTable], None] | None = None) -> None:
        self.id = table_id
        self.match = match
        self.game = match.game
        self.seats = seats
        self.hotseat = hotseat
        self.created = created
        self.settings = settings
        self.storage = storage
        self.bot_workers = bot_workers
        self._rematch = rematch  # the manager makes rematches: a new table may go anywhere
        # The lease this process holds on the table (ownership.py), which fences every write to its log; None when
        # one process owns every table. ``lost`` is told when a write finds the lease gone.
        self.epoch = epoch
        self._lost = lost
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
        self.moved_at: float = time.time()  # the last move (or the start): "Your tables" says how long a turn waits
        # Real-time games: the last timestamp given (never decreasing), the bots' plans and the game's deadline
        # (the driver), and the timer for whichever of them is due first.
        self.last_time = 0
        self.driver = RealtimeDriver(self.game, int(settings.bot_delay * 1000))
        self.timer: Timer | None = None
        self.running_due = False  # a due plan is on its way into ``act`` (maybe waiting for the lock)
        self.sent_table: dict[str, Any] | None = None  # the public table as the last update gave it
        self.expiry: Timer | None = None  # while no person has come: when the manager forgets the table
        self._static: dict[str, Any] | None = None
        self._options: dict[str, Any] | None = None
        self._records: dict[tuple[int, Any], ActionRecord] = {}  # (seat, action) -> record, if records_fixed
        # A rematch being asked for: who asked, and each person's seat -> "accepted", "declined" or "waiting".
        # Kept in memory only: a restart forgets the question, and anyone may ask again.
        self.vote_by: int | None = None
        self.votes: dict[int, str] = {}
        self.undone = 0  # how many actions were taken back (their rows stay in storage, marked)
        self.undo_seat: int | None = None  # the seat whose last action may be taken back now, if any
        self.chat: deque[dict[str, Any]] = deque(maxlen=REMEMBERED_CHAT)  # the latest lines, for a welcome
        self.talk_times: dict[int, deque[float]] = {}  # each seat's latest chat and reaction times (the limit)
        # A room's table before its host starts it (rooms.py): nobody may act, no bot moves, no legal actions.
        self.held = False
        # The clock per move (move_clock.py), if the table was made with one, and the timer for its next deadline.
        self.move_clock: MoveClock | None = None
        self.clock_started = 0  # when the clock began (the table's making, or its room's start), server ms
        self.clock_timer: Timer | None = None
        self.clock_restarts: list[list[Any]] = []  # [seat, when, spent]: turns counted afresh (MoveClock.restart)
        # A real-time table's pause (``pause``): while paused, since when (server ms); and the time paused before.
        # The table's clock is the server's minus the time paused, so every timestamp the game sees, its deadline
        # and the bots' pacing stand still while paused and go on after, and the log's times never go back.
        self.paused_since: int | None = None
        self.paused_ms = 0

    # -- what people see -----------------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """Grows with every change: each action adds one, each undo two (one for the action it removes, one for
        itself), so a page never sees a version twice."""
        return len(self.match.actions) + 2 * self.undone

    @property
    def finished(self) -> bool:
        return self.match.over

    def unclaimed(self) -> bool:
        """Whether the table has people's seats and none of them has ever been opened."""
        humans = [seat for seat in self.seats if seat.kind == "human"]
        return bool(humans) and not any(seat.joined for seat in humans)

    def status(self) -> str:
        if self.finished:
            return "finished"
        return "playing" if self.version else "waiting"

    def listing(self) -> dict[str, Any]:
        """The public table and where it stands, for GET /api/tables/{id} ("Your tables"): whose move it is, since
        when (seconds since the epoch) and, once finished, who won. Not in the updates: it changes at every move."""
        outcome = self.game.outcome(self.match.state)
        return {**self.public(), "to_move": [] if outcome else sorted(self.game.actors(self.match.state)),
                "moved_at": self.moved_at, "winners": None if outcome is None else list(outcome.winners)}

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.options,
            "seats": [{"seat": s.index, "kind": s.kind, "bot": s.bot_name, "name": s.name,
                       "connected": bool(s.connections) or s.controller == "bot", "controller": s.controller,
                       "away_until": s.away_until, "named": s.named, **self._seat_clock(s)}
                      for s in self.seats],
            "clock": None if self.move_clock is None else self.move_clock.profile.to_dict(),
            "status": self.status(),
            "hotseat": self.hotseat,
            "created": self.created,
            "rematch": self.rematch_id,
            "held": self.held,  # a room's table before its host starts it
            "paused": self.paused,  # a real-time table whose clock stands still (``pause``)
            "pausable": self.pausable(),  # whether its person may pause it (``pausable``)
            "rematch_vote": None if self.vote_by is None else {
                "by": self.vote_by, "seats": [{"seat": seat, "answer": answer} for seat, answer in self.votes.items()]},
        }

    @property
    def options(self) -> dict[str, Any]:
        """The table's options as the lobby names them (its config never changes), worked out once."""
        if self._options is None:
            self._options = config_to_options(self.match.config)
        return self._options

    def _seat_clock(self, seat: SeatState) -> dict[str, Any]:
        """The clock of a seat in the public table: its bank left, when its time runs out while the clock counts
        for it (its person's turn), and whether its bot plays because its time ran out."""
        if self.move_clock is None:
            return NO_SEAT_CLOCK
        runs = self._clock_runs(seat)
        return {"bank": self.move_clock.banks[seat.index],
                "time_until": self.move_clock.deadline(seat.index) if runs else None, "timed_out": seat.timed_out}

    def _clock_runs(self, seat: SeatState) -> bool:
        """Whether running out of time hands ``seat`` to its bot: a person's seat they play themselves, at a table
        that has begun. A seat nobody has opened yet waits for its person (bots never play a table nobody came
        to): its time counts from their first visit."""
        return (self.move_clock is not None and not self.held and not self.finished and seat.kind == "human"
                and seat.controller == "human" and seat.joined)

    def _legal(self, seat: int | None, actors: frozenset[int] | None = None) -> list[ActionRecord]:
        """``seat``'s legal actions as records; ``actors`` (the seats that may act now) when already known."""
        state = self.match.state
        if seat is None or self.held or seat not in (self.game.actors(state) if actors is None else actors):
            return []
        record = self.game.action_record
        if not self.game.records_fixed:
            return [record(state, seat, action) for action in self.game.legal_actions(state, seat)]
        made = self._records  # the game declares a record depends on the seat and the action only
        records = []
        for action in self.game.legal_actions(state, seat):
            one = made.get((seat, action))
            if one is None:
                one = made[seat, action] = record(state, seat, action)
            records.append(one)
        return records

    def _event(self, event: Event, seat: int | None) -> dict[str, Any]:
        """An event as ``seat`` sees it, with its log line in parts (the game's one log writer)."""
        return self.game.shown_event(event, seat)

    @property
    def static(self) -> dict[str, Any]:
        """The game's static data for this table's config, built once."""
        if self._static is None:
            self._static = self.game.static_data(self.match.config)
        return self._static

    def _outcome(self) -> dict[str, Any] | None:
        outcome = self.game.outcome(self.match.state)
        return None if outcome is None else outcome.to_dict()

    def welcome(self, seat: int | None) -> dict[str, Any]:
        return {"type": "welcome", "protocol": PROTOCOL, "table": self.public(), "now": self.settings.clock.now(),
                "seat": seat, **self.clock_fields(),
                "version": self.version, "static": self.static, "view": self.game.view(self.match.state, seat),
                "legal": self._legal(seat), "log": [self._event(event, seat) for event in self.log],
                "outcome": self._outcome(), "can_undo": seat is not None and seat == self.undo_seat,
                "chat": list(self.chat), "emotes": list(EMOTES)}

    def _broadcast_update(self, actor: int, action: Any, notation: str, events: list[Event]) -> None:
        """Each seat its own update; the public table goes along only when it changed, since most actions leave it
        as it was and it would be half of every message. What is the same for every seat (the version, the clock,
        the outcome, the table) is worked out once, and the views together (``Game.views``)."""
        table = self.public()
        shown = table if table != self.sent_table else None
        self.sent_table = table
        # The actor last: its update and its ack are written after every other socket's update (each socket's
        # messages wait for the end of the loop's turn, and go out in the order the sockets were first sent to),
        # so a page that gets its ack knows the others' updates are on their way, as when each was written at once.
        seats: list[int | None] = [seat.index for seat in self.seats if seat.connections and seat.index != actor]
        if self.spectators:
            seats.append(None)
        if 0 <= actor < len(self.seats) and self.seats[actor].connections:
            seats.append(actor)
        if not seats:
            return
        common = {"type": "update", "version": self.version, "actor": actor, **self.clock_fields()}
        outcome = self._outcome()
        game, undo_seat = self.game, self.undo_seat
        hidden = game.public_action(action, None, actor)  # as every seat but the actor reads it
        state = self.match.state
        actors = game.actors(state)
        for seat, view, shown_events in zip(seats, game.views(state, seats), game.shown_events(events, seats),
                                            strict=True):
            message = {**common, "action": notation if seat == actor else hidden, "events": shown_events, "view": view,
                       "legal": self._legal(seat, actors), "outcome": outcome, "can_undo": seat == undo_seat}
            if shown is not None:
                message["table"] = shown
            text = encode(message)
            for connection in self.seats[seat].connections if seat is not None else self.spectators:
                connection.send(text)

    def broadcast_table(self, but: Connection | None = None) -> None:
        """Tell everyone (``but`` one) who is connected and who plays for whom (no game information in it)."""
        self.sent_table = self.public()
        # The server's time, so a page can count down to a seat's away_until whatever its own clock says.
        message = encode({"type": "table", "table": self.sent_table, "now": self.settings.clock.now(),
                          **self.clock_fields()})
        for connection in self.connections():
            if connection is not but:
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
    def join(self, connection: Connection, name: object = None) -> None:
        """Seat ``connection`` (or add a spectator) and welcome it; ``name`` is the one its hello gave, if any.
        Whatever it raises, the caller still calls ``leave``, so a seat never shows a connection that did not get
        its welcome."""
        if connection.seat is None:
            self.spectators.add(connection)
            connection.send(encode(self.welcome(None)))
        else:
            seat = self.seats[connection.seat]
            before = self._seat_shown(seat)
            seat.connections.add(connection)
            if seat.away_task is not None:
                seat.away_task.cancel()
                seat.away_task = None
            seat.away_until = None
            seat.controller = "human"  # coming back takes the seat back from its replacement bot
            seat.timed_out = False
            named = clean_name(name) if name is not None else None
            if not seat.joined and self.move_clock is not None:
                self.restart_clock([seat.index])  # a seat's time counts from its person's first visit
            if not seat.joined or (named is not None and named != seat.name):
                seat.joined = True
                seat.name = named or seat.name
                seat.named = seat.named or named is not None
                self._save_seats()
                if self.expiry is not None:
                    self.expiry.cancel()
                    self.expiry = None
            welcome = encode(self.welcome(connection.seat))
            self.schedule()
            # The welcome shows the seat connected; the others only need to hear of it if that is news.
            if self._seat_shown(seat) != before:
                self.broadcast_table(but=connection)
            connection.send(welcome)
            if name is not None and named is None:
                connection.send(error("malformed", f"a name is text of 1 to {MAX_NAME_LENGTH} characters"))
        if self.rematch_id is not None:
            self.send_rematch(connection)

    def send_rematch(self, connection: Connection) -> None:
        """Where the rematch is, with the seat's new token for a player who sits at it."""
        notice: dict[str, Any] = {"type": "rematch", "table": self.rematch_id}
        if connection.seat is not None and connection.seat in self.rematch_tokens:
            notice["token"] = self.rematch_tokens[connection.seat]
        connection.send(notice)

    def leave(self, connection: Connection) -> None:
        if connection.seat is None:
            self.spectators.discard(connection)
            return
        seat = self.seats[connection.seat]
        if connection not in seat.connections:
            return
        before = self._seat_shown(seat)
        seat.connections.discard(connection)
        if seat.kind == "human" and not seat.connections and seat.controller == "human" and not self.finished:
            self._start_grace(seat)
            if self.game.realtime and not self.held:
                self._apply_leave_action(seat.index)
        if self._seat_shown(seat) != before:
            self.broadcast_table()

    @staticmethod
    def _seat_shown(seat: SeatState) -> tuple[bool, str, str, int | None, bool]:
        """What the public table says of a seat: its connection, who plays it, its name, when its grace ends."""
        return bool(seat.connections), seat.controller, seat.name, seat.away_until, seat.joined

    def _save_seats(self) -> None:
        seats = [s.record() for s in self.seats]
        asyncio.get_running_loop().create_task(self._save(seats=seats))

    async def _save(self, **fields: Any) -> None:
        """Store the table's own fields (not its log), fenced like an action: a lost table gives itself up."""
        try:
            await self.storage.update_table(self.id, self.epoch, **fields)
        except Fenced:
            self.give_up()

    def give_up(self) -> None:
        """A write found this process's lease on the table gone (it was frozen or cut off, and another process
        took the table over): stop driving it at once, and let the manager close its sockets."""
        if self.closing:
            return
        self.closing = True
        for timer in (self.timer, self.expiry, self.clock_timer):
            if timer is not None:
                timer.cancel()
        for task in [self.bot_task, *(s.away_task for s in self.seats)]:
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if self._lost is not None:
            self._lost(self)

    def _apply_leave_action(self, seat: int) -> None:
        """In a real-time game losing the connection is itself a move (in Bermuda: breathing), at this instant."""
        action = self.game.leave_action(self.match.state, seat, self.clock())
        if action is not None:
            asyncio.get_running_loop().create_task(self.act(seat, action, None, None))

    def _start_grace(self, seat: SeatState) -> None:
        """Hand ``seat`` to a bot a grace period from now (now: when it left, however late the task starts)."""
        end = self.settings.clock.now() + int(self.settings.grace_period * 1000)
        seat.away_until = end
        seat.away_task = asyncio.get_running_loop().create_task(self._replace_after_grace(seat, end))

    async def _replace_after_grace(self, seat: SeatState, end: int) -> None:
        await sleep_until(self.settings.clock, end)
        seat.away_task = None
        if not seat.connections:
            self.hand_to_bot(seat)

    def start_grace_periods(self) -> None:
        """After a restart nobody is connected yet: give every human seat whose person ever came the usual time to
        come back (a seat nobody came to stays theirs: bots never play a table its people never opened)."""
        for seat in self.seats:
            if seat.kind == "human" and seat.joined and not seat.connections and seat.away_task is None:
                self._start_grace(seat)

    def hand_to_bot(self, seat: SeatState, timed_out: bool = False) -> None:
        if seat.controller == "bot" or self.finished or not seat.joined:
            return
        seat.controller = "bot"
        seat.timed_out = timed_out
        seat.away_until = None
        if seat.bot is None:
            seat.bot = self._replacement_bot(seat.index)
        self.broadcast_table()
        self.schedule()
        if self.paused and not self.closing:  # nobody is left to resume it: the bots play on
            asyncio.get_running_loop().create_task(self.set_paused(seat.index, False))

    def take_back(self, seat: SeatState) -> None:
        """The person of ``seat``, connected here, plays it again (their time ran out, or they had left). If their
        time is still out, their turn counts afresh (what is left of their bank is theirs)."""
        if seat.kind != "human" or seat.controller != "bot" or self.finished:
            return
        seat.controller = "human"
        seat.timed_out = False
        if self.move_clock is not None:
            deadline = self.move_clock.deadline(seat.index)
            if deadline is not None and deadline <= self.settings.clock.now():
                self.restart_clock([seat.index], spent=True)
        self.broadcast_table()
        self.schedule()

    def restart_clock(self, seats: list[int], spent: bool = False) -> None:
        """Count the turns of ``seats`` from now (``MoveClock.restart``), and store it: a restart of the server
        replays these with the log's times."""
        if self.move_clock is None:
            return
        now = self.settings.clock.now()
        for seat in seats:
            if seat in self.move_clock.since:
                self.move_clock.restart(seat, now, spent)
                self.clock_restarts.append([seat, now, spent])
        asyncio.get_running_loop().create_task(self._save(clock=self.clock_record()))

    def clock_record(self) -> dict[str, Any]:
        """What storage keeps of the clock: its profile, when it began, the turns counted afresh since."""
        assert self.move_clock is not None
        return {"profile": self.move_clock.profile.name, "started": self.clock_started,
                "restarts": self.clock_restarts}

    def _replacement_bot(self, seat: int) -> Bot:
        """The server's configured replacement bot where the game takes it, else the game's declared stand-in."""
        seed = self.match.seed + seat + 1
        name = replacement_bot_name(self.game.name, self.settings.replacement_bot, self.game.levels.stand_in)
        return make_bot(self.game.name, name, seed)

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
        elif kind == "back":
            if connection.seat is None:
                connection.send(error("spectator", "a spectator has no seat to take back"))
            else:
                self.take_back(self.seats[connection.seat])
        elif kind == "check":
            self._handle_check(connection, message)
        elif kind == "rematch":
            await self._handle_rematch(connection, message)
        elif kind == "name":
            self._handle_name(connection, message)
        elif kind == "undo":
            await self._handle_undo(connection)
        elif kind in ("pause", "resume"):
            await self._handle_pause(connection, kind == "pause")
        elif kind in ("chat", "reaction"):
            self._handle_talk(connection, kind, message)
        else:
            connection.send(error("malformed", f"unknown message type {kind!r}"))

    def _handle_name(self, connection: Connection, message: dict[str, Any]) -> None:
        if connection.seat is None:
            connection.send(error("spectator", "a spectator has no seat to name"))
            return
        name = clean_name(message.get("name"))
        if name is None:
            connection.send(error("malformed", f"a name is text of 1 to {MAX_NAME_LENGTH} characters"))
            return
        seat = self.seats[connection.seat]
        if name != seat.name or not seat.named:
            seat.name, seat.named = name, True
            self._save_seats()
            self.broadcast_table()

    async def _handle_rematch(self, connection: Connection, message: dict[str, Any]) -> None:
        """Asking for a rematch, answering the question, or (the asker) moving on with those who accepted.

        The first ``rematch`` asks every other person at the table; a ``rematch`` from one of them accepts it
        (``"accept": false`` declines). The rematch starts when every person has accepted, or when the asker sends
        ``"start": true``: then only those who accepted sit down again, and bots play the other seats."""
        accept, start = message.get("accept", True), message.get("start", False)
        if connection.seat is None:
            connection.send(error("spectator", "only the players can ask for a rematch"))
        elif not isinstance(accept, bool) or not isinstance(start, bool):
            connection.send(error("malformed", "accept and start are true or false"))
        elif not self.finished:
            connection.send(error("malformed", "a rematch can be asked for once the game is over"))
        elif self.rematch_id is not None:
            self.send_rematch(connection)  # already made: this seat is told where it is
        elif self.vote_by is None and not accept:
            connection.send(error("malformed", "nobody has asked for a rematch"))
        elif self.vote_by is None:
            self.vote_by = connection.seat
            self.votes = {seat.index: "waiting" for seat in self.seats if seat.kind == "human"}
            await self._answer(connection, True, start)
        elif connection.seat == self.vote_by and not accept:
            self.vote_by, self.votes = None, {}  # the asker takes the question back
            self.broadcast_table()
        elif start and connection.seat != self.vote_by:
            connection.send(error("malformed", "only the player who asked can start the rematch without the others"))
        else:
            await self._answer(connection, accept, start)

    async def _answer(self, connection: Connection, accept: bool, start: bool) -> None:
        assert connection.seat is not None
        self.votes[connection.seat] = "accepted" if accept else "declined"
        playing = {seat for seat, answer in self.votes.items() if answer == "accepted"}
        if start or len(playing) == len(self.votes):
            await self._rematch(self, connection, playing)
        else:
            self.broadcast_table()

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
        if self.held:
            connection.send(error("not_started", "the room has not started yet", client_id=client_id))
            return
        seat = self.seats[connection.seat]
        if seat.controller == "bot" and seat.timed_out:
            self.take_back(seat)  # the stand-in played while the time was out: the person's next action ends it
        elif seat.controller == "bot":
            # After a leave the seat is the bot's: one player per seat. Connecting again (or "back") takes it back.
            connection.send(error("left", "a bot plays this seat since you left: reconnect to take it back",
                                  client_id=client_id))
            return
        # Its update and its ack go out in one write: both wait for the end of the loop's turn (connection.py).
        connection.send(await self.act(connection.seat, action, client_id, version))

    def _handle_check(self, connection: Connection, message: dict[str, Any]) -> None:
        """"Why not?": whether the seat's proposed action is legal now, and the reason and rule if not, without
        playing it."""
        action = message.get("action")
        # A refused check names the action it was about, as the answer would: that is how a client pairs them.
        about = action if isinstance(action, str) and len(action) <= MAX_ACTION_LENGTH and encodable(action) else None
        if about is None or not action:
            connection.send(error("malformed", "check needs an action in the game's notation", check=about))
            return
        if connection.seat is None:
            connection.send(error("spectator", "a spectator has no seat to check moves for", check=action))
            return
        answer: dict[str, Any] = {"type": "check", "action": action, "legal": True}
        try:
            parsed = self.game.parse_action(action)
            at = self.clock() if self.game.realtime else None
            self.game.check(self.match.state, connection.seat, parsed, at)
        except IllegalAction as problem:
            answer.update(legal=False, reason=problem.reason, rule=problem.rule)
        except MalformedInput as problem:
            answer.update(legal=False, reason=str(problem), rule=None)
        connection.send(answer)

    def _handle_talk(self, connection: Connection, kind: str, message: dict[str, Any]) -> None:
        """A chat line or a quick reaction from a seat, passed to everyone as text (pages never read it as
        markup), within the seat's limit."""
        if connection.seat is None:
            connection.send(error("spectator", "spectators read the table talk but do not write in it"))
            return
        if kind == "chat":
            text = message.get("text")
            line = " ".join(text.split()) if isinstance(text, str) and len(text) <= 4 * MAX_CHAT_LENGTH \
                and encodable(text) else ""
            if not 0 < len(line) <= MAX_CHAT_LENGTH or not line.isprintable():
                connection.send(error("malformed", f"a chat line is text of 1 to {MAX_CHAT_LENGTH} characters"))
                return
            said: dict[str, Any] = {"type": "chat", "seat": connection.seat, "text": line}
        else:
            emote = message.get("emote")
            if emote not in EMOTES:
                connection.send(error("malformed", f"a reaction is one of: {', '.join(EMOTES)}"))
                return
            said = {"type": "reaction", "seat": connection.seat, "emote": emote}
        now = time.monotonic()
        times = self.talk_times.setdefault(connection.seat, deque())
        while times and now - times[0] > CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_BURST:
            connection.send(error("rate_limited", f"at most {CHAT_BURST} chat lines and reactions in "
                                                  f"{CHAT_WINDOW:g} seconds"))
            return
        times.append(now)
        said["at"] = self.settings.clock.now()
        if kind == "chat":
            self.chat.append(said)
        text_said = encode(said)
        for other in self.connections():
            other.send(text_said)

    async def _handle_pause(self, connection: Connection, paused: bool) -> None:
        if connection.seat is None:
            connection.send(error("spectator", "a spectator cannot pause or resume the table"))
            return
        reply = await self.set_paused(connection.seat, paused)
        if reply is not None:
            connection.send(reply)

    async def _handle_undo(self, connection: Connection) -> None:
        if connection.seat is None:
            connection.send(error("spectator", "a spectator has no move to take back"))
        elif self.seats[connection.seat].controller == "bot":
            connection.send(error("left", "a bot plays this seat since you left: reconnect to take it back"))
        else:
            reply = await self.undo(connection.seat)
            if reply is not None:
                connection.send(reply)

    async def undo(self, seat: int) -> dict[str, Any] | None:
        """Take back ``seat``'s last action while its turn goes on, if the game declares it undoable: the state is
        rebuilt from the seed and the log without it, so every view is what it was before the move. Returns the
        refusal, or ``None`` once everyone has been sent an ``undone`` message."""
        async with self.lock:
            actions = self.match.actions
            if self.game.realtime or self.finished or not actions or actions[-1][0] != seat \
                    or seat not in self.game.actors(self.match.state):
                return error("not_undoable", "there is no move of yours in this turn to take back")
            before = Match.start(self.game, config_to_options(self.match.config), self.match.seed)
            log = list(before.opening)
            earlier_state, earlier_events = None, []
            for index, (earlier, taken) in enumerate(actions[:-1]):
                if index == len(actions) - 2:
                    earlier_state = before.state.clone()
                earlier_events = before.act(earlier, taken)
                log.extend(earlier_events)
            action = actions[-1][1]
            probe = before.state.clone()
            if not self.game.undoable(before.state, seat, action, self.game.apply(probe, seat, action)):
                return error("not_undoable", "that move revealed or drew something: it cannot be taken back")
            # The move before it may be taken back in turn if it was the same seat's, in the same turn.
            previous = actions[-2] if len(actions) > 1 else None
            self.undo_seat = seat if previous is not None and previous[0] == seat and earlier_state is not None \
                and self.game.undoable(earlier_state, seat, previous[1], earlier_events) else None
            try:
                await self.storage.mark_undone(self.id, self.epoch)
            except Fenced:
                self.give_up()
                return error("moved", "this table moved to another server process: reconnecting")
            except Exception:
                return error("storage_failed", "the move could not be taken back; nothing changed, try again")
            before.seats = self.match.seats
            self.match = before
            self.undone += 1
            self.log.clear()
            self.log.extend(log)
            # The undone action's client id stays remembered: sent again, it is answered, never applied twice.
            for connection in self.connections():
                connection.send(self._undone(connection.seat, seat))
            self.schedule()
            return None

    def _undone(self, seat: int | None, actor: int) -> str:
        """The state after ``actor`` took a move back, as ``seat`` sees it: its view, legal actions and whole log."""
        return encode({"type": "undone", "version": self.version, "actor": actor,
                       "view": self.game.view(self.match.state, seat), "legal": self._legal(seat),
                       "log": [self._event(event, seat) for event in self.log], "outcome": self._outcome(),
                       "can_undo": seat is not None and seat == self.undo_seat})

    # -- the one way anything changes ----------------------------------------------------------------------------
    def clock(self) -> int:
        """Now on the table's clock, for a real-time game's next action: the server's clock minus the time the
        table was paused (standing still while it is), never earlier than the last time given."""
        server = self.settings.clock.now() if self.paused_since is None else self.paused_since
        self.last_time = max(self.last_time, server - self.paused_ms)
        return self.last_time

    def clock_fields(self) -> dict[str, Any]:
        """What every welcome, update and table message says of a real-time table's clock: whether it is paused,
        and its time now (a page counts the game's deadlines on it, and stops counting while paused)."""
        if not self.game.realtime:
            return {}
        return {"paused": self.paused, "clock": self.clock()}

    @property
    def paused(self) -> bool:
        return self.paused_since is not None

    def pausable(self) -> bool:
        """Whether the table may be paused (and resumed) by its person: a real-time game under way whose only
        person is one seat, every other seat a bot, so a pause makes nobody wait."""
        if not self.game.realtime:  # asked at every action: the turn-based games answer at once
            return False
        people = [seat for seat in self.seats if seat.kind == "human"]
        return len(people) == 1 and not self.hotseat and not self.held and not self.finished

    def pause_record(self) -> dict[str, Any]:
        """What storage keeps of the pause (a restart rebuilds the table's clock from it)."""
        return {"since": self.paused_since, "total": self.paused_ms}

    async def set_paused(self, seat: int, paused: bool) -> dict[str, Any] | None:
        """Pause the table's clock, or let it go on (``seat`` asks): stored first, then everyone is told. Returns
        the refusal, or ``None``. Pausing a paused table (or resuming a running one) changes nothing."""
        async with self.lock:
            if not self.game.realtime:
                return error("not_pausable", f"{self.game.title} is played in turns: there is no clock to pause")
            if self.finished:
                return error("game_over", "the game is over")
            if self.held:
                return error("not_started", "the room has not started yet")
            if not self.pausable() or self.seats[seat].kind != "human":
                return error("not_pausable", "only a table whose one person plays against bots can be paused")
            if paused and self.seats[seat].controller == "bot":
                return error("left", "a bot plays this seat since you left: reconnect to take it back")
            if paused == self.paused:
                return None
            now = self.settings.clock.now()
            since: int | None = now
            total = self.paused_ms
            if self.paused_since is not None:  # resuming: the time it stood still counts from now on
                since, total = None, total + max(0, now - self.paused_since)
            try:
                await self.storage.update_table(self.id, self.epoch, pause={"since": since, "total": total})
            except Fenced:
                self.give_up()
                return error("moved", "this table moved to another server process: reconnecting")
            except Exception:
                return error("storage_failed", "the pause could not be saved; nothing changed, try again")
            if paused:
                self.clock()  # the last time given is the table's time at the pause
            self.paused_since, self.paused_ms = since, total
            self.broadcast_table()
            self.schedule()  # paused: the timer is cancelled; resumed: re-armed on the table's clock
            return None

    async def act(self, seat: int, action: Any, client_id: str | None, version: int | None) -> dict[str, Any]:
        """Validate, store, apply, tell everyone. Returns the ack or the error for whoever asked.

        ``action`` is the notation a client sent, or an action value from a bot or the clock. In a real-time game
        the server stamps it with its own clock here, in arrival order; an older ``version`` is then no reason to
        refuse it (moves of different players at once do not conflict unless the rules say so).
        """
        async with self.lock:
            if client_id is not None and (seat, client_id) in self.client_ids:
                return {"type": "ack", "client_id": client_id, "version": self.client_ids[seat, client_id]}
            if self.finished:
                return error("game_over", "the game is over", client_id=client_id)
            if self.paused:  # nobody acts on a paused table: not its person, its bots or its clock
                return error("paused", "the table is paused", client_id=client_id)
            if version is not None and version < self.version and not self.game.realtime:
                return error("stale", f"the table has moved on (version {self.version}, you saw {version})",
                             client_id=client_id)
            state = self.match.state
            if isinstance(action, str):
                try:
                    action = self.game.parse_action(action)
                except MalformedInput as problem:
                    return error("malformed", str(problem), client_id=client_id)
            now = self.clock() if self.game.realtime else 0
            if self.game.realtime:
                action = self.game.at(action, now)
            if seat != CLOCK and seat not in self.game.actors(state):
                return error("not_your_turn", "it is not your turn", client_id=client_id)
            try:
                self.game.check(state, seat, action)
            except IllegalAction as problem:
                return error("illegal_action", problem.reason, rule=problem.rule, client_id=client_id)
            except MalformedInput as problem:
                return error("malformed", str(problem), client_id=client_id)
            notation = self.game.format_action(action)
            clock_ms = self.settings.clock.now()
            try:
                await self.storage.append_action(self.id, len(self.match.actions) + self.undone, seat, notation,
                                                 client_id, self.epoch, clock_ms)
            except Fenced:
                self.give_up()
                return error("moved", "this table moved to another server process: reconnecting",
                             client_id=client_id)
            except Exception:
                return error("storage_failed", "the action could not be saved; nothing changed, try again",
                             client_id=client_id)
            before = None if self.game.realtime or seat == CLOCK else state.clone()
            events = self.match.act(seat, action)
            self.undo_seat = None if before is None else undo_seat_after(self.game, before, self.match.state, seat,
                                                                         action, events)
            self.log.extend(events)
            self.moved_at = time.time()
            if self.move_clock is not None:
                self.move_clock.moved(self.game.actors(self.match.state), clock_ms)
            if self.finished:  # nobody is waited for any more: the last update says so
                for other in self.seats:
                    if other.away_task is not None:
                        other.away_task.cancel()
                        other.away_task = None
                    other.away_until = None
            if client_id is not None:
                self.client_ids[seat, client_id] = self.version
                if len(self.client_ids) > REMEMBERED_CLIENT_IDS:
                    del self.client_ids[next(iter(self.client_ids))]
            self._broadcast_update(seat, action, notation, events)
            if self.finished:
                self.finished_at = time.time()
                with contextlib.suppress(Fenced):  # the log holds the last action: whoever owns it now knows
                    await self.storage.update_table(self.id, self.epoch, finished=self.finished_at)
            if self.game.realtime:
                self.driver.applied(self.match.state, seat, now, events)
            self.schedule()
            return {"type": "ack", "client_id": client_id, "version": self.version}

    # -- bots, and the clock of a real-time game ------------------------------------------------------------------
    def schedule(self) -> None:
        """Arrange what happens next without anyone at the table acting: a bot's move, or in a real-time game
        whichever of the bots' plans and the game's deadline is due first (the driver's)."""
        if self.held:
            return
        self._arm_move_clock()
        if self.game.realtime:
            self._follow_controllers()
            self._arm()  # not while paused
            return
        if self.closing or self.finished or (self.bot_task is not None and not self.bot_task.done()):
            return
        movers = [s for s in sorted(self.game.actors(self.match.state)) if self.seats[s].controller == "bot"]
        if movers:
            self.bot_task = asyncio.get_running_loop().create_task(self._bot_move(movers[0]))

    async def _bot_move(self, seat_index: int) -> None:
        try:
            clock = self.settings.clock
            await sleep_until(clock, clock.now() + int(self.settings.bot_delay * 1000))
            seat = self.seats[seat_index]
            # While the bot waited its turn may have gone (its person came back, played and left again).
            if seat.controller != "bot" or seat.bot is None or seat_index not in self.game.actors(self.match.state):
                return
            version = self.version
            state = self.match.state.clone()
            # Off the event loop (a thinking bot must not hold up other tables), in a worker process if it thinks long.
            notation, seat.bot = await self.bot_workers.choose(seat.bot, self.game, self.match.config, state,
                                                               seat_index)
            # No client id: a bot never retries, and the version guards against a move chosen for an old position.
            await self.act(seat_index, notation, None, version)
        finally:
            self.bot_task = None
            self.schedule()

    def _arm_move_clock(self) -> None:
        """Set the clock's timer for the first seat whose time per move (and bank) runs out."""
        if self.clock_timer is not None:
            self.clock_timer.cancel()
            self.clock_timer = None
        if self.move_clock is None or self.closing or self.finished:
            return
        deadlines = [d for seat in self.seats if self._clock_runs(seat)
                     and (d := self.move_clock.deadline(seat.index)) is not None]
        if deadlines:
            self.clock_timer = self.settings.clock.call_at(min(deadlines), self._clock_out)

    def _clock_out(self) -> None:
        """A seat's time ran out: its stand-in bot plays for it (as for a person who left) until its person acts."""
        self.clock_timer = None
        if self.move_clock is None or self.closing or self.finished:
            return
        now = self.settings.clock.now()
        for seat in self.seats:
            deadline = self.move_clock.deadline(seat.index)
            if self._clock_runs(seat) and deadline is not None and deadline <= now:
                self.hand_to_bot(seat, timed_out=True)
        self._arm_move_clock()

    def _follow_controllers(self) -> None:
        """Seat in the driver the bots that play now, and drop those whose person came back."""
        state, now = self.match.state, self.clock()
        for seat in self.seats:
            playing = seat.controller == "bot" and seat.bot is not None
            if playing and seat.index not in self.driver.seats:
                self.driver.seat_bot(seat.index, seat.bot, state, now)
            elif not playing:
                self.driver.unseat(seat.index)

    def _arm(self, due: Due | None = None, at: int | None = None) -> None:
        """Set the one timer of a real-time table for what the driver says is due next (or ``due``, at ``at``)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.closing or self.finished or self.paused:
            return
        due = due or self.driver.due(self.match.state)
        if due is not None:  # its time is on the table's clock: the server's is later by the time paused
            self.timer = self.settings.clock.call_at((due.t if at is None else at) + self.paused_ms, self._fire)

    def _fire(self) -> None:
        self.timer = None
        asyncio.get_running_loop().create_task(self._run_due())

    async def _run_due(self) -> None:
        """Apply what is due (a plan is applied as it stands now: a move since the timer was set replanned it)."""
        due = self.driver.due(self.match.state)
        if due is None or self.closing or self.paused:
            return
        if due.t > self.clock():
            self._arm(due)
            return
        if self.running_due:
            # The plan on its way waits for an action under way, which may re-arm the timer for that very plan:
            # applying it twice would lay a bot's card twice (a 7 on its own 7). Whatever runs it re-arms after.
            return
        self.running_due = True
        try:
            reply = await self.act(due.seat, due.action, None, None)
        finally:
            self.running_due = False
        if reply["type"] != "error" or self.closing:
            return
        if due.seat == CLOCK:  # the time is up all the same (storage failed): try again shortly
            self._arm(due, self.clock() + RETRY_MS)
        else:  # the bot's move went out of date
            self.driver.refused(self.match.state, due.seat, self.clock())
            self._arm()

    async def close(self) -> None:
        self.closing = True
        for timer in (self.timer, self.expiry, self.clock_timer):
            if timer is not None:
                timer.cancel()
        for task in [self.bot_task, *(s.away_task for s in self.seats)]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
