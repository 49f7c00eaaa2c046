"""JSON as it goes out on the sockets: every update is encoded once per seat, so the encoder's speed counts
(orjson is several times faster than the standard library's, and writes the same compact JSON)."""

from __future__ import annotations

from typing import Any

import orjson


def encode(message: Any) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def encode_bytes(message: Any) -> bytes:
    """The same JSON as ``encode``, as bytes (an HTTP body kept as it is sent)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
