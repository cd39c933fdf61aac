"""The tables admin: stakes validated by the model, tables opened and closed by the
services, hands read only with every card, and the rake report."""

from __future__ import annotations

import datetime
import re
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from cardroom.asgi import application
from tables import services
from tables.admin import StakesAdmin
from tables.models import (
    ENGINE_FIELDS,
    ChatLine,
    Hand,
    RakeEntry,
    RakeRule,
    Stakes,
    Table,
)
from tables.reports.queries import RakeReport
from tables.rules import GameConfig, HandState
from tables.rules import RakeRule as EngineRake
from tables.rules.cards import FULL_DECK, card_str, parse_cards
from tables.rules.games import structure_choices, variant_choices
from tables.rules.variants import VARIANTS
from tests.tables.test_consumers import SAME_SITE

RAKE_REPORT = reverse("rake_report")


@pytest.fixture(autouse=True)
def fast_passwords(settings) -> None:
    """A cheap hasher: nothing here is about hashing, and users are made in every test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def stakes_form(**overrides: object) -> dict[str, object]:
    """A valid add-stakes form: stud 2/4, ante 0, bring-in 1, buy-in 40 to 400."""
    data = {
        "name": "Stud 2/4",
        "variant": "stud",
        "structure": "fixed",
        "ante": 0,
        "bring_in": 1,
        "small_bet": 2,
        "big_bet": 4,
        "max_raises": 3,
        "raise_at_least_last": "on",
        "seats": 8,
        "min_buy_in": 40,
        "max_buy_in": 400,
        "rake": "",
        "action_seconds": 10,
        "clock": "per_turn",
        "time_bank_seconds": 20,
        "bank_refill_seconds": 5,
        "bank_refill_hands": 5,
        "timeout_policy": "check_fold",
        "sit_out_hands": 10,
        "open_pair_big_bet": "unknown",
        "short_all_in": "half",
        "tie_break": "position",
        "all_in_opener": "next_seat",
        "auto_muck": "on",
    }
    return {**data, **overrides}


def test_staff_add_valid_stakes(admin_client: Client, db: None) -> None:
    response = admin_client.post(reverse("admin:tables_stakes_add"), stakes_form())

    assert response.status_code == 302
    stakes = Stakes.objects.get(name="Stud 2/4")
    assert stakes.describe() == "Seven-card stud, 2/4, bring-in 1"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"bring_in": 5, "small_bet": 5, "big_bet": 10},
            "The bring-in (5) must be below the small bet (5).",
        ),
        (
            {"ante": 2, "bring_in": 2, "small_bet": 5, "big_bet": 10},
            "The ante (2) must be below the bring-in (2).",
        ),
        (
            {"min_buy_in": 200, "max_buy_in": 100},
            "The maximum buy-in (100) can't be below the minimum (200).",
        ),
        ({"seats": 9}, "Ensure this value is less than or equal to 8."),
        ({"seats": 1}, "Ensure this value is greater than or equal to 2."),
    ],
)
def test_invalid_stakes_are_refused_with_the_models_message(
    admin_client: Client, db: None, overrides: dict[str, object], message: str
) -> None:
    response = admin_client.post(reverse("admin:tables_stakes_add"), stakes_form(**overrides))

    assert response.status_code == 200
    assert escape(message) in response.content.decode()
    assert not Stakes.objects.exists()


def test_every_problem_with_the_stakes_is_reported_at_once(admin_client: Client, db: None) -> None:
    form = stakes_form(bring_in=5, small_bet=5, big_bet=10, min_buy_in=200, max_buy_in=100)
    page = admin_client.post(reverse("admin:tables_stakes_add"), form).content.decode()

    assert escape("The bring-in (5) must be below the small bet (5).") in page
    assert escape("The maximum buy-in (100) can't be below the minimum (200).") in page


def form_errors(response: Any) -> dict[str, list[str]]:
    """The admin form's messages per field, as plain text."""
    return {
        field: list(messages)
        for field, messages in response.context["adminform"].form.errors.items()
    }


def test_one_bad_submit_reports_all_its_errors_on_their_fields(
    admin_client: Client, db: None
) -> None:
    form = stakes_form(
        action_seconds=0,
        time_bank_seconds=3600,
        seats=9,
        sit_out_hands=0,
        max_raises=0,
        ante=4,
        bring_in=4,
        small_bet=4,
        big_bet=2,
        min_buy_in=1,
        max_buy_in=0,
        variant="razz",
        open_pair_big_bet="true",
    )

    response = admin_client.post(reverse("admin:tables_stakes_add"), form)

    assert response.status_code == 200
    assert form_errors(response) == {
        "action_seconds": ["Ensure this value is greater than or equal to 5."],
        "time_bank_seconds": ["Ensure this value is less than or equal to 600."],
        "seats": ["Ensure this value is less than or equal to 8."],
        "sit_out_hands": ["Ensure this value is greater than or equal to 1."],
        "max_raises": ["Ensure this value is greater than or equal to 1."],
        "bring_in": ["The bring-in (4) must be below the small bet (4)."],
        "ante": ["The ante (4) must be below the bring-in (4)."],
        "big_bet": ["The big bet (2) can't be below the small bet (4)."],
        "min_buy_in": ["The minimum buy-in must cover a big bet (2)."],
        "max_buy_in": ["The maximum buy-in (0) can't be below the minimum (1)."],
        "open_pair_big_bet": ["Razz has no open-pair big bet: pairs showing don't change bets."],
    }
    assert not Stakes.objects.exists()


def test_a_value_its_field_refuses_is_not_compared_with_the_others(
    admin_client: Client, db: None
) -> None:
    response = admin_client.post(
        reverse("admin:tables_stakes_add"), stakes_form(small_bet="two", max_buy_in="")
    )

    assert form_errors(response) == {
        "small_bet": ["Enter a whole number."],
        "max_buy_in": ["This field is required."],
    }


def test_changing_stakes_compares_with_the_values_submitted_not_the_stored_ones(
    admin_client: Client, db: None
) -> None:
    admin_client.post(reverse("admin:tables_stakes_add"), stakes_form())
    stakes = Stakes.objects.get()

    response = admin_client.post(
        reverse("admin:tables_stakes_change", args=[stakes.pk]),
        stakes_form(small_bet="x", bring_in=3, big_bet=1),
    )

    assert form_errors(response) == {"small_bet": ["Enter a whole number."]}
    stakes.refresh_from_db()
    assert (stakes.small_bet, stakes.bring_in, stakes.big_bet) == (2, 1, 4)


def test_without_a_bring_in_the_ante_must_be_below_the_small_bet(
    admin_client: Client, db: None
) -> None:
    response = admin_client.post(
        reverse("admin:tables_stakes_add"), stakes_form(bring_in=0, ante=2, small_bet=2)
    )

    assert form_errors(response) == {"ante": ["The ante (2) must be below the small bet (2)."]}


def test_the_stakes_options_speak_of_the_game_not_of_the_seeds(
    admin_client: Client, db: None
) -> None:
    page = admin_client.get(reverse("admin:tables_stakes_add")).content.decode()

    assert "seed" not in page.lower()
    assert escape("The player nearer the dealer's left") in page
    assert "Disconnect protection" in page


def test_the_open_pair_option_offers_the_variants_default(admin_client: Client, db: None) -> None:
    page = admin_client.get(reverse("admin:tables_stakes_add")).content.decode()

    assert escape("The variant's default") in page


def test_a_spread_needs_its_maximum_above_its_minimum(admin_client: Client, db: None) -> None:
    form = stakes_form(structure="spread", small_bet=5, big_bet=5)

    response = admin_client.post(reverse("admin:tables_stakes_add"), form)

    assert form_errors(response) == {
        "big_bet": ["A spread's maximum (5) must be above its minimum (5)."]
    }
    assert not Stakes.objects.exists()


def test_stakes_may_not_seat_more_players_than_the_variant_deals_to(
    admin_client: Client, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A six-handed game (as English stud will be): razz, for this test, at most 6.
    monkeypatch.setitem(VARIANTS, "razz", replace(VARIANTS["razz"], max_players=6))

    response = admin_client.post(
        reverse("admin:tables_stakes_add"), stakes_form(variant="razz", seats=8)
    )

    assert form_errors(response) == {"seats": ["Razz is dealt to at most 6 players, not 8."]}
    assert not Stakes.objects.exists()


def test_fixed_limit_allows_equal_small_and_big_bets(admin_client: Client, db: None) -> None:
    admin_client.post(reverse("admin:tables_stakes_add"), stakes_form(small_bet=4, big_bet=4))

    assert Stakes.objects.get().describe() == "Seven-card stud, 4/4, bring-in 1"


@pytest.mark.parametrize("structure", ["pot", "no"])
def test_pot_and_no_limit_ignore_the_big_bet(
    admin_client: Client, db: None, structure: str
) -> None:
    # A big bet below the minimum bet would be refused at fixed or spread limit.
    form = stakes_form(structure=structure, small_bet=5, big_bet=1, min_buy_in=5)

    response = admin_client.post(reverse("admin:tables_stakes_add"), form)

    assert response.status_code == 302
    assert Stakes.objects.get().structure == structure


@pytest.mark.parametrize(
    ("structure", "message"),
    [
        ("fixed", "The minimum buy-in must cover a big bet (10)."),
        ("spread", "The minimum buy-in must cover the spread's maximum (10)."),
        ("pot", "The minimum buy-in must cover a minimum bet (5)."),
    ],
)
def test_the_minimum_buy_in_covers_the_largest_bet_the_structure_names(
    admin_client: Client, db: None, structure: str, message: str
) -> None:
    form = stakes_form(structure=structure, small_bet=5, big_bet=10, min_buy_in=4)

    response = admin_client.post(reverse("admin:tables_stakes_add"), form)

    assert form_errors(response) == {"min_buy_in": [message]}


def test_the_open_pair_big_bet_is_refused_outside_fixed_limit(
    admin_client: Client, db: None
) -> None:
    form = stakes_form(structure="spread", big_bet=10, open_pair_big_bet="true")

    response = admin_client.post(reverse("admin:tables_stakes_add"), form)

    assert form_errors(response) == {
        "open_pair_big_bet": ["The open-pair big bet is a fixed-limit rule."]
    }


def test_every_engine_option_is_a_stakes_field_shown_once_in_the_admin() -> None:
    shown = [name for _, section in StakesAdmin.fieldsets for name in section["fields"]]

    assert tuple(GameConfig().to_dict()) == ENGINE_FIELDS
    assert {field.name for field in Stakes._meta.get_fields()} >= set(ENGINE_FIELDS)
    assert len(shown) == len(set(shown))
    assert set(shown) >= set(ENGINE_FIELDS)


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(variant="deuces", ante=1, bring_in=2, small_bet=5, big_bet=20,
                   structure="spread", tie_break="suit", all_in_opener="best_still_betting",
                   max_raises=4, raise_at_least_last=False, heads_up_uncapped=True,
                   short_all_in="full", auto_muck=False, natural_beats_wild=True,
                   declare_in_turn=True, high_low_declare=True,
                   rake=EngineRake("2.5", cap=3, no_rake_third_street=False)),
        GameConfig(variant="english", small_bet=4, big_bet=4, exchange_price=True,
                   open_pair_big_bet=False),
    ],
)  # fmt: skip
def test_the_stakes_hand_the_engine_every_option_they_hold(db: None, config: GameConfig) -> None:
    options = {name: getattr(config, name) for name in ENGINE_FIELDS if name != "rake"}
    rule = config.rake
    rake = RakeRule.objects.create(
        name="House", percent=Decimal(rule.percent), cap=rule.cap,
        no_rake_third_street=rule.no_rake_third_street,
    )  # fmt: skip
    stakes = Stakes(name="Game", min_buy_in=100, max_buy_in=500, seats=6, rake=rake, **options)

    stakes.full_clean()
    assert stakes.game_config() == config


def test_the_engines_refusal_is_put_on_the_option_it_names(admin_client: Client, db: None) -> None:
    response = admin_client.post(
        reverse("admin:tables_stakes_add"), stakes_form(natural_beats_wild="on")
    )

    assert form_errors(response) == {
        "natural_beats_wild": ["Seven-card stud has no wild cards for a natural hand to beat."]
    }
    assert not Stakes.objects.exists()


def test_a_rake_rule_saved_without_its_checks_is_refused_on_the_rake(db: None) -> None:
    broken = RakeRule.objects.create(name="Greedy", percent=Decimal("150"))
    stakes = Stakes(name="Stud 2/4", small_bet=2, big_bet=4, min_buy_in=40, max_buy_in=400,
                    rake=broken)  # fmt: skip

    with pytest.raises(ValidationError) as caught:
        stakes.full_clean()

    assert caught.value.message_dict == {
        "rake": ["Rake percent must be between 0 and 100, not 150."]
    }


def test_the_raise_at_least_last_option_reaches_the_engine(admin_client: Client, db: None) -> None:
    form = stakes_form(structure="spread", big_bet=10)
    del form["raise_at_least_last"]  # an unticked box is not sent

    admin_client.post(reverse("admin:tables_stakes_add"), form)

    config = Stakes.objects.get().game_config()
    assert (config.structure, config.raise_at_least_last) == ("spread", False)


def test_new_stakes_raise_at_least_the_last_raise(db: None) -> None:
    stakes = Stakes.objects.create(name="Spread", structure="spread", small_bet=1, big_bet=5,
                                   min_buy_in=5, max_buy_in=50)  # fmt: skip

    assert stakes.raise_at_least_last is True
    assert stakes.game_config().raise_at_least_last is True


@pytest.mark.parametrize(
    ("variant", "structure", "small", "big", "words"),
    [
        ("razz", "pot", 5, 10, "Razz, pot limit, minimum bet 5, ante 1, bring-in 2"),
        ("stud", "no", 5, 10, "Seven-card stud, no limit, minimum bet 5, ante 1, bring-in 2"),
        ("london", "spread", 5, 20, "London lowball, spread 5-20, ante 1, bring-in 2"),
        (
            "stud8",
            "fixed",
            5,
            10,
            "Seven-card stud hi-lo, eight or better, 5/10, ante 1, bring-in 2",
        ),
    ],
)
def test_the_stakes_describe_their_structure(
    variant: str, structure: str, small: int, big: int, words: str
) -> None:
    stakes = Stakes(variant=variant, structure=structure, ante=1, bring_in=2, small_bet=small,
                    big_bet=big)  # fmt: skip

    assert stakes.describe() == words


def test_stakes_saved_without_validation_still_describe_themselves() -> None:
    stakes = Stakes(variant="stud", structure="spread", small_bet=5, big_bet=5)

    assert stakes.describe() == "Seven-card stud, spread limit (not a valid game)"


def test_the_variant_and_structure_choices_come_from_the_engines_registry() -> None:
    assert Stakes._meta.get_field("structure").choices == structure_choices()
    assert Stakes._meta.get_field("variant").choices == variant_choices()
    assert Stakes(structure="spread").get_structure_display() == "Spread limit"


def test_the_stakes_form_says_what_the_sizes_mean_in_each_structure(
    admin_client: Client, db: None
) -> None:
    page = admin_client.get(reverse("admin:tables_stakes_add")).content.decode()

    # The admin shows help texts as written (they are trusted HTML).
    assert "Pot and no limit: the minimum bet." in page
    assert "the spread's maximum, the largest bet or raise" in page
    assert '<option value="london">London lowball</option>' in page
    assert '<option value="no">No limit</option>' in page


def test_staff_filter_the_stakes_and_tables_by_structure(admin_client: Client, db: None) -> None:
    fixed = Stakes.objects.create(name="Stud 2/4", small_bet=2, big_bet=4, min_buy_in=40,
                                  max_buy_in=400)  # fmt: skip
    pot = Stakes.objects.create(name="Razz PL 5", variant="razz", structure="pot", small_bet=5,
                                big_bet=5, min_buy_in=50, max_buy_in=500)  # fmt: skip
    Table.objects.create(name="Alpha", stakes=fixed)
    Table.objects.create(name="Omega", stakes=pot)

    stakes = admin_client.get(reverse("admin:tables_stakes_changelist"), {"structure": "pot"})
    tables = admin_client.get(
        reverse("admin:tables_table_changelist"), {"stakes__structure": "pot"}
    )

    assert [s.name for s in stakes.context["cl"].result_list] == ["Razz PL 5"]
    assert [t.name for t in tables.context["cl"].result_list] == ["Omega"]


@pytest.fixture
def stud(db: None) -> Stakes:
    return Stakes.objects.create(
        name="Stud 5/10", ante=1, bring_in=2, small_bet=5, big_bet=10, min_buy_in=50,
        max_buy_in=500, seats=6,
    )  # fmt: skip


@pytest.fixture
def razz(db: None) -> Stakes:
    return Stakes.objects.create(
        name="Razz 2/4", variant="razz", bring_in=1, small_bet=2, big_bet=4, min_buy_in=20,
        max_buy_in=200,
    )  # fmt: skip


@pytest.fixture
def players(db: None) -> list[User]:
    """alice and bob, players seated in the hands below; neither is staff."""
    return [User.objects.create_user(username=name, password="pw") for name in ("alice", "bob")]


# The deck of make_hand's hands: the 4s burned, then alice is dealt As Kd
# down and 6c up, bob 2c 3h down and 6d up.
HAND_DECK = parse_cards("4sAs2cKd3h6c6d") + [
    card for card in FULL_DECK if card not in parse_cards("4sAs2cKd3h6c6d")
]


def make_hand(table: Table, number: int, players: list[User]) -> Hand:
    """A hand stored as the services store one: 3rd street dealt, nobody has acted."""
    state = HandState.new(table.stakes.game_config(), [100, 100], HAND_DECK)
    return Hand.objects.create(
        table=table,
        number=number,
        deck=HAND_DECK,
        deck_salt="salt",
        deck_commitment="c0ffee",
        seating={
            "dealer": 3,
            "players": [{"seat": 1, "player": players[0].pk}, {"seat": 3, "player": players[1].pk}],
        },
        state=state.to_dict(),
        **Hand.game_fields(table.stakes.game_config(), table.stakes.seats),
    )


def test_the_table_list_shows_stakes_open_and_seats_taken(
    admin_client: Client, stud: Stakes, players: list[User]
) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)
    for number, player in enumerate(players, start=1):
        table.seat_set.create(number=number, player=player, stack=100)

    response = admin_client.get(reverse("admin:tables_table_changelist"))

    page = response.content.decode()
    assert "Seven-card stud, 5/10, ante 1, bring-in 2" in page
    assert "2 of 6" in page


def test_the_actions_close_and_open_tables_through_the_services(
    admin_client: Client, stud: Stakes
) -> None:
    tables = [Table.objects.create(name=name, stakes=stud) for name in ("Alpha", "Beta")]
    changelist = reverse("admin:tables_table_changelist")
    chosen = {"_selected_action": [t.pk for t in tables]}

    admin_client.post(changelist, {"action": "close_tables", **chosen})
    assert not Table.objects.filter(is_open=True).exists()

    admin_client.post(changelist, {"action": "open_tables", **chosen})
    assert Table.objects.filter(is_open=True).count() == 2


def test_hands_have_no_add_change_or_delete(
    admin_client: Client, stud: Stakes, players: list[User]
) -> None:
    hand = make_hand(Table.objects.create(name="Alpha", stakes=stud), 1, players)

    add = admin_client.get(reverse("admin:tables_hand_add"))
    delete = admin_client.post(reverse("admin:tables_hand_delete", args=[hand.pk]), {"post": "y"})
    change = admin_client.post(reverse("admin:tables_hand_change", args=[hand.pk]), {"number": 9})

    assert (add.status_code, delete.status_code, change.status_code) == (403, 403, 403)
    hand.refresh_from_db()
    assert hand.number == 1


def make_moves(hand: Hand, *moves: tuple[str, int | None, str | None, bool]) -> Hand:
    """Make ``moves`` (kind, amount, time, made by the clock) in turn in a stored
    hand, recorded as the services record them: in the engine's action list."""
    state = HandState.from_dict(hand.state)
    for kind, amount, at, timed_out in moves:
        state.act(state.to_act, kind, amount, timed_out=timed_out, at=at)
    hand.state, hand.version = state.to_dict(), hand.version + len(moves)
    hand.save(update_fields=["state", "version"])
    return hand


def test_a_hand_shows_the_deck_each_players_cards_and_the_actions(
    admin_client: Client, stud: Stakes, players: list[User]
) -> None:
    hand = make_hand(Table.objects.create(name="Alpha", stakes=stud), 1, players)
    make_moves(hand, ("bring_in", None, "2026-01-01T12:00:01.250+00:00", False))  # alice's 6c

    response = admin_client.get(reverse("admin:tables_hand_change", args=[hand.pk]))

    page = response.content.decode()
    assert f"<code>{' '.join(map(card_str, HAND_DECK))}</code>" in page
    assert "<tr><td>1</td><td>alice</td><td><code>[As] [Kd] 6c</code></td></tr>" in page
    assert "<tr><td>3</td><td>bob</td><td><code>[2c] [3h] 6d</code></td></tr>" in page
    assert "c0ffee" in page
    assert "<td>alice</td><td>bring in</td>" in page


def test_a_hands_moves_are_listed_with_their_times_and_the_clocks_marked(
    admin_client: Client, stud: Stakes, players: list[User]
) -> None:
    hand = make_hand(Table.objects.create(name="Alpha", stakes=stud), 1, players)
    url = reverse("admin:tables_hand_change", args=[hand.pk])
    assert "No moves yet." in admin_client.get(url).content.decode()
    make_moves(
        hand,
        ("bring_in", None, "2026-01-01T12:00:01.250+00:00", False),
        ("complete", 5, "2026-01-01T12:00:04.000+00:00", False),
        ("fold", None, "2026-01-01T12:00:34.500+00:00", True),  # alice's time ran out
    )

    page = admin_client.get(url).content.decode()

    # Numbered as the hand's versions, timed to the millisecond (the site's time zone).
    assert (
        "<tr><td>1</td><td>12:00:01.250</td><td>1</td><td>alice</td><td>bring in</td>"
        "<td></td><td></td></tr>"
        "<tr><td>2</td><td>12:00:04.000</td><td>3</td><td>bob</td><td>complete</td>"
        "<td>5</td><td></td></tr>"
        "<tr><td>3</td><td>12:00:34.500</td><td>1</td><td>alice</td><td>fold</td>"
        "<td></td><td>yes</td></tr>"
    ) in page


def test_a_move_stored_before_moves_were_timed_shows_no_time(
    admin_client: Client, stud: Stakes, players: list[User]
) -> None:
    hand = make_moves(
        make_hand(Table.objects.create(name="Alpha", stakes=stud), 1, players),
        ("bring_in", None, None, False),
    )

    page = admin_client.get(reverse("admin:tables_hand_change", args=[hand.pk])).content.decode()

    assert "<tr><td>1</td><td>—</td><td>1</td><td>alice</td><td>bring in</td>" in page


def test_a_hand_links_to_its_story_once_it_has_ended(
    admin_client: Client, stud: Stakes, players: list[User]
) -> None:
    hand = make_hand(Table.objects.create(name="Alpha", stakes=stud), 1, players)
    url = reverse("admin:tables_hand_change", args=[hand.pk])
    story = f'<a href="{reverse("hand_detail", args=[hand.pk])}">Hand #{hand.pk}</a>'
    assert "Once the hand has ended." in admin_client.get(url).content.decode()

    Hand.objects.filter(pk=hand.pk).update(ended_at=datetime.datetime.now(datetime.UTC))

    assert story in admin_client.get(url).content.decode()


def put_rake(hand: Hand, amount: int, when: datetime.datetime) -> None:
    entry = RakeEntry.objects.create(
        hand=hand, table=hand.table, stakes=hand.table.stakes, variant=hand.variant, amount=amount
    )
    # created_at is set on insert; the report groups by it, so move it to `when`.
    RakeEntry.objects.filter(pk=entry.pk).update(created_at=when)


@pytest.fixture
def rake(stud: Stakes, razz: Stakes, players: list[User]) -> None:
    """Rake on 1 and 2 March: Alpha (stud) 3+2 then 1; Beta (stud) 3; Gamma (razz) 2.

    Alpha also ends two hands without rake, as hands folded on 3rd street do:
    one each day. Their ledger rows are of 0 chips.
    """
    alpha, beta, gamma = (
        Table.objects.create(name=name, stakes=stakes)
        for name, stakes in (("Alpha", stud), ("Beta", stud), ("Gamma", razz))
    )
    day1 = datetime.datetime(2025, 3, 1, 23, 30, tzinfo=datetime.UTC)
    day2 = datetime.datetime(2025, 3, 2, 0, 15, tzinfo=datetime.UTC)
    put_rake(make_hand(alpha, 1, players), 3, day1)
    put_rake(make_hand(alpha, 2, players), 2, day1)
    put_rake(make_hand(alpha, 3, players), 1, day2)
    put_rake(make_hand(beta, 1, players), 3, day2)
    put_rake(make_hand(gamma, 1, players), 2, day2)
    put_rake(make_hand(alpha, 4, players), 0, day1)
    put_rake(make_hand(alpha, 5, players), 0, day2)


def rows(report: RakeReport, section: str, key: str) -> list[tuple[object, int, int, int]]:
    """(key, hands, raked hands, rake) per line."""
    return [
        (getattr(line, key), line.hands, line.raked_hands, line.rake)
        for line in getattr(report, section)
    ]


def test_the_rake_report_totals_per_day_stakes_and_table(admin_client: Client, rake: None) -> None:
    response = admin_client.get(RAKE_REPORT)

    report = response.context["report"]
    day1, day2 = datetime.date(2025, 3, 1), datetime.date(2025, 3, 2)
    assert rows(report, "by_day", "key") == [(day1, 3, 2, 5), (day2, 4, 3, 6)]
    assert rows(report, "by_stakes", "label") == [("Razz 2/4", 1, 1, 2), ("Stud 5/10", 6, 4, 9)]
    assert rows(report, "by_table", "label") == [
        ("Alpha", 5, 3, 6),
        ("Beta", 1, 1, 3),
        ("Gamma", 1, 1, 2),
    ]
    assert (report.total.rake, report.total.raked_hands, report.total.hands) == (11, 5, 7)


def test_the_rake_report_counts_only_hands_with_rake_as_raked(
    admin_client: Client, rake: None
) -> None:
    response = admin_client.get(RAKE_REPORT)

    page = " ".join(response.content.decode().split())
    assert (
        "Total rake: <strong>11</strong> chips from 5 raked hands (hands with rake above 0), "
        "of 7 hands played." in page
    )
    assert rows(response.context["report"], "by_week", "label") == [("2025-W09", 7, 5, 11)]


@pytest.mark.parametrize(
    ("params", "day", "hands", "chips"),
    [
        ({"start": "2025-03-02"}, datetime.date(2025, 3, 2), 3, 6),
        ({"end": "2025-03-01"}, datetime.date(2025, 3, 1), 2, 5),
        ({"start": "2025-03-01", "end": "2025-03-01"}, datetime.date(2025, 3, 1), 2, 5),
    ],
)
def test_the_rake_report_keeps_to_the_dates_asked(
    admin_client: Client,
    rake: None,
    params: dict[str, str],
    day: datetime.date,
    hands: int,
    chips: int,
) -> None:
    response = admin_client.get(RAKE_REPORT, params)

    report = response.context["report"]
    assert rows(report, "by_day", "key") == [(day, hands + 1, hands, chips)]
    assert (report.total.rake, report.total.raked_hands) == (chips, hands)


def test_the_rake_report_with_no_rake_says_so(admin_client: Client, db: None) -> None:
    response = admin_client.get(RAKE_REPORT, {"start": "2030-01-01"})

    total = response.context["report"].total
    assert (total.rake, total.hands) == (0, 0)
    assert "No hands ended in this range." in response.content.decode()


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"start": "2025-02-30"}, "Enter a real date as YYYY-MM-DD, such as 2025-03-01."),
        ({"end": "yesterday"}, "Enter a real date as YYYY-MM-DD, such as 2025-03-01."),
        (
            {"start": "2025-03-02", "end": "2025-03-01"},
            "The range ends (2025-03-01) before it starts (2025-03-02).",
        ),
    ],
)
def test_bad_dates_give_a_message_and_no_report(
    admin_client: Client, rake: None, params: dict[str, str], message: str
) -> None:
    response = admin_client.get(RAKE_REPORT, params)

    assert response.status_code == 200
    assert response.context["report"] is None
    assert message in response.content.decode()


def test_the_admin_index_links_the_rake_report(admin_client: Client, db: None) -> None:
    response = admin_client.get(reverse("admin:index"))

    assert f'href="{RAKE_REPORT}"' in response.content.decode()


def test_staff_without_the_rake_permission_get_403(client: Client, db: None) -> None:
    clerk = User.objects.create_user(username="clerk", password="pw", is_staff=True)
    client.force_login(clerk)

    assert client.get(RAKE_REPORT).status_code == 403
    clerk.user_permissions.add(Permission.objects.get(codename="view_rakeentry"))
    client.force_login(User.objects.get(pk=clerk.pk))  # a fresh permission cache
    assert client.get(RAKE_REPORT).status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        RAKE_REPORT,
        reverse("admin:index"),
        reverse("admin:tables_hand_changelist"),
        reverse("admin:tables_stakes_add"),
        reverse("admin:tables_table_changelist"),
    ],
)
def test_a_player_gets_no_admin_page_and_no_rake_report(
    client: Client, players: list[User], url: str
) -> None:
    client.force_login(players[0])

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


@pytest.mark.django_db(transaction=True)
def test_opening_a_table_deals_to_the_players_waiting_there(
    admin_client: Client, stud: Stakes, players: list[User], settings
) -> None:
    settings.CARDROOM_TURN_TASKS = False  # no worker in this test
    table = Table.objects.create(name="Alpha", stakes=stud, is_open=False)
    for number, player in enumerate(players, start=1):
        table.seat_set.create(number=number, player=player, stack=100)
    changelist = reverse("admin:tables_table_changelist")

    admin_client.post(changelist, {"action": "open_tables", "_selected_action": [table.pk]})

    assert Hand.objects.filter(table=table, ended_at__isnull=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_closing_a_table_tells_its_viewers(admin_client: Client, stud: Stakes) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)
    changelist = reverse("admin:tables_table_changelist")

    async def scenario() -> None:
        communicator = WebsocketCommunicator(
            application, f"/ws/tables/{table.pk}/", headers=SAME_SITE
        )
        try:
            assert (await communicator.connect())[0]
            assert (await communicator.receive_json_from(timeout=3))["table"]["is_open"]
            await database_sync_to_async(admin_client.post)(
                changelist, {"action": "close_tables", "_selected_action": [table.pk]}
            )
            snapshot = await communicator.receive_json_from(timeout=3)
            assert snapshot["type"] == "snapshot" and not snapshot["table"]["is_open"]
        finally:
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_staff_read_and_search_the_table_chat_but_cannot_change_it(
    admin_client: Client, stud: Stakes, players: list[User]
) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)
    alice, bob = players
    services.chat_post(table_id=table.pk, player_id=alice.pk, text="gl all")
    line = services.chat_post(table_id=table.pk, player_id=bob.pk, text="<b>rude words</b>")

    found = admin_client.get(reverse("admin:tables_chatline_changelist"), {"q": "rude"})
    page = found.content.decode()
    assert "&lt;b&gt;rude words&lt;/b&gt;" in page and "gl all" not in page
    assert admin_client.get(reverse("admin:tables_chatline_add")).status_code == 403
    changed = admin_client.post(
        reverse("admin:tables_chatline_change", args=[line["id"]]), {"text": "nice"}
    )
    assert changed.status_code == 403
    assert ChatLine.objects.get(pk=line["id"]).text == "<b>rude words</b>"


def test_the_home_games_rule_options_are_refused_for_games_without_them(
    admin_client: Client, db: None
) -> None:
    form = stakes_form(
        declare_in_turn="on", exchange_price="on", high_low_declare="on", variant="stud"
    )
    response = admin_client.post(reverse("admin:tables_stakes_add"), form)
    assert form_errors(response) == {
        "high_low_declare": [
            "Seven-card stud isn't played high-low with declare here: only the wild-card games "
            "whose wild cards everyone sees are."
        ],
        "exchange_price": ["Seven-card stud has no exchanges to put a price on."],
    }
    response = admin_client.post(
        reverse("admin:tables_stakes_add"), stakes_form(declare_in_turn="on")
    )
    assert form_errors(response) == {
        "declare_in_turn": ["Seven-card stud has no declaration to make in turn."]
    }
    assert not Stakes.objects.exists()


@pytest.mark.parametrize(
    ("variant", "options", "words"),
    [
        (
            "deuces",
            {"high_low_declare": "on", "declare_in_turn": "on"},
            "Deuces wild, high-low declare",
        ),
        ("english", {"exchange_price": "on"}, "English stud"),
        ("declare8", {"declare_in_turn": "on"}, "Seven-card stud hi-lo declare, eight or better"),
    ],
)
def test_an_operator_sets_up_each_home_games_options_in_the_admin(
    admin_client: Client, db: None, variant: str, options: dict[str, str], words: str
) -> None:
    form = stakes_form(variant=variant, seats=6, **options)
    response = admin_client.post(reverse("admin:tables_stakes_add"), form)
    assert response.status_code == 302, form_errors(response)
    stakes = Stakes.objects.get()
    config = stakes.game_config()
    for name in options:
        assert getattr(config, name) is True
    assert stakes.describe().startswith(words)


# ------------------------------------------------------- rake percentages in the admin


@pytest.fixture
def ten_percent(stud: Stakes) -> RakeRule:
    """Stud 5/10 raked at 10%, the rule the database hands back as Decimal("10.00"),
    which ``normalize()`` alone writes "1E+1"; and a 2.5% rule beside it."""
    rule = RakeRule.objects.create(name="Ten", percent=Decimal("10"))
    RakeRule.objects.create(name="Half five", percent=Decimal("2.5"), cap=4)
    stud.rake = rule
    stud.save(update_fields=["rake"])
    return RakeRule.objects.get(pk=rule.pk)


def test_a_rake_rule_names_its_percent_as_people_write_it(ten_percent: RakeRule) -> None:
    assert ten_percent.percent == Decimal("10.00")
    assert str(ten_percent) == "Ten (10%)"
    assert str(RakeRule.objects.get(name="Half five")) == "Half five (2.5%, cap 4)"
    assert ten_percent.engine_rule().percent == "10"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            reverse("admin:tables_rakerule_changelist"),
            ['percent_shown">10%</td>', 'percent_shown">2.5%</td>'],
        ),
        (reverse("admin:tables_stakes_changelist"), ["Ten (10%)"]),
        (reverse("admin:tables_stakes_add"), [">Ten (10%)</option>", ">Half five (2.5%, cap 4)<"]),
    ],
)
def test_the_admin_shows_rake_percentages_as_people_write_them(
    admin_client: Client, ten_percent: RakeRule, url: str, shown: list[str]
) -> None:
    page = admin_client.get(url).content.decode()

    for text in shown:
        assert text in page
    assert "E+" not in page and "10.00" not in page


def test_a_rake_rules_form_shows_its_percent_as_typed_and_keeps_it(
    admin_client: Client, ten_percent: RakeRule
) -> None:
    url = reverse("admin:tables_rakerule_change", args=[ten_percent.pk])
    page = admin_client.get(url).content.decode()
    assert re.search(r'name="percent" value="10"', page)

    data = {"name": "Ten", "percent": "10", "cap": "", "no_rake_third_street": "on"}
    assert admin_client.post(url, data).status_code == 302
    assert RakeRule.objects.get(pk=ten_percent.pk).percent == Decimal("10")


# -------------------------------------------- closing and reopening from a table's page


def open_close_url(table: Table) -> str:
    return reverse("admin:tables_table_open_close", args=[table.pk])


def change_url(table: Table) -> str:
    return reverse("admin:tables_table_change", args=[table.pk])


def test_a_tables_page_has_a_close_button_that_closes_it(
    admin_client: Client, stud: Stakes
) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)
    page = admin_client.get(change_url(table)).content.decode()
    assert f'action="{open_close_url(table)}"' in page
    assert "Close table</button>" in page and "A hand in play ends first" in page

    response = admin_client.post(open_close_url(table), {"to": "close"}, follow=True)

    assert response.redirect_chain == [(change_url(table), 302)]
    assert not Table.objects.get(pk=table.pk).is_open
    page = response.content.decode()
    assert "Alpha is closed: no new hand will be dealt" in page
    assert "This table is closed" in page and "Reopen table</button>" in page


@pytest.mark.django_db(transaction=True)
def test_reopening_from_the_tables_page_deals_to_the_players_waiting(
    admin_client: Client, stud: Stakes, players: list[User], settings
) -> None:
    settings.CARDROOM_TURN_TASKS = False  # no worker in this test
    table = Table.objects.create(name="Alpha", stakes=stud, is_open=False)
    for number, player in enumerate(players, start=1):
        table.seat_set.create(number=number, player=player, stack=100)

    response = admin_client.post(open_close_url(table), {"to": "open"}, follow=True)

    assert Table.objects.get(pk=table.pk).is_open
    assert Hand.objects.filter(table=table, ended_at__isnull=True).count() == 1
    assert "Alpha is open: players can sit down" in response.content.decode()


def test_the_open_close_button_takes_only_a_post(admin_client: Client, stud: Stakes) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)

    assert admin_client.get(open_close_url(table), {"to": "close"}).status_code == 405
    assert Table.objects.get(pk=table.pk).is_open


def test_the_open_close_button_refuses_a_post_without_the_csrf_token(
    stud: Stakes, admin_user: User
) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin_user)

    assert client.post(open_close_url(table), {"to": "close"}).status_code == 403
    assert Table.objects.get(pk=table.pk).is_open


def test_an_unknown_choice_changes_nothing_and_says_so(admin_client: Client, stud: Stakes) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)

    response = admin_client.post(open_close_url(table), {"to": "explode"}, follow=True)

    assert "Choose Close table or Reopen table." in response.content.decode()
    assert Table.objects.get(pk=table.pk).is_open


def test_staff_who_may_only_view_tables_get_no_button_and_a_403(
    client: Client, stud: Stakes
) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)
    viewer = User.objects.create_user(username="viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_table"))
    client.force_login(viewer)

    page = client.get(change_url(table)).content.decode()
    assert "Alpha" in page and "Close table" not in page
    assert client.post(open_close_url(table), {"to": "close"}).status_code == 403
    assert Table.objects.get(pk=table.pk).is_open


def test_a_player_cannot_close_a_table(client: Client, stud: Stakes, players: list[User]) -> None:
    table = Table.objects.create(name="Alpha", stakes=stud)
    client.force_login(players[0])

    response = client.post(open_close_url(table), {"to": "close"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    assert Table.objects.get(pk=table.pk).is_open


def test_a_table_that_does_not_exist_is_a_404(admin_client: Client, db: None) -> None:
    url = reverse("admin:tables_table_open_close", args=[999_999])

    assert admin_client.post(url, {"to": "close"}).status_code == 404


def test_a_table_with_players_seated_is_closed_never_deleted(
    admin_client: Client, seated: Table
) -> None:
    delete = reverse("admin:tables_table_delete", args=[seated.pk])
    page = admin_client.get(reverse("admin:tables_table_change", args=[seated.pk])).content.decode()
    assert delete not in page
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    listing = admin_client.get(reverse("admin:tables_table_changelist")).content.decode()
    assert 'value="delete_selected"' not in listing
    assert Table.objects.filter(pk=seated.pk).exists() and seated.seat_set.count() == 2


def test_a_table_nobody_sits_at_and_never_dealt_may_be_deleted(
    admin_client: Client, table: Table
) -> None:
    admin_client.post(reverse("admin:tables_table_delete", args=[table.pk]), {"post": "yes"})
    assert not Table.objects.filter(pk=table.pk).exists()
