"""Reading a seat of a view: its down cards and its upcards, each in dealing order."""

from __future__ import annotations

from typing import Any


def down_of(seat: dict[str, Any]) -> list[str | None]:
    """The seat's face-down cards as the viewer sees them (None: hidden)."""
    return [held["card"] for held in seat["cards"] if not held["up"]]


def up_of(seat: dict[str, Any]) -> list[str | None]:
    """The seat's face-up cards."""
    return [held["card"] for held in seat["cards"] if held["up"]]
