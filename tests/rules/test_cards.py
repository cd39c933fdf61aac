"""Cards, the CSPRNG shuffle and fixed decks."""

from __future__ import annotations

import pytest

from tables.rules import GameConfig, HandState, IllegalAction
from tables.rules.cards import (
    DECK_ORDERS,
    FULL_DECK,
    card_str,
    check_deck,
    fisher_yates,
    parse_card,
    parse_cards,
    pretty,
    shuffled_deck,
)


def test_cards_read_and_write_in_rank_suit_notation():
    assert [card_str(c) for c in parse_cards("Ah Td 2c 10s")] == ["Ah", "Td", "2c", "Ts"]
    assert pretty(parse_card("Td")) == "10♦"


@pytest.mark.parametrize("text", ["", "A", "1h", "Ax", "AhK", None, 7])
def test_bad_card_text_is_refused(text):
    with pytest.raises(IllegalAction):
        parse_card(text)


@pytest.mark.parametrize("text", ["AhK", "Ah Kx", None])
def test_bad_card_lists_are_refused(text):
    with pytest.raises(IllegalAction):
        parse_cards(text)


def test_a_shuffled_deck_holds_each_card_once():
    assert sorted(shuffled_deck()) == list(FULL_DECK)


def test_fresh_shuffles_differ():
    # Two equal 52-card shuffles from a working CSPRNG have odds of 1 in 52!.
    assert shuffled_deck() != shuffled_deck()


def test_every_hand_gets_a_fresh_shuffle_unless_given_a_deck():
    game = GameConfig()
    assert HandState.new(game, [9, 9]).deck != HandState.new(game, [9, 9]).deck
    fixed = fisher_yates(42)
    assert HandState.new(game, [9, 9], fixed).deck == fixed


def test_fisher_yates_maps_distinct_orders_to_distinct_decks():
    decks = {tuple(fisher_yates(order)) for order in (0, 1, 2, 51, DECK_ORDERS - 1)}
    assert len(decks) == 5


def test_check_deck_refuses_repeats():
    with pytest.raises(IllegalAction):
        check_deck([0] * 52)
