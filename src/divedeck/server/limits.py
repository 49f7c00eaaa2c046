"""Per-address limits (docs/server.md): how many tables one client address may create and hold open, and the
message budget all its sockets share.

Whom the limits count is an IPv4 address, or an IPv6 address's /64 (one subscriber's network holds billions of
addresses). The counters live in this process. With several processes and a bus (Redis), the table counts of an address
(how many it created this minute, which of its tables are unfinished) live in Redis, shared by every process
(``admit_shared``); the message budgets stay per process (a message is counted where its socket is).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine.errors import DivedeckError
from .connection import Bucket
from .settings import ServerSettings

REMEMBERED_ADDRESSES = 10_000


class TableError(DivedeckError):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def client_key(host: str | None) -> str | None:
    """Whom the per-address limits count: an IPv4 address, or an IPv6 address's /64."""
    if host is None:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class AddressLimits:
    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        # Per client address: its table-creation budget, its unfinished tables, and the message budget all its
        # sockets share (with how many sockets hold it, to forget it when the last one closes).
        self.creation: dict[str, Bucket] = {}
        self.created_by: dict[str, set[str]] = {}
        self.address_buckets: dict[str, tuple[Bucket, int]] = {}

    def admit(self, address: str | None, unfinished: int, still_open: Callable[[str], bool]) -> None:
        """Refuse a new table beyond the server's cap (``unfinished`` tables now), or beyond what one client
        address may create and hold open; otherwise spend one of the address's creations."""
        settings = self.settings
        if unfinished >= settings.max_open_tables:
            raise TableError("server_full", f"this server already has {settings.max_open_tables} unfinished "
                                            "tables: try again later", 503)
        if address is None:
            return
        mine = self.created_by.get(address, set())
        mine.intersection_update(t for t in mine if still_open(t))
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

    def created(self, address: str | None, table_id: str) -> None:
        if address is not None:
            self.created_by.setdefault(address, set()).add(table_id)

    # -- shared by every process, in Redis ------------------------------------------------------------------------
    async def admit_shared(self, shared: Any, address: str | None, unfinished: int,
                           finished_among: Callable[[list[str]], Awaitable[set[str]]]) -> None:
        """``admit``, with the address's counts in Redis (``shared``): its unfinished tables are a set of ids
        (``finished_among`` says which have ended, and they leave it), its creations a count per minute."""
        settings = self.settings
        if unfinished >= settings.max_open_tables:
            raise TableError("server_full", f"this server already has {settings.max_open_tables} unfinished "
                                            "tables: try again later", 503)
        if address is None:
            return
        key = f"divedeck:tables-of:{address}"
        mine = [member.decode() for member in await shared.smembers(key)]
        ended = await finished_among(mine) if mine else set()
        if ended:
            await shared.srem(key, *ended)
        if len(mine) - len(ended) >= settings.open_tables_per_address:
            raise TableError("too_many_tables", f"at most {settings.open_tables_per_address} unfinished tables "
                                                "from one address: finish or abandon some first", 429)
        window = f"divedeck:created:{address}:{int(time.time() // 60)}"
        count = await shared.incr(window)
        if count == 1:
            await shared.expire(window, 120)
        if count > settings.tables_per_minute:
            raise TableError("rate_limited", f"at most {settings.tables_per_minute:g} new tables a minute from "
                                             "one address", 429)

    async def created_shared(self, shared: Any, address: str | None, table_id: str) -> None:
        if address is not None:
            key = f"divedeck:tables-of:{address}"
            await shared.sadd(key, table_id)
            await shared.expire(key, 7 * 24 * 3600)  # an address gone for a week is forgotten

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
