"""A home game whose host approves each seat: members ask for seats, the host
approves or refuses each request, and every refusal changes nothing.

Personas: alice hosts, and sits in seat 1 unasked; bob and carol are members
by the invite link, who must ask for a seat (bob's request is the one most
tests answer; carol sees the table but not bob's request); dave is a
stranger, for whom the table doesn't exist.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import ChipTransfer, User
from accounts.services import ledger_post, user_signup
from tables import services
from tables.models import (
    Hand,
    HomeBot,
    Seat,
    SeatRequest,
    Stakes,
    Table,
    TableMember,
    WaitingPlayer,
)
from tables.selectors.snapshots import build_snapshot, read_table
from tables.services.home import NotFound
from tests.tables.test_consumers import Socket, room, run

pytestmark = pytest.mark.django_db

# The host's answers, called by ``player`` at ``table`` about bob's request.
ANSWERS: dict[str, Callable[[Table, User], object]] = {
    "approve": lambda table, player: services.home_seat_approve(
        table_id=table.pk, player_id=player.pk, username="bob"
    ),
    "refuse": lambda table, player: services.home_seat_refuse(
        table_id=table.pk, player_id=player.pk, username="bob"
    ),
    "approval off": lambda table, player: services.home_seat_approval_set(
        table_id=table.pk, player_id=player.pk, on=False
    ),
}


@pytest.fixture
def home(table: Table, alice: User, bob: User, carol: User) -> Table:
    """Table 1 as alice's home game with seat approval on, bob and carol let
    in by its link, and alice in seat 1."""
    Table.objects.filter(pk=table.pk).update(host=alice, seat_approval=True, invite_code="c0de")
    for friend in (bob, carol):
        TableMember.objects.create(table=table, player=friend)
    table.refresh_from_db()
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=200)
    return table


def ask(table: Table, player: User, number: int = 3, buy_in: int = 300) -> None:
    services.seat_request_send(
        table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=buy_in
    )


@pytest.fixture
def asked(home: Table, bob: User) -> Table:
    """Bob has asked for seat 3 with 300 chips."""
    ask(home, bob)
    return home


def balance(player: User) -> int:
    return User.objects.get(pk=player.pk).balance


def state_of(table: Table) -> tuple[Any, ...]:
    """Everything a refused request or answer must leave as it was."""
    table.refresh_from_db()
    return (
        table.is_open,
        table.seat_approval,
        sorted(Seat.objects.filter(table=table).values_list("number", "player_id", "stack")),
        sorted(
            SeatRequest.objects.filter(table=table).values_list("player_id", "number", "buy_in")
        ),
        sorted(User.objects.values_list("username", "balance")),
        Hand.objects.filter(table=table).count(),
    )


def you(table: Table, player: User | None) -> dict[str, Any]:
    """``player``'s snapshot of the table (None: an anonymous observer)."""
    rows = read_table(table.pk)
    assert rows is not None
    return build_snapshot(
        rows, None if player is None else player.pk, None, with_events=False
    ).payload


# ------------------------------------------------------------ asking for a seat


def test_a_members_sit_is_refused_with_words_to_ask_the_host(home: Table, bob: User) -> None:
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="Table 1's host approves each seat: ask"):
        services.seat_take(table_id=home.pk, player_id=bob.pk, seat_number=3, buy_in=300)
    assert state_of(home) == before


def test_the_host_and_the_bots_they_added_sit_unasked(
    home: Table, alice: User, quick_passwords: None
) -> None:
    assert Seat.objects.filter(table=home, player=alice, number=1).exists()  # the fixture's sit
    bot = user_signup(username="bot-ada", password="bot-pw-12345")
    TableMember.objects.create(table=home, player=bot)
    HomeBot.objects.create(table=home, player=bot, buy_in=200)
    services.seat_take(table_id=home.pk, player_id=bot.pk, seat_number=5, buy_in=200)
    assert Seat.objects.get(table=home, number=5).player_id == bot.pk


def test_a_request_holds_no_chips_and_seats_nobody(asked: Table, bob: User) -> None:
    assert balance(bob) == 10_000
    assert not Seat.objects.filter(table=asked, player=bob).exists()
    request = SeatRequest.objects.get(table=asked)
    assert (request.player_id, request.number, request.buy_in) == (bob.pk, 3, 300)


def test_approving_seats_the_player_as_asked_and_deals(
    asked: Table, alice: User, bob: User
) -> None:
    hand = services.home_seat_approve(table_id=asked.pk, player_id=alice.pk, username="bob")
    assert Seat.objects.get(table=asked, player=bob).number == 3  # its stack anted already
    assert balance(bob) == 10_000 - 300
    buy_in = ChipTransfer.objects.get(user=bob, kind=ChipTransfer.Kind.BUY_IN)
    assert (buy_in.amount, buy_in.table_id) == (-300, asked.pk)
    assert not SeatRequest.objects.filter(table=asked).exists()
    assert isinstance(hand, Hand) and set(hand.player_ids()) == {alice.pk, bob.pk}


def test_refusing_deletes_the_request_and_the_player_may_ask_again(
    asked: Table, alice: User, bob: User
) -> None:
    assert services.home_seat_refuse(table_id=asked.pk, player_id=alice.pk, username="bob") is None
    assert not SeatRequest.objects.filter(table=asked).exists()
    assert not Seat.objects.filter(table=asked, player=bob).exists()
    assert balance(bob) == 10_000
    ask(asked, bob, number=4, buy_in=100)
    assert SeatRequest.objects.get(table=asked).number == 4


def test_a_player_withdraws_their_request(asked: Table, bob: User) -> None:
    services.seat_request_withdraw(table_id=asked.pk, player_id=bob.pk)
    assert not SeatRequest.objects.filter(table=asked).exists()
    before = state_of(asked)
    with pytest.raises(services.ServiceError, match="you have no seat request waiting at Table 1"):
        services.seat_request_withdraw(table_id=asked.pk, player_id=bob.pk)
    assert state_of(asked) == before


def test_a_second_request_while_one_waits_is_refused(asked: Table, bob: User) -> None:
    before = state_of(asked)
    with pytest.raises(services.ServiceError, match="you have asked for seat 3 already: withdraw"):
        ask(asked, bob, number=4)
    assert state_of(asked) == before


def test_two_players_may_ask_for_one_seat_and_the_host_chooses(
    asked: Table, alice: User, carol: User
) -> None:
    ask(asked, carol)
    services.home_seat_approve(table_id=asked.pk, player_id=alice.pk, username="carol")
    assert Seat.objects.get(table=asked, number=3).player_id == carol.pk


@pytest.mark.parametrize(
    ("number", "buy_in", "words"),
    [
        (1, 300, "seat 1 at Table 1 is taken"),
        (0, 300, "seat number must be 1 to 8, not 0"),
        (9, 300, "seat number must be 1 to 8, not 9"),
        (3, 49, "the buy-in must be 50 to 500 chips, not 49"),
        (3, 501, "the buy-in must be 50 to 500 chips, not 501"),
    ],
)
def test_a_request_sit_would_refuse_is_refused_alike(
    home: Table, bob: User, number: int, buy_in: int, words: str
) -> None:
    before = state_of(home)
    with pytest.raises(services.ServiceError, match=words):
        ask(home, bob, number=number, buy_in=buy_in)
    assert state_of(home) == before
    # The very words a sit gets, where bob may sit unasked.
    Table.objects.filter(pk=home.pk).update(seat_approval=False)
    with pytest.raises(services.ServiceError, match=words):
        services.seat_take(table_id=home.pk, player_id=bob.pk, seat_number=number, buy_in=buy_in)


def test_a_request_for_more_than_the_balance_is_refused(home: Table, bob: User) -> None:
    ledger_post(user_id=bob.pk, kind=ChipTransfer.Kind.ADJUSTMENT, amount=-9_800)
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="can't buy in for 300: you have 200 chips"):
        ask(home, bob)
    assert state_of(home) == before


def test_a_player_seated_already_has_nothing_to_ask_for(
    asked: Table, alice: User, bob: User
) -> None:
    services.home_seat_approve(table_id=asked.pk, player_id=alice.pk, username="bob")
    with pytest.raises(services.ServiceError, match="you already have a seat at Table 1"):
        ask(asked, bob, number=4)


def test_the_host_doesnt_ask(home: Table, alice: User) -> None:
    services.seat_leave(table_id=home.pk, player_id=alice.pk)
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="you host this game: take the seat"):
        ask(home, alice, number=2)
    assert state_of(home) == before


def test_nobody_asks_where_the_host_approves_no_seat(home: Table, bob: User) -> None:
    Table.objects.filter(pk=home.pk).update(seat_approval=False)
    before = state_of(home)
    with pytest.raises(
        services.ServiceError, match="nobody approves seats at Table 1: take the seat"
    ):
        ask(home, bob)
    assert state_of(home) == before


def test_nobody_asks_at_a_closed_game(home: Table, bob: User) -> None:
    Table.objects.filter(pk=home.pk).update(is_open=False)
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="Table 1 is closed"):
        ask(home, bob)
    assert state_of(home) == before


def test_a_stranger_is_told_what_a_missing_table_tells(home: Table, dave: User) -> None:
    before = state_of(home)
    with pytest.raises(services.ServiceError, match=f"^there is no table #{home.pk}$"):
        ask(home, dave)
    assert state_of(home) == before


# --------------------------------------------------------- the host's answers


@pytest.mark.parametrize("answer", sorted(ANSWERS))
def test_a_member_who_isnt_the_host_is_refused_clearly(
    answer: str, asked: Table, carol: User
) -> None:
    before = state_of(asked)
    with pytest.raises(services.ServiceError, match="only Table 1's host may do that"):
        ANSWERS[answer](asked, carol)
    assert state_of(asked) == before


@pytest.mark.parametrize("answer", sorted(ANSWERS))
def test_a_stranger_is_told_the_table_doesnt_exist(answer: str, asked: Table, dave: User) -> None:
    before = state_of(asked)
    with pytest.raises(NotFound, match=f"^there is no table #{asked.pk}$"):
        ANSWERS[answer](asked, dave)
    assert state_of(asked) == before


@pytest.mark.parametrize("answer", sorted(ANSWERS))
def test_a_closed_game_takes_no_answer(answer: str, asked: Table, alice: User) -> None:
    Table.objects.filter(pk=asked.pk).update(is_open=False)
    before = state_of(asked)
    with pytest.raises(services.ServiceError, match="Table 1 is closed; its host has nothing"):
        ANSWERS[answer](asked, alice)
    assert state_of(asked) == before


@pytest.mark.parametrize("first", ["withdrawn", "refused", "approved"])
@pytest.mark.parametrize("answer", ["approve", "refuse"])
def test_a_request_answered_or_withdrawn_already_is_no_longer_waiting(
    first: str, answer: str, asked: Table, alice: User, bob: User
) -> None:
    if first == "withdrawn":
        services.seat_request_withdraw(table_id=asked.pk, player_id=bob.pk)
    else:
        ANSWERS["approve" if first == "approved" else "refuse"](asked, alice)
    before = state_of(asked)
    with pytest.raises(services.ServiceError, match="^bob has no seat request waiting$"):
        ANSWERS[answer](asked, alice)
    assert state_of(asked) == before


def test_answering_a_player_who_never_asked_is_refused(asked: Table, alice: User) -> None:
    before = state_of(asked)
    for name in ("carol", "nobody"):
        with pytest.raises(services.ServiceError, match=f"^{name} has no seat request waiting$"):
            services.home_seat_approve(table_id=asked.pk, player_id=alice.pk, username=name)
    assert state_of(asked) == before


def test_a_seat_taken_meanwhile_refuses_the_approval_and_the_request_goes(
    asked: Table, alice: User, bob: User, carol: User
) -> None:
    ask(asked, carol)
    services.home_seat_approve(table_id=asked.pk, player_id=alice.pk, username="carol")
    with pytest.raises(
        services.ServiceError,
        match="^can't seat bob: seat 3 at Table 1 is taken; their request is gone$",
    ):
        services.home_seat_approve(table_id=asked.pk, player_id=alice.pk, username="bob")
    assert not SeatRequest.objects.filter(table=asked).exists()
    assert not Seat.objects.filter(table=asked, player=bob).exists()
    assert balance(bob) == 10_000


def test_a_balance_spent_meanwhile_refuses_the_approval_and_the_request_goes(
    asked: Table, alice: User, bob: User
) -> None:
    ledger_post(user_id=bob.pk, kind=ChipTransfer.Kind.ADJUSTMENT, amount=-9_900)
    with pytest.raises(
        services.ServiceError,
        match="^can't seat bob: can't buy in for 300: bob has 100 chips, fewer than 300; "
        "their request is gone$",
    ):
        services.home_seat_approve(table_id=asked.pk, player_id=alice.pk, username="bob")
    assert not SeatRequest.objects.filter(table=asked).exists()
    assert not Seat.objects.filter(table=asked, player=bob).exists()
    assert balance(bob) == 100
    assert not Hand.objects.filter(table=asked).exists()


def test_a_removed_member_loses_their_request(
    asked: Table, alice: User, bob: User, carol: User
) -> None:
    # As home_remove revokes a membership: the table is gone for bob.
    TableMember.objects.filter(table=asked, player=bob).delete()
    assert you(asked, alice)["you"]["seat_requests"] == []
    with pytest.raises(services.ServiceError, match="^bob has no seat request waiting$"):
        services.home_seat_approve(table_id=asked.pk, player_id=alice.pk, username="bob")
    # Back by the link, he finds nothing waiting, and may ask again.
    services.home_invite_redeem(player_id=bob.pk, code="c0de", address="10.0.0.2")
    assert you(asked, bob)["you"]["seat_request"] is None
    ask(asked, bob, number=4, buy_in=100)
    assert list(SeatRequest.objects.values_list("player_id", "number")) == [(bob.pk, 4)]


# ------------------------------------------------------ turning approval on, off


def test_turning_approval_off_lets_everyone_sit_and_drops_the_requests(
    asked: Table, alice: User, bob: User
) -> None:
    services.home_seat_approval_set(table_id=asked.pk, player_id=alice.pk, on=False)
    asked.refresh_from_db()
    assert not asked.seat_approval and not SeatRequest.objects.filter(table=asked).exists()
    services.seat_take(table_id=asked.pk, player_id=bob.pk, seat_number=3, buy_in=300)
    services.home_seat_approval_set(table_id=asked.pk, player_id=alice.pk, on=True)
    asked.refresh_from_db()
    assert asked.seat_approval


def test_a_game_whose_host_approves_each_seat_keeps_no_waiting_list(
    home: Table, alice: User, bob: User, carol: User
) -> None:
    """Full with approval off, carol waits; turned on, the list goes, and a
    wait is refused: a seat that frees is asked for like any other."""
    Stakes.objects.filter(pk=home.stakes_id).update(seats=2)
    services.home_seat_approval_set(table_id=home.pk, player_id=alice.pk, on=False)
    services.seat_take(table_id=home.pk, player_id=bob.pk, seat_number=2, buy_in=300)
    services.waiting_join(table_id=home.pk, player_id=carol.pk)
    services.home_seat_approval_set(table_id=home.pk, player_id=alice.pk, on=True)
    assert not WaitingPlayer.objects.filter(table=home).exists()
    with pytest.raises(services.ServiceError, match="Table 1's host approves each seat, so it"):
        services.waiting_join(table_id=home.pk, player_id=carol.pk)
    assert not WaitingPlayer.objects.filter(table=home).exists()


@pytest.mark.parametrize(
    ("on", "words"),
    [(True, "Table 1 approves each seat already"), (False, "Table 1 lets anyone let in sit")],
)
def test_turning_approval_to_what_it_is_is_refused(
    on: bool, words: str, asked: Table, alice: User
) -> None:
    Table.objects.filter(pk=asked.pk).update(seat_approval=on)
    before = state_of(asked)
    with pytest.raises(services.ServiceError, match=words):
        services.home_seat_approval_set(table_id=asked.pk, player_id=alice.pk, on=on)
    assert state_of(asked) == before


def test_the_new_game_form_chooses_approval(alice: User) -> None:
    from tables.forms import HomeGameForm
    from tables.models import HomeRules
    from tables.services.home import HomeGame

    data = {**HomeGameForm.STARTING, "name": "Friday", "seat_approval": "on"}
    form = HomeGameForm(data, rules=HomeRules.current())
    assert form.is_valid(), form.errors
    assert list(form.fields)[-1] == "seat_approval"  # last, under the stakes
    game = HomeGame(
        name="Friday",
        stakes=form.instance,
        policy=form.cleaned_data["policy"],
        variants=form.cleaned_data["games"],
        seat_approval=form.cleaned_data["seat_approval"],
    )
    table = services.home_game_open(host_id=alice.pk, game=game)
    assert table.seat_approval
    unticked = HomeGameForm({**data, "seat_approval": ""}, rules=HomeRules.current())
    assert unticked.is_valid() and unticked.cleaned_data["seat_approval"] is False


# ------------------------------------------------------------------ snapshots


def test_each_viewer_sees_only_the_requests_theirs_to_see(
    asked: Table, alice: User, bob: User, carol: User
) -> None:
    host, asker, other, observer = (you(asked, p) for p in (alice, bob, carol, None))
    for payload in (host, asker, other, observer):
        assert payload["table"]["home"]["approval"] is True
        assert "bob" not in str(payload["table"])  # not on the table's public part
    assert host["you"]["seat_requests"] == [{"player": "bob", "seat": 3, "buy_in": 300}]
    assert host["you"]["seat_request"] is None
    assert asker["you"]["seat_request"] == {"seat": 3, "buy_in": 300}
    assert other["you"]["seat_request"] is None
    for payload in (asker, other):
        assert "seat_requests" not in payload["you"]
    assert observer["you"] is None


def test_a_table_of_the_room_says_nothing_of_requests(table: Table, alice: User) -> None:
    payload = you(table, alice)
    assert "home" not in payload["table"] and "seat_request" not in payload["you"]


# ---------------------------------------------------------------- the socket


async def refused(socket: Socket) -> str:
    """The next frame, a refusal: its words."""
    error = await socket.receive()
    assert (error["type"], error["code"]) == ("error", "refused"), error
    return str(error["message"])


@pytest.mark.django_db(transaction=True)
def test_a_member_asks_and_the_host_approves_over_the_socket(
    home: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, carol = [await join(home.pk, cookies_all[n]) for n in cookies_all]
            await bob.send({"type": "sit", "seat": 3, "buy_in": 300})
            assert (await refused(bob)).startswith("Table 1's host approves each seat: ask")
            await bob.send({"type": "seat_request", "seat": 3, "buy_in": 300})
            host, asker, other = [await s.receive_snapshot() for s in (alice, bob, carol)]
            assert host["you"]["seat_requests"] == [{"player": "bob", "seat": 3, "buy_in": 300}]
            assert asker["you"]["seat_request"] == {"seat": 3, "buy_in": 300}
            assert other["you"]["seat_request"] is None and "seat_requests" not in other["you"]
            await alice.send({"type": "home_approve", "player": "bob"})
            for socket in (alice, bob, carol):
                snapshot = await socket.receive_snapshot()
                assert [(s["number"], s["player"]) for s in snapshot["table"]["seats"]] == [
                    (1, "alice"),
                    (3, "bob"),
                ]
                assert snapshot["hand"] is not None  # dealt at once, as after a sit
            assert snapshot["you"]["seat_request"] is None
            assert bob.last_snapshot["you"]["seat"] == 3

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_refusals_over_the_socket_change_nothing(home: Table, cookies_all: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, carol = [await join(home.pk, cookies_all[n]) for n in cookies_all]
            await bob.send({"type": "seat_request", "seat": 3, "buy_in": 300})
            for socket in (alice, bob, carol):
                await socket.receive_snapshot()
            await carol.send({"type": "home_approve", "player": "bob"})
            assert await refused(carol) == "only Table 1's host may do that"
            await bob.send({"type": "seat_request", "seat": 4, "buy_in": 300})
            assert (await refused(bob)).startswith("you have asked for seat 3 already")
            await bob.send({"type": "seat_request", "seat": 1, "buy_in": 300})
            assert await refused(bob) == "seat 1 at Table 1 is taken"
            await alice.send({"type": "home_approve", "player": "carol"})
            assert await refused(alice) == "carol has no seat request waiting"
            await alice.send({"type": "home_approval", "on": True})
            assert await refused(alice) == "Table 1 approves each seat already"
            assert await alice.quiet() and await carol.quiet()  # nothing changed
            await bob.send({"type": "seat_request_withdraw"})
            for socket in (alice, bob):
                snapshot = await socket.receive_snapshot()
            assert snapshot["you"]["seat_request"] is None
            assert alice.last_snapshot["you"]["seat_requests"] == []
            await alice.send({"type": "home_refuse", "player": "bob"})
            assert await refused(alice) == "bob has no seat request waiting"

    run(scenario)
    assert not SeatRequest.objects.exists()
    assert list(Seat.objects.values_list("number", flat=True)) == [1]


@pytest.mark.django_db(transaction=True)
def test_bad_request_messages_are_refused_as_bad(home: Table, cookies_all: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob = (
                await join(home.pk, cookies_all["alice"]),
                await join(home.pk, cookies_all["bob"]),
            )
            for socket, message in (
                (bob, {"type": "seat_request", "seat": "3", "buy_in": 300}),
                (bob, {"type": "seat_request", "seat": 3}),
                (bob, {"type": "seat_request", "seat": 3, "buy_in": 300, "note": "hi"}),
                (bob, {"type": "seat_request_withdraw", "seat": 3}),
                (alice, {"type": "home_approval"}),
                (alice, {"type": "home_approval", "on": "yes"}),
                (alice, {"type": "home_approval", "on": 1}),
                (alice, {"type": "home_approve", "player": 5}),
                (alice, {"type": "home_refuse"}),
            ):
                await socket.send(message)
                error = await socket.receive()
                assert (error["type"], error["code"]) == ("error", "bad_message"), message

    run(scenario)
    assert not SeatRequest.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_an_approval_that_cant_be_met_is_refused_and_the_host_sees_the_request_go(
    home: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, carol = [await join(home.pk, cookies_all[n]) for n in cookies_all]
            for asker in (bob, carol):
                await asker.send({"type": "seat_request", "seat": 3, "buy_in": 300})
                for socket in (alice, bob, carol):
                    await socket.receive_snapshot()
            assert [r["player"] for r in alice.last_snapshot["you"]["seat_requests"]] == [
                "bob",
                "carol",
            ]
            await alice.send({"type": "home_refuse", "player": "carol"})
            assert (await carol.receive_snapshot())["you"]["seat_request"] is None
            await alice.receive_snapshot()
            await bob.receive_snapshot()
            await carol.send({"type": "seat_request", "seat": 3, "buy_in": 300})
            for socket in (alice, bob, carol):
                await socket.receive_snapshot()
            await alice.send({"type": "home_approve", "player": "carol"})
            for socket in (alice, bob, carol):
                await socket.receive_snapshot()
            await alice.send({"type": "home_approve", "player": "bob"})
            assert await refused(alice) == (
                "can't seat bob: seat 3 at Table 1 is taken; their request is gone"
            )
            # The request is gone for everyone: the host's list, and bob's own.
            assert (await alice.receive_snapshot())["you"]["seat_requests"] == []
            assert (await bob.receive_snapshot())["you"]["seat_request"] is None

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_the_host_turns_approval_off_over_the_socket(
    home: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob = (
                await join(home.pk, cookies_all["alice"]),
                await join(home.pk, cookies_all["bob"]),
            )
            assert alice.last_snapshot["table"]["home"]["approval"] is True
            await bob.send({"type": "seat_request", "seat": 3, "buy_in": 300})
            await alice.receive_snapshot()
            await bob.receive_snapshot()
            await alice.send({"type": "home_approval", "on": False})
            for socket in (alice, bob):
                snapshot = await socket.receive_snapshot()
                assert snapshot["table"]["home"]["approval"] is False
            assert snapshot["you"]["seat_request"] is None
            await bob.send({"type": "sit", "seat": 3, "buy_in": 300})
            assert (await bob.receive_snapshot())["you"]["seat"] == 3

    run(scenario)
