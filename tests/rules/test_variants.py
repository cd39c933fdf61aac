"""Variants are data: London lowball, and a game built from a script alone."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules import HandState
from tables.rules.cards import parse_cards
from tables.rules.evaluators import Evaluator
from tables.rules.evaluators.ace_to_six import low_a6_cards, low_a6_key, low_a6_words
from tables.rules.variants import VARIANTS, Bet, Deal, Showdown
from tables.rules.variants.steps import DOWN, UP
from tests.rules.stacking import config, play, stack_deck

LONDON = VARIANTS["london"]


def a6_rank(five: tuple[int, ...]) -> tuple:
    """An independent ace-to-six reading of five cards, as a sort key (lower is
    better): ace low; pairs, straights and flushes make a hand worse, in the
    order of high poker."""
    ranks = sorted((1 if c // 4 == 12 else c // 4 + 2 for c in five), reverse=True)
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    straight = len(counts) == 5 and ranks[0] - ranks[4] == 4
    flush = len({c % 4 for c in five}) == 1
    order = [
        shape == [1] * 5 and not straight and not flush,
        shape == [2, 1, 1, 1],
        shape == [2, 2, 1],
        shape == [3, 1, 1],
        straight and not flush,
        flush and not straight,
        shape == [3, 2],
        shape == [4, 1],
        straight and flush,
    ]
    category = order.index(True)
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (category, *grouped)


def call_down(state: HandState) -> HandState:
    """Everyone brings in, checks or calls to the end."""
    while not state.finished:
        options = [a.kind for a in state.legal_actions()]
        move = next(kind for kind in ("bring_in", "check", "call", "show") if kind in options)
        state.act(state.to_act, move)
    return state


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("6d4c3h2sAc", "6-4-3-2-A low"),
        ("5d4c3h2sAc", "5-4-3-2-A low, straight"),  # a wheel is a straight here
        ("7h5h4h3h2h", "7-5-4-3-2 low, flush"),
        ("KdKc4h3s2c", "K-K-4-3-2 low, pair of kings"),
        ("6d4c3h2sAcKdKs", "6-4-3-2-A low"),
        ("5d4c3h2sAc7s", "7-4-3-2-A low"),  # breaks the straight with the 7, keeps the 5 out
    ],
)
def test_ace_to_six_reads_the_best_low(cards, words):
    assert low_a6_words(low_a6_key(parse_cards(cards))) == words


@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_ace_to_six_agrees_with_an_independent_reading(cards):
    best = min(a6_rank(five) for five in combinations(cards, 5))
    assert a6_rank(low_a6_cards(cards)) == best
    for five in combinations(cards, 5):
        assert (low_a6_key(five) == low_a6_key(cards)) == (a6_rank(five) == best)


def test_the_best_ace_to_six_low_takes_the_pot_in_london_lowball():
    # Alice holds a wheel (a straight: bad); Bob's 7-6-4-3-2 wins.
    deck = stack_deck(
        {0: "AcKd5d", 1: "2c3c7h"},
        {0: "2d", 1: "6s"},
        {0: "3d", 1: "4s"},
        {0: "4h", 1: "Qh"},
        {0: "Kh", 1: "Jc"},
    )
    state = call_down(HandState.new(config(variant="london", bring_in=2), [50, 50], deck))
    assert state.result["payouts"] == [0, state.result["pots"][0]["amount"]]
    assert state.result["hands"]["1"]["low"] == "7-6-4-3-2 low"


def test_london_lowball_brings_in_with_the_highest_door_card_and_the_lowest_hand_opens():
    deck = stack_deck({0: "????Kd", 1: "????Ks", 2: "????3c"}, {0: "5h", 1: "Ac", 2: "Kc"})
    state = HandState.new(config(variant="london"), [50] * 3, deck)
    assert state.to_act == 1  # two kings: spades is the highest suit, as in razz
    play(state, (1, "bring_in"), (2, "call"), (0, "call"))
    assert state.street_name == "4th street"
    assert state.to_act == 1  # K-A is the lowest of K-5, K-A and K-3: the ace is low


def test_a_new_game_is_a_new_script(monkeypatch):
    """Five-card stud (one down, four up), built as data: the engine deals it
    street by street and reads the hands, with no change to the engine."""
    script = (
        Deal("2nd street", (DOWN, UP)),
        Bet("small", bring_in=True),
        Deal("3rd street", (UP,)),
        Bet("small"),
        Deal("4th street", (UP,)),
        Bet("big"),
        Deal("5th street", (UP,)),
        Bet("big"),
        Showdown(),
    )
    monkeypatch.setitem(VARIANTS, "five", replace(VARIANTS["stud"], code="five", script=script))
    state = HandState.new(config(variant="five"), [100, 100, 100])
    assert [len(hand) for hand in state.cards] == [2, 2, 2]
    call_down(state)
    assert [[held.up for held in hand] for hand in state.cards] == [
        [False, True, True, True, True]
    ] * 3
    assert state.game.streets == ("2nd street", "3rd street", "4th street", "5th street")


def test_an_evaluator_with_a_qualifier_refuses_lows_above_it():
    eight = Evaluator(high=True, low="ace-to-five", qualifier=8)
    assert eight.low_key(parse_cards("9c7d5h3s2c")) is None
    assert eight.low_key(parse_cards("8c7d5h3s2c")) is not None


@pytest.mark.parametrize(
    ("variant", "cards", "strength"),
    [
        ("razz", "5d4c3h2sAc", 1.0),  # the best ace-to-five low
        ("london", "6d4c3h2sAc", 1.0),  # the best ace-to-six low
        ("london", "8d4c3h2sAc", 0.75),  # two ranks off the best
        ("london", "5d4c3h2sAc", 0.0),  # a straight: no unpaired low at all
        ("stud", "KdKc4h3s2c", 1 / 8),  # a pair
    ],
)
def test_a_bots_rough_strength_is_measured_from_the_games_best_hand(variant, cards, strength):
    assert VARIANTS[variant].evaluator.strength(parse_cards(cards)) == strength


# ------------------------------------------------------------- Mississippi


def test_mississippi_deals_4th_and_5th_street_before_its_second_betting_round():
    """Seed 000: no betting round between 4th and 5th street."""
    state = HandState.new(config(variant="mississippi"), [100, 100, 100], stack_deck())
    state.act(state.to_act, "bring_in")
    state.act(state.to_act, "call")
    state.act(state.to_act, "call")
    assert state.street_name == "5th street"
    assert [len(state.cards[p]) for p in range(3)] == [5, 5, 5]
    kinds = [e["type"] for e in state.events]
    last_bet = max(i for i, kind in enumerate(kinds) if kind == "call")
    assert kinds[last_bet + 1 :].count("deal") == 6  # 4th and 5th streets, three players each


def test_mississippi_bets_small_small_big_big_in_four_rounds():
    """Bet as Texas hold'em bets (seed 000): the small bet on the first two
    rounds, the big bet on the last two. No open pair: there is no 4th-street round."""
    state = HandState.new(config(variant="mississippi"), [200, 200], stack_deck())
    sizes = []
    while not state.finished:
        options = {a.kind: a for a in state.legal_actions()}
        if "bring_in" in options:
            state.act(state.to_act, "bring_in")
        elif "bet" in options or "complete" in options:
            wager = options.get("bet") or options["complete"]
            sizes.append(wager.amounts)
            state.act(state.to_act, wager.kind, wager.min)
            state.act(state.to_act, "call")
        else:
            state.act(state.to_act, next(k for k in ("call", "check", "show") if k in options))
    assert sizes == [(5,), (5,), (10,), (10,)]
