"""How many websockets each client address and each table holds open, within caps.

Every socket costs the server memory (tens of KiB in uvicorn and the websocket layer) and a place in its table's
broadcasts, so one address must not open thousands and no table can be buried under watchers. A socket is
counted from the moment it is accepted (before its hello: a silent socket holds as much as a talking one) until
it closes; the counts forget an address or a table when its last socket closes, so nothing is kept for them.
"""

from __future__ import annotations


class SocketLimits:
    def __init__(self, per_address: int, per_table: int) -> None:
        self.per_address = per_address
        self.per_table = per_table
        self.by_address: dict[str, int] = {}
        self.by_table: dict[str, int] = {}

    def admit(self, address: str, table_id: str) -> str | None:
        """Count a new socket from ``address`` to ``table_id``, or say why it is refused (then nothing is
        counted). Every admitted socket is released exactly once."""
        if self.by_address.get(address, 0) >= self.per_address:
            return f"at most {self.per_address} open sockets from one address: close some tabs first"
        if self.by_table.get(table_id, 0) >= self.per_table:
            return f"at most {self.per_table} open sockets at one table: try again later"
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.by_table[table_id] = self.by_table.get(table_id, 0) + 1
        return None

    def release(self, address: str, table_id: str) -> None:
        for counts, key in ((self.by_address, address), (self.by_table, table_id)):
            left = counts[key] - 1
            if left:
                counts[key] = left
            else:
                del counts[key]
