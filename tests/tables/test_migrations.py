"""Data steps of migrations: stored hands keep meaning what they meant."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tables.history import hand_access, hand_replay
from tables.models import Hand, Seat
from tests.tables.test_history_access import MUCK_DECK, deal_next, play_hand, seat, showdown

pytestmark = pytest.mark.django_db

ALL_IN_OPENER = importlib.import_module("tables.migrations.0007_all_in_opener")
TURN_CLOCK = importlib.import_module("tables.migrations.0010_turn_clock")


def test_hands_stored_before_the_all_in_opener_option_keep_the_old_rule(
    table, alice, bob, monkeypatch
):
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, MUCK_DECK)
    old, new = play_hand(table, showdown), play_hand(table, showdown)
    del old.state["config"]["all_in_opener"]  # as hands were stored before 0007
    old.save(update_fields=["state"])

    ALL_IN_OPENER.keep_the_old_rule(apps, None)

    old.refresh_from_db()
    assert old.state["config"]["all_in_opener"] == "best_still_betting"
    assert Hand.objects.get(pk=new.pk).state["config"]["all_in_opener"] == "next_seat"
    # The hand page replays the stored hand from its deck, and still can.
    replay = hand_replay(hand_access(alice, old), ["bob", "alice"])
    assert replay.final["phase"] == "over"


def test_banks_the_old_clock_spent_are_whole_again_after_the_turn_clock_change(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    Seat.objects.filter(player=alice).update(time_bank_ms=0)  # spent, never to be refilled
    Seat.objects.filter(player=bob).update(time_bank_ms=12_345)

    TURN_CLOCK.make_every_bank_whole(apps, None)

    assert list(Seat.objects.values_list("time_bank_ms", flat=True)) == [None, None]
