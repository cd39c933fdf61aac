"""What a client may send: frames parsed as JSON, each message type on an
allow-list with its fields checked, and the service each one asks for.

The checks are generous outer bounds; the services apply the table's own limits.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tables import services
from tables.rules.cards import parse_card
from tables.rules.errors import IllegalAction
from tables.rules.state import BET_KINDS, DECISION_KINDS, SHOWDOWN_KINDS
from tables.selectors.lobby import LobbyFilter

CHAT_MAX_CHARS = 300
MOVE_KINDS = frozenset(BET_KINDS + SHOWDOWN_KINDS + DECISION_KINDS)
# Generous outer bounds; the services apply the table's own limits.
MAX_SEAT_NUMBER = 8
MAX_CHIPS = 10**12
MAX_GAME_POSITION = 32767
MAX_USERNAME = 150


class BadMessage(ValueError):
    """A client message that is not what the protocol allows; the text says why."""


def parse_frame(text: str | None) -> Any:
    """A client's text frame as JSON, or :class:`BadMessage`.

    Refused besides what isn't JSON: nesting too deep for the parser, which
    raises RecursionError; ``NaN`` and ``Infinity``, which JSON doesn't have;
    and text that isn't valid Unicode (a lone surrogate such as ``"\\ud800"``),
    which the Redis channel layer can't pack and a browser can't be sent.
    """
    if text is None:
        raise BadMessage("send JSON in text frames")
    try:
        content = json.loads(text, parse_constant=_no_constant)
    except BadMessage:
        raise
    except RecursionError:
        raise BadMessage("the message is nested too deeply") from None
    except ValueError:
        raise BadMessage("the message is not valid JSON") from None
    if not _unicode_only(content):
        raise BadMessage("the message holds text that is not valid Unicode")
    return content


def _no_constant(name: str) -> Any:
    raise BadMessage(f"{name} is not a JSON number")


def _unicode_only(content: Any) -> bool:
    """Whether every string in ``content`` encodes as UTF-8 (no lone surrogates).

    A loop, not recursion: the parser accepts nesting deeper than Python's stack.
    """
    pending = [content]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return False
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return True


# ------------------------------------------------------------ message checks


def _int_field(message: dict[str, Any], name: str, low: int, high: int) -> int:
    value = message.get(name)
    if type(value) is not int or not low <= value <= high:
        raise BadMessage(f"{name!r} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _only_fields(message: dict[str, Any], *allowed: str) -> None:
    extra = sorted(set(message) - {"type", *allowed})
    if extra:
        raise BadMessage(f"unexpected field(s) for {message['type']!r}: {', '.join(extra)}")


def _check_sit(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "seat", "buy_in")
    return {
        "seat_number": _int_field(message, "seat", 1, MAX_SEAT_NUMBER),
        "buy_in": _int_field(message, "buy_in", 1, MAX_CHIPS),
    }


def _check_act(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "action", "amount", "cards", "turn", "hand")
    kind = message.get("action")
    if not isinstance(kind, str) or kind not in MOVE_KINDS:
        raise BadMessage(f"'action' must be one of {', '.join(sorted(MOVE_KINDS))}, not {kind!r}")
    amount = message.get("amount")
    if amount is not None:
        amount = _int_field(message, "amount", 0, MAX_CHIPS)
    hand = message.get("hand")
    if hand is not None:
        hand = _int_field(message, "hand", 1, 2**63 - 1)
    turn = _int_field(message, "turn", 0, 2**31 - 1)
    cards = _cards_field(message)
    return {"kind": kind, "amount": amount, "cards": cards, "version": turn, "hand_id": hand}


def _cards_field(message: dict[str, Any]) -> list[int] | None:
    """A roll's or an exchange's card: ``"cards": ["Kd"]``, one card named."""
    named = message.get("cards")
    if named is None:
        return None
    if not isinstance(named, list) or len(named) != 1 or not isinstance(named[0], str):
        raise BadMessage("'cards' must be a list of one card, such as [\"Kd\"]")
    try:
        return [parse_card(named[0])]
    except IllegalAction:
        raise BadMessage(f"'cards' must name a card such as \"Kd\", not {named[0]!r}") from None


def _check_call(message: dict[str, Any]) -> dict[str, Any]:
    """The dealer's call: ``"game"`` is the game's position in the table's list."""
    _only_fields(message, "game")
    return {"game": _int_field(message, "game", 0, MAX_GAME_POSITION)}


def _check_chat(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "text")
    text = message.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > CHAT_MAX_CHARS:
        raise BadMessage(f"'text' must be 1 to {CHAT_MAX_CHARS} characters of text")
    return {"text": text}


def _check_amount(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "amount")
    return {"amount": _int_field(message, "amount", 1, MAX_CHIPS)}


def _check_auto_rebuy(message: dict[str, Any]) -> dict[str, Any]:
    """``amount`` is required, and null turns auto-rebuy off."""
    _only_fields(message, "amount")
    if "amount" not in message:
        raise BadMessage("'auto_rebuy' needs 'amount': a number of chips, or null for off")
    if message["amount"] is None:
        return {"amount": None}
    return _check_amount(message)


def _check_player(message: dict[str, Any]) -> dict[str, Any]:
    """A host's command about a player: ``"player"`` is their username."""
    _only_fields(message, "player")
    name = message.get("player")
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_USERNAME:
        raise BadMessage(f"'player' must be a player's username, not {name!r}")
    return {"username": name}


def _check_switch(message: dict[str, Any]) -> dict[str, Any]:
    """A host's switch: ``"on"`` is true or false."""
    _only_fields(message, "on")
    on = message.get("on")
    if type(on) is not bool:
        raise BadMessage(f"'on' must be true or false, not {on!r}")
    return {"on": on}


def _check_bare(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message)
    return {}


def _check_snapshot(message: dict[str, Any]) -> dict[str, Any]:
    """``replay`` (default true): false for a client that keeps no hand log, as
    bots don't, so the reply brings only the events it hasn't been sent."""
    _only_fields(message, "replay")
    replay = message.get("replay", True)
    if type(replay) is not bool:
        raise BadMessage("'replay' must be true or false")
    return {"replay": replay}


LOBBY_FILTERS = ("variant", "structure", "stakes", "games")


def lobby_filters(message: dict[str, Any]) -> dict[str, Any]:
    """The lobby filters a ``filter`` message asks for, checked like the page's."""
    _only_fields(message, *LOBBY_FILTERS)
    for name in ("variant", "structure", "games"):
        value = message.get(name)
        if value is not None and not isinstance(value, str):
            raise BadMessage(f"'{name}' must be text or null, not {value!r}")
    stakes = message.get("stakes")
    if stakes not in (None, "") and type(stakes) is not int:
        raise BadMessage(f"'stakes' must be a stakes id or null, not {stakes!r}")
    form = LobbyFilter({key: message.get(key) or "" for key in LOBBY_FILTERS})
    if not form.is_valid():
        # Each error is text at run time; the stubs allow a lazy string too, which str() resolves.
        problems = "; ".join(
            f"{name}: {' '.join(map(str, errors))}" for name, errors in form.errors.items()
        )
        raise BadMessage(problems)
    return {name: value for name, value in form.cleaned_data.items() if value}


# ------------------------------------------------------------- the allow-list

Checker = Callable[[dict[str, Any]], dict[str, Any]]
# Each service is called with the table, the player and the checked fields.
Service = Callable[..., object]
# A move checks the socket's login in its own first round trip to the
# database: it is called with ``login=`` too (a LoginCheck), and raises
# NoLongerCurrent, changing nothing, when the login has ended. It is also
# called with ``received_at=``, when the socket received it: the player's
# clock stops as their move arrives, not when a busy server gets to it.
MOVES: frozenset[Service] = frozenset({services.hand_play})
MESSAGES: dict[str, tuple[Checker, Service | None]] = {
    "sit": (_check_sit, services.seat_take_and_deal),
    "act": (_check_act, services.hand_play),
    "call_game": (_check_call, services.game_call_and_deal),
    "leave": (_check_bare, services.seat_leave),
    "stay": (_check_bare, services.seat_stay),
    "sit_out": (_check_bare, services.seat_sit_out),
    "sit_in": (_check_bare, services.seat_sit_in_and_deal),
    "top_up": (_check_amount, services.seat_top_up),
    "rebuy": (_check_amount, services.seat_rebuy_and_deal),
    "auto_rebuy": (_check_auto_rebuy, services.seat_auto_rebuy_set_and_deal),
    "wait": (_check_bare, services.waiting_join),
    "unwait": (_check_bare, services.waiting_leave),
    # A home game's host runs it (tables.services.home); anyone else is refused.
    "home_pause": (_check_bare, services.home_pause),
    "home_resume": (_check_bare, services.home_resume),
    "home_remove": (_check_player, services.home_remove),
    "home_close": (_check_bare, services.home_close),
    # The host adds a bot (seated at once) and removes one by its username.
    "home_bot_add": (_check_bare, services.home_bot_add),
    "home_bot_remove": (_check_player, services.home_bot_remove),
    "home_hand_over": (_check_player, services.home_hand_over),
    # Where the host approves each seat (tables.services.home_seats): a member
    # asks for a seat, and may withdraw the request; the host answers it.
    "seat_request": (_check_sit, services.seat_request_send),
    "seat_request_withdraw": (_check_bare, services.seat_request_withdraw),
    "home_approval": (_check_switch, services.home_seat_approval_set),
    "home_approve": (_check_player, services.home_seat_approve),
    "home_refuse": (_check_player, services.home_seat_refuse),
    "chat": (_check_chat, None),
    "snapshot": (_check_snapshot, None),
}
# Anyone may watch (and ask for the table again); every other message, each
# service and chat, needs a logged-in player.
OPEN_TO_ALL = frozenset({"snapshot"})
NEEDS_LOGIN = frozenset(MESSAGES) - OPEN_TO_ALL
