"""A home game's host changes the game for the next hand, and hands the host
role to another player; each refused to everyone else, changing nothing.

Personas: alice hosts the game she opened from the form (dealer's choice of
stud, Baseball and razz at spread 5-20, seven seats), and sits in seat 1;
bob, a member by the invite link, sits in seat 2 and is the player she
hands the role to; carol is a member too, who may see the table but not run
it; dave is a stranger, for whom the table doesn't exist.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.models import Hand, HomeBot, HomeRules, Seat, Table, TableGame, TableMember
from tables.selectors.snapshots import build_snapshot, read_table
from tables.services.home import NotFound
from tables.services.home_changes import HomeChange, SeatsTaken
from tests.tables.conftest import bet_and_call, play_out, session_of
from tests.tables.test_consumers import room, run
from tests.tables.test_home_games import FORM, client_of, open_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(alice: User, bob: User, carol: User) -> Table:
    """Alice's dealer's-choice home game, with bob and carol let in by its link."""
    table = open_game(alice)
    for friend in (bob, carol):
        TableMember.objects.create(table=table, player=friend)
    return table


@pytest.fixture
def fixed(alice: User, bob: User, carol: User) -> Table:
    """Alice's home game of stud alone, every hand: it deals without a call."""
    table = open_game(alice, name="Stud night", policy="fixed", games=["stud"])
    for friend in (bob, carol):
        TableMember.objects.create(table=table, player=friend)
    return table


def sit(table: Table, player: User, number: int, buy_in: int = 200) -> None:
    services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=buy_in)


def snapshot_of(table: Table, player_id: int | None) -> dict[str, Any]:
    rows = read_table(table.pk)
    assert rows is not None
    return build_snapshot(rows, player_id, None, with_events=False).payload


def change_of(table: Table, **changes: Any) -> HomeChange:
    """The table's game as it stands, with ``changes`` (stakes' fields, or
    ``policy``, ``variants`` and ``rotate_hands``)."""
    table.refresh_from_db()
    stakes = table.stakes
    games = list(TableGame.objects.filter(table=table).values_list("variant", flat=True))
    variants = changes.pop("variants", games or [stakes.variant])
    policy = changes.pop("policy", table.policy)
    rotate = changes.pop("rotate_hands", table.rotate_hands)
    for name, value in changes.items():
        setattr(stakes, name, value)
    return HomeChange(stakes=stakes, policy=policy, variants=variants, rotate_hands=rotate)


def change(table: Table, player: User, **changes: Any) -> dict[str, Any]:
    made = change_of(table, **changes)
    return services.home_change(table_id=table.pk, player_id=player.pk, change=made)


def terms(table: Table) -> tuple[Any, ...]:
    """The game a table deals: its policy, list and sizes, as stored."""
    table.refresh_from_db()
    s = table.stakes
    games = list(TableGame.objects.filter(table=table).values_list("variant", flat=True))
    return (table.policy, games, s.structure, s.small_bet, s.big_bet, s.seats, s.action_seconds)


def state_of(table: Table) -> tuple[Any, ...]:
    """Everything a refused command must leave as it was."""
    table.refresh_from_db()
    members = sorted(TableMember.objects.filter(table=table).values_list("player_id", flat=True))
    return (*terms(table), table.host_id, table.pending_change, members)


# Each power, called by ``player`` at ``table``.
POWERS: dict[str, Callable[[Table, User], object]] = {
    "change": lambda table, player: change(table, player, small_bet=4),
    "hand_over": lambda table, player: services.home_hand_over(
        table_id=table.pk, player_id=player.pk, username="bob"
    ),
}


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize("power", sorted(POWERS))
def test_a_member_who_isnt_the_host_is_refused_clearly(
    power: str, home: Table, carol: User
) -> None:
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="only Friday stud's host may do that"):
        POWERS[power](home, carol)
    assert state_of(home) == before


@pytest.mark.parametrize("power", sorted(POWERS))
def test_a_stranger_is_told_the_table_doesnt_exist(power: str, home: Table, dave: User) -> None:
    before = state_of(home)
    with pytest.raises(NotFound, match=f"there is no table #{home.pk}"):
        POWERS[power](home, dave)
    assert state_of(home) == before


@pytest.mark.parametrize("power", sorted(POWERS))
def test_a_closed_game_takes_neither(power: str, home: Table, alice: User) -> None:
    services.home_close(table_id=home.pk, player_id=alice.pk)
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="Friday stud is closed"):
        POWERS[power](home, alice)
    assert state_of(home) == before


# ------------------------------------------------------------- the change


def test_with_no_hand_in_play_the_change_is_made_at_once(home: Table, alice: User) -> None:
    stored = change(
        home, alice, policy="rotation", variants=["razz", "stud"], rotate_hands=3, big_bet=15
    )
    assert stored["applied"] is True
    assert (
        stored["words"]
        == "a rotation of Razz, Seven-card stud (3 hands each); spread 5-15, ante 1, bring-in 2"
    )
    assert terms(home) == ("rotation", ["razz", "stud"], "spread", 5, 15, 7, 20)
    assert home.rotate_hands == 3


def test_a_change_in_a_hand_waits_for_the_next_deal(fixed: Table, alice: User, bob: User) -> None:
    sit(fixed, alice, 1)
    sit(fixed, bob, 2)
    hand = services.hand_start(table_id=fixed.pk)
    assert hand is not None and (hand.small_bet, hand.big_bet) == (5, 20)
    stored = change(fixed, alice, small_bet=10, big_bet=40, action_seconds=30)
    assert stored["applied"] is False
    assert stored["words"] == "spread 10-40, ante 1, bring-in 2; 30 seconds to act"
    assert terms(fixed)[3:] == (5, 20, 7, 20)  # the hand in play keeps its game
    play_out(hand, bet_and_call)
    nxt = services.hand_start(table_id=fixed.pk)
    assert nxt is not None and (nxt.small_bet, nxt.big_bet) == (10, 40)
    assert terms(fixed)[3:] == (10, 40, 7, 30)
    fixed.refresh_from_db()
    assert fixed.pending_change["applied"] is True
    # The first hand's history keeps its own sizes.
    hand.refresh_from_db()
    assert (hand.small_bet, hand.big_bet, hand.game) == (
        5,
        20,
        "Seven-card stud, spread 5-20, ante 1, bring-in 2",
    )
    page = client_of(alice).get(reverse("hand_detail", args=[hand.pk])).content.decode()
    assert "spread 5-20" in page and "spread 10-40" not in page


def test_a_second_change_before_the_deal_replaces_the_first(
    fixed: Table, alice: User, bob: User
) -> None:
    sit(fixed, alice, 1)
    sit(fixed, bob, 2)
    hand = services.hand_start(table_id=fixed.pk)
    assert hand is not None
    change(fixed, alice, small_bet=10, big_bet=40)
    second = change(fixed, alice, policy="fixed", variants=["razz"], variant="razz")
    assert (second["number"], second["words"]) == (2, "Razz, every hand")
    play_out(hand, bet_and_call)
    nxt = services.hand_start(table_id=fixed.pk)
    assert nxt is not None and (nxt.variant, nxt.small_bet, nxt.big_bet) == ("razz", 5, 20)


def test_a_dealers_call_under_way_is_called_off_and_offered_from_the_new_list(
    home: Table, alice: User, bob: User
) -> None:
    sit(home, alice, 1)
    sit(home, bob, 2)
    assert services.hand_start_if_ready(table_id=home.pk) is None  # the dealer calls first
    home.refresh_from_db()
    dealer, number = home.call_seat, home.call_number
    assert dealer is not None
    change(home, alice, variants=["razz", "queens"])
    home.refresh_from_db()
    assert (home.call_seat, home.call_number) == (dealer, number + 1)  # asked again
    call = snapshot_of(home, None)["table"]["call"]
    assert [game["name"] for game in call["games"]] == ["Razz", "Queens and after"]
    # The first call's timeout, late, changes nothing.
    assert services.game_call_timeout(table_id=home.pk, call=number) is None
    player = Seat.objects.get(table=home, number=dealer).player_id
    hand = services.game_call(table_id=home.pk, player_id=player, game=1)
    assert hand is not None and hand.variant == "queens"


def test_a_change_to_fewer_seats_than_a_player_needs_is_refused(
    home: Table, alice: User, carol: User
) -> None:
    sit(home, alice, 1)
    sit(home, carol, 6)
    before = state_of(home)
    with pytest.raises(SeatsTaken, match="seat 6 is taken"):
        change(home, alice, seats=5)
    assert state_of(home) == before
    assert change(home, alice, seats=6)["words"] == "6 seats"


def test_a_seat_taken_after_the_change_is_kept(
    fixed: Table, alice: User, bob: User, carol: User
) -> None:
    sit(fixed, alice, 1)
    sit(fixed, bob, 2)
    hand = services.hand_start(table_id=fixed.pk)
    assert hand is not None
    change(fixed, alice, seats=4, small_bet=10, big_bet=40)
    sit(fixed, carol, 6)  # the table has seven seats until the next deal
    play_out(hand, bet_and_call)
    services.hand_start(table_id=fixed.pk)
    assert terms(fixed)[3:6] == (10, 40, 6)


def test_a_change_that_changes_nothing_is_refused(home: Table, alice: User) -> None:
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="that is the game already"):
        change(home, alice)
    assert state_of(home) == before


def test_everyone_sees_the_change_waiting_then_made(fixed: Table, alice: User, bob: User) -> None:
    sit(fixed, alice, 1)
    sit(fixed, bob, 2)
    hand = services.hand_start(table_id=fixed.pk)
    assert hand is not None
    change(fixed, alice, action_seconds=45)
    home = snapshot_of(fixed, bob.pk)["table"]["home"]
    assert home["change"] == {
        "number": 1,
        "by": "alice",
        "words": "45 seconds to act",
        "applied": False,
    }
    play_out(hand, bet_and_call)
    services.hand_start(table_id=fixed.pk)
    home = snapshot_of(fixed, None)["table"]["home"]
    assert home["change"]["applied"] is True
    assert home["terms"] == {"seats": 7, "action_seconds": 45}  # the page follows them


# ------------------------------------------------------------ the page


def change_url(table: Table) -> str:
    return reverse("home_change", args=[table.pk])


def test_the_page_starts_from_the_game_as_it_stands(home: Table, alice: User) -> None:
    response = client_of(alice).get(change_url(home))
    assert response.status_code == 200
    form = response.context["form"]
    assert "name" not in form.fields
    assert form.initial["games"] == ["stud", "baseball", "razz"]
    assert (form.initial["policy"], form.initial["big_bet"], form.initial["seats"]) == (
        "dealers_choice",
        20,
        7,
    )


def test_the_page_refuses_all_but_the_host(home: Table, bob: User, dave: User) -> None:
    member = client_of(bob).get(change_url(home))
    assert member.status_code == 302 and member.url == reverse("table", args=[home.pk])
    assert client_of(dave).get(change_url(home)).status_code == 404
    nowhere = reverse("home_change", args=[home.pk + 1000])
    assert client_of(dave).get(nowhere).status_code == 404
    assert client_of(None).get(change_url(home)).url.startswith(reverse("accounts:login"))
    posted = {**FORM, "small_bet": "4"}
    assert client_of(bob).post(change_url(home), posted).status_code == 302
    home.refresh_from_db()
    assert home.pending_change is None and home.stakes.small_bet == 5


def test_a_closed_games_page_sends_the_host_back(home: Table, alice: User) -> None:
    services.home_close(table_id=home.pk, player_id=alice.pk)
    assert client_of(alice).get(change_url(home)).status_code == 302


def test_what_the_operator_doesnt_allow_is_refused_on_its_field(home: Table, alice: User) -> None:
    rules = HomeRules.current()
    rules.variants, rules.max_big_bet = ["stud", "baseball", "razz"], 50
    rules.save()
    form = {**FORM, "games": ["stud", "queens"], "big_bet": "60", "max_buy_in": "20000"}
    response = client_of(alice).post(change_url(home), form)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert set(errors) == {"games", "big_bet", "max_buy_in"}
    home.refresh_from_db()
    assert home.pending_change is None and home.stakes.big_bet == 20


def test_fewer_seats_than_a_player_needs_is_an_error_on_seats(
    home: Table, alice: User, carol: User
) -> None:
    sit(home, carol, 6)
    response = client_of(alice).post(change_url(home), {**FORM, "seats": "4"})
    assert response.context["form"].errors["seats"] == [
        "Seat 6 is taken: the table can't have fewer than 6 seats while someone sits there."
    ]
    home.refresh_from_db()
    assert home.pending_change is None and home.stakes.seats == 7


def test_the_host_changes_the_game_from_the_page(home: Table, alice: User) -> None:
    client = client_of(alice)
    response = client.post(change_url(home), {**FORM, "small_bet": "3", "big_bet": "12"})
    assert response.status_code == 302 and response.url == reverse("table", args=[home.pk])
    assert terms(home)[3:5] == (3, 12)
    page = client.get(response.url).content.decode()
    assert "The game changes from the next hand: spread 3-12, ante 1, bring-in 2." in page


# ------------------------------------------------------------ the host role


def test_the_host_hands_the_role_to_a_member(home: Table, alice: User, bob: User) -> None:
    sit(home, alice, 1)
    services.home_hand_over(table_id=home.pk, player_id=alice.pk, username="bob")
    home.refresh_from_db()
    assert home.host == bob
    members = set(TableMember.objects.filter(table=home).values_list("player__username", flat=True))
    assert members == {"alice", "carol"}  # alice stays, a member now
    services.home_pause(table_id=home.pk, player_id=bob.pk)
    with pytest.raises(services.ServiceError, match="only Friday stud's host may do that"):
        services.home_resume(table_id=home.pk, player_id=alice.pk)
    assert Seat.objects.filter(table=home, player=alice).exists()


@pytest.mark.parametrize(
    ("username", "refusal"),
    [
        ("alice", "you host this game already"),
        ("dave", "dave is not a player of Friday stud"),
        ("nobody", "nobody is not a player of Friday stud"),
        ("bot-3", "bot-3 is a bot; only a person may host"),
        ("robot", "robot is a bot; only a person may host"),
    ],
)
def test_only_a_person_in_the_game_may_be_handed_the_role(
    home: Table, alice: User, dave: User, username: str, refusal: str
) -> None:
    for name in ("bot-3", "robot"):
        bot = user_signup(username=name, password="bot-pw-12345")
        TableMember.objects.create(table=home, player=bot)
    HomeBot.objects.create(table=home, player=User.objects.get(username="robot"), buy_in=100)
    before = state_of(home)
    with pytest.raises(services.ServiceError, match=refusal):
        services.home_hand_over(table_id=home.pk, player_id=alice.pk, username=username)
    assert state_of(home) == before


def test_a_player_the_host_removed_may_not_be_handed_the_role(
    fixed: Table, alice: User, bob: User
) -> None:
    sit(fixed, alice, 1)
    sit(fixed, bob, 2)
    assert services.hand_start(table_id=fixed.pk) is not None
    services.home_remove(table_id=fixed.pk, player_id=alice.pk, username="bob")  # after the hand
    with pytest.raises(services.ServiceError, match="bob is not a player of Stud night"):
        services.home_hand_over(table_id=fixed.pk, player_id=alice.pk, username="bob")


def test_a_player_hosting_the_most_games_may_not_take_another(
    home: Table, alice: User, bob: User
) -> None:
    rules = HomeRules.current()
    rules.max_open_games = 1
    rules.save()
    open_game(bob, name="Bob's game")
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="bob hosts 1 open home games already"):
        services.home_hand_over(table_id=home.pk, player_id=alice.pk, username="bob")
    assert state_of(home) == before


# ---------------------------------------------------------------- the socket


@pytest.fixture
def sessions(alice: User, bob: User, carol: User) -> dict[str, str]:
    return {user.username: session_of(user) for user in (alice, bob, carol)}


@pytest.mark.django_db(transaction=True)
def test_the_host_hands_over_over_the_socket(home: Table, sessions: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(home.pk, sessions["alice"])
            bob = await join(home.pk, sessions["bob"])
            await alice.send({"type": "home_hand_over", "player": "bob"})
            for socket, hosts in ((alice, False), (bob, True)):
                snapshot = await socket.receive_snapshot()
                assert snapshot["table"]["home"]["host"] == "bob"
                assert snapshot["you"]["host"] is hosts
            await alice.send({"type": "home_pause"})
            error = await alice.receive()
            assert (error["code"], error["message"]) == (
                "refused",
                "only Friday stud's host may do that",
            )
            await bob.send({"type": "home_pause"})
            assert (await bob.receive_snapshot())["table"]["home"]["paused"] is True

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_hand_over_refused_changes_nothing(home: Table, sessions: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            carol = await join(home.pk, sessions["carol"])
            alice = await join(home.pk, sessions["alice"])
            await carol.send({"type": "home_hand_over", "player": "carol"})
            error = await carol.receive()
            assert (error["code"], error["message"]) == (
                "refused",
                "only Friday stud's host may do that",
            )
            for message in (
                {"type": "home_hand_over"},
                {"type": "home_hand_over", "player": 2},
                {"type": "home_hand_over", "player": "bob", "seat": 2},
            ):
                await alice.send(message)
                assert (await alice.receive())["code"] == "bad_message"
            await alice.send({"type": "home_hand_over", "player": "dave"})
            error = await alice.receive()
            assert error["message"] == "dave is not a player of Friday stud"
            assert await carol.quiet()  # nothing changed: nobody was told of anything

    run(scenario)
    home.refresh_from_db()
    assert home.host is not None and home.host.username == "alice"


@pytest.mark.django_db(transaction=True)
def test_a_change_from_the_page_reaches_the_table_s_sockets(
    home: Table, alice: User, sessions: dict[str, str]
) -> None:
    def post() -> None:
        client = Client()
        client.force_login(alice)
        client.post(change_url(home), {**FORM, "action_seconds": "40"})

    async def scenario() -> None:
        async with room() as join:
            bob = await join(home.pk, sessions["bob"])
            await sync_to_async(post)()
            snapshot = await bob.receive_snapshot()
            assert snapshot["table"]["home"]["change"] == {
                "number": 1,
                "by": "alice",
                "words": "40 seconds to act",
                "applied": True,
            }

    run(scenario)
    assert Hand.objects.filter(table=home).count() == 0
