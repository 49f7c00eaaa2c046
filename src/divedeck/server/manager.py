"""All live tables of this server process: creating, finding, restoring after a restart, rematches."""

from __future__ import annotations

import secrets
import time
from typing import Any

from ..bots import bot_names, make_bot
from ..engine.config import config_to_options
from ..engine.errors import ConfigError, DivedeckError
from ..engine.match import Match
from ..engine.registry import get_game
from .bot_workers import BotWorkers
from .settings import ServerSettings
from .storage import Storage, StoredTable
from .table import LiveTable, SeatState, hash_token

MAX_OPEN_LISTED = 100
FINISHED_KEPT = 600.0  # seconds a finished table stays in memory after its last look


class TableError(DivedeckError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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

    def get(self, table_id: str) -> LiveTable | None:
        """A table by id; a finished one no longer in memory is rebuilt from storage (a page reopened later)."""
        table = self.tables.get(table_id)
        if table is None and 0 < len(table_id) <= 32:
            stored = self.storage.load(table_id)
            if stored is not None:
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

    async def create(self, game_name: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     hotseat: bool = False) -> tuple[LiveTable, list[str | None]]:
        """A new table; returns it and one token per human seat (``None`` for bots), shown only to the creator."""
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
        bots = bot_names(game_name)
        states: list[SeatState] = []
        tokens: list[str | None] = []
        for index, spec in enumerate(seats):
            kind = spec.get("kind")
            name = str(spec.get("name") or "")[:40]
            if kind == "human":
                token = new_token()
                tokens.append(token)
                states.append(SeatState(index, "human", name or f"Player {index + 1}", token_hash=hash_token(token)))
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
        seed = secrets.randbelow(1 << 63)
        state, opening = game.new_with_events(config, seed)
        match = Match(game, config, seed, state, opening=opening)
        stored = StoredTable(new_table_id(), game_name, config_to_options(config), seed,
                             [s.record() for s in states], hotseat, time.time(), None, None, [])
        await self.storage.create_table(stored)
        table = self._live(stored, match, states)
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
        for seat, action, _client_id in stored.actions:
            events.extend(match.act(seat, action))
        seats = [SeatState(index, record["kind"], record["name"], bot_name=record.get("bot"),
                           token_hash=record.get("token_hash"),
                           controller="bot" if record["kind"] == "bot" else "human")
                 for index, record in enumerate(stored.seats)]
        table = self._live(stored, match, seats)
        table.log.clear()
        table.log.extend(events)  # the recent history, as it was before the restart
        for version, (seat, _, client_id) in enumerate(stored.actions, 1):
            if client_id is not None:
                table.client_ids[seat, client_id] = version
        table.finished_at = stored.finished
        return table

    def start(self) -> None:
        """Once the event loop runs: bots resume and absent humans get their grace period."""
        for table in self.tables.values():
            table.start_grace_periods()
            table.schedule()

    async def rematch(self, old: LiveTable) -> LiveTable:
        """One rematch per finished table: same game, options and seats; each seat is sent its new token."""
        async with old.lock:
            if old.rematch_id is not None and old.rematch_id in self.tables:
                return self.tables[old.rematch_id]
            specs = [{"kind": s.kind, "bot": s.bot_name, "name": s.name} for s in old.seats]
            options = config_to_options(old.match.config)
            table, tokens = await self.create(old.game.name, options, specs, old.hotseat)
            old.rematch_id = table.id
            await self.storage.update_table(old.id, rematch=table.id)
        for seat, token in zip(old.seats, tokens, strict=True):
            if token is not None:
                old.rematch_tokens[seat.index] = token  # for a player who comes back to the old table later
            for connection in seat.connections:
                connection.send({"type": "rematch", "table": table.id, "token": token})
        for connection in old.spectators:
            connection.send({"type": "rematch", "table": table.id})  # spectators get no token
        return table

    async def close(self) -> None:
        for table in self.tables.values():
            await table.close()
