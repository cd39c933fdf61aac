"""Outgoing frames (``tables.consumers.base.DirectConsumer.encode_json``):
the JSON the standard library would write for them, keys that aren't text
written as text."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tables.consumers.base import DirectConsumer


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "snapshot", "hand": {"players": [{"cards": [{"card": "Kd", "up": False}]}]}},
        [{"type": "event", "index": 3, "text": "Seat 1 (ann) bets 10"}, {"type": "timer"}],
        {"type": "lobby", "counts": {1: 6, 2: 0}},  # keyed by number: written as text
    ],
)
def test_a_frame_is_the_json_the_standard_library_writes(frame: Any) -> None:
    text = asyncio.run(DirectConsumer.encode_json(frame))
    assert json.loads(text) == json.loads(json.dumps(frame))
