"""Hand history downloads: who sees which cards, replays, the text format, queries.

Personas (``tests/tables/conftest.py`` and below): alice, bob and carol play
(seats 1, 2 and 4) and each sees their own down cards, everyone's upcards and
shown hands; dave only ever watched, so no past hand exists for him; sam is
staff with ``tables.view_hand`` and sees every card. The seeds' sample deal is
played by Larry, Craig, Katherine and Jimmy, who deals.

Hands are played through ``tables.services`` on a fixed deck: the services
deal from ``tables.services.hands.shuffled_deck``, which the ``deck`` fixture replaces.
"""

from __future__ import annotations

import datetime
import io
import json
import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.history import exports
from tables.models import Hand, HandResult, RakeRule, Stakes, Table
from tables.rules import HandState
from tables.rules.cards import card_str, fisher_yates
from tables.rules.formats.phh import read_phh, read_phhs
from tables.rules.narration import card_text
from tables.rules.state import WAGERS
from tables.services import hands as hand_services
from tests.rules.test_sample_deal import DECK as SAMPLE_DECK
from tests.tables.conftest import Strategy, bet_and_call, engine, play_out
from tests.tables.test_history_access import hidden_from

EXPECTED = Path(__file__).parent / "expected"
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
UTC = datetime.UTC
DEFAULT = fisher_yates(1)
SAMPLE_START = datetime.datetime(2026, 11, 21, 20, 15, tzinfo=UTC)


# ------------------------------------------------------------------ personas


@pytest.fixture
def sam(db: None, quick_passwords: None) -> User:
    """Staff allowed to read every hand with every card (not a superuser)."""
    user = user_signup(username="sam", password="sam-pw-1234")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.add(Permission.objects.get(codename="view_hand"))
    return User.objects.get(pk=user.pk)  # fresh, without a stale permission cache


@pytest.fixture
def deck(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[int]], None]:
    """Fix the next hands' decks: each call queues one, dealt in order; with
    none queued, hands are dealt from one fixed deck."""
    queued: list[list[int]] = []

    def next_deck() -> list[int]:
        return list(queued.pop(0) if queued else DEFAULT)

    monkeypatch.setattr(hand_services, "shuffled_deck", next_deck)
    return lambda cards: queued.append(list(cards))


# -------------------------------------------------------------------- helpers


def sit(table: Table, *players: tuple[User, int, int]) -> None:
    for user, seat, buy_in in players:
        services.seat_take(table_id=table.pk, player_id=user.pk, seat_number=seat, buy_in=buy_in)


def play(table: Table, choose: Strategy = bet_and_call) -> Hand:
    return play_out(services.hand_start(table_id=table.pk), choose)


def fold_first_chance(state: HandState) -> tuple[str, int | None]:
    """The first player who may fold does; everyone else bets and calls."""
    kinds = {option.kind for option in state.legal_actions()}
    if "fold" in kinds and not any(e["type"] == "fold" for e in state.events):
        return "fold", None
    return bet_and_call(state)


def raise_and_call(state: HandState) -> tuple[str, int | None]:
    """Raise as high as allowed whenever allowed, else call or check: all-ins come fast."""
    options = {option.kind: option for option in state.legal_actions()}
    for kind in WAGERS:
        if kind in options:
            return kind, options[kind].max
    return next(kind for kind in ("call", "check", "bring_in") if kind in options), None


def unshown_down_cards(hand: Hand, player: int) -> set[str]:
    """``player``'s down cards in ``hand`` unless they were shown at the showdown."""
    state = HandState.from_dict(hand.state)
    return set() if state.shown[player] else {card_str(c) for c in state.downcards(player)}


def dealt_cards(hand: Hand) -> set[str]:
    state = HandState.from_dict(hand.state)
    return {card_str(e["card"]) for e in state.events if e["type"] == "deal"}


def phh_cards(fields_actions: list[str]) -> set[str]:
    """Every card named in a PHH hand's deal and show actions (``??`` left out)."""
    named = set()
    for action in fields_actions:
        words = action.split("#")[0].split()
        if len(words) >= 3 and (words[0] == "d" or words[1] == "sm"):
            packed = words[-1]
            named |= {packed[i : i + 2] for i in range(0, len(packed), 2)} - {"??"}
    return named


def text_hands(body: str) -> dict[int, str]:
    """A text download split into its hands, by hand id."""
    parts = re.split(r"^(?=PokerStars Hand #)", body, flags=re.M)
    return {int(re.match(r"PokerStars Hand #(\d+):", p)[1]): p for p in parts if p.strip()}


def phhs_hands(body: str) -> dict[int, list[str]]:
    """A .phhs download's hands' actions, by hand id."""
    return {h.fields["_cardroom_hand_id"]: h.actions for h in read_phhs(body)}


def final_stacks(hand: Hand) -> list[int]:
    """The database's finishing stacks, in engine order (seating order)."""
    results = {r.player_id: r.final_stack for r in HandResult.objects.filter(hand=hand)}
    return [results[entry["player"]] for entry in hand.seating["players"]]


def replayed(path: Path) -> list[dict]:
    out = io.StringIO()
    call_command("replay_phh", str(path), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def get(client: Client, user: User | None, url: str, **params: str):
    if user is not None:
        client.force_login(user)
    return client.get(url, params)


def one(hand: Hand, fmt: str) -> str:
    return reverse("export_hand", args=[hand.pk, fmt])


def many(fmt: str) -> str:
    return reverse("export_hands", args=[fmt])


# ------------------------------------------------------------ hands to export


@pytest.fixture
def three_handed(table: Table, alice: User, bob: User, carol: User, deck) -> Table:
    sit(table, (alice, 1, 200), (bob, 2, 200), (carol, 4, 200))
    return table


@pytest.fixture
def folded_hand(three_handed: Table, deck) -> Hand:
    """Someone folds on 3rd street, the other two go to the showdown."""
    deck(fisher_yates(11))
    return play(three_handed, fold_first_chance)


@pytest.fixture
def hands(three_handed: Table, deck) -> list[Hand]:
    """Three hands at table 1: a fold, a showdown, and raising to all-ins."""
    for seed in (11, 12, 13):
        deck(fisher_yates(seed))
    return [
        play(three_handed, fold_first_chance),
        play(three_handed, bet_and_call),
        play(three_handed, raise_and_call),
    ]


def players_of(hand: Hand) -> dict[int, int]:
    """User id -> engine player number."""
    return {entry["player"]: i for i, entry in enumerate(hand.seating["players"])}


# ------------------------------------------------------------------ visibility


@pytest.mark.parametrize("fmt", ["phh", "txt"])
def test_a_players_export_of_one_hand_holds_no_other_players_unshown_cards(
    client, folded_hand, alice, bob, carol, fmt
):
    hidden_somewhere = False
    for user in (alice, bob, carol):
        body = get(client, user, one(folded_hand, fmt)).content.decode()
        named = phh_cards(read_phh(body).actions) if fmt == "phh" else set(CARD.findall(body))
        me = players_of(folded_hand)[user.pk]
        assert {card_str(c) for c in HandState.from_dict(folded_hand.state).downcards(me)} <= named
        for other in set(range(3)) - {me}:
            hidden = unshown_down_cards(folded_hand, other)
            hidden_somewhere |= bool(hidden)
            assert not hidden & named, f"{user} reads player {other}'s unshown cards"
    assert hidden_somewhere  # the hand had cards to hide


@pytest.mark.parametrize("fmt", ["phhs", "txt"])
def test_a_players_range_export_holds_no_other_players_unshown_cards(
    client, hands, alice, bob, carol, fmt
):
    for user in (alice, bob, carol):
        body = get(client, user, many(fmt)).content.decode()
        if fmt == "phhs":
            written = {pk: phh_cards(actions) for pk, actions in phhs_hands(body).items()}
        else:
            written = {pk: set(CARD.findall(text)) for pk, text in text_hands(body).items()}
        assert list(written) == [hand.pk for hand in hands]
        for hand in hands:
            me = players_of(hand)[user.pk]
            for other in set(range(3)) - {me}:
                assert not unshown_down_cards(hand, other) & written[hand.pk]


@pytest.mark.parametrize("fmt", ["phh", "txt"])
def test_someone_who_was_not_dealt_in_is_told_the_hand_does_not_exist(
    client, folded_hand, dave, fmt
):
    for user in (dave, None):  # an observer, then an anonymous visitor
        client.logout()
        response = get(client, user, one(folded_hand, fmt))
        assert response.status_code == 404
        assert response.content.decode() == "No such hand.\n"


def test_a_hand_still_being_played_is_not_exported(client, three_handed, alice):
    hand = services.hand_start(table_id=three_handed.pk)
    assert get(client, alice, one(hand, "txt")).status_code == 404


def test_an_observer_has_no_hands_to_download(client, hands, dave):
    response = get(client, dave, many("phhs"))
    assert response.status_code == 404
    assert "No finished hands to download" in response.content.decode()


def test_an_anonymous_range_download_asks_for_a_login(client, hands):
    response = client.get(many("txt"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


@pytest.mark.parametrize("fmt", ["phh", "txt"])
def test_staff_exports_of_one_hand_hold_every_card(client, folded_hand, sam, fmt):
    body = get(client, sam, one(folded_hand, fmt)).content.decode()
    named = phh_cards(read_phh(body).actions) if fmt == "phh" else set(CARD.findall(body))
    assert dealt_cards(folded_hand) <= named


@pytest.mark.parametrize("fmt", ["phhs", "txt"])
def test_staff_range_exports_hold_every_hand_with_every_card(client, hands, sam, fmt):
    body = get(client, sam, many(fmt)).content.decode()
    if fmt == "phhs":
        written = {pk: phh_cards(actions) for pk, actions in phhs_hands(body).items()}
    else:
        written = {pk: set(CARD.findall(text)) for pk, text in text_hands(body).items()}
    assert list(written) == [hand.pk for hand in hands]
    for hand in hands:
        assert dealt_cards(hand) <= written[hand.pk]


# ------------------------------------------------------------------ round trip


def test_one_hand_exported_as_phh_replays_to_the_databases_stacks(
    client, folded_hand, alice, tmp_path
):
    path = tmp_path / "hand.phh"
    path.write_bytes(get(client, alice, one(folded_hand, "phh")).content)
    assert replayed(path) == [{"path": str(path), "finishing_stacks": final_stacks(folded_hand)}]


def test_a_ten_percent_rake_is_exported_as_10_and_replays_to_the_databases_stacks(
    client, table, alice, bob, carol, deck, tmp_path
):
    """The stakes' rule comes from the database as Decimal("10.00"), which once
    reached the file as ``percent = "1E+1"``."""
    RakeRule.objects.filter(pk=table.stakes.rake_id).update(percent=Decimal("10"), cap=None)
    sit(table, (alice, 1, 200), (bob, 2, 200), (carol, 4, 200))
    hand = play(table)
    assert hand.rake_entry.amount > 0

    body = get(client, alice, one(hand, "phh")).content.decode()

    assert 'percent = "10"' in body and "E+" not in body
    assert read_phh(body).config.rake.percent == "10"
    path = tmp_path / "raked.phh"
    path.write_text(body)
    assert replayed(path) == [{"path": str(path), "finishing_stacks": final_stacks(hand)}]


@pytest.fixture
def variant_tables(db: None, alice: User, bob: User, carol: User, deck) -> list[Table]:
    """A razz and a stud hi-lo table, the same three players at each."""
    tables = []
    for variant in ("razz", "stud8"):
        stakes = Stakes.objects.create(
            name=f"{variant} 5/10", variant=variant, ante=1, bring_in=2, small_bet=5,
            big_bet=10, min_buy_in=50, max_buy_in=500,
        )  # fmt: skip
        table = Table.objects.create(name=f"{variant} table", stakes=stakes)
        sit(table, (alice, 1, 60), (bob, 2, 150), (carol, 3, 300))
        tables.append(table)
    return tables


def test_hands_of_every_game_with_side_pots_replay_from_one_phhs(
    client, three_handed, variant_tables, alice, deck, tmp_path
):
    razz, stud8 = variant_tables
    games = [(three_handed, bet_and_call), (razz, raise_and_call), (stud8, raise_and_call)]
    played = []
    for seed, (table, choose) in enumerate([*games, (three_handed, raise_and_call)]):
        deck(fisher_yates(100 + seed))
        played.append(play(table, choose))
    side_pots = [h for h in played if len(HandState.from_dict(h.state).result["pots"]) > 1]
    assert side_pots, "raising to all-ins with unequal stacks must make a side pot"
    path = tmp_path / "hands.phhs"
    path.write_bytes(get(client, alice, many("phhs")).content)
    lines = replayed(path)
    assert [line["path"] for line in lines] == [f"{path}#{n}" for n in range(1, 5)]
    assert [line["finishing_stacks"] for line in lines] == [final_stacks(h) for h in played]


def swap_a_down_card(state: HandState, player: int) -> tuple[str, list[int] | None]:
    """Exchange the first card held (dealt face down) each time; roll and
    declare as the clock would."""
    options = state.legal_actions(player)
    if options[0].kind == "exchange":
        return "exchange", [options[0].cards[0]]
    return state.default_decision(player)


DECISION_GAMES = ["roll_your_own", "english", "aces_straights_flushes", "declare"]


@pytest.mark.parametrize("variant", DECISION_GAMES)
def test_hands_with_decisions_export_and_replay_to_the_databases_stacks(
    client, db, alice, bob, carol, deck, tmp_path, variant
):
    stakes = Stakes.objects.create(
        name=f"{variant} 5/10", variant=variant, ante=1, bring_in=2, small_bet=5,
        big_bet=10, min_buy_in=50, max_buy_in=500, seats=6,
        exchange_price=variant == "english",
    )  # fmt: skip
    table = Table.objects.create(name=f"{variant} table", stakes=stakes)
    sit(table, (alice, 1, 400), (bob, 2, 400), (carol, 3, 400))
    played = []
    for seed in range(3):
        deck(fisher_yates(200 + seed))
        hand = services.hand_start(table_id=table.pk)
        played.append(play_out(hand, bet_and_call, decide=swap_a_down_card))
    path = tmp_path / "hands.phhs"
    path.write_bytes(get(client, alice, many("phhs")).content)
    assert [line["finishing_stacks"] for line in replayed(path)] == [
        final_stacks(h) for h in played
    ]
    # Bob's and carol's exchanged down cards (and any hand mucked) stay theirs.
    written = text_hands(get(client, alice, many("txt")).content.decode())
    for hand in played:
        secret = set(hidden_from(hand, alice))
        assert not secret & set(CARD.findall(written[hand.pk])), hand.number
        if variant == "english":
            assert secret, "bob and carol exchanged down cards"


# ------------------------------------------------------------ the sample deal


@pytest.fixture
def sample_deal(db: None, quick_passwords: None, deck) -> dict[str, User | Hand]:
    """Seeds 000/001's sample deal played through the services: Jimmy deals
    from seat 1, Larry, Craig and Katherine sit to his left in seats 2 to 4."""
    people = {name: user_signup(username=name, password=f"{name}-pw-1234") for name in
              ("Jimmy", "Larry", "Craig", "Katherine")}  # fmt: skip
    stakes = Stakes.objects.create(
        name="Stud 300/500", variant="stud", ante=25, bring_in=100, small_bet=300,
        big_bet=500, min_buy_in=500, max_buy_in=10_000,
    )  # fmt: skip
    table = Table.objects.create(name="Sample Deal", stakes=stakes)
    sit(table, *((people[name], seat, 10_000) for seat, name in enumerate(people, start=1)))
    deck(SAMPLE_DECK)
    hand = services.hand_start(table_id=table.pk)
    for name, kind, amount in SAMPLE_MOVES:
        hand.refresh_from_db()
        services.hand_act(
            hand_id=hand.pk, player_id=people[name].pk, kind=kind, amount=amount,
            version=hand.version,
        )  # fmt: skip
    Hand.objects.filter(pk=hand.pk).update(
        started_at=datetime.datetime(2026, 11, 21, 20, 15, tzinfo=UTC)
    )
    hand.refresh_from_db()
    return {**people, "hand": hand}


SAMPLE_MOVES = [
    ("Katherine", "bring_in", None),
    ("Jimmy", "call", None),
    ("Larry", "fold", None),
    ("Craig", "complete", 300),
    ("Katherine", "fold", None),
    ("Jimmy", "call", None),
    ("Craig", "check", None),  # 4th street
    ("Jimmy", "check", None),
    ("Jimmy", "bet", 500),  # 5th street: Jimmy's open kings act first
    ("Craig", "call", None),
    ("Jimmy", "bet", 500),
    ("Craig", "call", None),
    ("Jimmy", "check", None),  # 7th street
    ("Craig", "bet", 500),
    ("Jimmy", "call", None),
]


def test_the_sample_deal_for_jimmy_matches_the_checked_in_text(client, sample_deal):
    hand = sample_deal["hand"]
    assert engine(hand).stacks == [9_975, 11_975, 9_875, 8_175]  # the seed's result
    response = get(client, sample_deal["Jimmy"], one(hand, "txt"))
    expected = (EXPECTED / "sample_deal_pokerstars.txt").read_text(encoding="utf-8")
    assert response.content.decode() == expected.replace("{hand}", str(hand.pk))
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="cardroom-hand-{hand.pk}.txt"'


def test_the_sample_deal_as_phh_names_players_seats_table_and_time(client, sample_deal):
    hand = sample_deal["hand"]
    response = get(client, sample_deal["Larry"], one(hand, "phh"))
    assert response["Content-Disposition"] == f'attachment; filename="cardroom-hand-{hand.pk}.phh"'
    fields = read_phh(response.content).fields
    assert fields["players"] == ["Larry", "Craig", "Katherine", "Jimmy"]
    assert fields["seats"] == [2, 3, 4, 1]
    assert (fields["seat_count"], fields["table"], fields["hand"]) == (8, "Sample Deal", 1)
    assert (fields["year"], fields["month"], fields["day"]) == (2026, 11, 21)
    assert fields["time"] == datetime.time(20, 15)
    assert (fields["time_zone"], fields["time_zone_abbreviation"]) == ("UTC", "UTC")
    assert fields["winnings"] == [0, 3800, 0, 0]
    assert fields["_cardroom_hand_id"] == hand.pk
    larry_down = "".join(card_str(card) for card in engine(hand).downcards(0))
    said = [card_text(card_str(card)) for card in engine(hand).downcards(0)]
    # His own cards, named; the commentary tells it with the players' names.
    assert (
        f"d dh p1 {larry_down}4s # Larry is dealt {' '.join(said)} down and 4♠ up"
        in (fields["actions"])
    )
    # Jimmy mucked: hidden from Larry, in the move and in its words.
    assert "d dh p4 ????9c # Jimmy is dealt 2 down cards and 9♣ up" in fields["actions"]
    assert "p4 cc # Jimmy calls 200" in fields["actions"]
    assert fields["actions"][-1] == "# Pot of 3,800: Craig wins 3,800"


# ------------------------------------------------------------- ranges, errors


def test_dates_are_whole_days_in_the_sites_time_zone(client, hands, alice, settings):
    settings.TIME_ZONE = "Europe/Paris"
    late = datetime.datetime(2026, 11, 10, 23, 30, tzinfo=UTC)  # 00:30 on the 11th in Paris
    Hand.objects.filter(pk=hands[0].pk).update(started_at=late)
    Hand.objects.filter(pk__in=[h.pk for h in hands[1:]]).update(started_at=late.replace(day=20))

    on_the_11th = get(client, alice, many("txt"), start="2026-11-11", end="2026-11-11")
    on_the_10th = get(client, alice, many("txt"), start="2026-11-10", end="2026-11-10")

    assert list(text_hands(on_the_11th.content.decode())) == [hands[0].pk]
    assert " - 2026/11/11 0:30:00 CET" in on_the_11th.content.decode()
    assert on_the_10th.status_code == 404
    assert on_the_11th["Content-Disposition"] == (
        'attachment; filename="cardroom-hands-from-2026-11-11-to-2026-11-11.txt"'
    )


def test_a_range_in_the_players_time_zone_writes_its_times_there(client, hands, alice):
    late = datetime.datetime(2026, 11, 10, 23, 30, tzinfo=UTC)  # 18:30 on the 10th in New York
    Hand.objects.filter(pk=hands[0].pk).update(started_at=late)
    Hand.objects.filter(pk__in=[h.pk for h in hands[1:]]).update(started_at=late.replace(day=20))
    new_york = {"tz": "America/New_York"}

    text = get(client, alice, many("txt"), start="2026-11-10", end="2026-11-10", **new_york)
    phhs = get(client, alice, many("phhs"), start="2026-11-10", end="2026-11-10", **new_york)

    assert list(text_hands(text.content.decode())) == [hands[0].pk]
    assert " - 2026/11/10 18:30:00 EST" in text.content.decode()
    assert 'time_zone = "America/New_York"' in phhs.content.decode()
    next_day = get(client, alice, many("txt"), start="2026-11-11", end="2026-11-11", **new_york)
    assert next_day.status_code == 404


def test_a_range_in_an_unknown_time_zone_is_refused(client, hands, alice):
    refused = get(client, alice, many("txt"), start="2026-11-10", tz="Nowhere/Atlantis")
    assert refused.status_code == 400
    said = refused.content.decode()
    assert said.startswith("Bad range: tz: 'Nowhere/Atlantis' is not a time zone")


def test_one_hand_in_the_players_time_zone_writes_its_times_there(client, hands, alice):
    late = datetime.datetime(2026, 11, 10, 23, 30, tzinfo=UTC)  # 18:30 on the 10th in New York
    Hand.objects.filter(pk=hands[0].pk).update(started_at=late)

    text = get(client, alice, one(hands[0], "txt"), tz="America/New_York")
    phh = get(client, alice, one(hands[0], "phh"), tz="America/New_York")
    site = get(client, alice, one(hands[0], "txt"))

    assert " - 2026/11/10 18:30:00 EST" in text.content.decode()
    assert 'time_zone = "America/New_York"' in phh.content.decode()
    assert " - 2026/11/10 23:30:00 UTC" in site.content.decode()  # the site's zone


def test_one_hand_in_an_unknown_time_zone_is_refused(client, hands, alice):
    refused = get(client, alice, one(hands[0], "txt"), tz="Nowhere/Atlantis")
    assert refused.status_code == 400
    said = refused.content.decode()
    assert said.startswith("Bad time zone: 'Nowhere/Atlantis' is not a time zone")
    assert len(said.splitlines()) == 1  # that, and no hand


def test_table_and_stakes_narrow_the_range(client, hands, variant_tables, alice, deck):
    deck(fisher_yates(40))
    razz = play(variant_tables[0])
    by_table = get(client, alice, many("txt"), table=str(variant_tables[0].pk))
    by_stakes = get(client, alice, many("txt"), stakes=str(hands[0].table.stakes_id))
    assert list(text_hands(by_table.content.decode())) == [razz.pk]
    assert list(text_hands(by_stakes.content.decode())) == [hand.pk for hand in hands]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"start": "2026-13-01"}, "start: Enter a real date as YYYY-MM-DD"),
        ({"end": "yesterday"}, "end: Enter a real date as YYYY-MM-DD"),
        ({"start": "2026-11-23", "end": "2026-11-01"}, "The range ends (2026-11-01) before"),
        ({"table": "x"}, "table: Enter a whole number."),
        ({"stakes": "0"}, "stakes: Enter a positive whole number."),
        # Past the calendar's end once a day is added, and past the database's ids.
        ({"end": "9999-12-31"}, "end: Enter a date from 2000-01-01 to 2099-12-31."),
        ({"start": "0001-01-01"}, "start: Enter a date from 2000-01-01 to 2099-12-31."),
        ({"table": "9999999999999999999999999"}, "table: No id is that large."),
        ({"stakes": str(2**63)}, "stakes: No id is that large."),
    ],
)
def test_a_bad_range_is_a_400_that_says_what_is_wrong(client, alice, params, message):
    response = get(client, alice, many("phhs"), **params)
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert message in response.content.decode()


@pytest.mark.parametrize(("url", "formats"), [("one", ".phh or .txt"), ("many", ".phhs or .txt")])
def test_an_unknown_format_is_a_404_naming_the_formats(client, folded_hand, alice, url, formats):
    target = one(folded_hand, "pdf") if url == "one" else many("pdf")
    response = get(client, alice, target)
    assert response.status_code == 404
    assert formats in response.content.decode()


def test_a_range_past_the_maximum_is_refused_with_the_maximum_named(
    client, hands, alice, monkeypatch
):
    monkeypatch.setattr(exports, "MAX_HANDS", 2)
    response = get(client, alice, many("phhs"))
    assert response.status_code == 400
    assert "more than 2 hands" in response.content.decode()
    assert "choose a shorter range" in response.content.decode()


def test_a_range_at_the_maximum_downloads(client, hands, alice, monkeypatch):
    monkeypatch.setattr(exports, "MAX_HANDS", 3)
    response = get(client, alice, many("phhs"))
    assert response.status_code == 200
    assert len(read_phhs(response.content)) == 3
    assert response["Content-Disposition"] == 'attachment; filename="cardroom-hands.phhs"'


# ------------------------------------------------------------------- queries


def queries_for(client: Client, user: User, fmt: str) -> int:
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(many(fmt)).status_code == 200
    return len(captured)


@pytest.mark.parametrize("fmt", ["phhs", "txt"])
@pytest.mark.parametrize("who", ["alice", "sam"])
def test_a_range_export_takes_the_same_few_queries_for_any_number_of_hands(
    client, three_handed, alice, sam, deck, fmt, who, django_assert_max_num_queries
):
    user = {"alice": alice, "sam": sam}[who]
    deck(fisher_yates(70))
    play(three_handed)
    few = queries_for(client, user, fmt)
    for seed in range(71, 76):
        deck(fisher_yates(seed))
        play(three_handed, fold_first_chance)
    client.force_login(user)
    with django_assert_max_num_queries(7):
        client.get(many(fmt))
    assert queries_for(client, user, fmt) == few
