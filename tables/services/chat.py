"""The table's chat."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import User
from tables.models import ChatLine, Table
from tables.services.common import ServiceError

# The chat lines a page gets when it opens, so it picks up the talk.
CHAT_RECENT_LINES = 50


def chat_post(*, table_id: int, player_id: int, text: str) -> dict[str, Any]:
    """Keep one chat line; the line as everyone at the table is sent it."""
    table = Table.objects.filter(pk=table_id).only("pk").first()
    if table is None:
        raise ServiceError(f"there is no table #{table_id}")
    line = ChatLine.objects.create(table=table, player_id=player_id, text=text)
    username = User.objects.filter(pk=player_id).values_list("username", flat=True).get()
    return _chat_message(line.pk, username, text, line.sent_at)


def chat_recent(*, table_id: int, limit: int = CHAT_RECENT_LINES) -> list[dict[str, Any]]:
    """The table's last ``limit`` chat lines, oldest first."""
    lines = (
        ChatLine.objects.filter(table_id=table_id)
        .order_by("-pk")
        .values_list("pk", "player__username", "text", "sent_at")[:limit]
    )
    return [_chat_message(*line) for line in reversed(lines)]


def _chat_message(line_id: int, username: str, text: str, sent_at: datetime) -> dict[str, Any]:
    return {"id": line_id, "from": username, "text": text, "at": sent_at.isoformat()}
