"""JSON written by orjson, with every key as text, as the standard library
and PostgreSQL write it.

orjson refuses a dict keyed by anything but text unless asked
(``OPT_NON_STR_KEYS``), and asking costs every write about a third more,
keys of text or not. Nearly everything this project writes (a hand's state,
a frame to a browser, rows carried to another process) is keyed by text, so
:func:`json_bytes` asks only when a write is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson


def json_bytes(value: Any, *, default: Callable[[Any], Any] | None = None) -> bytes:
    """``value`` as JSON, keys written as text; ``default`` as orjson's, for the
    values it won't write by itself (it raises ``TypeError`` for the rest)."""
    try:
        return orjson.dumps(value, default=default)
    except TypeError:
        return orjson.dumps(value, default=default, option=orjson.OPT_NON_STR_KEYS)
