"""One hand's page: the hand in words, the replayer's steps, and its SQL.

The hands are dealt from stacked decks (tests.rules.stacking) so that the words
can be checked exactly. Heads-up with alice in seat 1 and bob in seat 2, bob
is engine player 0 and alice 1.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables import services
from tables.models import Stakes, Table
from tables.rules import HandState
from tables.rules.cards import card_str, parse_card
from tables.rules.state import WAGERS
from tables.rules.views import events_for, view
from tables.selectors.history import HandAccess, ReplayMismatch, hand_access, hand_replay
from tests.rules.stacking import config, stack_deck
from tests.tables.conftest import bet_and_call, play_out
from tests.tables.test_history_access import (
    MUCK_DECK,
    assert_hides,
    deal_next,
    detail_url,
    folds,
    make_staff,
    page,
    play_hand,
    replay_data,
    seat,
    showdown,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db: None, quick_passwords: None) -> User:
    """sam, staff allowed to read hands: sees every card."""
    return make_staff()


# The session, the user, the hand with its table and stakes, the results with
# their players' names, the moves the clock made; staff add their permissions.
PLAYER_QUERIES = 5
STAFF_QUERIES = 7

# A stud hi-lo hand: bob's kings full take the high half, alice's six-four the low.
SPLIT_DECK = stack_deck(
    {0: "KcKdKh", 1: "Ac2c3d"},
    {0: "Qc", 1: "4h"},
    {0: "Qd", 1: "6c"},
    {0: "2s", 1: "9d"},
    {0: "3s", 1: "Th"},
)


@pytest.fixture
def heads_up(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    return table


def story(html: str) -> list[str]:
    """The hand in words: section titles and lines, as the page shows them."""
    body = html[html.index('id="story-title"') : html.index('id="deck"')]
    items = re.findall(r"<h3>(.*?)</h3>|class=\"story-line\">(.*?)</a>", body, re.S)
    return [" ".join(re.sub(r"<.*?>", "", h or line).split()) for h, line in items]


def test_the_hand_is_told_street_by_street_as_bob_saw_it(heads_up, alice, bob, monkeypatch):
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_hand(heads_up, showdown)
    html = page(Client(), bob, detail_url(hand)).content.decode()
    assert story(html) == [
        "Antes",
        "bob antes 1",
        "alice antes 1",
        "3rd street · pot 2",
        "bob is dealt A♣ A♦ down and A♥ up",
        "alice is dealt 2 down cards and 2♣ up",
        "alice completes to 5",
        "bob calls 5",
        "4th street · pot 12",
        "bob is dealt K♣",
        "alice is dealt 7♠",
        "bob bets 5",
        "alice calls 5",
        "5th street · pot 22",
        "bob is dealt K♦",
        "alice is dealt 9♥",
        "bob bets 10",
        "alice calls 10",
        "6th street · pot 42",
        "bob is dealt Q♠",
        "alice is dealt J♦",
        "bob bets 10",
        "alice calls 10",
        "7th street · pot 62",
        "bob is dealt 5♣ down",
        "alice is dealt a down card",
        "bob bets 10",
        "alice calls 10",
        "Showdown · pot 82",
        "bob shows A♣ A♦ A♥ K♣ K♦ Q♠ 5♣: full house, aces full of kings",
        "alice mucks, unshown",
        "Pots",
        "Pot of 82, rake 3: bob wins 79",
    ]


def test_a_bet_nobody_calls_comes_back_and_the_pot_goes_uncontested(
    heads_up, alice, bob, monkeypatch
):
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_hand(heads_up, folds(bob))  # alice completes, bob folds
    lines = story(page(Client(), alice, detail_url(hand)).content.decode())
    assert lines[-5:] == [
        "alice completes to 5",
        "bob folds",
        "Uncalled bet of 5 returned to alice",
        "Pots",
        "Pot of 2: alice wins 2, uncontested",
    ]


def test_hi_lo_names_both_halves_and_who_won_each(table, alice, bob, monkeypatch):
    table.stakes.variant = "stud8"
    table.stakes.save(update_fields=["variant"])
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, SPLIT_DECK)
    hand = play_hand(table, showdown)
    lines = story(page(Client(), bob, detail_url(hand)).content.decode())
    assert lines[-5:] == [
        "Showdown · pot 82",
        "bob shows K♣ K♦ K♥ Q♣ Q♦ 2♠ 3♠: full house, kings full of queens; no low",
        "alice shows A♣ 2♣ 3♦ 4♥ 6♣ 9♦ 10♥: high card, ace; 6-4-3-2-A low",
        "Pots",
        "Pot of 82, rake 3: bob wins 40 (high), alice wins 39 (low)",
    ]


def declaring(**said: str):
    """Each engine player declares as ``said`` ("p0": "high"...)."""

    def decide(state: HandState, player: int) -> tuple[str, list[int] | None]:
        return f"declare_{said[f'p{player}']}", None

    return decide


def test_a_declare_hand_tells_each_declaration_and_the_half_it_won(table, alice, bob, monkeypatch):
    table.stakes.variant = "declare8"
    table.stakes.save(update_fields=["variant"])
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, SPLIT_DECK)
    hand = services.hand_start(table_id=table.pk)
    hand = play_out(hand, bet_and_call, decide=declaring(p0="high", p1="low"))
    lines = story(page(Client(), bob, detail_url(hand)).content.decode())
    assert "bob declares high" in lines and "alice declares low" in lines
    assert lines.index("bob declares high") < lines.index("Showdown · pot 82")
    assert lines[-1] == "Pot of 82, rake 3: bob wins 40 (high), alice wins 39 (low)"
    # Each shown hand is named the way it was declared, and no other.
    assert "bob shows K♣ K♦ K♥ Q♣ Q♦ 2♠ 3♠: full house, kings full of queens" in lines
    assert "alice shows A♣ 2♣ 3♦ 4♥ 6♣ 9♦ 10♥: 6-4-3-2-A low" in lines


# Bob (engine player 0): A♥ A♦ 2♣ 9♥ 4♣ 5♠ 7♦. Alice: K♠ K♦ 3♣ 8♦ Q♣ J♥
# 7♠, who swaps her K♠ (down) for the Q♥ after 6th street.
ENGLISH_DECK = stack_deck(
    {0: "AhAd2c", 1: "KsKd3c"},
    {0: "9h", 1: "8d"},
    {0: "4c", 1: "Qc"},
    {0: "5s", 1: "Jh"},
    {"draws": "Qh"},
    {0: "7d", 1: "7s"},
)


def alice_swaps_her_king(state: HandState, player: int) -> tuple[str, list[int] | None]:
    if player == 1 and state.street_name == "6th street":
        return "exchange", [parse_card("Ks")]
    return "stand_pat", None


def test_an_exchanged_down_card_is_on_its_owners_page_and_no_one_elses(
    table, alice, bob, monkeypatch
):
    table.stakes.variant = "english"
    table.stakes.save(update_fields=["variant"])
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, ENGLISH_DECK)
    hand = services.hand_start(table_id=table.pk)
    hand = play_out(hand, bet_and_call, decide=alice_swaps_her_king)
    alices = story(page(Client(), alice, detail_url(hand)).content.decode())
    assert "alice exchanges the K♠ for the Q♥" in alices
    assert "bob stands pat" in alices
    bobs_page = page(Client(), bob, detail_url(hand)).content.decode()
    assert "alice exchanges a down card" in story(bobs_page)
    assert_hides(bobs_page, ["Ks"])  # in every form a page shows a card, not in tokens


def test_a_move_the_clock_made_is_marked(heads_up, alice, bob):
    hand = services.hand_start(table_id=heads_up.pk)
    services.hand_timeout(
        hand_id=hand.pk, turn=hand.version, now=hand.turn_expires_at + timedelta(seconds=1)
    )
    hand.refresh_from_db()
    state = HandState.from_dict(hand.state)
    timed = state.actions[0]
    hand = play_out(hand, lambda state: folds(alice, bob)(hand, state))
    lines = story(page(Client(), alice, detail_url(hand)).content.decode())
    name = {alice.pk: "alice", bob.pk: "bob"}[hand.seating["players"][timed["player"]]["player"]]
    assert f"{name} brings in 2 (out of time)" in lines
    assert sum("(out of time)" in line for line in lines) == 1


# ------------------------------------------------------------ the replayer


def test_there_is_a_step_per_action_each_with_what_happened(heads_up, alice, bob, monkeypatch):
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_hand(heads_up, showdown)
    data = replay_data(page(Client(), alice, detail_url(hand)).content.decode())
    steps = data["steps"]
    assert len(steps) == len(hand.state["actions"]) + 1
    assert steps[0]["lines"][-2:] == [
        "bob is dealt 2 down cards and A♥ up",
        "alice is dealt 3♦ 4♥ down and 2♣ up",
    ]
    assert steps[1]["lines"] == ["alice completes to 5"]
    assert steps[2]["lines"][0] == "bob calls 5"
    assert steps[-1]["view"]["result"]["pots"][0]["shares"] == [[0, 79]]
    assert data["names"] == ["bob", "alice"] and data["seats"] == [2, 1]
    assert all("legal_actions" not in step["view"] for step in steps)


def test_staff_steps_are_the_engines_whole_state(heads_up, alice, bob, staff):
    hand = play_hand(heads_up, folds(bob))
    data = replay_data(page(Client(), staff, detail_url(hand)).content.decode())
    stored = HandState.from_dict(hand.state)
    state = HandState.new(stored.config, stored.starting_stacks, stored.deck)
    for number, step in enumerate(data["steps"]):
        if number:
            state.apply(stored.actions[number - 1])
        expected = view(state, None, everything=True)
        del expected["legal_actions"]
        assert step["view"] == expected


def test_a_hand_whose_moves_dont_lead_to_its_stored_state_is_refused(heads_up, alice, bob):
    hand = play_hand(heads_up, showdown)
    hand.state["stacks"][0] += 1  # as if the stored result had been edited
    access = hand_access(bob, hand)
    with pytest.raises(ReplayMismatch, match="does not replay to its stored state"):
        hand_replay(access, ["bob", "alice"])


def down_cards(seat: dict) -> list[str | None]:
    """A seat's down cards in a view, as dealt (None: hidden from the viewer)."""
    return [held["card"] for held in seat["cards"] if not held["up"]]


def test_the_everything_view_shows_all_down_cards_and_burns_and_only_it_does():
    deck = MUCK_DECK
    state = HandState.new(config(), [100, 100], deck)
    whole = view(state, None, everything=True)
    assert [down_cards(p) for p in whole["players"]] == [["Ac", "Ad"], ["3d", "4h"]]
    assert down_cards(view(state, 0)["players"][1]) == [None, None]
    burns = [e for e in events_for(state, None, everything=True) if e["type"] == "burn"]
    assert burns == [{"type": "burn", "card": card_str(deck[0]), "street": 0}]
    hidden = [e for e in events_for(state, 0) if e["type"] == "burn"]
    assert hidden == [{"type": "burn", "card": None, "street": 0}]


def test_replays_use_the_viewers_seat_and_no_other(heads_up, alice, bob):
    hand = play_hand(heads_up, folds(bob))
    access = HandAccess(hand, HandState.from_dict(hand.state), 1, False)
    replay = hand_replay(access, ["bob", "alice"])
    first = replay.steps[0]["view"]["players"]
    assert down_cards(first[1]) != [None, None] and down_cards(first[0]) == [None, None]


# ----------------------------------------------------------------------- SQL


@pytest.mark.parametrize("who", ["player", "staff"])
def test_the_page_makes_the_same_queries_for_a_short_or_a_long_hand(
    table, alice, bob, carol, staff, who, django_assert_max_num_queries
):
    seat(table, (alice, 1), (bob, 2), (carol, 4))
    short = play_hand(table, folds(alice, bob))
    long = play_hand(table, showdown)
    assert len(short.state["actions"]) <= 5 and len(long.state["actions"]) >= 15
    client = Client()
    client.force_login(alice if who == "player" else staff)
    for hand in (short, long):
        with django_assert_max_num_queries(PLAYER_QUERIES if who == "player" else STAFF_QUERIES):
            assert client.get(reverse("hand_detail", args=[hand.pk])).status_code == 200


def test_a_hand_settled_at_the_deal_has_one_step(alice, bob):
    # Buy-ins of one chip leave both all in on the ante: the engine deals the
    # board out and settles the hand as it is created, with no action at all.
    tiny = Stakes.objects.create(
        name="Tiny", ante=1, bring_in=2, small_bet=5, big_bet=10, min_buy_in=1, max_buy_in=1
    )
    table = Table.objects.create(name="Tiny table", stakes=tiny)
    for number, player in ((1, alice), (2, bob)):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=1)
    hand = services.hand_start(table_id=table.pk)
    assert hand.is_finished and hand.state["actions"] == []
    html = page(Client(), alice, detail_url(hand)).content.decode()
    steps = replay_data(html)["steps"]
    assert len(steps) == 1
    lines = steps[0]["lines"]
    assert lines[:2] == ["bob antes 1, all in", "alice antes 1, all in"]
    words = story(html)
    # Each street in its own section, with a line per player, all in the one step.
    for street in ("3rd", "4th", "5th", "6th", "7th"):
        section = words[words.index(f"{street} street · pot 2") + 1 :][:2]
        assert [line.split(" is dealt ")[0] for line in section] == ["bob", "alice"]
    assert sum(" is dealt " in line for line in lines) == 10
    assert "Showdown · pot 2" in words
    assert lines[-1].startswith("Pot of 2: ")


@pytest.mark.parametrize(
    ("variant", "structure"),
    [
        ("stud", "fixed"),
        ("razz", "fixed"),
        ("stud8", "fixed"),
        ("stud", "pot"),
        ("london", "no"),
        ("mississippi", "fixed"),
        ("mississippi", "no"),
        ("deuces", "fixed"),
        ("acey_ducey", "pot"),
        ("queens", "fixed"),
        ("low_hole", "spread"),
        ("high_chicago", "fixed"),
        ("man_with_the_axe", "fixed"),
        ("baseball", "no"),
        ("roll_your_own", "fixed"),
        ("english", "pot"),
        ("aces_straights_flushes", "fixed"),
        ("declare", "spread"),
        ("declare8", "fixed"),
    ],
)
def test_random_hands_are_told_whole_with_each_streets_pot(variant, structure):
    """Seeded random play, all-ins and runouts included: every step has its
    lines, each street's heading carries the pot as it began, and the
    showdown's the pot that was awarded."""
    rng = random.Random(f"{variant} {structure}")
    for _ in range(40):
        stacks = [rng.randint(3, 120) for _ in range(rng.randint(2, 6))]
        state = HandState.new(config(variant=variant, structure=structure), stacks)
        while not state.finished:
            player = state.to_act if state.to_act is not None else rng.choice(state.deciding())
            option = rng.choice(state.legal_actions(player))
            amount = None
            if option.kind in WAGERS:  # a size from the list, or any from the least to the most
                sizes = option.amounts or range(option.min, option.max + 1)
                amount = rng.choice(sizes)
            cards = None if option.cards is None else [rng.choice(option.cards)]
            state.act(player, option.kind, amount, cards)
        names = [f"p{i}" for i in range(state.n)]
        replay = hand_replay(HandAccess(None, state, 0, False), names)
        assert all(step["lines"] for step in replay.steps)
        pots = {section.title: section.pot for section in replay.sections}
        if "Showdown" in pots:
            assert pots["Showdown"] == sum(pot["amount"] for pot in state.result["pots"])
        for number, step in enumerate(replay.steps):
            # The streets this step began: when it is one, and the hand goes on,
            # the step's view has the pot as the street began.
            began = [s for s in replay.sections if s.title.endswith("street")]
            began = [s for s in began if s.lines[0].step == number]
            if len(began) == 1 and not step["view"]["result"]:
                # Payments for cards dealt face up (Man with the Axe) come with the deal.
                street = state.game.streets.index(began[0].title)
                paid = sum(
                    e["amount"]
                    for e in state.events
                    if e["type"] == "pay" and e["street"] == street
                )
                assert began[0].pot + paid == sum(pot["amount"] for pot in step["view"]["pots"])
