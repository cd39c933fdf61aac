"""Home games, first part: a player opens a private table from the site and
invites friends by link; nobody else can find, open or join it.

Personas: alice hosts; bob is her friend, who opens the link; carol is a
stranger, logged in, who has no link; an anonymous visitor has none either.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from cardroom.asgi import application
from tables import services
from tables.models import HomeRules, Table, TableGame, TableMember
from tables.selectors.lobby import lobby_rows
from tests.tables.test_consumers import SAME_SITE

# What a friend is told of a link no home game has, forged or replaced.
NOT_FOUND_SAID = (
    "There is no home game for this link; it may be cut short, or its host may "
    "have made a new one: ask them to send it again."
)

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Friday stud",
    "policy": "dealers_choice",
    "games": ["stud", "baseball", "razz"],
    "rotate_hands": "0",
    "structure": "spread",
    "ante": "1",
    "bring_in": "2",
    "small_bet": "5",
    "big_bet": "20",
    "seats": "7",
    "min_buy_in": "100",
    "max_buy_in": "1000",
    "action_seconds": "20",
}


def client_of(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def open_game(host: User, **changes: Any) -> Table:
    response = client_of(host).post(reverse("home_new"), {**FORM, **changes})
    assert response.status_code == 302, response.content.decode()
    return Table.objects.filter(host=host).latest("pk")  # its name may have a number added


def join(user: User, code: str, address: str = "203.0.113.5") -> Any:
    return client_of(user).post(reverse("home_join"), {"code": code}, REMOTE_ADDR=address)


@pytest.fixture
def home(alice: User) -> Table:
    return open_game(alice)


# ----------------------------------------------------------------- opening


def test_a_player_opens_a_dealers_choice_home_game_from_the_form(alice: User) -> None:
    table = open_game(alice)
    assert table.is_home and table.host == alice and table.is_open
    assert table.policy == "dealers_choice"
    assert [g.variant for g in TableGame.objects.filter(table=table)] == [
        "stud",
        "baseball",
        "razz",
    ]
    stakes = table.stakes
    assert (stakes.structure, stakes.small_bet, stakes.big_bet, stakes.seats) == (
        "spread",
        5,
        20,
        7,
    )
    assert stakes.rake is None  # the operator's default: no rake at home
    assert len(table.invite_code) >= 43  # 256 random bits, URL-safe


def test_a_name_taken_already_gets_a_number_in_brackets(
    alice: User, bob: User, carol: User
) -> None:
    """Table names are unique; a number with "#" would read as a hand's."""
    names = [open_game(host).name for host in (alice, bob, carol)]
    assert names == ["Friday stud", "Friday stud (2)", "Friday stud (3)"]
    stakes = [t.stakes.name for t in Table.objects.filter(name__in=names).order_by("pk")]
    assert stakes == ["Home: Friday stud", "Home: Friday stud (2)", "Home: Friday stud (3)"]


def test_opening_needs_a_login() -> None:
    response = client_of(None).get(reverse("home_new"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"big_bet": "500"}, "big_bet", "go up to 100"),
        (
            {"structure": "no", "small_bet": "500", "max_buy_in": "5000"},
            "small_bet",
            "go up to 100",
        ),
        ({"max_buy_in": "50000"}, "max_buy_in", "go up to 10000"),
        ({"policy": "fixed"}, "games", "tick one"),
        ({"games": ["stud"]}, "games", "two games or more"),
        ({"games": ["baseball", "roll_your_own"], "seats": "8"}, "seats", "None of these games"),
        ({"small_bet": "0"}, "small_bet", ""),
        ({"games": ["omaha"]}, "games", "not one of the available choices"),
    ],
)
def test_the_form_refuses_what_isnt_allowed_on_its_field(
    alice: User, changes: dict[str, Any], field: str, words: str
) -> None:
    response = client_of(alice).post(reverse("home_new"), {**FORM, **changes})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and words in " ".join(errors[field]), errors
    assert not Table.objects.filter(host=alice).exists()


def test_the_operator_limits_the_games_and_structures(alice: User) -> None:
    rules = HomeRules.current()
    rules.variants, rules.structures = ["stud", "razz"], ["fixed"]
    rules.save()
    response = client_of(alice).post(reverse("home_new"), FORM)
    errors = response.context["form"].errors
    assert "games" in errors and "structure" in errors
    assert not Table.objects.filter(host=alice).exists()


def test_a_host_may_keep_only_so_many_games_open(alice: User) -> None:
    rules = HomeRules.current()
    rules.max_open_games = 1
    rules.save()
    open_game(alice)
    response = client_of(alice).post(reverse("home_new"), {**FORM, "name": "Second"})
    assert "You host 1 open home games already" in " ".join(
        response.context["form"].non_field_errors()
    )
    assert Table.objects.filter(host=alice).count() == 1


# ------------------------------------------------------------ who sees it


def test_a_home_game_is_not_in_the_public_lobby(home: Table, bob: User) -> None:
    assert home.pk not in {row["id"] for row in lobby_rows()}
    listed = client_of(bob).get(reverse("lobby_json")).json()["tables"]
    assert home.pk not in {row["id"] for row in listed}
    assert home.name not in client_of(bob).get(reverse("lobby")).content.decode()


def test_only_the_host_members_and_staff_open_its_page(
    home: Table, alice: User, bob: User, carol: User, admin_user: User
) -> None:
    url = reverse("table", args=[home.pk])
    missing = client_of(carol).get(reverse("table", args=[999_999]))
    assert client_of(carol).get(url).status_code == missing.status_code == 404
    assert client_of(None).get(url).status_code == 404
    assert client_of(alice).get(url).status_code == 200
    assert client_of(admin_user).get(url).status_code == 200
    assert join(bob, home.invite_code).status_code == 200
    assert client_of(bob).get(url).status_code == 200


def test_only_the_host_sees_the_invite_link(home: Table, alice: User, bob: User) -> None:
    join(bob, home.invite_code)
    url = reverse("table", args=[home.pk])
    assert home.invite_code in client_of(alice).get(url).content.decode()
    assert home.invite_code not in client_of(bob).get(url).content.decode()


def test_the_lobby_lists_my_home_games(home: Table, alice: User, bob: User, carol: User) -> None:
    join(bob, home.invite_code)
    for user in (alice, bob):
        page = client_of(user).get(reverse("lobby")).content.decode()
        assert reverse("table", args=[home.pk]) in page
    assert (
        reverse("table", args=[home.pk])
        not in client_of(carol).get(reverse("lobby")).content.decode()
    )


def test_my_home_games_say_what_a_dealers_choice_game_deals_and_who_calls_it(
    home: Table, alice: User, bob: User
) -> None:
    """Each line says the game being dealt and, at a mixed game, what is
    coming, as the room's rows do: not the first game of its list."""
    join(bob, home.invite_code)

    def listed() -> tuple[str, str, str]:
        lobby = client_of(bob).get(reverse("lobby"))
        [game] = lobby.context["home_games"]
        return game["stakes"], game["coming"], lobby.content.decode()

    stakes, coming, _ = listed()
    assert (stakes.split(",")[0], coming) == ("Seven-card stud", "Dealer’s choice")
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=home.pk, player_id=player.pk, seat_number=number, buy_in=100)
    later = timezone.now() + services.next_hand_pause() + datetime.timedelta(seconds=1)
    services.hand_start_if_ready(table_id=home.pk, now=later)
    home.refresh_from_db()
    assert listed()[1] == "Dealer’s choice · the dealer is calling the game"
    baseball = next(g.position for g in TableGame.objects.filter(table=home, variant="baseball"))
    services.game_call(table_id=home.pk, player_id=home.call_player_id, game=baseball)
    stakes, coming, page = listed()
    assert stakes.startswith("Baseball, spread 5-20") and coming == "Dealer’s choice · Baseball"
    assert f"{stakes} · {coming} · 2 seated" in page


def test_a_closed_game_stays_in_my_home_games_for_a_week_for_its_settle_up(
    home: Table, alice: User, bob: User, carol: User
) -> None:
    join(bob, home.invite_code)
    services.table_close(table_id=home.pk)
    settle_up = reverse("table", args=[home.pk]) + "#ledger"
    for user in (alice, bob):
        assert settle_up in client_of(user).get(reverse("lobby")).content.decode()
    # Its host, and only its host, may deal it again from there.
    again = reverse("home_again", args=[home.pk])
    for user, may in ((alice, True), (bob, False)):
        lobby = client_of(user).get(reverse("lobby"))
        assert (f'href="{again}"' in lobby.content.decode()) is may
        assert [game["again_url"] for game in lobby.context["home_games"]] == [
            again if may else None
        ]
    assert settle_up not in client_of(carol).get(reverse("lobby")).content.decode()
    week_ago = timezone.now() - datetime.timedelta(days=7, minutes=1)
    Table.objects.filter(pk=home.pk).update(closed_at=week_ago)
    assert (
        reverse("table", args=[home.pk])
        not in client_of(bob).get(reverse("lobby")).content.decode()
    )


def test_a_stranger_cant_take_a_seat(home: Table, bob: User, carol: User) -> None:
    with pytest.raises(services.ServiceError, match=f"there is no table #{home.pk}"):
        services.seat_take(table_id=home.pk, player_id=carol.pk, seat_number=1, buy_in=100)
    join(bob, home.invite_code)
    services.seat_take(table_id=home.pk, player_id=bob.pk, seat_number=1, buy_in=100)
    assert home.seat_set.get().player == bob


@pytest.mark.django_db(transaction=True)
def test_the_websocket_refuses_a_stranger_as_it_refuses_an_unknown_table(
    alice: User, bob: User, carol: User
) -> None:
    table = open_game(alice)
    join(bob, table.invite_code)

    cookies = {user.pk: client_of(user).cookies["sessionid"].value for user in (bob, carol)}

    async def close_code(table_id: int, user: User | None) -> int | None:
        """The code the socket is closed with; None when it is let in."""
        headers = list(SAME_SITE)
        if user is not None:
            headers.append((b"cookie", f"sessionid={cookies[user.pk]}".encode()))
        socket = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
        await socket.connect()
        output = await socket.receive_output(timeout=3)
        await socket.disconnect()
        return None if output["type"] == "websocket.send" else output.get("code")

    run = async_to_sync(close_code)
    assert run(table.pk, carol) == run(999_999, carol) == 4404
    assert run(table.pk, None) == 4404
    assert run(table.pk, bob) is None


# ----------------------------------------------------------- the invite link


def test_a_friend_joins_by_the_link(home: Table, bob: User) -> None:
    response = join(bob, home.invite_code)
    assert response.json() == {"url": reverse("table", args=[home.pk])}
    assert TableMember.objects.filter(table=home, player=bob).exists()
    assert join(bob, home.invite_code).status_code == 200  # again: still in


@pytest.mark.parametrize("code", ["", "x", "not-the-code-at-all-000000000000000000000000"])
def test_a_wrong_code_is_told_the_table_does_not_exist(home: Table, bob: User, code: str) -> None:
    response = join(bob, code)
    assert response.status_code == 404
    assert response.json() == {"error": NOT_FOUND_SAID}
    assert not TableMember.objects.filter(player=bob).exists()


def test_a_new_link_retires_the_old_one(home: Table, alice: User, bob: User, carol: User) -> None:
    old = home.invite_code
    response = client_of(alice).post(reverse("home_invite_renew", args=[home.pk]))
    assert response.status_code == 302
    home.refresh_from_db()
    assert home.invite_code != old
    retired = join(bob, old)
    # Told as a code no game ever had: the friend learns to ask for the new one.
    assert retired.status_code == 404
    assert retired.json() == {"error": NOT_FOUND_SAID}
    assert not TableMember.objects.filter(table=home, player=bob).exists()
    assert join(carol, home.invite_code).status_code == 200


def test_only_the_host_renews_the_link(home: Table, bob: User, carol: User) -> None:
    code = home.invite_code
    assert client_of(carol).post(reverse("home_invite_renew", args=[home.pk])).status_code == 404
    join(bob, code)
    with pytest.raises(services.ServiceError, match="only Friday stud's host may do that"):
        services.home_invite_renew(table_id=home.pk, player_id=bob.pk)
    home.refresh_from_db()
    assert home.invite_code == code


def test_guessing_is_rate_limited_and_wrong_tries_count(
    home: Table, bob: User, settings: Any
) -> None:
    settings.CARDROOM_INVITE_TRIES_PER_HOUR = 3
    for _ in range(3):
        assert join(bob, "guess").status_code == 404
    response = join(bob, home.invite_code)  # the right code, but past the limit
    assert response.status_code == 404 and "too many" in response.json()["error"].lower()
    assert not TableMember.objects.filter(player=bob).exists()


def test_the_limit_is_per_address_too(home: Table, bob: User, carol: User, settings: Any) -> None:
    settings.CARDROOM_INVITE_TRIES_PER_HOUR = 2
    join(bob, "guess", address="198.51.100.7")
    join(carol, "guess", address="198.51.100.7")
    assert join(carol, home.invite_code, address="198.51.100.7").status_code == 404


def test_a_closed_games_link_lets_nobody_new_in_and_takes_its_players_to_the_settle_up(
    home: Table, alice: User, bob: User, carol: User
) -> None:
    join(bob, home.invite_code)
    services.table_close(table_id=home.pk)
    refused = join(carol, home.invite_code)
    assert refused.status_code == 404
    assert refused.json() == {
        "error": "This home game has closed; ask its host for the link to their next one."
    }
    assert not TableMember.objects.filter(player=carol).exists()
    for player in (alice, bob):
        assert join(player, home.invite_code).json() == {"url": reverse("table", args=[home.pk])}
    assert TableMember.objects.filter(table=home).count() == 1
    # A code no game has says no more than before.
    assert join(carol, "x" + home.invite_code).json() == {"error": NOT_FOUND_SAID}


def test_the_join_page_keeps_the_code_out_of_requests_and_referrers(bob: User) -> None:
    response = client_of(bob).get(reverse("home_join"))
    assert response["Referrer-Policy"] == "same-origin"
    assert "home-join.js" in response.content.decode()


def test_a_visitor_must_log_in_to_join(home: Table) -> None:
    response = client_of(None).post(reverse("home_join"), {"code": home.invite_code})
    assert response.status_code == 403
    assert not TableMember.objects.exists()


def test_the_form_starts_from_a_game_it_accepts(alice: User) -> None:
    """A host who changes only the name opens seed 003's spread-limit dealer's choice."""
    page = client_of(alice).get(reverse("home_new"))
    form = page.context["form"]
    data = {**form.initial, "name": "Quick game", "rotate_hands": "0"}
    response = client_of(alice).post(reverse("home_new"), data)
    assert response.status_code == 302
    table = Table.objects.get(name="Quick game")
    assert [g.variant for g in table.games.all()] == ["stud", "baseball", "queens", "razz"]


def test_another_players_history_filters_dont_name_the_home_game(
    home: Table, bob: User, carol: User
) -> None:
    join(bob, home.invite_code)
    assert "Friday stud" not in client_of(carol).get(reverse("my_hands")).content.decode()
    assert "Friday stud" in client_of(bob).get(reverse("my_hands")).content.decode()
    # Filtering by it is as by a table that doesn't exist: ignored, nothing named.
    page = client_of(carol).get(reverse("my_hands"), {"table": home.pk}).content.decode()
    assert "Friday stud" not in page


def test_the_operator_sets_the_home_game_rules_in_the_admin(admin_client: Client) -> None:
    listing = admin_client.get(reverse("admin:tables_homerules_changelist"))
    rules = HomeRules.current()
    change = reverse("admin:tables_homerules_change", args=[rules.pk])
    assert listing.status_code == 302 and listing["Location"] == change
    form = {"variants": '["stud", "omaha"]', "structures": "[]", "max_big_bet": "50"}
    form |= {"max_buy_in": "5000", "max_open_games": "2", "rake": "", "idle_minutes": "90"}
    refused = admin_client.post(change, form)
    assert "Not a game: omaha." in refused.content.decode()
    assert HomeRules.current().variants == []
    admin_client.post(change, {**form, "variants": '["stud", "razz"]'})
    saved = HomeRules.current()
    assert (saved.variants, saved.max_big_bet, saved.max_open_games) == (["stud", "razz"], 50, 2)
    assert saved.idle_minutes == 90


def test_a_closed_game_shows_no_invite_link(home: Table, alice: User) -> None:
    services.table_close(table_id=home.pk)
    page = client_of(alice).get(reverse("table", args=[home.pk])).content.decode()
    assert "This table is closed." in page and home.invite_code not in page


# ------------------------------------------------------------ dealt again


def test_a_closed_game_dealt_again_lets_its_players_in_and_nobody_else(
    home: Table, alice: User, bob: User, carol: User, dave: User
) -> None:
    """Alice's Friday game closed; bob played it, carol was removed from it,
    dave never had the link, and a bot she added played too. She deals it
    again from the form, filled in as the game ended, with one thing changed."""
    for friend in (bob, carol):
        join(friend, home.invite_code)
    services.seat_take(table_id=home.pk, player_id=carol.pk, seat_number=2, buy_in=100)
    services.home_remove(table_id=home.pk, player_id=alice.pk, username="carol")
    bot = services.home_bot_add(table_id=home.pk, player_id=alice.pk)
    assert TableMember.objects.filter(table=home, player_id=bot.player_id).exists()
    services.table_close(table_id=home.pk)

    page = client_of(alice).get(reverse("home_again", args=[home.pk]))
    assert "Deal Friday stud again" in page.content.decode()
    initial = page.context["form"].initial
    assert initial["name"] == "Friday stud" and initial["games"] == FORM["games"]
    assert [str(initial[key]) for key in ("policy", "structure", "big_bet")] == [
        FORM[key] for key in ("policy", "structure", "big_bet")
    ]
    form = {key: value for key, value in initial.items() if key != "seat_approval"}
    answer = client_of(alice).post(reverse("home_again", args=[home.pk]), {**form, "seats": 6})

    again = Table.objects.filter(host=alice).latest("pk")
    assert answer.status_code == 302 and answer["Location"] == reverse("table", args=[again.pk])
    assert again.pk != home.pk and again.is_open and again.name == "Friday stud (2)"
    assert again.invite_code and again.invite_code != home.invite_code
    assert again.stakes.seats == 6 and again.stakes_id != home.stakes_id
    assert list(again.games.values_list("variant", flat=True)) == FORM["games"]
    assert list(TableMember.objects.filter(table=again).values_list("player", flat=True)) == [
        bob.pk
    ]
    for user, sees in ((bob, True), (carol, False), (dave, False)):
        lobby = client_of(user).get(reverse("lobby")).content.decode()
        assert (reverse("table", args=[again.pk]) in lobby) is sees, user.username
    # Dealt again from the second, its name is still the game's own.
    services.table_close(table_id=again.pk)
    page = client_of(alice).get(reverse("home_again", args=[again.pk]))
    assert page.context["form"].initial["name"] == "Friday stud"


def test_only_the_host_deals_a_game_again_and_only_once_it_is_closed(
    home: Table, table: Table, alice: User, bob: User, carol: User
) -> None:
    join(bob, home.invite_code)
    address = reverse("home_again", args=[home.pk])
    still_open = client_of(alice).get(address, follow=True)
    assert "Friday stud is still open: close it before dealing it again." in [
        str(message) for message in still_open.context["messages"]
    ]
    services.table_close(table_id=home.pk)
    refused = client_of(bob).post(address, FORM, follow=True)
    assert "Only Friday stud's host may do that." in [
        str(message) for message in refused.context["messages"]
    ]
    assert client_of(carol).post(address, FORM).status_code == 404
    assert client_of(None).get(address).status_code == 302  # to the login page
    room = client_of(alice).get(reverse("home_again", args=[table.pk]), follow=True)
    assert "Table 1 is a table of the room, not a home game." in [
        str(message) for message in room.context["messages"]
    ]
    assert Table.objects.filter(host=alice).count() == 1
