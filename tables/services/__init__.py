"""The only code that changes tables, seats and hands.

Every service runs in one transaction and first locks the table's row, so moves,
buy-ins and hand starts at one table happen one after another. Chips move
between a player's balance and a seat only through ``accounts.services.ledger_post``.

One module per part of the room; import the services from here:

- ``tables``: opening and closing a table.
- ``seats``: sitting down, leaving, sitting out and in.
- ``chips``: top-ups, rebuys and auto-rebuy between hands.
- ``waiting_list``: a full table's list, and the seats offered to it.
- ``connections``: players' websockets, and seats shown disconnected.
- ``idle_seats``: standing up seats nobody plays from.
- ``chat``: the table's chat.
- ``hands``: dealing, moves, results, and what follows a hand's change.
- ``clock`` and ``timeouts``: the turn clock, and the move a timeout makes.
- ``games`` and ``calls``: a mixed table's next game (a rotation's turn), and
  the dealer's call at dealer's choice.
- ``play``: requests that may let the table deal, each one call.
- ``home``: home games: opening one, its invite link, and its host's powers.
- ``home_changes``: the host's change of the game for the next hand, and
  the host role handed to another player.
- ``home_bots``: the bots a home game's host adds and removes.
- ``home_seats``: a home game's seat requests, and the host's approval of them.
- ``home_idle``: closing the home games where no hand has been dealt for long.
- ``common``: the errors, locks and reads the others share.

Celery work leaves through :mod:`tables.scheduling`; the services never
import ``tables.tasks``, which calls them.
"""

from __future__ import annotations

from tables.services.calls import call_under_way, calls_expire_overdue, game_call, game_call_timeout
from tables.services.chat import CHAT_RECENT_LINES, chat_post, chat_recent
from tables.services.chips import seat_auto_rebuy_set, seat_rebuy, seat_top_up
from tables.services.clock import hand_reconnect, turn_timeouts_claim_due
from tables.services.common import IllegalMove, ServiceError, StaleMove, deck_commitment
from tables.services.connections import (
    CONNECTION_HEARTBEAT_SECONDS,
    CONNECTION_STALE_SECONDS,
    connection_close,
    connection_open,
    connections_expire_stale,
    connections_refresh,
)
from tables.services.hands import (
    hand_act,
    hand_follow_up,
    hand_start,
    hand_start_and_tell,
    hand_start_if_ready,
    hand_view,
    hands_start_due,
    next_hand_pause,
)
from tables.services.home import (
    home_again_table,
    home_close,
    home_game_again,
    home_game_open,
    home_invite_redeem,
    home_invite_renew,
    home_pause,
    home_remove,
    home_resume,
)
from tables.services.home_bots import home_bot_add, home_bot_remove, home_bots_stake
from tables.services.home_changes import home_change, home_hand_over
from tables.services.home_idle import home_games_close_idle
from tables.services.home_seats import (
    home_seat_approval_set,
    home_seat_approve,
    home_seat_refuse,
    seat_request_send,
    seat_request_withdraw,
)
from tables.services.idle_seats import AWAY_STATES, idle_seat_time, seats_stand_up_idle
from tables.services.play import (
    game_call_and_deal,
    hand_play,
    seat_auto_rebuy_set_and_deal,
    seat_rebuy_and_deal,
    seat_sit_in_and_deal,
    seat_take_and_deal,
    table_open_and_deal,
)
from tables.services.seats import (
    seat_leave,
    seat_sit_in,
    seat_sit_out,
    seat_stay,
    seat_take,
    time_bank_kept_for,
)
from tables.services.tables import table_close, table_open
from tables.services.timeouts import (
    TIMEOUT_MOVES,
    TIMEOUTS_TO_SIT_OUT,
    hand_timeout,
    hands_expire_overdue,
)
from tables.services.waiting_list import waiting_join, waiting_leave, waiting_offers_expire

__all__ = [
    "AWAY_STATES",
    "CHAT_RECENT_LINES",
    "CONNECTION_HEARTBEAT_SECONDS",
    "CONNECTION_STALE_SECONDS",
    "TIMEOUTS_TO_SIT_OUT",
    "TIMEOUT_MOVES",
    "IllegalMove",
    "ServiceError",
    "StaleMove",
    "call_under_way",
    "calls_expire_overdue",
    "chat_post",
    "chat_recent",
    "connection_close",
    "connection_open",
    "connections_expire_stale",
    "connections_refresh",
    "deck_commitment",
    "game_call",
    "game_call_and_deal",
    "game_call_timeout",
    "hand_act",
    "hand_follow_up",
    "hand_play",
    "hand_reconnect",
    "hand_start",
    "hand_start_and_tell",
    "hand_start_if_ready",
    "hand_timeout",
    "hand_view",
    "hands_expire_overdue",
    "hands_start_due",
    "home_again_table",
    "home_bot_add",
    "home_bot_remove",
    "home_bots_stake",
    "home_change",
    "home_close",
    "home_game_again",
    "home_game_open",
    "home_games_close_idle",
    "home_hand_over",
    "home_invite_redeem",
    "home_invite_renew",
    "home_pause",
    "home_remove",
    "home_resume",
    "home_seat_approval_set",
    "home_seat_approve",
    "home_seat_refuse",
    "idle_seat_time",
    "next_hand_pause",
    "seat_auto_rebuy_set",
    "seat_auto_rebuy_set_and_deal",
    "seat_leave",
    "seat_rebuy",
    "seat_rebuy_and_deal",
    "seat_request_send",
    "seat_request_withdraw",
    "seat_sit_in",
    "seat_sit_in_and_deal",
    "seat_sit_out",
    "seat_stay",
    "seat_take",
    "seat_take_and_deal",
    "seat_top_up",
    "seats_stand_up_idle",
    "table_close",
    "table_open",
    "table_open_and_deal",
    "time_bank_kept_for",
    "turn_timeouts_claim_due",
    "waiting_join",
    "waiting_leave",
    "waiting_offers_expire",
]
