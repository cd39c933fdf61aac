"""Players, stakes and a table for the table services' tests.

Every persona signs up through ``accounts.services.user_signup``, so each starts
with the configured grant recorded in the ledger, like a real player.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.models import Hand, HandResult, PlayerDay, RakeRule, Stakes, Table
from tables.rules import HandState


@pytest.fixture
def grant() -> int:
    """The chips each persona starts with."""
    return settings.CARDROOM_SIGNUP_GRANT


@pytest.fixture
def quick_passwords(settings: Any) -> None:
    """MD5 instead of PBKDF2 for the personas: these tests are about chips, not logins."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db: None, quick_passwords: None) -> User:
    """Sits first (seat 1); the player most tests move and refuse."""
    return user_signup(username="alice", password="alice-pw-1234")


@pytest.fixture
def bob(db: None, quick_passwords: None) -> User:
    """Sits beside alice (seat 2); the usual other player in a heads-up hand."""
    return user_signup(username="bob", password="bob-pw-1234")


@pytest.fixture
def carol(db: None, quick_passwords: None) -> User:
    """The third player (seat 4, leaving seat 3 empty), or the one not dealt in."""
    return user_signup(username="carol", password="carol-pw-1234")


@pytest.fixture
def stakes(db: None) -> Stakes:
    """Stud 5/10, ante 1, bring-in 2, buy-in 50 to 500, rake 5% capped at 3."""
    rake = RakeRule.objects.create(name="5% cap 3", percent=5, cap=3)
    return Stakes.objects.create(
        name="Stud 5/10",
        variant="stud",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        min_buy_in=50,
        max_buy_in=500,
        rake=rake,
    )


@pytest.fixture
def table(stakes: Stakes) -> Table:
    return Table.objects.create(name="Table 1", stakes=stakes)


def engine(hand: Hand) -> HandState:
    """The hand's engine state as stored now."""
    hand.refresh_from_db()
    return HandState.from_dict(hand.state)


def player_to_act(hand: Hand) -> int:
    """The user id of the player whose turn it is."""
    state = engine(hand)
    return hand.seating["players"][state.to_act]["player"]


Strategy = Callable[[HandState], tuple[str, int | None]]


def play_out(hand: Hand, choose: Strategy, now: datetime.datetime | None = None) -> Hand:
    """Drive a hand to its end through ``hand_act``, the move picked by ``choose``.

    Every move is made at ``now`` (default: the current time), so the hand ends then.
    """
    while not engine(hand).finished:
        kind, amount = choose(engine(hand))
        services.hand_act(
            hand_id=hand.pk,
            player_id=player_to_act(hand),
            kind=kind,
            amount=amount,
            version=hand.version,
            now=now,
        )
    hand.refresh_from_db()
    return hand


def bet_and_call(state: HandState) -> tuple[str, int | None]:
    """Open every street with the smallest full wager, never raise, never fold."""
    options = {option.kind: option for option in state.legal_actions()}
    for kind in ("complete", "bet"):
        if kind in options:
            return kind, options[kind].amounts[0]
    for kind in ("call", "check", "bring_in"):
        if kind in options:
            return kind, None
    raise AssertionError(f"no passive move among {list(options)}")


# The activity report's summary of who played where and when (PlayerDay).

PlayerDayRow = tuple[datetime.date, int, int, int]  # day, table, stakes, player


def player_days() -> set[PlayerDayRow]:
    """The summary's rows as they are."""
    return set(PlayerDay.objects.values_list("day", "table_id", "stakes_id", "player_id"))


def player_days_from_results() -> set[PlayerDayRow]:
    """The rows the summary should hold, worked out here from every finished hand's
    results, with each day the site's time zone's when the hand ended."""
    results = HandResult.objects.filter(hand__ended_at__isnull=False).select_related("hand__table")
    return {
        (timezone.localdate(r.hand.ended_at), r.hand.table_id, r.hand.table.stakes_id, r.player_id)
        for r in results
    }


def player_days_redo() -> None:
    """Write the summary again from the results: for tests that move finished hands
    to other times, which the services never do."""
    PlayerDay.objects.all().delete()
    PlayerDay.objects.bulk_create(
        PlayerDay(day=day, table_id=table, stakes_id=stakes, player_id=player)
        for day, table, stakes, player in player_days_from_results()
    )
