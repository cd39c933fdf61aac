"""JSON as the project writes it (``tables.jsontext.json_bytes``), and the
frames sent to browsers with it (``DirectConsumer.encode_json``): what the
standard library would write, keys that aren't text written as text."""

from __future__ import annotations

import asyncio
import decimal
import json
from typing import Any

import pytest

from tables.consumers.base import DirectConsumer
from tables.jsontext import json_bytes

FRAMES = [
    {"type": "snapshot", "hand": {"players": [{"cards": [{"card": "Kd", "up": False}]}]}},
    [{"type": "event", "index": 3, "text": "Seat 1 (ann) bets 10"}, {"type": "timer"}],
    {"type": "lobby", "counts": {1: 6, 2: 0}},  # keyed by number: written as text
]


@pytest.mark.parametrize("frame", FRAMES)
def test_a_frame_is_the_json_the_standard_library_writes(frame: Any) -> None:
    text = asyncio.run(DirectConsumer.encode_json(frame))
    assert json.loads(text) == json.loads(json.dumps(frame))


def test_json_bytes_hands_what_orjson_wont_write_to_default_keys_as_text_or_not() -> None:
    value = {"rake": decimal.Decimal("2.5"), "by_seat": {3: decimal.Decimal("1")}}
    written = json_bytes(value, default=str)
    assert json.loads(written) == {"rake": "2.5", "by_seat": {"3": "1"}}
    with pytest.raises(TypeError):
        json_bytes({"when": object()})
