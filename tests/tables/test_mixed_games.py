"""A table whose game changes hand by hand: a rotation, and dealer's choice.

The services pick each hand's game at the deal (``tables.services.games``):
a rotation moves on after its count of hands or its orbit, skipping the games
the players don't fit; at dealer's choice the next hand's dealer calls the
game (``tables.services.calls``), or the table deals its default.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import user_signup
from tables import services, tasks
from tables.models import Hand, Seat, Stakes, Table, TableGame
from tables.rules import HandState
from tables.rules.formats.phh import read_phh
from tables.selectors.games import coming, orbit_done, orbit_hands_left
from tables.services.clock import timeout_due
from tests.tables.conftest import Worker, play_out, wait_until
from tests.tables.test_history_access import folds

pytestmark = pytest.mark.django_db

BUY_IN = 200


def mixed(stakes: Stakes, policy: str, variants: list[str], **options: object) -> Table:
    """A table of ``policy`` dealing ``variants`` with the stakes' sizes."""
    table = Table.objects.create(name=f"Mixed {policy}", stakes=stakes, policy=policy, **options)
    for position, variant in enumerate(variants):
        TableGame.objects.create(table=table, position=position, variant=variant)
    return table


def sit(table: Table, *players: User, first_seat: int = 1) -> None:
    for number, player in enumerate(players, start=first_seat):
        services.seat_take(
            table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=BUY_IN
        )


def finish(hand: Hand) -> Hand:
    """Play the hand out: everyone folds as soon as they may, but the last to act."""
    state = HandState.from_dict(hand.state)
    quitters = [User.objects.get(pk=p) for p in hand.player_ids()[: len(state.stacks) - 1]]
    choose = folds(*quitters)
    return play_out(hand, lambda state: choose(hand, state))


def deal_and_finish(table: Table) -> Hand:
    hand = services.hand_start(table_id=table.pk)
    assert hand is not None, "the table called for a dealer's call"
    return finish(hand)


def variants_dealt(table: Table, hands: int) -> list[str]:
    return [deal_and_finish(table).variant for _ in range(hands)]


@pytest.fixture
def players(db: None, quick_passwords: None) -> list[User]:
    return [user_signup(username=f"player{n}", password=f"pw-{n}-secret") for n in range(1, 9)]


# ---------------------------------------------------------------- rotation


def test_a_rotation_changes_game_after_its_count_of_hands(
    stakes: Stakes, alice: User, bob: User
) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["stud", "razz", "stud8"], rotate_hands=2)
    sit(table, alice, bob)
    dealt = variants_dealt(table, 7)
    assert dealt == ["stud", "stud", "razz", "razz", "stud8", "stud8", "stud"]
    # Every hand records its place in the list, and its game in words.
    hands = list(table.hands.order_by("number"))
    assert [hand.game_position for hand in hands] == [0, 0, 1, 1, 2, 2, 0]
    assert hands[2].game.startswith("Razz, 5/10")


def test_the_game_changes_only_between_hands(stakes: Stakes, alice: User, bob: User) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["stud", "razz"], rotate_hands=1)
    sit(table, alice, bob)
    hand = services.hand_start(table_id=table.pk)
    assert hand is not None and hand.variant == "stud"
    # While the hand runs no deal happens, and the table keeps its game.
    assert services.hand_start_if_ready(table_id=table.pk) is None
    table.refresh_from_db()
    assert table.game_position == 0
    finish(hand)
    assert deal_and_finish(table).variant == "razz"


def test_a_rotation_by_orbit_changes_when_the_deal_comes_round(
    stakes: Stakes, alice: User, bob: User, carol: User
) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["stud", "razz"], rotate_hands=0)
    sit(table, alice, bob, carol)
    hands = [deal_and_finish(table) for _ in range(7)]
    assert [hand.dealer_seat for hand in hands] == [1, 2, 3, 1, 2, 3, 1]
    assert [hand.variant for hand in hands] == ["stud"] * 3 + ["razz"] * 3 + ["stud"]


def test_an_orbit_ends_when_the_button_passes_a_seat_that_left(
    stakes: Stakes, alice: User, bob: User, carol: User
) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["stud", "razz"], rotate_hands=0)
    sit(table, alice, bob, carol)
    first = deal_and_finish(table)
    assert first.dealer_seat == 1
    services.seat_leave(table_id=table.pk, player_id=alice.pk)  # the orbit's first dealer
    # The button goes 2, 3, then passes seat 1, now empty: the orbit is over at 2.
    assert [deal_and_finish(table).variant for _ in range(3)] == ["stud", "stud", "razz"]


def test_a_rotation_skips_the_games_the_players_dont_fit(
    stakes: Stakes, players: list[User]
) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["stud", "roll_your_own", "razz"], rotate_hands=1)
    sit(table, *players[:7])  # roll your own is dealt to six at most
    assert variants_dealt(table, 3) == ["stud", "razz", "stud"]
    services.seat_leave(table_id=table.pk, player_id=players[6].pk)
    assert variants_dealt(table, 2) == ["roll_your_own", "razz"]


def test_a_list_with_no_game_for_the_players_deals_the_stakes_game(
    stakes: Stakes, players: list[User]
) -> None:
    """The admin refuses such a list for a full table; seats added to the stakes
    afterwards can still bring more players than any game of it takes."""
    table = mixed(stakes, Table.Policy.ROTATION, ["roll_your_own", "baseball"], rotate_hands=1)
    sit(table, *players[:8])
    hand = deal_and_finish(table)
    assert (hand.variant, hand.game_position) == ("stud", None)


def test_what_is_coming_counts_down_and_names_the_next_game(
    stakes: Stakes, alice: User, bob: User
) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["razz", "stud8"], rotate_hands=3)
    sit(table, alice, bob)
    deal_and_finish(table)
    table.refresh_from_db()
    ahead = coming(table, list(table.games.all()), [1, 2], 1)
    assert ahead.words(table.policy) == (
        "Razz · 2 more hands, then Seven-card stud hi-lo, eight or better"
    )
    deal_and_finish(table)
    deal_and_finish(table)
    table.refresh_from_db()
    ahead = coming(table, list(table.games.all()), [1, 2], 1)
    assert ahead.words(table.policy) == "Razz · Seven-card stud hi-lo, eight or better next"


def test_orbit_arithmetic() -> None:
    assert orbit_done(began=3, last=3, dealer=5) is False
    assert orbit_done(began=3, last=8, dealer=3) is True
    assert orbit_done(began=3, last=5, dealer=3) is True
    assert orbit_hands_left(began=3, last=3, seats=[1, 3, 5, 7]) == 3
    assert orbit_hands_left(began=3, last=1, seats=[1, 3, 5, 7]) == 0


# ---------------------------------------------------------- dealer's choice


@pytest.fixture
def choice(stakes: Stakes, alice: User, bob: User) -> Table:
    """Dealer's choice of stud, Baseball and roll your own, alice and bob seated."""
    table = mixed(stakes, Table.Policy.DEALERS_CHOICE, ["stud", "baseball", "roll_your_own"])
    sit(table, alice, bob)
    return table


def begin_call(table: Table) -> Table:
    """Ask the table to deal, past the pause after its last hand: its dealer calls."""
    later = timezone.now() + services.next_hand_pause() + SECOND
    assert services.hand_start_if_ready(table_id=table.pk, now=later) is None
    table.refresh_from_db()
    assert table.call_seat is not None
    return table


def test_the_dealer_calls_the_game_and_it_is_dealt(choice: Table, alice: User) -> None:
    table = begin_call(choice)
    assert (table.call_seat, table.call_player_id) == (1, alice.pk)
    assert table.call_expires_at - table.call_deadline == datetime.timedelta(
        seconds=table.stakes.time_bank_seconds
    )
    hand = services.game_call(table_id=table.pk, player_id=alice.pk, game=1)
    assert hand is not None and hand.variant == "baseball"
    assert hand.call == {"by": "alice", "how": "called"}
    assert hand.dealer_seat == 1
    table.refresh_from_db()
    assert table.call_seat is None and table.called is None


def test_each_hand_has_its_dealers_call(choice: Table, alice: User, bob: User) -> None:
    table = begin_call(choice)
    finish(services.game_call(table_id=table.pk, player_id=alice.pk, game=1))
    table = begin_call(table)
    assert table.call_player_id == bob.pk  # the button moved on to bob
    hand = services.game_call(table_id=table.pk, player_id=bob.pk, game=2)
    assert (hand.variant, hand.call) == ("roll_your_own", {"by": "bob", "how": "called"})


def test_the_dealer_who_called_deals_though_a_player_sat_down_during_the_call(
    stakes: Stakes, alice: User, bob: User, carol: User
) -> None:
    table = mixed(stakes, Table.Policy.DEALERS_CHOICE, ["stud", "baseball"])
    sit(table, alice, bob, first_seat=3)
    table = begin_call(table)
    assert (table.call_seat, table.call_player_id) == (3, alice.pk)
    # carol sits down before alice's seat while alice calls: were the button
    # worked out again at the deal, it would be carol's.
    sit(table, carol, first_seat=1)
    hand = services.game_call(table_id=table.pk, player_id=alice.pk, game=1)
    assert hand is not None and hand.player_names()[-1] == "alice"
    assert (hand.dealer_seat, hand.call) == (3, {"by": "alice", "how": "called"})
    # The button goes round from there: the next call is bob's, at seat 4.
    finish(hand)
    assert begin_call(table).call_player_id == bob.pk


def test_a_call_made_by_a_dealer_who_then_left_deals_from_the_next_seat(
    stakes: Stakes, alice: User, bob: User, carol: User
) -> None:
    table = mixed(stakes, Table.Policy.DEALERS_CHOICE, ["stud", "baseball"])
    sit(table, alice, bob, carol)
    table = begin_call(table)
    Table.objects.filter(pk=table.pk).update(paused=True)  # the call stands, no deal
    assert services.game_call(table_id=table.pk, player_id=alice.pk, game=1) is None
    services.seat_leave(table_id=table.pk, player_id=alice.pk)
    Table.objects.filter(pk=table.pk).update(paused=False)
    hand = services.hand_start(table_id=table.pk)
    assert hand is not None and hand.variant == "baseball"
    assert (hand.dealer_seat, hand.call) == (2, {"by": "alice", "how": "called"})


@pytest.mark.parametrize(
    ("who", "game", "error"),
    [
        ("bob", 1, "it is alice's call, not yours"),
        ("alice", 7, "there is no game 7 on this table's list"),
    ],
)
def test_a_bad_call_is_refused_and_changes_nothing(
    choice: Table, alice: User, bob: User, who: str, game: int, error: str
) -> None:
    table = begin_call(choice)
    player = {"alice": alice, "bob": bob}[who]
    with pytest.raises(services.ServiceError, match=error):
        services.game_call(table_id=table.pk, player_id=player.pk, game=game)
    assert not table.hands.exists()
    after = Table.objects.get(pk=table.pk)
    assert (after.call_seat, after.call_number, after.called) == (1, table.call_number, None)


def test_a_game_the_players_dont_fit_is_not_offered_nor_callable(
    stakes: Stakes, players: list[User]
) -> None:
    table = mixed(stakes, Table.Policy.DEALERS_CHOICE, ["stud", "roll_your_own"])
    sit(table, *players[:7])
    table = begin_call(table)
    with pytest.raises(services.ServiceError, match="at most 6 players, and 7 are dealt in"):
        services.game_call(table_id=table.pk, player_id=players[0].pk, game=1)
    assert not table.hands.exists()


def test_a_dealer_who_left_can_no_longer_call(choice: Table, alice: User) -> None:
    table = begin_call(choice)
    services.seat_leave(table_id=table.pk, player_id=alice.pk)
    with pytest.raises(services.ServiceError, match="no longer sit in the dealer's seat"):
        services.game_call(table_id=table.pk, player_id=alice.pk, game=1)
    assert not table.hands.exists()


def test_a_call_for_a_hand_already_dealt_is_refused(choice: Table, alice: User) -> None:
    table = begin_call(choice)
    hand = services.game_call(table_id=table.pk, player_id=alice.pk, game=0)
    with pytest.raises(services.ServiceError, match=f"hand #{hand.number} is already dealt"):
        services.game_call(table_id=table.pk, player_id=alice.pk, game=1)
    assert table.hands.count() == 1


def test_the_default_is_dealt_once_when_the_dealers_time_runs_out(
    choice: Table, alice: User, bob: User
) -> None:
    table = begin_call(choice)
    number, expires = table.call_number, table.call_expires_at
    early = services.game_call_timeout(table_id=table.pk, call=number, now=expires - SECOND)
    assert early is None and not table.hands.exists()
    # The timeout waits a moment after the time runs out, for a call on its way.
    assert services.game_call_timeout(table_id=table.pk, call=number, now=expires) is None
    hand = services.game_call_timeout(table_id=table.pk, call=number, now=timeout_due(expires))
    # Before any game was dealt, the last game dealt is the list's first.
    assert (hand.variant, hand.call) == ("stud", {"by": "alice", "how": "timed_out"})
    # The same timeout again, and a late one for an older call, change nothing.
    due = timeout_due(expires)
    assert services.game_call_timeout(table_id=table.pk, call=number, now=due) is None
    assert services.game_call_timeout(table_id=table.pk, call=number - 1, now=due) is None
    assert table.hands.count() == 1
    # A call made after its time ran out finds the hand dealt.
    with pytest.raises(services.ServiceError, match="already dealt"):
        services.game_call(table_id=table.pk, player_id=alice.pk, game=1)


SECOND = datetime.timedelta(seconds=1)


@pytest.mark.parametrize(("default", "expected"), [("last", "baseball"), ("first", "stud")])
def test_the_default_is_the_last_game_or_the_lists_first(
    choice: Table, alice: User, bob: User, default: str, expected: str
) -> None:
    Table.objects.filter(pk=choice.pk).update(choice_default=default)
    table = begin_call(choice)
    finish(services.game_call(table_id=table.pk, player_id=alice.pk, game=1))
    table = begin_call(table)
    hand = services.game_call_timeout(
        table_id=table.pk, call=table.call_number, now=timeout_due(table.call_expires_at)
    )
    assert hand.variant == expected


def test_an_away_dealer_gets_the_default_at_once(choice: Table, alice: User) -> None:
    Seat.objects.filter(table=choice, player=alice).update(state=Seat.State.DISCONNECTED)
    hand = services.hand_start_if_ready(table_id=choice.pk)
    assert hand is not None
    assert hand.call == {"by": "alice", "how": "away"}
    choice.refresh_from_db()
    assert choice.call_seat is None


def test_overdue_calls_are_swept(choice: Table) -> None:
    table = begin_call(choice)
    assert services.calls_expire_overdue(now=table.call_expires_at - SECOND) == []
    assert services.calls_expire_overdue(now=table.call_expires_at) == []  # the timeout's wait
    [hand] = services.calls_expire_overdue(now=table.call_expires_at + SECOND)
    assert isinstance(hand, Hand) and hand.call["how"] == "timed_out"


def test_a_call_for_the_orbit_holds_until_the_deal_comes_round(
    stakes: Stakes, alice: User, bob: User, carol: User
) -> None:
    table = mixed(stakes, Table.Policy.DEALERS_CHOICE, ["stud", "razz"], choice_for="orbit")
    sit(table, alice, bob, carol)
    table = begin_call(table)
    first = finish(services.game_call(table_id=table.pk, player_id=alice.pk, game=1))
    rest = [deal_and_finish(table) for _ in range(2)]  # no call: the orbit's game
    assert [hand.variant for hand in [first, *rest]] == ["razz"] * 3
    assert [hand.call for hand in rest] == [None, None]
    table = begin_call(table)  # back round to alice: a new call
    assert table.call_player_id == alice.pk


def test_closing_the_table_calls_the_call_off(choice: Table) -> None:
    table = begin_call(choice)
    services.table_close(table_id=table.pk)
    table.refresh_from_db()
    assert table.call_seat is None
    assert services.game_call_timeout(table_id=table.pk, call=table.call_number) is None
    assert not table.hands.exists()


def test_the_sweep_does_not_deal_while_the_dealer_calls(choice: Table) -> None:
    begin_call(choice)
    later = timezone.now() + datetime.timedelta(seconds=2)
    assert services.hands_start_due(now=later) == 0
    assert not choice.hands.exists()


def test_editing_the_list_changes_no_past_hand(stakes: Stakes, alice: User, bob: User) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["razz", "stud8"], rotate_hands=1)
    sit(table, alice, bob)
    hands = [deal_and_finish(table) for _ in range(2)]
    TableGame.objects.filter(table=table).update(variant="stud")
    Stakes.objects.filter(pk=stakes.pk).update(small_bet=F("small_bet") * 2)
    assert [Hand.objects.get(pk=h.pk).variant for h in hands] == ["razz", "stud8"]
    assert [Hand.objects.get(pk=h.pk).small_bet for h in hands] == [5, 5]


# ------------------------------------------------------- history and exports


def test_each_hand_of_a_mixed_table_keeps_its_own_game_in_history_and_exports(
    stakes: Stakes, alice: User, bob: User
) -> None:
    """A rotation of razz and stud hi-lo: each hand's page, export and My hands
    row say its own game, and editing the list afterwards changes none of them."""
    table = mixed(stakes, Table.Policy.ROTATION, ["razz", "stud8"], rotate_hands=1)
    sit(table, alice, bob)
    razz, stud8 = deal_and_finish(table), deal_and_finish(table)
    TableGame.objects.filter(table=table).update(variant="stud")
    client = Client()
    client.force_login(alice)
    for hand, code, words in (
        (razz, "FR", "Razz, 5/10"),
        (stud8, "F7S/8", "Seven-card stud hi-lo"),
    ):
        phh = read_phh(client.get(reverse("export_hand", args=[hand.pk, "phh"])).content.decode())
        assert phh.fields["variant"] == code
        assert words in client.get(reverse("hand_detail", args=[hand.pk])).content.decode()
    listing = client.get(reverse("my_hands"), {"variant": "razz"}).content.decode()
    assert f'data-hand="{razz.pk}"' in listing and f'data-hand="{stud8.pk}"' not in listing


# ------------------------------------------------- a real worker and Redis


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_deals_the_default_when_the_dealers_time_runs_out(
    start_worker: Callable[..., Worker], stakes: Stakes, alice: User, bob: User
) -> None:
    Stakes.objects.filter(pk=stakes.pk).update(action_seconds=5, time_bank_seconds=0)
    table = mixed(Stakes.objects.get(pk=stakes.pk), Table.Policy.DEALERS_CHOICE, ["razz", "stud"])
    start_worker()
    sit(table, alice, bob)
    began = time.monotonic()
    # The call begins, and commits: its timeout task goes to the worker.
    assert services.hand_start_if_ready(table_id=table.pk) is None
    hand = wait_until(lambda: table.hands.first(), "the default game dealt", seconds=40)
    assert time.monotonic() - began >= 5  # not before the dealer's five seconds
    assert (hand.variant, hand.call) == ("razz", {"by": "alice", "how": "timed_out"})


def test_beat_sweeps_the_overdue_calls_with_the_turns(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-safety-nets"]
    assert entry["task"] == "tables.tasks.sweep_safety_nets"
    assert {tasks.expire_overdue_calls, tasks.sweep_overdue_turns} <= set(tasks.SAFETY_NETS)
