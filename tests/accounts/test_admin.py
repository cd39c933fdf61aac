"""The player and ledger admin: balances change only through "Adjust chips"."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.models import ChipTransfer, User

USERS = reverse("admin:accounts_user_changelist")
LEDGER = reverse("admin:accounts_chiptransfer_changelist")


def adjust(admin_client: Client, players: list[User], **fields: object) -> object:
    """Choose "Adjust chips" for ``players`` and, given fields, submit its form."""
    data = {"action": "adjust_chips", "_selected_action": [p.pk for p in players]}
    if fields:
        data |= {"apply": "yes", **fields}
    return admin_client.post(USERS, data)


def messages_of(response: object) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_the_action_first_asks_for_an_amount_and_a_note(admin_client: Client, alice: User) -> None:
    response = adjust(admin_client, [alice])

    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="amount"' in page
    assert 'name="note"' in page
    assert ChipTransfer.objects.filter(kind="adjustment").count() == 0


def test_it_posts_an_adjustment_to_the_ledger(
    admin_client: Client, alice: User, grant: int
) -> None:
    response = adjust(admin_client, [alice], amount=500, note="tournament prize")

    assert response.status_code == 302
    row = ChipTransfer.objects.get(user=alice, kind="adjustment")
    admin = User.objects.get(username="admin")
    assert (row.amount, row.balance_after, row.note) == (500, grant + 500, "tournament prize")
    assert row.created_by == admin
    alice.refresh_from_db()
    assert alice.balance == grant + 500
    assert messages_of(response) == [f"alice: +500 chips; balance now {grant + 500:,}."]


def test_it_adjusts_each_selected_player(
    admin_client: Client, alice: User, bob: User, grant: int
) -> None:
    adjust(admin_client, [alice, bob], amount=-100, note="server outage refund reversed")

    for player in (alice, bob):
        player.refresh_from_db()
        assert player.balance == grant - 100


def test_it_refuses_to_take_a_balance_below_zero(
    admin_client: Client, alice: User, grant: int
) -> None:
    response = adjust(admin_client, [alice], amount=-(grant + 1), note="too much")

    alice.refresh_from_db()
    assert alice.balance == grant
    assert not ChipTransfer.objects.filter(kind="adjustment").exists()
    assert messages_of(response) == [
        f"alice's chips were not adjusted: Alice A. has {grant:,} chips, fewer than {grant + 1:,}."
    ]


def test_one_refusal_leaves_the_others_adjusted(admin_client: Client, alice: User) -> None:
    broke = User.objects.create_user(username="broke", password="broke-pw-4321")

    response = adjust(admin_client, [alice, broke], amount=-10, note="fee")

    assert ChipTransfer.objects.filter(kind="adjustment").get().user == alice
    assert len(messages_of(response)) == 2


@pytest.mark.parametrize(
    ("fields", "field", "error"),
    [
        ({"amount": 0, "note": "nothing"}, "amount", "An adjustment of 0 chips changes nothing."),
        ({"amount": "ten", "note": "typo"}, "amount", "Enter a whole number."),
        ({"amount": 10, "note": ""}, "note", "This field is required."),
    ],
)
def test_a_bad_form_is_shown_again_and_posts_nothing(
    admin_client: Client, alice: User, fields: dict[str, object], field: str, error: str
) -> None:
    response = adjust(admin_client, [alice], **fields)

    assert response.status_code == 200
    assert response.context["form"].errors[field] == [error]
    assert not ChipTransfer.objects.filter(kind="adjustment").exists()


def test_the_players_own_page_adjusts_too(admin_client: Client, alice: User, grant: int) -> None:
    url = reverse("admin:accounts_user_adjust_chips", args=[alice.pk])

    response = admin_client.post(url, {"amount": 25, "note": "bonus"})

    assert response["Location"] == reverse("admin:accounts_user_change", args=[alice.pk])
    alice.refresh_from_db()
    assert alice.balance == grant + 25


def test_the_change_page_shows_the_balance_but_no_field_for_it(
    admin_client: Client, alice: User, grant: int
) -> None:
    response = admin_client.get(reverse("admin:accounts_user_change", args=[alice.pk]))

    page = response.content.decode()
    assert 'name="display_name"' in page
    assert 'name="balance"' not in page
    assert f'<div class="readonly">{grant}</div>' in page
    assert "Adjust chips" in page


def test_staff_without_ledger_rights_cannot_adjust(
    client: Client, clerk: User, alice: User
) -> None:
    client.force_login(clerk)

    listing = client.get(USERS)
    direct = client.post(
        reverse("admin:accounts_user_adjust_chips", args=[alice.pk]),
        {"amount": 25, "note": "sneaky"},
    )

    assert listing.status_code == 200
    assert "adjust_chips" not in listing.content.decode()
    assert direct.status_code == 403
    assert not ChipTransfer.objects.filter(kind="adjustment").exists()


def test_staff_can_add_a_player_with_a_display_name(admin_client: Client, db: None) -> None:
    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "erin",
            "display_name": "Erin",
            "usable_password": "true",
            "password1": "erin-plays-stud-5",
            "password2": "erin-plays-stud-5",
        },
    )

    assert response.status_code == 302
    assert User.objects.get(username="erin").display_name == "Erin"


def test_the_ledger_lists_rows_filtered_by_kind_and_searched_by_player(
    admin_client: Client, alice: User, bob: User
) -> None:
    adjust(admin_client, [bob], amount=5, note="x")

    by_kind = admin_client.get(LEDGER, {"kind__exact": "adjustment"})
    by_player = admin_client.get(LEDGER, {"q": "alice"})

    assert [row.user for row in by_kind.context["cl"].result_list] == [bob]
    assert [row.user for row in by_player.context["cl"].result_list] == [alice]


def test_the_ledger_cannot_be_added_to_changed_or_deleted(
    admin_client: Client, alice: User
) -> None:
    row = ChipTransfer.objects.get(user=alice)

    add = admin_client.get(reverse("admin:accounts_chiptransfer_add"))
    change = admin_client.post(
        reverse("admin:accounts_chiptransfer_change", args=[row.pk]), {"amount": 1}
    )
    delete = admin_client.post(
        reverse("admin:accounts_chiptransfer_delete", args=[row.pk]), {"post": "yes"}
    )

    assert add.status_code == 403
    assert change.status_code == 403
    assert delete.status_code == 403
    row.refresh_from_db()
    assert row.amount == alice.balance


@pytest.mark.parametrize(
    "url",
    [
        reverse("admin:index"),
        USERS,
        LEDGER,
        reverse("admin:accounts_user_adjust_chips", args=[1]),
    ],
)
def test_a_player_gets_no_admin_page(alice_client: Client, url: str) -> None:
    response = alice_client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_the_ledger_link_lists_that_players_transfers_only(
    admin_client: Client, alice: User, bob: User
) -> None:
    page = admin_client.get(reverse("admin:accounts_user_change", args=[alice.pk]))
    link = re.search(r'href="([^"]+)">Every chip transfer of alice', page.content.decode())

    listed = admin_client.get(html.unescape(link[1]))

    assert list(listed.context["cl"].result_list) == list(alice.transfers.all())


def test_a_ledger_link_with_an_id_past_the_database_lists_nothing(admin_client: Client) -> None:
    response = admin_client.get(LEDGER, {"user__id__exact": "9" * 25})

    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == []


# ------------------------------------------------------------- usernames in the admin

USERNAME_TOO_LONG = "A username has at most 24 characters; this one has 30."


def change_player(admin_client: Client, player: User, **changes: str) -> object:
    """Post the admin's change form for ``player`` as shown, with ``changes``."""
    data = {
        "username": player.username,
        "display_name": player.display_name,
        "first_name": "",
        "last_name": "",
        "email": "",
        "is_active": "on",
        "date_joined_0": player.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": player.date_joined.strftime("%H:%M:%S"),
        **changes,
    }
    return admin_client.post(reverse("admin:accounts_user_change", args=[player.pk]), data)


def test_the_admin_adds_no_player_with_a_username_past_the_limit(admin_client: Client) -> None:
    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {"username": "d" * 30, "usable_password": "false"},
    )

    assert response.context["adminform"].form.errors["username"] == [USERNAME_TOO_LONG]
    assert USERNAME_TOO_LONG in response.content.decode()
    assert not User.objects.filter(username="d" * 30).exists()


def test_the_admin_renames_no_player_past_the_limit(admin_client: Client, alice: User) -> None:
    response = change_player(admin_client, alice, username="d" * 30)

    assert response.context["adminform"].form.errors["username"] == [USERNAME_TOO_LONG]
    alice.refresh_from_db()
    assert alice.username == "alice"


def test_a_player_named_before_the_limit_can_still_be_edited(admin_client: Client) -> None:
    old = User.objects.create_user(username="o" * 60, password="older-than-limits-42")

    response = change_player(admin_client, old, display_name="Old Timer")

    assert response.status_code == 302
    old.refresh_from_db()
    assert (old.username, old.display_name) == ("o" * 60, "Old Timer")


def test_the_admin_forms_leave_the_length_to_the_server(admin_client: Client, alice: User) -> None:
    for url in (
        reverse("admin:accounts_user_add"),
        reverse("admin:accounts_user_change", args=[alice.pk]),
    ):
        page = admin_client.get(url).content.decode()
        username_input = re.search(r'<input [^>]*name="username"[^>]*>', page).group(0)
        assert "maxlength" not in username_input
        assert "Up to 24 letters, digits and @ . + - _." in page
