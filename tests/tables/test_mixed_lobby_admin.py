"""Mixed tables in the lobby, the admin and the demo data.

The lobby shows each mixed table's game being dealt and what is coming, and
filters by kind of table and by any game of a list. Staff build a rotation
or dealer's-choice table in the admin, each problem refused on its field and
nothing saved. ``seed_demo`` makes a stud mix and a dealer's-choice table once.

alice and bob play the hands (alice deals first, from seat 1); a visitor
reads the lobby, and the admin client is staff.
"""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.consumers.messages import BadMessage, lobby_filters
from tables.management.commands.seed_demo import BOT_TABLE, DEALERS_CHOICE, STUD_MIX
from tables.models import Stakes, Table, TableGame
from tables.selectors.lobby import LobbyFilter, lobby_rows
from tests.tables.test_consumers import run
from tests.tables.test_lobby_socket import lobby
from tests.tables.test_mixed_games import begin_call, deal_and_finish, finish, mixed, sit

LOBBY = reverse("lobby")
LOBBY_JSON = reverse("lobby_json")

STUD8 = "Seven-card stud hi-lo, eight or better"


def row_of(table: Table, **filters: Any) -> dict[str, Any]:
    """``table``'s lobby row, as a visitor reads it."""
    (found,) = [row for row in lobby_rows(**filters) if row["id"] == table.pk]
    return found


def names(**filters: Any) -> list[str]:
    return sorted(row["name"] for row in lobby_rows(**filters))


@pytest.fixture
def rotation(stakes: Stakes, alice: User, bob: User) -> Table:
    """Stud, razz and stud hi-lo, two hands each, at stud 5/10's sizes; alice and bob seated."""
    table = mixed(stakes, Table.Policy.ROTATION, ["stud", "razz", "stud8"], rotate_hands=2)
    sit(table, alice, bob)
    return table


@pytest.fixture
def razz_2_4(db: None) -> Stakes:
    return Stakes.objects.create(
        name="Razz 2/4", variant="razz", bring_in=1, small_bet=2, big_bet=4, min_buy_in=40,
        max_buy_in=400,
    )  # fmt: skip


# ------------------------------------------------------------ the lobby's rows


def test_a_rotation_shows_the_game_dealt_and_counts_down_to_the_next(rotation: Table) -> None:
    deal_and_finish(rotation)
    row = row_of(rotation)
    assert (row["variant"], row["variant_name"], row["policy"]) == (
        "stud",
        "Seven-card stud",
        "rotation",
    )
    assert row["stakes"] == "Seven-card stud, 5/10, ante 1, bring-in 2"
    assert row["coming"] == "Seven-card stud · 1 more hand, then Razz"
    assert row["games"] == ["Seven-card stud", "Razz", STUD8]

    deal_and_finish(rotation)
    assert row_of(rotation)["coming"] == "Seven-card stud · Razz next"
    deal_and_finish(rotation)
    row = row_of(rotation)
    assert (row["variant"], row["structure_name"]) == ("razz", "Fixed limit")
    assert row["stakes"].startswith("Razz, 5/10")
    assert row["coming"] == f"Razz · 1 more hand, then {STUD8}"


def test_before_any_hand_a_rotation_shows_its_lists_first_game(stakes: Stakes) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["razz", "stud"], rotate_hands=3)
    row = row_of(table)
    # The table's stakes are stud; its list deals razz first.
    assert (row["variant"], row["stakes"]) == ("razz", "Razz, 5/10, ante 1, bring-in 2")
    assert row["coming"] == "Razz first · 3 hands, then Seven-card stud"


def test_a_game_of_its_own_stakes_shows_its_own_sizes(stakes: Stakes, razz_2_4: Stakes) -> None:
    table = Table.objects.create(name="Own sizes", stakes=stakes, policy=Table.Policy.ROTATION)
    TableGame.objects.create(table=table, position=0, stakes=razz_2_4)
    TableGame.objects.create(table=table, position=1, variant="stud")

    row = row_of(table)

    assert row["stakes"] == "Razz, 2/4, bring-in 1"
    # The terms stay the table's.
    assert (row["min_buy_in"], row["max_buy_in"], row["rake"]) == (
        50,
        500,
        "5% up to 3, from 4th street",
    )


def test_a_fixed_table_shows_its_stakes_game_and_nothing_coming(table: Table) -> None:
    row = row_of(table)
    assert (row["policy"], row["coming"], row["games"]) == ("fixed", "", [])
    assert row["stakes"] == "Seven-card stud, 5/10, ante 1, bring-in 2"


@pytest.fixture
def choice(stakes: Stakes, alice: User, bob: User) -> Table:
    """Dealer's choice of stud, Baseball and roll your own, alice and bob seated."""
    table = mixed(stakes, Table.Policy.DEALERS_CHOICE, ["stud", "baseball", "roll_your_own"])
    sit(table, alice, bob)
    return table


def test_dealers_choice_shows_the_call_under_way_then_the_game_called(
    choice: Table, alice: User
) -> None:
    assert row_of(choice)["coming"] == "Dealer’s choice"

    begin_call(choice)
    assert row_of(choice)["coming"] == "Dealer’s choice · the dealer is calling the game"

    finish(services.game_call(table_id=choice.pk, player_id=alice.pk, game=1))
    row = row_of(choice)
    assert (row["variant"], row["coming"]) == ("baseball", "Dealer’s choice · Baseball")
    assert row["stakes"].startswith("Baseball, 5/10")


def test_the_page_and_the_json_show_what_is_coming(client: Client, rotation: Table) -> None:
    deal_and_finish(rotation)

    page = client.get(LOBBY)
    data = client.get(LOBBY_JSON).json()["tables"]

    assert data == page.context["tables"]
    html = page.content.decode()
    assert re.search(
        r'<span class="lobby-mix" title="Games: Seven-card stud, Razz, Seven-card stud hi-lo, '
        r'eight or better">Seven-card stud · 1 more hand, then Razz</span>',
        html,
    )


def test_a_mixed_table_is_ordered_by_the_game_it_deals(stakes: Stakes) -> None:
    Table.objects.create(name="A stud table", stakes=stakes)
    mixed(stakes, Table.Policy.ROTATION, ["razz", "stud"], rotate_hands=3)

    # Razz before Seven-card stud, though the mixed table's stakes are stud.
    assert [row["name"] for row in lobby_rows()] == ["Mixed rotation", "A stud table"]


# ------------------------------------------------------------ the filters


@pytest.fixture
def room(table: Table, rotation: Table, stakes: Stakes, razz_2_4: Stakes) -> None:
    """Table 1 (fixed stud 5/10), Mixed rotation (stud, razz, stud hi-lo at 5/10),
    Mixed dealer's choice (razz 2/4 of its own stakes, Baseball at 5/10), and a
    fixed razz 2/4 table."""
    Table.objects.create(name="Razz 2/4", stakes=razz_2_4)
    choice = Table.objects.create(
        name="Mixed dealer's choice", stakes=stakes, policy=Table.Policy.DEALERS_CHOICE
    )
    TableGame.objects.create(table=choice, position=0, stakes=razz_2_4)
    TableGame.objects.create(table=choice, position=1, variant="baseball")


def test_the_game_filter_finds_a_mixed_table_by_any_game_of_its_list(room: None) -> None:
    assert names(variant="razz") == ["Mixed dealer's choice", "Mixed rotation", "Razz 2/4"]
    assert names(variant="stud8") == ["Mixed rotation"]
    assert names(variant="baseball") == ["Mixed dealer's choice"]
    # The dealer's-choice table's stakes are stud, which its list doesn't deal.
    assert names(variant="stud") == ["Mixed rotation", "Table 1"]


def test_the_stakes_and_structure_filters_read_the_list_too(
    room: None, razz_2_4: Stakes, stakes: Stakes
) -> None:
    assert names(stakes=razz_2_4) == ["Mixed dealer's choice", "Razz 2/4"]
    # A mixed table's own stakes are the sizes its list's variants share.
    assert names(stakes=stakes) == ["Mixed dealer's choice", "Mixed rotation", "Table 1"]
    everything = ["Mixed dealer's choice", "Mixed rotation", "Razz 2/4", "Table 1"]
    assert names(structure="fixed") == everything
    assert names(structure="pot") == []


def test_the_kind_filter_tells_one_game_from_a_rotation_and_dealers_choice(room: None) -> None:
    assert names(games="fixed") == ["Razz 2/4", "Table 1"]
    assert names(games="rotation") == ["Mixed rotation"]
    assert names(games="dealers_choice") == ["Mixed dealer's choice"]
    assert names(games="rotation", variant="baseball") == []


def test_the_page_offers_the_kinds_and_keeps_the_one_chosen(client: Client, room: None) -> None:
    page = client.get(LOBBY, {"games": "dealers_choice"})

    assert [row["name"] for row in page.context["tables"]] == ["Mixed dealer's choice"]
    html = page.content.decode()
    assert '<select name="games"' in html
    assert '<option value="rotation">Mixed (rotation)</option>' in html
    assert '<option value="dealers_choice" selected>Dealer&#x27;s choice</option>' in html
    assert client.get(LOBBY_JSON, {"games": "rotation"}).json()["tables"] == lobby_rows(
        games="rotation"
    )


def test_an_unknown_kind_is_ignored_with_a_note(client: Client, room: None) -> None:
    data = client.get(LOBBY_JSON, {"games": "poker"}).json()
    assert data["ignored"] == ["games='poker'"]
    assert len(data["tables"]) == 4
    assert LobbyFilter({"games": "poker"}).valid_filters() == {}


def test_the_sockets_filter_takes_the_kind_and_refuses_a_bad_one(db: None) -> None:
    assert lobby_filters({"type": "filter", "games": "rotation"}) == {"games": "rotation"}
    assert lobby_filters({"type": "filter", "games": None, "variant": ""}) == {}
    with pytest.raises(BadMessage, match="games: Select a valid choice"):
        lobby_filters({"type": "filter", "games": "poker"})
    with pytest.raises(BadMessage, match="'games' must be text or null, not 3"):
        lobby_filters({"type": "filter", "games": 3})


@pytest.mark.django_db(transaction=True)
def test_the_socket_sends_the_rows_of_the_kind_asked_for(room: None) -> None:
    async def scenario() -> None:
        async with lobby() as socket:
            await socket.receive_json_from()
            await socket.send_json_to({"type": "filter", "games": "rotation", "variant": "razz"})
            message = await socket.receive_json_from()
            assert [row["name"] for row in message["tables"]] == ["Mixed rotation"]
            expected = await database_sync_to_async(lobby_rows)(games="rotation", variant="razz")
            assert message["tables"] == expected

    run(scenario)


# ------------------------------------------------------------ the lobby's queries


def queries_for_lobby(client: Client) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(LOBBY_JSON).status_code == 200
    return len(captured.captured_queries)


def test_mixed_tables_cost_the_lobby_a_fixed_number_of_queries(
    client: Client, stakes: Stakes, players: list[User]
) -> None:
    """Their lists, latest hands and seats dealt in are read once for all of them."""
    variants = ["razz", "stud", "stud8"]
    first = Table.objects.create(name="Mix 0", stakes=stakes, policy=Table.Policy.ROTATION)
    for position, variant in enumerate(variants):
        TableGame.objects.create(table=first, position=position, variant=variant)
    sit(first, *players[:2])
    deal_and_finish(first)
    with_one = queries_for_lobby(client)

    for n in range(1, 6):
        policy = Table.Policy.ROTATION if n % 2 else Table.Policy.DEALERS_CHOICE
        table = Table.objects.create(name=f"Mix {n}", stakes=stakes, policy=policy)
        for position, variant in enumerate(variants):
            TableGame.objects.create(table=table, position=position, variant=variant)
        sit(table, *players[2 * (n % 3) : 2 * (n % 3) + 2])
    for table in Table.objects.filter(policy=Table.Policy.ROTATION).exclude(pk=first.pk):
        deal_and_finish(table)

    assert queries_for_lobby(client) == with_one == 5  # 2 for any lobby, 3 for the mixed
    assert len(client.get(LOBBY_JSON).json()["tables"]) == 6


@pytest.fixture
def players(db: None, quick_passwords: None) -> list[User]:
    return [user_signup(username=f"player{n}", password=f"pw-{n}-secret") for n in range(1, 7)]


def test_fixed_tables_alone_cost_no_more_queries(client: Client, stakes: Stakes) -> None:
    for n in range(3):
        Table.objects.create(name=f"Fixed {n}", stakes=stakes)
    assert queries_for_lobby(client) == 2


# ------------------------------------------------------------ the admin


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    """A cheap hasher for the admin user: nothing here is about hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


TABLE_ADD = reverse("admin:tables_table_add")


def table_form(stakes: Stakes, *games: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The add-table form: a rotation of ``games`` (each its position, stakes id or
    variant, as the inline's rows), and the empty inlines of seats and waiting list."""
    data: dict[str, Any] = {
        "name": "Stud mix",
        "stakes": stakes.pk,
        "is_open": "on",
        "policy": "rotation",
        "rotate_hands": 4,
        "choice_for": "hand",
        "choice_default": "last",
        **fields,
    }
    data.update(_inline("games", games))
    for prefix in ("seat_set", "waiting_players"):
        data.update(_inline(prefix, ()))
    return data


def _inline(prefix: str, rows: tuple[dict[str, Any], ...], initial: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = {
        f"{prefix}-TOTAL_FORMS": len(rows),
        f"{prefix}-INITIAL_FORMS": initial,
        f"{prefix}-MIN_NUM_FORMS": 0,
        f"{prefix}-MAX_NUM_FORMS": 1000,
    }
    for index, row in enumerate(rows):
        for name in ("id", "position", "stakes", "variant"):
            data[f"{prefix}-{index}-{name}"] = row.get(name, "")
        if row.get("DELETE"):
            data[f"{prefix}-{index}-DELETE"] = "on"
    return data


def game_errors(response: Any) -> list[dict[str, list[str]]]:
    """Each row of the games inline's errors, per field."""
    formset = _games_formset(response)
    return [{field: list(errors) for field, errors in form.errors.items()} for form in formset]


def list_errors(response: Any) -> list[str]:
    """The games inline's errors about the list as a whole."""
    return list(_games_formset(response).non_form_errors())


def _games_formset(response: Any) -> Any:
    (found,) = [
        inline.formset
        for inline in response.context["inline_admin_formsets"]
        if inline.formset.prefix == "games"
    ]
    return found


def test_staff_build_a_rotation_from_stakes_and_variants(
    admin_client: Client, stakes: Stakes, razz_2_4: Stakes
) -> None:
    form = table_form(
        stakes, {"variant": "stud"}, {"stakes": razz_2_4.pk}, {"variant": "stud8"}, {}
    )  # the last row left empty

    response = admin_client.post(TABLE_ADD, form)

    assert response.status_code == 302, game_errors(response)
    table = Table.objects.get(name="Stud mix")
    assert (table.policy, table.rotate_hands) == ("rotation", 4)
    # Rows without a position go after the others, in order.
    games = [(g.position, g.stakes_id, g.variant) for g in table.games.order_by("position")]
    assert games == [(0, None, "stud"), (1, razz_2_4.pk, ""), (2, None, "stud8")]


def test_positions_given_are_kept_and_the_empty_ones_follow(
    admin_client: Client, stakes: Stakes
) -> None:
    form = table_form(stakes, {"position": 5, "variant": "razz"}, {"variant": "stud"})

    assert admin_client.post(TABLE_ADD, form).status_code == 302

    table = Table.objects.get(name="Stud mix")
    assert [(g.position, g.variant) for g in table.games.all()] == [(5, "razz"), (6, "stud")]


@pytest.mark.parametrize("policy", ["rotation", "dealers_choice"])
def test_a_mixed_table_with_no_games_is_refused(
    admin_client: Client, stakes: Stakes, policy: str
) -> None:
    response = admin_client.post(TABLE_ADD, table_form(stakes, policy=policy))

    assert response.status_code == 200
    kind = "A rotation" if policy == "rotation" else "Dealer's choice"
    assert list_errors(response) == [
        f"{kind} deals from the table's list of games, and it is empty: add at least one "
        "game below, or choose Fixed to deal the stakes' game."
    ]
    assert not Table.objects.exists()


def test_a_fixed_table_with_games_listed_is_refused(admin_client: Client, stakes: Stakes) -> None:
    response = admin_client.post(TABLE_ADD, table_form(stakes, {"variant": "razz"}, policy="fixed"))

    assert list_errors(response) == [
        "A fixed table deals its stakes' game, every hand: choose a rotation or dealer's "
        "choice above to deal the games listed here, or delete them."
    ]
    assert not Table.objects.exists() and not TableGame.objects.exists()


def test_a_fixed_table_without_games_is_saved(admin_client: Client, stakes: Stakes) -> None:
    response = admin_client.post(TABLE_ADD, table_form(stakes, policy="fixed"))

    assert response.status_code == 302
    assert Table.objects.get(name="Stud mix").policy == "fixed"


def test_an_entry_with_both_a_stakes_and_a_variant_is_refused_on_the_variant(
    admin_client: Client, stakes: Stakes, razz_2_4: Stakes
) -> None:
    form = table_form(stakes, {"variant": "stud"}, {"stakes": razz_2_4.pk, "variant": "razz"})

    response = admin_client.post(TABLE_ADD, form)

    assert game_errors(response)[1] == {
        "variant": [
            "Choose either a stakes' game or a variant, not both: empty the variant to deal "
            "the stakes' game, or the stakes to deal this variant at the table's sizes."
        ]
    }
    assert not Table.objects.exists()


def test_an_entry_with_neither_is_refused_on_the_stakes(
    admin_client: Client, stakes: Stakes
) -> None:
    form = table_form(stakes, {"variant": "stud"}, {"position": 3})

    response = admin_client.post(TABLE_ADD, form)

    assert game_errors(response)[1] == {
        "stakes": ["Choose a stakes' game, or a variant to deal with the table's sizes."]
    }
    assert not Table.objects.exists()


@pytest.fixture
def open_pair(stakes: Stakes) -> Stakes:
    """Stud 5/10 with the open-pair big bet, which razz doesn't have."""
    stakes.open_pair_big_bet = True
    stakes.save(update_fields=["open_pair_big_bet"])
    return stakes


RAZZ_REFUSED = (
    "With the table's stakes: Razz has no open-pair big bet: pairs showing don't change bets."
)


def test_a_variant_the_tables_stakes_cant_deal_is_refused_on_the_variant(
    admin_client: Client, open_pair: Stakes
) -> None:
    response = admin_client.post(
        TABLE_ADD, table_form(open_pair, {"variant": "stud"}, {"variant": "razz"})
    )

    assert game_errors(response) == [{}, {"variant": [RAZZ_REFUSED]}]
    assert not Table.objects.exists()


def change_form(table: Table, *games: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The change form of ``table`` as saved, with ``games`` as the inline's rows."""
    data: dict[str, Any] = {
        "name": table.name,
        "policy": table.policy,
        "rotate_hands": table.rotate_hands,
        "choice_for": table.choice_for,
        "choice_default": table.choice_default,
        **fields,
    }
    initial = sum(1 for game in games if game.get("id"))
    data.update(_inline("games", games, initial))
    for prefix in ("seat_set", "waiting_players"):
        data.update(_inline(prefix, ()))
    return data


def test_a_saved_tables_new_variant_is_checked_with_its_stakes(
    admin_client: Client, open_pair: Stakes
) -> None:
    table = mixed(open_pair, Table.Policy.ROTATION, ["stud"], rotate_hands=2)
    entry = table.games.get()
    url = reverse("admin:tables_table_change", args=[table.pk])

    form = change_form(
        table, {"id": entry.pk, "position": 0, "variant": "stud"}, {"variant": "razz"}
    )
    response = admin_client.post(url, form)

    assert game_errors(response)[1] == {"variant": [RAZZ_REFUSED]}
    assert list(table.games.values_list("variant", flat=True)) == ["stud"]


def test_a_list_with_no_game_for_a_full_table_is_refused(
    admin_client: Client, stakes: Stakes
) -> None:
    """Roll your own and English stud are dealt to six at most; the table seats eight."""
    form = table_form(stakes, {"variant": "roll_your_own"}, {"variant": "english"})

    response = admin_client.post(TABLE_ADD, form)

    assert list_errors(response) == [
        "The table seats 8 (its stakes, Stud 5/10), and no game listed is dealt to more than "
        "6 players: add a game for 8, such as seven-card stud, so that a full table has a "
        "game to play."
    ]
    assert not Table.objects.exists()


def test_one_game_for_a_full_table_is_enough(admin_client: Client, stakes: Stakes) -> None:
    form = table_form(stakes, {"variant": "roll_your_own"}, {"variant": "stud"})

    assert admin_client.post(TABLE_ADD, form).status_code == 302


def test_two_games_at_one_place_are_refused_on_the_later_position(
    admin_client: Client, stakes: Stakes
) -> None:
    form = table_form(
        stakes, {"position": 1, "variant": "stud"}, {"position": 1, "variant": "razz"}
    )

    response = admin_client.post(TABLE_ADD, form)

    assert game_errors(response) == [
        {},
        {
            "position": [
                "Seven-card stud has place 1: choose another, or leave it empty for the end of "
                "the list."
            ]
        },
    ]
    assert not Table.objects.exists()


def test_hands_per_game_at_dealers_choice_is_harmless(admin_client: Client, stakes: Stakes) -> None:
    form = table_form(stakes, {"variant": "stud"}, policy="dealers_choice", rotate_hands=7)

    assert admin_client.post(TABLE_ADD, form).status_code == 302
    assert Table.objects.get(name="Stud mix").policy == "dealers_choice"


def test_deleting_the_last_game_of_a_rotation_is_refused(
    admin_client: Client, stakes: Stakes
) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["stud"], rotate_hands=2)
    entry = table.games.get()
    url = reverse("admin:tables_table_change", args=[table.pk])

    form = change_form(table, {"id": entry.pk, "position": 0, "variant": "stud", "DELETE": True})
    response = admin_client.post(url, form)

    assert response.status_code == 200 and list_errors(response)
    assert table.games.count() == 1


def test_staff_change_a_tables_list_and_policy(admin_client: Client, stakes: Stakes) -> None:
    table = mixed(stakes, Table.Policy.ROTATION, ["stud", "razz"], rotate_hands=2)
    stud, razz = table.games.order_by("position")
    url = reverse("admin:tables_table_change", args=[table.pk])
    form = change_form(
        table,
        {"id": stud.pk, "position": 0, "variant": "stud"},
        {"id": razz.pk, "position": 1, "variant": "razz", "DELETE": True},
        {"variant": "baseball"},
        policy="dealers_choice",
    )

    response = admin_client.post(url, form)

    assert response.status_code == 302, game_errors(response) + [list_errors(response)]
    table.refresh_from_db()
    assert table.policy == "dealers_choice"
    assert [(g.position, g.variant) for g in table.games.all()] == [(0, "stud"), (1, "baseball")]


def test_the_game_state_is_shown_but_not_editable(admin_client: Client, rotation: Table) -> None:
    deal_and_finish(rotation)
    url = reverse("admin:tables_table_change", args=[rotation.pk])

    page = admin_client.get(url).content.decode()

    for state in ("game_position", "game_hands", "game_began_seat", "call_seat", "called"):
        assert f'name="{state}"' not in page
    assert 'name="games-0-variant"' in page and 'name="policy"' in page
    assert (
        "Seven-card stud, 5/10, ante 1, bring-in 2. Seven-card stud · 1 more hand, then Razz"
        in page
    )
    # A posted state field changes nothing.
    form = change_form(
        rotation,
        *({"id": g.pk, "position": g.position, "variant": g.variant} for g in rotation.games.all()),
        game_position=2,
        game_hands=0,
    )
    assert admin_client.post(url, form).status_code == 302
    rotation.refresh_from_db()
    assert (rotation.game_position, rotation.game_hands) == (0, 1)


def test_the_table_list_shows_each_tables_policy_and_games(
    admin_client: Client, table: Table, rotation: Table, stakes: Stakes
) -> None:
    choice = mixed(stakes, Table.Policy.DEALERS_CHOICE, ["baseball", "queens"])
    choice.choice_for = Table.ChoiceFor.ORBIT
    choice.save(update_fields=["choice_for"])

    page = admin_client.get(reverse("admin:tables_table_changelist")).content.decode()

    assert "Rotation, every 2 hands" in page
    assert "Dealer&#x27;s choice, each orbit" in page
    assert "Fixed" in page
    assert f"Seven-card stud · Razz · {STUD8}" in page
    assert "Baseball · Queens and after" in page
    rotations = admin_client.get(reverse("admin:tables_table_changelist"), {"policy": "rotation"})
    assert [t.name for t in rotations.context["cl"].result_list] == [rotation.name]


# ------------------------------------------------------------ the demo data


def seed() -> str:
    output = StringIO()
    call_command("seed_demo", stdout=output)
    return output.getvalue()


def test_seed_demo_makes_a_stud_mix_and_a_dealers_choice_table_once(db: None) -> None:
    seed()
    mix = Table.objects.get(name=STUD_MIX)
    home = Table.objects.get(name=DEALERS_CHOICE)
    assert (mix.policy, mix.rotate_hands, mix.is_open) == ("rotation", 4, True)
    assert [g.game_variant for g in mix.games.all()] == ["stud", "razz", "stud8"]
    # Each its own fixed-limit stakes.
    assert {g.stakes.structure for g in mix.games.all() if g.stakes} == {"fixed"}
    assert (home.policy, home.stakes.structure, home.is_open) == ("dealers_choice", "spread", True)
    assert [g.variant for g in home.games.all()] == [
        "stud", "baseball", "queens", "low_hole", "high_chicago", "roll_your_own", "english",
        "declare",
    ]  # fmt: skip
    lists = list(TableGame.objects.values_list("table_id", "position", "stakes_id", "variant"))

    second = seed()

    assert "nothing to create" in second
    assert (
        list(TableGame.objects.values_list("table_id", "position", "stakes_id", "variant")) == lists
    )
    assert Table.objects.filter(name__in=[STUD_MIX, DEALERS_CHOICE]).count() == 2


def test_seed_demo_leaves_a_list_an_operator_changed(db: None) -> None:
    seed()
    mix = Table.objects.get(name=STUD_MIX)
    mix.games.filter(position=2).delete()

    seed()

    assert mix.games.count() == 2


def test_the_demo_bots_play_the_stud_mix(db: None) -> None:
    seed()
    table = Table.objects.get(name=BOT_TABLE)
    assert table.name == STUD_MIX and table.stakes.seats == 6


def test_the_demo_lobby_shows_both_mixed_tables(db: None) -> None:
    seed()
    rows = {row["name"]: row for row in lobby_rows(games="rotation")} | {
        row["name"]: row for row in lobby_rows(games="dealers_choice")
    }
    assert set(rows) == {STUD_MIX, DEALERS_CHOICE}
    assert rows[STUD_MIX]["coming"] == "Seven-card stud first · 4 hands, then Razz"
    assert rows[DEALERS_CHOICE]["coming"] == "Dealer’s choice"
    assert rows[DEALERS_CHOICE]["stakes"] == "Seven-card stud, spread 5-20, ante 1, bring-in 2"
