"""What one seat, or an observer, may see of a hand.

This is the only door from a :class:`HandState` to a client. A down card
leaves through it only to its owner, or to everyone once its owner has shown
it at the showdown; burns, the deck and mucked hands never leave, but to the
player whose hand was mucked, who is told what it was.

The one exception is ``everything=True``: staff reviewing a finished hand
(the hand history) see every down card and every burn. Nothing a player or
an observer receives may ever be built with it.
"""

from __future__ import annotations

from typing import Any

from tables.rules.cards import card_str
from tables.rules.errors import IllegalAction
from tables.rules.state import DECLARATIONS, OVER, UNKNOWN, HandState

OBSERVER = None


def view(
    state: HandState, player: int | None = OBSERVER, *, everything: bool = False
) -> dict[str, Any]:
    """The hand as ``player`` sees it (``None``: an observer).

    Cards are strings such as ``"Kd"``; a hidden down card is ``None``. With
    ``everything`` (staff only) no down card is hidden.
    """
    collected = [c - b for c, b in zip(state.committed, state.bets, strict=True)]
    live = [not f for f in state.folded]
    deciding = state.deciding()
    yours = player is not None and (player == state.to_act or player in deciding)
    return {
        "variant": state.config.variant,
        # A wild-card game the table plays high-low with declare.
        "high_low_declare": state.config.high_low_declare,
        "structure": state.config.structure,
        "street": state.street_name,
        "phase": state.phase,
        "turn": state.turn,
        "to_act": state.to_act,
        # A decision that is not a bet ("roll", "exchange", "declare"), and
        # who has yet to make it: everyone still to choose when all choose
        # at once (to_act is then None), else the player whose turn it is.
        "decision": state.decision_name,
        "deciding": deciding,
        # The viewer's own choice in a decision made at once, while the
        # others' are still hidden: {"kind": "roll", "card": "Kd"} or
        # {"kind": "declare", "choice": "low"}; None otherwise.
        "your_choice": _your_choice(state, player),
        "viewer": player,
        "players": [_seat(state, p, player, everything) for p in range(state.n)],
        "community": [card_str(c) for c in state.community],
        # What is wild, in words everyone may read ("queens and fives"); None
        # in a game without wild cards.
        "wilds": state.wild_words(),
        # Aces, Straights and Flushes: the joker in the centre, every hand's
        # seventh card (an ace, or any card that completes a straight or flush).
        "bug": state.game.evaluator.bug,
        "current_bet": state.current_bet,
        "pots": [
            {"amount": pot.amount, "eligible": list(pot.eligible)}
            for pot in state.pots_of(collected, live)
        ],
        "legal_actions": [a.to_dict() for a in state.legal_actions(player)] if yours else [],
        # The result names only shown hands, so it is the same for every viewer.
        "result": state.result if state.phase == OVER else None,
        # The viewer's own hand, mucked unshown at the showdown, in the words
        # of a shown hand in the result; None otherwise.
        "your_hand": _your_hand(state, player),
    }


def view_from(observed: dict[str, Any], state: HandState, player: int | None) -> dict[str, Any]:
    """``view(state, player)``, made from ``observed``, the observer's view of
    the same state: what only ``player`` sees is built again, and the rest is
    the observer's (the same objects: neither is to be changed). A table's
    change is shown to each of its players this way at the cost of one view.
    """
    if player is None:
        return observed
    players = list(observed["players"])
    # Every other seat shows the player what it shows an observer (see _seat).
    players[player] = _seat(state, player, player, False)
    yours = player == state.to_act or player in observed["deciding"]
    return {
        **observed,
        "your_choice": _your_choice(state, player),
        "viewer": player,
        "players": players,
        "legal_actions": [a.to_dict() for a in state.legal_actions(player)] if yours else [],
        "your_hand": _your_hand(state, player),
    }


def _seat(state: HandState, seat: int, viewer: int | None, everything: bool) -> dict[str, Any]:
    open_to_viewer = everything or seat == viewer or state.shown[seat]
    return {
        "player": seat,
        "stack": state.stacks[seat],
        "bet": state.bets[seat],
        "folded": state.folded[seat],
        # A protected player (timed out, seed 002) shows as all in; their stack
        # is still theirs and is not at risk in this hand.
        "all_in": state.is_all_in(seat),
        "protected": state.protected[seat],
        "shown": state.shown[seat],
        # Reached the showdown and mucked unshown (as everyone hears).
        "mucked": state.mucked[seat],
        # Hi-lo declare: "high", "low" or "both" once the declarations are revealed.
        "declared": state.declared[seat],
        # All the seat's cards in dealing order, each face up or down; a down
        # card the viewer may not see is None (so is one a hand history didn't
        # know). A card the viewer sees that is wild in this seat's hand says so.
        "cards": _cards(state, seat, open_to_viewer),
    }


def _cards(state: HandState, seat: int, open_to_viewer: bool) -> list[dict[str, Any]]:
    wild = state.marked_wild(seat) if open_to_viewer else state.known_wild(seat)
    if not wild:
        return [
            {"card": _card(held.card) if held.up or open_to_viewer else None, "up": held.up}
            for held in state.cards[seat]
        ]
    return [
        _held(held.card, held.up, held.up or open_to_viewer, wild) for held in state.cards[seat]
    ]


def _held(card: int, up: bool, seen: bool, wild: int) -> dict[str, Any]:
    if not seen:
        return {"card": None, "up": up}
    if card != UNKNOWN and wild >> card & 1:
        return {"card": card_str(card), "up": up, "wild": True}
    return {"card": _card(card), "up": up}


def _your_choice(state: HandState, player: int | None) -> dict[str, Any] | None:
    if player is None or state.decision is None or not state.simultaneous:
        return None
    made = state.choices[player]
    if isinstance(made, str) and made in DECLARATIONS.values():
        return {"kind": "declare", "choice": made}
    if isinstance(made, int):
        return {"kind": "roll", "card": _card(made)}
    return None


def _your_hand(state: HandState, player: int | None) -> dict[str, Any] | None:
    if player is None or not state.mucked[player]:
        return None
    try:
        return state.hand_words(player)
    except IllegalAction:  # a hand history that never knew the cards
        return None


def _card(card: int) -> str | None:
    return None if card == UNKNOWN else card_str(card)


def events_for(
    state: HandState, player: int | None = OBSERVER, *, everything: bool = False, since: int = 0
) -> list[dict[str, Any]]:
    """The hand's event log with every card the viewer may not see removed,
    from event number ``since`` on (a viewer who has the ones before).

    With ``everything`` (staff only) nothing is removed, burns included.
    """
    visible = []
    for event in state.events[since:]:
        kind = event["type"]
        hidden = kind == "burn" or (
            kind in ("deal", "exchange") and not event["up"] and event["player"] != player
        )
        if hidden and not everything:
            event = {**event, "card": None}
        if "card" in event and event["card"] is not None:
            event = {**event, "card": _card(event["card"])}
        if "cards" in event:
            event = {**event, "cards": [_card(c) for c in event["cards"]]}
        visible.append(event)
    return visible
