"""Rooms: one shared screen shows a table, and each person joins it from a phone with a short code.

A room is an ordinary table whose seats are all open when it is made, plus a code. Joining with the code and a
name gives the phone a fresh seat token for the first open seat (exactly like an invite link: the phone then opens
the normal table page, so reconnecting and bot takeover work unchanged). The host (the shared screen, which holds
the room's host token) may put bots in open seats and start. Until the start the table is *held*: nobody may act
and no bot moves. The code is valid until the game ends; after the start nobody new joins.

A seat is never given away by its name alone (names are public): a phone that joins again gets its seat back by
sending the seat token it was given (the join page keeps it), and a person whose phone died gets theirs back with
the name only after the host let that seat back in (``readmit``, for ``room_readmit_window`` seconds); the new
token then replaces the old one and the sockets that held the seat are closed.

Codes are 6 letters from 24 (no I or O, which read as 1 and 0): 191 million codes. A wrong code costs the address
one of ``room_code_failures_per_minute`` attempts; with none left, every attempt is refused for a while.
Storage: a ``rooms`` table next to the server's own (code, table id, a hash of the host token, when it started).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import io
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import segno
from sqlalchemy import Column, Float, MetaData, String, Table, insert, select, update

from ..bots import bot_names, check_bot_players, make_bot
from ..engine.errors import ConfigError
from ..sim.clock import sleep_until
from .connection import Bucket, Connection
from .limits import REMEMBERED_ADDRESSES, TableError
from .manager import TableManager, new_token
from .settings import ServerSettings
from .storage import Storage
from .table import LiveTable, SeatState, clean_name, error, hash_token
from .wire import encode

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # 24 letters: no I (reads as 1) and no O (reads as 0)
CODE_LENGTH = 6
CLOSE_BAD_TOKEN = 4401  # as a socket whose hello had a bad token: the page stops retrying

rooms_metadata = MetaData()
rooms_table = Table(
    "rooms", rooms_metadata,
    Column("code", String(16), primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("started", Float, nullable=True),
)


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(value: object) -> str | None:
    """A code as typed (any case, spaces or dashes between letters), or ``None`` if it cannot be one."""
    if not isinstance(value, str) or len(value) > 32:
        return None
    code = "".join(ch for ch in value.upper() if ch not in " -")
    return code if len(code) == CODE_LENGTH and all(ch in ALPHABET for ch in code) else None


@dataclass
class Room:
    code: str
    table_id: str
    host_hash: str
    created: float
    started: float | None = None
    # Seats the host let back in by name -> until when (server ms). In memory only: after a restart, ask again.
    readmitted: dict[int, int] = field(default_factory=dict)

    def public(self, table: LiveTable) -> dict[str, Any]:
        return {"code": self.code, "table": table.public(), "started": self.started is not None,
                "join_path": f"/join#{self.code}", "open_seats": [s.index for s in table.seats if is_open(s)],
                "readmitted": sorted(self.readmitted)}


def is_open(seat: SeatState) -> bool:
    """A person's seat nobody has taken with the code yet."""
    return seat.kind == "human" and not seat.named


class Rooms:
    def __init__(self, settings: ServerSettings, storage: Storage, manager: TableManager) -> None:
        self.settings = settings
        self.storage = storage
        self.manager = manager
        self.rooms: dict[str, Room] = {}
        self.failures: dict[str, Bucket] = {}
        rooms_metadata.create_all(storage.engine)

    # -- restart ----------------------------------------------------------------------------------------------
    def restore(self) -> int:
        """Bring back every room whose table came back (run after the manager's restore, before its start)."""
        with self.storage.engine.connect() as connection:
            rows = connection.execute(select(rooms_table)).mappings().all()
        for row in rows:
            table = self.manager.tables.get(row["table_id"])
            if table is None or table.finished:
                continue
            room = Room(row["code"], row["table_id"], row["host_hash"], row["created"], row["started"])
            self.rooms[room.code] = room
            table.held = room.started is None
        return len(self.rooms)

    def adopt(self, table: LiveTable) -> None:
        """A table this process rebuilt from storage (it took it over from another process): its room, if any,
        comes along, held until its host starts it."""
        with self.storage.engine.connect() as connection:
            row = connection.execute(select(rooms_table).where(rooms_table.c.table_id == table.id)).mappings().first()
        if row is not None and not table.finished:
            self.rooms[row["code"]] = Room(row["code"], row["table_id"], row["host_hash"], row["created"],
                                           row["started"])
            table.held = row["started"] is None

    async def owner_elsewhere(self, code: object) -> str | None:
        """With several processes: the process that owns the room's table if it is not this one (the request is
        then passed to it, routing.py); None if it is this one, or there is no such room."""
        normal = normal_code(code)
        if normal is None:
            return None
        known = self.rooms.get(normal)
        if known is not None and self.table_of(known) is not None:
            return None  # its table is here

        def table_of_code() -> str | None:
            with self.storage.engine.connect() as connection:
                return connection.execute(select(rooms_table.c.table_id).where(rooms_table.c.code == normal)
                                          ).scalar()
        table_id = await asyncio.to_thread(table_of_code)
        if table_id is None:
            return None
        found = await self.manager.find(table_id)  # taking it over (and its room, ``adopt``) if its owner died
        return found if isinstance(found, str) else None

    # -- lookups ----------------------------------------------------------------------------------------------
    def table_of(self, room: Room) -> LiveTable | None:
        table = self.manager.tables.get(room.table_id)
        return None if table is None or table.finished else table

    def _admit(self, address: str | None) -> None:
        bucket = self.failures.get(address or "unknown")
        if bucket is not None and bucket.available() < 1:
            raise TableError("rate_limited", "too many wrong room codes from this address: wait a minute", 429)

    def _fail(self, address: str | None) -> None:
        key = address or "unknown"
        bucket = self.failures.get(key)
        if bucket is None:
            if len(self.failures) >= REMEMBERED_ADDRESSES:
                self.failures = {a: b for a, b in self.failures.items() if b.available() < b.burst}
            per_minute = self.settings.room_code_failures_per_minute
            bucket = self.failures[key] = Bucket(per_minute / 60, self.settings.clock, burst=per_minute)
        bucket.take()

    def find(self, code: object, address: str | None) -> tuple[Room, LiveTable]:
        """The open room with ``code``; a wrong code is refused and counted against ``address``."""
        self._admit(address)
        normal = normal_code(code)
        room = self.rooms.get(normal) if normal is not None else None
        table = self.table_of(room) if room is not None else None
        if room is None or table is None:
            if room is not None:
                del self.rooms[room.code]  # its game ended or its table expired: the code is spent
            self._fail(address)
            raise TableError("unknown_room", "no open room has that code: check the letters on the screen", 404)
        return room, table

    def hosted(self, code: object, host: object, address: str | None) -> tuple[Room, LiveTable]:
        """The room, for its host only (a wrong host token counts like a wrong code)."""
        room, table = self.find(code, address)
        if not isinstance(host, str) or not hmac.compare_digest(hash_token(host), room.host_hash):
            self._fail(address)
            raise TableError("not_host", "only the room's shared screen may do that", 403)
        self._forget_late_readmits(room)
        return room, table

    def _forget_late_readmits(self, room: Room) -> None:
        now = self.settings.clock.now()
        room.readmitted = {seat: until for seat, until in room.readmitted.items() if until >= now}

    # -- what the host does -----------------------------------------------------------------------------------
    async def create(self, game: str, options: dict[str, Any], players: int, address: str | None,
                     bots: list[str | None] | None = None, clock: str | None = None) -> tuple[Room, LiveTable, str]:
        """A room of ``players`` seats, all open but those ``bots`` names a bot for (the manager checks them), with
        the clock per move ``clock`` if any."""
        chosen = (bots or [])[:players]
        seats = [{"kind": "bot", "bot": bot} if bot else {"kind": "human"}
                 for bot in chosen + [None] * (players - len(chosen))]
        table, _tokens = await self.manager.create(game, options, seats, address=address, clock=clock)
        table.held = True  # the tokens are dropped: each seat gets a new one when someone joins it
        code = new_code()
        while code in self.rooms:
            code = new_code()
        host = new_token()
        room = Room(code, table.id, hash_token(host), time.time())
        self.rooms[code] = room
        row = {"code": code, "table_id": table.id, "host_hash": room.host_hash, "created": room.created}
        await self.storage._run(lambda c: c.execute(insert(rooms_table), row))
        return room, table, host

    async def add_bot(self, room: Room, table: LiveTable, seat_index: object, bot: object) -> None:
        if room.started is not None:
            raise TableError("started", "the game has begun: bots can only be added before the start", 409)
        if not isinstance(seat_index, int) or not 0 <= seat_index < len(table.seats) \
                or not is_open(table.seats[seat_index]):
            raise TableError("bad_seats", "that seat is not open", 409)
        offered = bot_names(table.game.name)
        if bot not in offered:
            raise TableError("bad_seats", f"unknown bot {bot!r}; the bots are: {', '.join(offered)}")
        assert isinstance(bot, str)
        try:
            check_bot_players(table.game.name, [bot], len(table.seats))
        except ConfigError as problem:
            raise TableError("bad_seats", str(problem), 409) from None
        seat = table.seats[seat_index]
        seat.kind, seat.bot_name, seat.controller, seat.token_hash = "bot", bot, "bot", None
        seat.name = f"{bot} bot {seat_index + 1}"
        seat.bot = make_bot(table.game.name, bot, table.match.seed + seat_index + 1)
        table._save_seats()
        table.broadcast_table()

    async def invite(self, room: Room, table: LiveTable, seat_index: object) -> str:
        """A seat token for an open seat, for a remote player's invite link: the seat is kept for them (no phone
        takes it with the code) and named "Guest N" until their page says its name."""
        if room.started is not None:
            raise TableError("started", "the game has begun: invite links are made before the start", 409)
        if not isinstance(seat_index, int) or not 0 <= seat_index < len(table.seats) \
                or not is_open(table.seats[seat_index]):
            raise TableError("bad_seats", "that seat is not open", 409)
        seat = table.seats[seat_index]
        token = new_token()
        seat.token_hash = hash_token(token)
        seat.name, seat.named = f"Guest {seat_index + 1}", True
        table._save_seats()
        table.broadcast_table()
        return token

    async def start(self, room: Room, table: LiveTable) -> None:
        if room.started is not None:
            return
        waiting = [s.index + 1 for s in table.seats if is_open(s)]
        if waiting:
            raise TableError("seats_open", f"seat{'s' if len(waiting) > 1 else ''} "
                                           f"{', '.join(map(str, waiting))} still open: wait for players or add "
                                           "bots", 409)
        room.started = time.time()
        started = room.started
        await self.storage._run(lambda c: c.execute(
            update(rooms_table).where(rooms_table.c.code == room.code).values(started=started)))
        table.held = False
        if table.move_clock is not None:  # the clock per move counts from the start
            table.restart_clock(sorted(table.move_clock.since))
        # Everyone's view is the same, but the seats to move now get their legal actions: a fresh welcome each.
        for connection in table.connections():
            connection.send(encode(table.welcome(connection.seat)))
        table.start_grace_periods()
        end = self.settings.clock.now() + int(self.settings.room_claim_grace * 1000)
        for seat in table.seats:
            if seat.kind == "human" and seat.named and not seat.joined and not seat.connections:
                asyncio.get_running_loop().create_task(self._claim_or_bot(table, seat, end))
        table.schedule()

    async def _claim_or_bot(self, table: LiveTable, seat: SeatState, end: int) -> None:
        """A seat claimed with the code whose phone never opened the table: after ``room_claim_grace`` it is
        treated like a player who dropped out (the usual bot takeover; the phone takes it back when it comes)."""
        await sleep_until(self.settings.clock, end)
        if not seat.joined and not seat.connections and not table.finished:
            seat.joined = True  # as if it came and went: hand_to_bot leaves alone seats nobody ever came to
            table.hand_to_bot(seat)

    def readmit(self, room: Room, table: LiveTable, seat_index: int | None) -> None:
        """Let the person of a taken seat join again by name alone (their phone died, with its token), once, for
        ``room_readmit_window`` seconds."""
        if seat_index is None or not 0 <= seat_index < len(table.seats) \
                or table.seats[seat_index].kind != "human" or is_open(table.seats[seat_index]):
            raise TableError("bad_seats", "only a person's seat that was taken can be let back in", 409)
        room.readmitted[seat_index] = self.settings.clock.now() + int(self.settings.room_readmit_window * 1000)

    @staticmethod
    def _let_back_in(room: Room, seat: SeatState) -> bool:
        """Whether the host let ``seat`` back in by name (and not too long ago); spent by asking."""
        return room.readmitted.pop(seat.index, None) is not None

    # -- what a phone does ------------------------------------------------------------------------------------
    async def join(self, code: object, name: object, address: str | None,
                   token: object = None) -> tuple[LiveTable, int, str]:
        """A seat for a phone: its own again if it sends the token it was given, else a seat by name (a free
        one, or a taken one the host let back in)."""
        room, table = self.find(code, address)
        self._forget_late_readmits(room)
        mine = table.seat_for_token(token)
        if mine is not None and mine.kind == "human":
            room.readmitted.pop(mine.index, None)  # its phone is back: the name no longer opens the seat
            return table, mine.index, str(token)  # this phone's own seat: nothing changes
        named = clean_name(name)
        if named is None:
            raise TableError("bad_name", "a name is text of 1 to 40 characters")
        same = [s for s in table.seats if s.kind == "human" and s.named and s.name.casefold() == named.casefold()]
        if same:  # (two seats may share a name: a seat renames itself at the table) the one let back in, if any
            seat = next((s for s in same if s.index in room.readmitted), same[0])
            if not self._let_back_in(room, seat):
                raise TableError("name_taken", f"someone called {named} is in this room already: choose another "
                                               "name, or if that is you and your phone lost its seat, ask at the "
                                               "room's screen to let you back in", 409)
        elif room.started is not None:
            raise TableError("started", "this room's game has begun: a player whose phone lost its seat asks at "
                                        "the room's screen to be let back in", 409)
        else:
            free = [s for s in table.seats if is_open(s)]
            if not free:
                raise TableError("room_full", "this room is full: every seat is taken", 409)
            seat = free[0]
        new = new_token()
        seat.token_hash = hash_token(new)
        seat.name, seat.named = named, True
        for holder in list(seat.connections):  # the old token's sockets: that phone has lost the seat
            asyncio.get_running_loop().create_task(_turn_away(holder))
        table._save_seats()
        table.broadcast_table()
        return table, seat.index, new


async def _turn_away(connection: Connection) -> None:
    """Tell a socket its seat went to another phone, then close it as a bad token (the page stops retrying)."""
    connection.send(error("bad_token", "this seat was given to another phone by the room's screen"))
    await connection.flush_and_stop()
    with contextlib.suppress(Exception):
        await connection.websocket.close(CLOSE_BAD_TOKEN)


def qr_svg(link: str) -> bytes:
    """A QR code of ``link`` as an SVG picture (segno draws it), dark on white, with the quiet zone it needs."""
    out = io.BytesIO()
    segno.make_qr(link, error="m").save(out, kind="svg", scale=10, border=3, dark="#062a43", light="#ffffff",
                                        xmldecl=False, title="Scan to join this room")
    return out.getvalue()
