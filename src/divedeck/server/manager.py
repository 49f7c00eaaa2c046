"""The tables this process drives: creating, finding, rebuilding from the log (after a restart, or when this
process takes over a table from one that died), rematches. Who owns which table is ownership.py's; storage.py keeps
the logs; limits.py counts what each client address may do."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import select

from ..bots import accepted_bot_names, bot_names, check_bot_players, make_bot
from ..engine.config import config_to_options
from ..engine.errors import ConfigError
from ..engine.match import Match
from ..engine.registry import get_game
from .bot_workers import BotWorkers
from .connection import CLOSE_GOING_AWAY, Connection
from .limits import REMEMBERED_ADDRESSES, AddressLimits, TableError, client_key
from .move_clock import OFF, PROFILES, MoveClock, Profile
from .ownership import Leases, Solo
from .processes import home_of
from .settings import ServerSettings
from .storage import Storage, StoredTable, tables_table
from .table import LiveTable, SeatState, clean_name, error, hash_token, replacement_bot_name, undo_seat_after

__all__ = ["REMEMBERED_ADDRESSES", "TableError", "TableManager", "client_key", "new_token"]

log = logging.getLogger(__name__)
MAX_OPEN_LISTED = 100
FINISHED_KEPT = 600.0  # seconds a finished table stays in memory after its last look
EVICTION_EVERY = 10.0  # seconds between two walks over the tables for finished ones to forget
CLOSE_SERVICE_RESTART = 1012  # a socket of a table this process gave up: the client reconnects, to the new owner


def new_table_id(home: tuple[int, int] | None = None, prefix: str = "") -> str:
    """A new table id; with ``home`` (index, count) under ``--processes``, one whose sockets are handed to that
    process (processes.py): about ``count`` draws. With ``prefix`` (``--table-prefix``), it starts with it and a
    dash, which the load balancer routes to this server (deploy/haproxy.cfg)."""
    while True:
        table_id = f"{prefix}-{secrets.token_urlsafe(8)}" if prefix else secrets.token_urlsafe(8)
        if home is None or home_of(table_id, home[1]) == home[0]:
            return table_id


def new_token() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits


class TableManager:
    def __init__(self, settings: ServerSettings, storage: Storage, bot_workers: BotWorkers | None = None,
                 ownership: Solo | Leases | None = None) -> None:
        self.settings = settings
        self.storage = storage
        self.bot_workers = bot_workers or BotWorkers(0)
        self.ownership = ownership or Solo()
        self.tables: dict[str, LiveTable] = {}
        # The ids of the tables not yet seen finished: counting the unfinished tables (at every creation) looks at
        # these only, not at the finished ones kept in memory for their viewers (FINISHED_KEPT).
        self._maybe_open: set[str] = set()
        self._next_eviction = 0.0
        self.limits = AddressLimits(settings)
        # Told of each table rebuilt from storage once it is live (rooms.py marks a room's table held).
        self.on_rebuild: list[Callable[[LiveTable], None]] = []
        self._tending: asyncio.Task[None] | None = None
        # With a bus: the Redis client that holds the per-address table counts every process shares (limits.py).
        self.shared_counts: Any = None
        # Run after each renewal of this process's lease (routing.py closes what depended on a dead process).
        self.on_tick: list[Callable[[], Awaitable[None]]] = []

    def get(self, table_id: str) -> LiveTable | None:
        """A table by id; a finished one no longer in memory is rebuilt from storage (a page reopened later).
        With several processes, only the tables this process owns (see ``find``)."""
        table = self.tables.get(table_id)
        if table is None and not self.ownership.clustered and 0 < len(table_id) <= 32:
            stored = self.storage.load(table_id)
            if stored is not None and stored.expired is None:
                table = self._rebuild(stored)
        return table

    async def _ended_among(self, table_ids: list[str]) -> set[str]:
        """Which of ``table_ids`` are finished, expired or unknown (no longer count as an address's open tables)."""
        def query() -> set[str]:
            with self.storage.engine.connect() as connection:
                open_ids = set(connection.execute(
                    select(tables_table.c.id).where(tables_table.c.id.in_(table_ids),
                                                    tables_table.c.finished.is_(None),
                                                    tables_table.c.expired.is_(None))).scalars())
            return set(table_ids) - open_ids
        return await asyncio.to_thread(query)

    async def snapshot(self, table_id: str) -> LiveTable | None:
        """A table to read (its public state, a finished game's replay, a guide's hint): the live one if this
        process drives it, else rebuilt from storage for this one look (with several processes another may own
        it: the copy is never driven, so it writes nothing)."""
        table = self.get(table_id)
        if table is not None or not self.ownership.clustered or not 0 < len(table_id) <= 32:
            return table
        stored = await asyncio.to_thread(self.storage.load, table_id)
        return None if stored is None or stored.expired is not None else self._rebuild(stored, keep=False)

    async def find(self, table_id: str) -> LiveTable | str | None:
        """The live table if this process owns it (taking it over if its owner is dead), else the id of the
        live process that owns it, else None (no such table)."""
        table = self.tables.get(table_id)
        if table is not None and not table.closing:
            return table
        if not isinstance(self.ownership, Leases):
            return self.get(table_id)
        if not 0 < len(table_id) <= 32:
            return None
        owner = await self.ownership.owner(table_id)
        if owner.alive and owner.node != self.ownership.node:
            return owner.node
        epoch = owner.epoch if owner.alive else await self.ownership.claim(table_id)
        if epoch is None:
            owner = await self.ownership.owner(table_id)
            return owner.node if owner.alive and owner.node != self.ownership.node else None
        return await self._take_over(table_id, epoch)

    async def _take_over(self, table_id: str, epoch: int) -> LiveTable | None:
        """Rebuild a table this process now holds the lease on, from the log as it stands after the claim."""
        if table_id in self.tables:
            self.tables[table_id].give_up()
        stored = await asyncio.to_thread(self.storage.load, table_id)
        if stored is None or stored.expired is not None or self.ownership.node is None:
            return None
        table = self._rebuild(stored, epoch)
        table.start_grace_periods()
        table.schedule()
        return table

    def _lost(self, table: LiveTable) -> None:
        """``table`` found its lease gone: forget it and send its sockets to whoever owns it now."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        log.warning("table %s moved to another process (its lease, epoch %s, was taken)", table.id, table.epoch)
        for connection in table.connections():
            connection.close(CLOSE_SERVICE_RESTART)
        asyncio.get_running_loop().create_task(table.close())

    def evict_finished(self, now: float) -> None:
        """Forget finished tables nobody has looked at for a while: their logs stay in storage. Called at every
        table's creation, it walks the tables at most every ``EVICTION_EVERY`` seconds."""
        if now < self._next_eviction:
            return
        self._next_eviction = now + EVICTION_EVERY
        for table_id, table in list(self.tables.items()):
            if (table.finished and table.finished_at is not None and now - table.finished_at > FINISHED_KEPT
                    and not table.connections()):
                del self.tables[table_id]

    def open_tables(self) -> list[LiveTable]:
        tables = [t for t in self.tables.values() if not t.finished]
        return sorted(tables, key=lambda t: t.created, reverse=True)[:MAX_OPEN_LISTED]

    def unfinished(self) -> int:
        tables = self.tables
        self._maybe_open = {table_id for table_id in self._maybe_open
                            if (table := tables.get(table_id)) is not None and not table.finished}
        return len(self._maybe_open)

    def admit(self, address: str | None) -> None:
        self.limits.admit(address, self.unfinished(),
                          lambda t: t in self.tables and not self.tables[t].finished)

    async def create(self, game_name: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     hotseat: bool = False, address: str | None = None,
                     replacements: bool = False, seed: int | None = None,
                     clock: str | None = None) -> tuple[LiveTable, list[str | None]]:
        """A new table; returns it and one token per human seat (``None`` for bots), shown only to the creator.
        ``address`` is the creator's, for the per-address limits (a rematch has none: it replaces a table).
        ``replacements``: bot seats may be any bot the game accepts (a rematch seats the bot that plays for a person
        who did not come along), not only those offered to people. ``clock``: a clock per move's profile
        (move_clock.py), for a game that declares ``move_clock``, at a table played from several screens."""
        try:
            game = get_game(game_name)
        except ConfigError as problem:
            raise TableError("unknown_game", str(problem)) from None
        profile = self._clock_profile(game, clock, hotseat)
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
                try:
                    check_bot_players(game_name, [bot], len(seats))
                except ConfigError as problem:
                    raise TableError("bad_seats", str(problem)) from None
                tokens.append(None)
                states.append(SeatState(index, "bot", name or f"{bot} bot {index + 1}", bot_name=bot,
                                        controller="bot"))
            else:
                raise TableError("bad_seats", f"seat {index}: kind must be 'human' or 'bot'")
        self.evict_finished(time.time())
        if self.shared_counts is not None:
            await self.limits.admit_shared(self.shared_counts, address, self.unfinished(), self._ended_among)
        else:
            self.admit(address)
        if seed is None:  # a guided game brings its fixed deal
            seed = secrets.randbelow(1 << 63)
        state, opening = game.new_with_events(config, seed)
        match = Match(game, config, seed, state, opening=opening)
        now = self.settings.clock.now()
        table_id = new_table_id(self.settings.home, self.settings.table_prefix)
        stored = StoredTable(table_id, game_name, config_to_options(config), seed,
                             [s.record() for s in states], hotseat, time.time(), None, None, [],
                             clock=None if profile is None else {"profile": profile.name, "started": now,
                                                                 "restarts": []})
        lease = self.ownership.create_lease if isinstance(self.ownership, Leases) else None
        epoch = await self.storage.create_table(stored, lease)
        table = self._live(stored, match, states, epoch)
        if profile is not None:
            table.move_clock = MoveClock.start(profile, len(states), game.actors(state), now,
                                               self.settings.move_clock_second_ms)
            table.clock_started = now
        if self.shared_counts is not None:
            await self.limits.created_shared(self.shared_counts, address, table.id)
        else:
            self.limits.created(address, table.id)
        table.schedule()
        return table, tokens

    @staticmethod
    def _clock_profile(game: Any, clock: str | None, hotseat: bool) -> Profile | None:
        """The clock per move asked for, or None for none; refused where it makes no sense."""
        if clock is None or clock == OFF:
            return None
        if clock not in PROFILES:
            raise TableError("bad_config", f"unknown clock {clock!r}; the clocks are: {OFF}, {', '.join(PROFILES)}")
        if not game.move_clock:
            raise TableError("bad_config", f"{game.title} keeps its own time: it has no clock per move")
        if hotseat:
            raise TableError("bad_config", "a clock per move is for tables played from several screens")
        return PROFILES[clock]

    def _live(self, stored: StoredTable, match: Match, seats: list[SeatState], epoch: int | None,
              keep: bool = True) -> LiveTable:
        for seat in seats:
            if seat.kind == "bot" and seat.bot_name is not None:
                seat.bot = make_bot(stored.game, seat.bot_name, stored.seed + seat.index + 1)
        table = LiveTable(stored.id, match, seats, hotseat=stored.hotseat, created=stored.created,
                          settings=self.settings, storage=self.storage, bot_workers=self.bot_workers,
                          rematch=self.rematch, epoch=epoch, lost=self._lost)
        table.rematch_id = stored.rematch
        table.log.extend(match.opening)
        if not keep:
            return table
        self.tables[stored.id] = table
        if stored.finished is None:
            self._maybe_open.add(stored.id)
            self._watch_expiry(table)
        return table

    def restore(self) -> int:
        """Rebuild every unfinished table from storage by replaying its log; returns how many. With several
        processes, none: each table comes back in the process that claims it (``start_cluster``)."""
        if self.ownership.clustered:
            return 0
        stored_tables = self.storage.load_unfinished()
        for stored in stored_tables:
            self._rebuild(stored)
        return len(stored_tables)

    def _rebuild(self, stored: StoredTable, epoch: int | None = None, keep: bool = True) -> LiveTable:
        match = Match.start(stored.game, stored.options, stored.seed)
        events = list(match.opening)
        undo_seat = None
        clock = self._stored_clock(stored, match)
        at = 0 if stored.clock is None else int(stored.clock.get("started", 0))
        restarts = [] if stored.clock is None else sorted(stored.clock.get("restarts", []), key=lambda r: r[1])
        pending = list(restarts)
        for index, (seat, action, _client_id) in enumerate(stored.actions):
            last = index == len(stored.actions) - 1
            before = match.state.clone() if last and not match.game.realtime else None
            if clock is not None:  # each seat's time per move and bank, counted again from the log's times
                time_ms = stored.times[index] if index < len(stored.times) else None
                at = at if time_ms is None else max(at, time_ms)
                while pending and pending[0][1] <= at:  # the turns counted afresh before this action
                    restart_seat, restart_at, spent = pending.pop(0)
                    clock.restart(int(restart_seat), int(restart_at), bool(spent))
            taken = match.act(seat, action)
            events.extend(taken)
            if clock is not None:
                clock.moved(match.game.actors(match.state), at)
            if before is not None:  # whether the last move may be taken back, as the table said before the restart
                undo_seat = undo_seat_after(match.game, before, match.state, seat, match.actions[-1][1], taken)
        seats = [SeatState(index, record["kind"], record["name"], bot_name=record.get("bot"),
                           token_hash=record.get("token_hash"), joined=bool(record.get("joined")),
                           named=bool(record.get("named")),
                           controller="bot" if record["kind"] == "bot" else "human")
                 for index, record in enumerate(stored.seats)]
        table = self._live(stored, match, seats, epoch, keep)
        table.log.clear()
        table.log.extend(events)  # the recent history, as it was before the restart
        table.client_ids.update(stored.client_ids)
        table.finished_at = stored.finished
        table.undone = stored.undone
        table.undo_seat = undo_seat
        if stored.pause is not None and match.game.realtime:  # its clock goes on where it stood
            since = stored.pause.get("since")
            table.paused_since = None if since is None else int(since)
            table.paused_ms = int(stored.pause.get("total") or 0)
        if clock is not None and stored.clock is not None:
            for restart_seat, restart_at, spent in pending:  # turns counted afresh after the last action
                clock.restart(int(restart_seat), int(restart_at), bool(spent))
            table.move_clock = clock
            table.clock_started = int(stored.clock.get("started", 0))
            table.clock_restarts = [list(r) for r in restarts]
        if keep:
            for hook in self.on_rebuild:
                hook(table)
        return table

    def _stored_clock(self, stored: StoredTable, match: Match) -> MoveClock | None:
        """The clock per move a stored table was made with, as it stood at its start (before its first action)."""
        if stored.clock is None or stored.clock.get("profile") not in PROFILES:
            return None
        return MoveClock.start(PROFILES[stored.clock["profile"]], len(stored.seats), match.game.actors(match.state),
                               int(stored.clock.get("started", 0)), self.settings.move_clock_second_ms)

    def start(self) -> None:
        """Once the event loop runs: bots resume and absent humans get their grace period."""
        for table in self.tables.values():
            table.start_grace_periods()
            table.schedule()

    async def start_cluster(self) -> None:
        """With several processes: register, take this process's share of the tables nobody live owns, and
        keep doing both (``_tend``)."""
        if isinstance(self.ownership, Leases):
            await self.ownership.start()
            await self._claim_orphans()
            self._tending = asyncio.get_running_loop().create_task(self._tend(self.ownership))

    async def _tend(self, leases: Leases) -> None:
        """Renew this process's lease a few times per lease period; if it had expired (this process was frozen or
        cut off), every table is lost: give them all up and register again. Then take over orphaned tables."""
        while True:
            await asyncio.sleep(leases.lease_seconds / 3)
            try:
                if not await leases.renew():
                    log.warning("this process's lease expired (was it frozen?): its tables are given up")
                    for table in list(self.tables.values()):
                        if table.epoch is not None:
                            table.give_up()
                    await leases.start()
                await self._claim_orphans()
                for hook in self.on_tick:
                    await hook()
            except Exception:  # the database is away: the lease runs out, and the others take over
                log.exception("could not renew this process's lease")

    async def _claim_orphans(self) -> None:
        assert isinstance(self.ownership, Leases)
        for table_id, epoch in await self.ownership.claim_orphans():
            log.info("taking over table %s (epoch %d)", table_id, epoch)
            await self._take_over(table_id, epoch)

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
        loop.create_task(self.storage.update_table(table.id, table.epoch, expired=time.time()))

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
                table, tokens = await self.create(old.game.name, options, specs, old.hotseat, replacements=True,
                                                  clock=None if old.move_clock is None else old.move_clock.profile.name)
            except TableError as refusal:
                asker.send(error(refusal.code, str(refusal)))
                return None
            old.rematch_id = table.id
            old.vote_by, old.votes = None, {}
            await self.storage.update_table(old.id, old.epoch, rematch=table.id)
        for seat, token in zip(old.seats, tokens, strict=True):
            if token is not None:
                old.rematch_tokens[seat.index] = token  # for a player who comes back to the old table later
        old.broadcast_table()  # the question is answered: everyone sees the rematch's id
        for connection in old.connections():
            old.send_rematch(connection)
        return table

    async def close(self) -> None:
        if self._tending is not None:
            self._tending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._tending
        for table in self.tables.values():
            await table.close()
        await self.ownership.stop()
