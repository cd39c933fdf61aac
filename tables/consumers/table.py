"""The live table: ``ws/tables/<id>/``, one viewer of one table per connection."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from tables import broadcast, services
from tables.consumers.base import DirectConsumer, in_db_thread, message_limit, too_many
from tables.consumers.messages import (
    MESSAGES,
    MOVES,
    NEEDS_LOGIN,
    BadMessage,
    Service,
    parse_frame,
)
from tables.consumers.relay import TABLE_RELAY, Inbox
from tables.consumers.shared import (
    CHANGE_ROWS,
    MADE_HERE,
    OPEN_SOCKETS,
    ChangeRows,
    pass_by,
    read_table_shared,
)
from tables.ratelimit import RateLimit
from tables.selectors.carried import carry
from tables.selectors.players import (
    LoginCheck,
    NoLongerCurrent,
    player_balance,
    player_is_current,
)
from tables.selectors.snapshots import (
    Cursor,
    Stamp,
    TableRows,
    build_snapshot,
    events_since,
    needs_earlier_events,
)
from tables.selectors.tables import table_visible

CLOSE_NO_SUCH_TABLE = 4404
CLOSE_LOGGED_OUT = 4401  # the user logged out or was deactivated; reconnect as who you are now
NOT_CURRENT = "you are no longer logged in as this player"
NO_TIMER: dict[str, Any] = dict.fromkeys(
    ("seat", "seats", "deadline", "expires_at", "time_bank_ms", "clock")
)


def serve(
    service: Service,
    table_id: int,
    player_id: int,
    session_key: str | None,
    *,
    received_at: datetime | None = None,
    **fields: Any,
) -> tuple[TableRows, bytes] | None:
    """Check that the socket still speaks for ``player_id``, then call ``service``:
    one trip to a database thread for both, and for a move one round trip to
    the database too (:data:`MOVES`), timed from ``received_at``. The table's
    rows the service returns, if it does (``services.hand_play``), and the
    same packed to be carried to the other processes."""
    login = LoginCheck(player_id, session_key)
    if service in MOVES:
        result = service(
            table_id=table_id,
            player_id=player_id,
            login=login,
            received_at=received_at,
            **fields,
        )
    else:
        login.confirm()
        result = service(table_id=table_id, player_id=player_id, **fields)
    return (result, carry(result)) if isinstance(result, TableRows) else None


SERVICE_ERRORS: tuple[tuple[type[Exception], str], ...] = (
    (services.StaleMove, "stale"),
    (services.IllegalMove, "illegal"),
    (services.ServiceError, "refused"),
)


def _past(stamp: Any, seen: Stamp) -> bool:
    """Whether a notice's ``stamp`` (``TableRows.stamp``, as the notice carries
    it) is no newer than ``seen``; False when it carries none."""
    return isinstance(stamp, list) and len(stamp) == 2 and tuple(stamp) <= seen


class TableConsumer(DirectConsumer):
    """One viewer of one table: a player (logged in) or an anonymous observer."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """As every consumer, with one more source of messages: the table's
        notices, which this process's relay puts in ``self.inbox``."""
        self.inbox = Inbox()
        self.table_id = int(scope["url_route"]["kwargs"]["table_id"])
        try:
            await self.dispatch_from(scope, receive, send, self.inbox.get)
        finally:  # however the connection ended, its inbox is no longer read
            TABLE_RELAY.drop(self.table_id, self.inbox)

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.player_id: int | None = user.pk if user is not None and user.is_authenticated else None
        session = self.scope.get("session")
        self.session_key: str | None = session.session_key if session is not None else None
        self.revoked = False  # closing because the user logged out or was deactivated
        self.seq = 0
        self.cursor: Cursor | None = None
        self.stamp: Stamp = (-1, -1)  # how far the rows of the last snapshot sent had got
        self.timer: dict[str, Any] = NO_TIMER  # a client assumes no clock until told
        self.rules: list[str] | None = None  # the game's rules last sent (sent when they change)
        # The balance while standing: read on connect and whenever the seat
        # comes or goes (it only changes when chips move to or from a seat).
        self.balance: int | None = None
        self.seated = False
        self.messages = message_limit()
        self.chats = RateLimit(settings.CARDROOM_CHAT_LIMIT, settings.CARDROOM_CHAT_WINDOW_SECONDS)
        self.counted_for: int | None = None  # the player this socket is recorded as one of, if any
        await self.accept()  # then close, so the browser sees the 4404 code
        staff = self.player_id is not None and bool(getattr(user, "is_staff", False))
        # A home game the viewer may not see is refused as a table that doesn't exist.
        if not await in_db_thread(table_visible)(self.table_id, self.player_id, staff=staff):
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        if self.player_id is not None:
            self.balance = await in_db_thread(player_balance)(self.player_id)
        # The table's notices come through this process's relay, and the
        # user's (a logout, a host's removal) to this connection's own channel.
        await TABLE_RELAY.join(self.channel_layer, self.table_id, self.inbox)
        if self.player_id is not None:
            self.groups = [broadcast.user_group(self.player_id)]
            await self.channel_layer.group_add(self.groups[0], self.channel_name)
        back = self.player_id is not None and await self.count_connection(self.player_id)
        # The page picks up where the table is: its recent chat, then the
        # latest hand's log from its first event, then the snapshot.
        for line in await in_db_thread(services.chat_recent)(table_id=self.table_id):
            await self.send_message({"type": "chat", **line})
        await self.send_snapshot()
        if back:  # the seat is no longer shown as disconnected, and the clock may have moved
            await broadcast.announce_changed(self.table_id)

    async def count_connection(self, player_id: int) -> bool:
        """Record this socket as one of the player's at the table; whether their seat changed."""
        back = await in_db_thread(services.connection_open)(
            table_id=self.table_id, player_id=player_id, channel_name=self.channel_name
        )
        self.counted_for = player_id
        await OPEN_SOCKETS.add(self.channel_name, self.table_id, player_id)
        return back

    async def disconnect(self, code: int) -> None:
        await TABLE_RELAY.leave(self.table_id, self.inbox)
        player_id = self.counted_for
        if player_id is None:
            return
        await OPEN_SOCKETS.remove(self.channel_name)
        try:
            changed = await in_db_thread(services.connection_close)(
                table_id=self.table_id, player_id=player_id, channel_name=self.channel_name
            )
        except services.ServiceError:
            return  # the table is gone, and its connections with it
        if changed:  # that was the player's last connection here
            await broadcast.announce_changed(self.table_id)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        received_at = timezone.now()  # before any wait: a move is timed from here
        if self.revoked:
            return  # the socket is closing; the close says why
        if not self.messages.allow():
            await self.send_error("rate_limited", too_many("messages", self.messages))
            return
        try:
            content = parse_frame(text_data)
        except BadMessage as exc:
            await self.send_error("bad_message", str(exc))
            return
        await self.receive_json(content, received_at=received_at)

    async def receive_json(
        self, content: Any, received_at: datetime | None = None, **kwargs: Any
    ) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if not isinstance(kind, str) or kind not in MESSAGES:
            allowed = ", ".join(MESSAGES)
            await self.send_error("bad_message", f"'type' must be one of {allowed}")
            return
        if kind in NEEDS_LOGIN and self.player_id is None:
            await self.send_error("login_required", f"log in to {kind.replace('_', ' ')}")
            return
        check, service = MESSAGES[kind]
        try:
            fields = check(content)
        except BadMessage as exc:
            await self.send_error("bad_message", str(exc))
            return
        if service is not None:  # it checks the login itself, on the same trip
            await self.run_service(service, fields, received_at=received_at)
            return
        if self.player_id is not None and not await in_db_thread(player_is_current)(
            self.player_id, self.session_key
        ):
            await self.revoke(NOT_CURRENT)
            return
        await self.dispatch_message(kind, fields)

    async def revoke(self, reason: str) -> None:
        """Act for this user no more: say why, then close; the page reconnects as who it is now."""
        self.revoked = True
        await self.send_error("login_required", f"{reason}; log in again to play")
        await self.close(code=CLOSE_LOGGED_OUT)

    async def dispatch_message(self, kind: str, fields: dict[str, Any]) -> None:
        if kind == "snapshot":
            await self.send_snapshot(replay=fields["replay"])
        elif kind == "chat":
            await self.chat(fields["text"])

    async def chat(self, text: str) -> None:
        # Chat needs a login (NEEDS_LOGIN): receive_json refuses it to an observer.
        assert self.player_id is not None
        if not self.chats.allow():
            await self.send_error("rate_limited", too_many("chat messages", self.chats))
            return
        try:
            line = await in_db_thread(services.chat_post)(
                table_id=self.table_id, player_id=self.player_id, text=text
            )
        except services.ServiceError as exc:
            await self.send_error("refused", str(exc))
            return
        await broadcast.announce_chat(self.table_id, line)

    async def run_service(
        self, service: Service, fields: dict[str, Any], *, received_at: datetime | None = None
    ) -> None:
        # Every message with a service needs a login (NEEDS_LOGIN): receive_json
        # refuses them to an observer.
        assert self.player_id is not None
        try:
            made = await in_db_thread(serve)(
                service,
                self.table_id,
                self.player_id,
                self.session_key,
                received_at=received_at,
                **fields,
            )
        except NoLongerCurrent:
            await self.revoke(NOT_CURRENT)
            return
        except services.ServiceError as exc:
            code = next(code for error, code in SERVICE_ERRORS if isinstance(exc, error))
            await self.send_error(code, str(exc))
            return
        # The service has committed: now everyone at the table may look.
        if made is None:
            await broadcast.announce_changed(self.table_id)
            return
        rows, carried = made
        change = MADE_HERE.keep(rows)
        await broadcast.announce_changed(
            self.table_id, change=change, rows=carried, stamp=rows.stamp
        )

    # Channel-layer handlers: "table.changed", "table.chat" and "user.revoked".

    async def table_changed(self, message: dict[str, Any]) -> None:
        # The viewer may already have a snapshot read after this move committed:
        # then there is nothing to send, and nothing to unpack.
        if _past(message.get("stamp"), self.stamp):
            pass_by(message)
            return
        # Rows made here, or carried from the process that made them (the
        # first of this process's viewers to get them unpacks them for all).
        change = message.get(CHANGE_ROWS)
        kept = change.take() if isinstance(change, ChangeRows) else None
        if kept is not None and kept.stamp <= self.stamp:
            return
        await self.send_snapshot(rows=kept)

    async def table_chat(self, message: dict[str, Any]) -> None:
        await self.send_message({"type": "chat", **message["line"]})

    async def table_access_revoked(self, message: dict[str, Any]) -> None:
        """The host removed this user from the home game: the table is gone for them."""
        if message["table"] == self.table_id and not self.revoked:
            self.revoked = True
            await self.send_error("refused", "the host has removed you from this game")
            await self.close(code=CLOSE_NO_SUCH_TABLE)

    async def user_revoked(self, message: dict[str, Any]) -> None:
        """The user logged out (of this socket's session, if one is named) or was deactivated."""
        if not self.revoked and message["session_key"] in (None, self.session_key):
            await self.revoke(message["reason"])

    # Sending: every message gets this connection's next sequence number.

    async def send_snapshot(self, *, rows: TableRows | None = None, replay: bool = False) -> None:
        """This viewer's snapshot from ``rows``, or from a read of the table begun now,
        after the hand events this connection hasn't been sent.

        ``replay``: the client asked, having missed something or lost its way,
        so it may lack events it was sent: they are sent again, each hand's
        from its first (the client logs each once by its ``index``).
        """
        if rows is None:
            rows = await read_table_shared(self.table_id)
        if rows is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        # A read begun now is at least as new as any rows had before; rows
        # kept from a move are newer than the last snapshot's (table_changed).
        self.stamp = rows.stamp
        cursor = self.cursor
        if replay and cursor is not None:
            cursor = Cursor(cursor.hand_id, seen=0, ended=False)
        earlier = None
        if cursor is not None and needs_earlier_events(rows, cursor):
            earlier = await in_db_thread(events_since)(cursor, self.player_id)
        await self.follow_balance(rows)
        snapshot = build_snapshot(
            rows,
            self.player_id,
            cursor,
            with_events=True,
            earlier=earlier,
            balance=self.balance,
        )
        self.cursor = snapshot.cursor
        timer = self.timer_change(snapshot.payload)
        payload = self.without_rules_sent(snapshot.payload, replay=replay)
        # One change, one frame: the client applies it whole.
        await self.send_messages([*snapshot.events, payload, *timer])

    def without_rules_sent(self, payload: dict[str, Any], *, replay: bool) -> dict[str, Any]:
        """The snapshot without the game's rules when this client has them already:
        they change only with the game, and a client asking again gets them again."""
        rules = payload["table"]["rules"]
        if rules != self.rules or replay:
            self.rules = rules
            return payload
        table = {key: value for key, value in payload["table"].items() if key != "rules"}
        return {**payload, "table": table}

    async def follow_balance(self, rows: TableRows) -> None:
        """Read the balance again when this viewer's seat has come or gone."""
        if self.player_id is None:
            return
        seated = any(seat.player_id == self.player_id for seat in rows.seats)
        if seated != self.seated:
            self.seated = seated
            self.balance = await in_db_thread(player_balance)(self.player_id)

    def timer_change(self, snapshot: dict[str, Any]) -> list[dict[str, Any]]:
        """A ``timer`` message when the turn clock (or the dealer's clock for
        calling the game) differs from the last one sent."""
        info, call = snapshot["hand_info"], snapshot["table"]["call"]
        timer = (info and info["timer"]) or (call and call["timer"]) or NO_TIMER
        if timer == self.timer:
            return []
        self.timer = timer
        return [{"type": "timer", **timer, "now": timezone.now().isoformat()}]

    async def send_error(self, code: str, message: str) -> None:
        await self.send_message({"type": "error", "code": code, "message": message})

    async def send_message(self, message: dict[str, Any]) -> None:
        await self.send_messages([message])

    async def send_messages(self, messages: list[dict[str, Any]]) -> None:
        """One frame: a lone message as itself, several as a JSON array, each
        with this connection's next sequence number."""
        stamped = []
        for message in messages:
            self.seq += 1
            stamped.append({**message, "seq": self.seq})
        await self.send_json(stamped[0] if len(stamped) == 1 else stamped)
