"""JSON as it goes out on the sockets: every update is encoded once per seat, so the encoder's speed counts
(orjson is several times faster than the standard library's, and writes the same compact JSON)."""

from __future__ import annotations

from typing import Any

import orjson

# Keys that are not text (a seat number) are written as text, as the standard library does. orjson's option for
# them takes its slower path for every dictionary (nearly twice the time for an update), so it is used only for
# the rare message that needs it.
_ANY_KEYS = orjson.OPT_NON_STR_KEYS


def encode_bytes(message: Any) -> bytes:
    """The same JSON as ``encode``, as bytes (an HTTP body kept as it is sent)."""
    try:
        return orjson.dumps(message)
    except orjson.JSONEncodeError:
        return orjson.dumps(message, option=_ANY_KEYS)


def encode(message: Any) -> str:
    return encode_bytes(message).decode()
