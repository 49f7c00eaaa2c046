"""All live tables of this server process: creating, finding, restoring after a restart, rematches."""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
import time
from typing import Any

from ..bots import accepted_bot_names, bot_names, make_bot
from ..engine.config import config_to_options
from ..engine.errors import ConfigError, DivedeckError
from ..engine.match import Match
from ..engine.registry import get_game
from .bot_workers import BotWorkers
from .connection import CLOSE_GOING_AWAY, Bucket, Connection
from .settings import ServerSettings
from .storage import Storage, StoredTable
from .table import LiveTable, SeatState, clean_name, error, hash_token, replacement_bot_name, undo_seat_after

MAX_OPEN_LISTED = 100
FINISHED_KEPT = 600.0  # seconds a finished table stays in memory after its last look
REMEMBERED_ADDRESSES = 10_000


def client_key(host: str | None) -> str | None:
    """Whom the per-address limits count: an IPv4 address, or an IPv6 address's /64 (one subscriber's network
    holds billions of addresses)."""
    if host is None:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class TableError(DivedeckError):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def new_table_id() -> str:
    return secrets.token_urlsafe(8)


def new_token() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits


class TableManager:
    def __init__(self, settings: ServerSettings, storage: Storage, bot_workers: BotWorkers | None = None) -> None:
        self.settings = settings
        self.storage = storage
        self.bot_workers = bot_workers or BotWorkers(0)
        self.tables: dict[str, LiveTable] = {}
        # Per client address: its table-creation budget, its unfinished tables, and the message budget all its
        # sockets share (with how many sockets hold it, to forget it when the last one closes).
        self.creation: dict[str, Bucket] = {}
        self.created_by: dict[str, set[str]] = {}
        self.address_buckets: dict[str, tuple[Bucket, int]] = {}

    def get(self, table_id: str) -> LiveTable | None:
        """A table by id; a finished one no longer in memory is rebuilt from storage (a page reopened later)."""
        table = self.tables.get(table_id)
        if table is None and 0 < len(table_id) <= 32:
            stored = self.storage.load(table_id)
            if stored is not None and stored.expired is None:
                table = self._rebuild(stored)
        return table

    def evict_finished(self, now: float) -> None:
        """Forget finished tables nobody has looked at for a while: their logs stay in storage."""
        for table_id, table in list(self.tables.items()):
            if (table.finished and table.finished_at is not None and now - table.finished_at > FINISHED_KEPT
                    and not table.connections()):
                del self.tables[table_id]

    def open_tables(self) -> list[LiveTable]:
        tables = [t for t in self.tables.values() if not t.finished]
        return sorted(tables, key=lambda t: t.created, reverse=True)[:MAX_OPEN_LISTED]

    def unfinished(self) -> int:
        return sum(1 for table in self.tables.values() if not table.finished)

    def admit(self, address: str | None) -> None:
        """Refuse a new table beyond the server's cap, or beyond what one client address may create and hold
        open; otherwise spend one of the address's creations."""
        settings = self.settings
        if self.unfinished() >= settings.max_open_tables:
            raise TableError("server_full", f"this server already has {settings.max_open_tables} unfinished "
                                            "tables: try again later", 503)
        if address is None:
            return
        mine = self.created_by.get(address, set())
        mine.intersection_update(t for t in mine if t in self.tables and not self.tables[t].finished)
        if len(mine) >= settings.open_tables_per_address:
            raise TableError("too_many_tables", f"at most {settings.open_tables_per_address} unfinished tables "
                                                "from one address: finish or abandon some first", 429)
        bucket = self.creation.get(address)
        if bucket is None:
            if len(self.creation) >= REMEMBERED_ADDRESSES:  # forget those with their whole budget back
                self.creation = {a: b for a, b in self.creation.items() if b.available() < b.burst}
                self.created_by = {a: t for a, t in self.created_by.items() if t}
            bucket = self.creation[address] = Bucket(settings.tables_per_minute / 60, settings.clock,
                                                     burst=settings.tables_per_minute)
        if not bucket.take():
            raise TableError("rate_limited", f"at most {settings.tables_per_minute:g} new tables a minute from "
                                             "one address", 429)

    def address_bucket(self, address: str) -> Bucket:
        """The message budget every socket from ``address`` shares; ``release`` it when a socket closes."""
        bucket, holders = self.address_buckets.get(address) or (
            Bucket(self.settings.address_messages_per_second, self.settings.clock), 0)
        self.address_buckets[address] = (bucket, holders + 1)
        return bucket

    def release(self, address: str) -> None:
        bucket, holders = self.address_buckets[address]
        if holders <= 1:
            del self.address_buckets[address]
        else:
            self.address_buckets[address] = (bucket, holders - 1)

    async def create(self, game_name: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     hotseat: bool = False, address: str | None = None,
                     replacements: bool = False, seed: int | None = None) -> tuple[LiveTable, list[str | None]]:
        """A new table; returns it and one token per human seat (``None`` for bots), shown only to the creator.
        ``address`` is the creator's, for the per-address limits (a rematch has none: it replaces a table).
        ``replacements``: bot seats may be any bot the game accepts (a rematch seats the bot that plays for a person
        who did not come along), not only those offered to people."""
        try:
            game = get_game(game_name)
        except ConfigError as problem:
            raise TableError("unknown_game", str(problem)) from None
        file_options = {name.replace("-", "_") for name in options} & set(game.file_options())
        if file_options and not self.settings.allow_file_options:
            raise TableError("bad_config", f"option {sorted(file_options)[0]} names a file on the server and "
                                           "cannot be set from the web")
        options = game.with_players(options, len(seats))
        try:
            config = game.make_config(options)
        except ConfigError as problem:
            raise TableError("bad_config", str(problem)) from None
        if game.num_players(config) != len(seats):
            raise TableError("bad_seats", f"{game.title} with these options has {game.num_players(config)} seats, "
                                          f"not {len(seats)}")
        bots = accepted_bot_names(game_name) if replacements else bot_names(game_name)
        states: list[SeatState] = []
        tokens: list[str | None] = []
        for index, spec in enumerate(seats):
            kind = spec.get("kind")
            name = clean_name(spec.get("name")) or ""
            if kind == "human":
                token = new_token()
                tokens.append(token)
                states.append(SeatState(index, "human", name or f"Player {index + 1}", token_hash=hash_token(token),
                                        named=bool(name)))
            elif kind == "bot":
                bot = spec.get("bot") or self.settings.replacement_bot
                if bot not in bots:
                    raise TableError("bad_seats", f"unknown bot {bot!r}; the bots are: {', '.join(bots)}")
                tokens.append(None)
                states.append(SeatState(index, "bot", name or f"{bot} bot {index + 1}", bot_name=bot,
                                        controller="bot"))
            else:
                raise TableError("bad_seats", f"seat {index}: kind must be 'human' or 'bot'")
        self.evict_finished(time.time())
        self.admit(address)
        if seed is None:  # a guided game brings its fixed deal
            seed = secrets.randbelow(1 << 63)
        state, opening = game.new_with_events(config, seed)
        match = Match(game, config, seed, state, opening=opening)
        stored = StoredTable(new_table_id(), game_name, config_to_options(config), seed,
                             [s.record() for s in states], hotseat, time.time(), None, None, [])
        await self.storage.create_table(stored)
        table = self._live(stored, match, states)
        if address is not None:
            self.created_by.setdefault(address, set()).add(table.id)
        table.schedule()
        return table, tokens

    def _live(self, stored: StoredTable, match: Match, seats: list[SeatState]) -> LiveTable:
        for seat in seats:
            if seat.kind == "bot" and seat.bot_name is not None:
                seat.bot = make_bot(stored.game, seat.bot_name, stored.seed + seat.index + 1)
        table = LiveTable(stored.id, match, seats, hotseat=stored.hotseat, created=stored.created,
                          settings=self.settings, storage=self.storage, manager=self)
        table.rematch_id = stored.rematch
        table.log.extend(match.opening)
        self.tables[stored.id] = table
        if stored.finished is None:
            self._watch_expiry(table)
        return table

    def restore(self) -> int:
        """Rebuild every unfinished table from storage by replaying its log; returns how many."""
        stored_tables = self.storage.load_unfinished()
        for stored in stored_tables:
            self._rebuild(stored)
        return len(stored_tables)

    def _rebuild(self, stored: StoredTable) -> LiveTable:
        match = Match.start(stored.game, stored.options, stored.seed)
        events = list(match.opening)
        undo_seat = None
        for index, (seat, action, _client_id) in enumerate(stored.actions):
            last = index == len(stored.actions) - 1
            before = match.state.clone() if last and not match.game.realtime else None
            taken = match.act(seat, action)
            events.extend(taken)
            if before is not None:  # whether the last move may be taken back, as the table said before the restart
                undo_seat = undo_seat_after(match.game, before, match.state, seat, match.actions[-1][1], taken)
        seats = [SeatState(index, record["kind"], record["name"], bot_name=record.get("bot"),
                           token_hash=record.get("token_hash"), joined=bool(record.get("joined")),
                           named=bool(record.get("named")),
                           controller="bot" if record["kind"] == "bot" else "human")
                 for index, record in enumerate(stored.seats)]
        table = self._live(stored, match, seats)
        table.log.clear()
        table.log.extend(events)  # the recent history, as it was before the restart
        table.client_ids.update(stored.client_ids)
        table.finished_at = stored.finished
        table.undone = stored.undone
        table.undo_seat = undo_seat
        return table

    def start(self) -> None:
        """Once the event loop runs: bots resume and absent humans get their grace period."""
        for table in self.tables.values():
            table.start_grace_periods()
            table.schedule()

    def _watch_expiry(self, table: LiveTable) -> None:
        if not table.finished and table.unclaimed():
            clock = self.settings.clock
            at = clock.now() + int(self.settings.unclaimed_table_expiry * 1000)
            table.expiry = clock.call_at(at, lambda: self._expire(table))

    def _expire(self, table: LiveTable) -> None:
        """Close a table none of its people ever opened: out of memory, and marked in storage so that a restart
        does not bring it back (its row and log stay, for the record)."""
        table.expiry = None
        if table.finished or not table.unclaimed() or self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        for watcher in table.connections():  # only spectators can be there
            watcher.close(CLOSE_GOING_AWAY)
        loop = asyncio.get_running_loop()
        loop.create_task(table.close())
        loop.create_task(self.storage.update_table(table.id, expired=time.time()))

    async def rematch(self, old: LiveTable, asker: Connection, playing: set[int]) -> LiveTable | None:
        """One rematch per finished table: same game, options and seats. The people of ``playing`` sit down again
        (each is sent a new token); bots play every other person's seat (they said no, or did not answer)."""
        async with old.lock:
            if old.rematch_id is not None and old.rematch_id in self.tables:
                old.send_rematch(asker)
                return self.tables[old.rematch_id]
            bot = replacement_bot_name(old.game.name, self.settings.replacement_bot, old.game.levels.stand_in)
            specs = [{"kind": "human", "name": s.name} if s.kind == "human" and s.index in playing
                     else {"kind": "bot", "bot": s.bot_name, "name": s.name} if s.kind == "bot"
                     else {"kind": "bot", "bot": bot} for s in old.seats]
            options = config_to_options(old.match.config)
            try:
                table, tokens = await self.create(old.game.name, options, specs, old.hotseat, replacements=True)
            except TableError as refusal:
                asker.send(error(refusal.code, str(refusal)))
                return None
            old.rematch_id = table.id
            old.vote_by, old.votes = None, {}
            await self.storage.update_table(old.id, rematch=table.id)
        for seat, token in zip(old.seats, tokens, strict=True):
            if token is not None:
                old.rematch_tokens[seat.index] = token  # for a player who comes back to the old table later
        old.broadcast_table()  # the question is answered: everyone sees the rematch's id
        for connection in old.connections():
            old.send_rematch(connection)
        return table

    async def close(self) -> None:
        for table in self.tables.values():
            await table.close()
