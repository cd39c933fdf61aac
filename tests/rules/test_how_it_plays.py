"""How a table's game plays, in words for a newcomer (tables.rules.games.how_it_plays):
each variant's own words (``Variant.about``), then what the table's config
changes. The numbers said are checked against what the engine does."""

from __future__ import annotations

import re

import pytest

from tables.rules import HandState
from tables.rules.games import HIGH_LOW_DECLARE, NATURAL_BEATS_WILD, games, how_it_plays
from tables.rules.variants import VARIANTS
from tests.rules.stacking import config, stack_deck
from tests.rules.test_decisions import english, play_to_decision


def said(**options) -> str:
    """Everything the panel says for the house test game with ``options``."""
    return " ".join(how_it_plays(config(**options)))


def test_every_variant_has_words_of_its_own() -> None:
    abouts = [variant.about for variant in VARIANTS.values()]
    assert all(about.strip() and about.endswith(".") for about in abouts)
    assert len(set(abouts)) == len(abouts)


@pytest.mark.parametrize("game", games(), ids=lambda game: game.name)
def test_every_game_opens_with_its_variants_words_and_says_its_structure(game) -> None:
    words = how_it_plays(game.example())
    assert words[0] == game.variant.about
    assert any(line.startswith(f"{game.structure.name}: ") for line in words)
    for line in words:
        assert line.endswith(".") and "  " not in line and "{" not in line


@pytest.mark.parametrize(
    ("variant", "sizes"),
    [
        (
            "stud",
            "every bet and raise is 5 on 3rd and 4th street and 10 on 5th, 6th and 7th street",
        ),
        # No round on 4th street: its cards come with the 5th's.
        ("mississippi", "every bet and raise is 5 on 3rd and 5th street and 10 on 6th and 7th"),
        ("roll_your_own", "every bet and raise is 5 in the 1st and 2nd round and 10 in the 3rd"),
        ("aces_straights_flushes", "5 on 3rd and 4th street and 10 on 5th and 6th street."),
    ],
)
def test_fixed_limit_names_the_streets_of_each_bet_size_from_the_script(variant, sizes) -> None:
    assert sizes in said(variant=variant)


def test_the_open_pair_big_bet_is_said_only_where_the_table_plays_it() -> None:
    pair = "with a pair showing on 4th street, anyone may bet or raise 10"
    assert pair in said()  # on in stud by default
    assert pair not in said(open_pair_big_bet=False)
    assert pair not in said(variant="stud8")  # off in hi-lo by default
    assert pair in said(variant="stud8", open_pair_big_bet=True)
    assert "pair showing" not in said(structure="spread", big_bet=20)


def test_the_cap_follows_the_tables_options() -> None:
    assert "At most a bet and 3 raises a round." in said()
    assert "At most a bet and 1 raise a round." in said(max_raises=1)
    uncapped = said(structure="spread", big_bet=20, max_raises=4, heads_up_uncapped=True)
    assert "At most a bet and 4 raises a round, with no cap on a round two players start." in (
        uncapped
    )
    assert "At most" not in said(structure="pot")


def test_spread_limit_says_its_spread_and_whether_a_raise_must_match_the_last() -> None:
    spread = said(structure="spread", big_bet=20)
    assert "Spread limit: every bet and raise is from 5 to 20, and a raise at least the last" in (
        spread
    )
    assert "at least the last" not in said(
        structure="spread", big_bet=20, raise_at_least_last=False
    )


def test_pot_and_no_limit_say_their_minimum_and_their_most() -> None:
    assert "Pot limit: a bet is at least 5 and at most the pot" in said(structure="pot")
    assert "No limit: a bet is at least 5" in said(structure="no")
    assert "all the chips a player has" in said(structure="no")


def test_the_ante_and_who_brings_in_or_opens() -> None:
    assert "Everyone antes 1. The lowest card showing (aces high) brings in for 2" in said()
    assert "The highest card showing (aces low) brings in for 2" in said(variant="razz")
    assert "the lowest hand showing acts first" in said(variant="razz")
    opens = said(ante=0, bring_in=0)
    assert "antes" not in opens
    assert "With no bring-in, the highest card showing (aces high) opens and may check" in opens


def test_a_wild_card_counts_as_an_ace_for_the_bring_in_only_where_everyone_knows_it() -> None:
    assert "a wild card counts as an ace" in said(variant="deuces")
    assert "a wild card counts as an ace" not in said(variant="low_hole")  # known to its owner
    assert "a wild card counts as an ace" not in said()


def test_high_low_declare_and_how_the_declarations_are_made() -> None:
    declared = how_it_plays(config(variant="deuces", high_low_declare=True))
    assert HIGH_LOW_DECLARE in declared
    assert "Everyone declares at once" in " ".join(declared)
    in_turn = said(variant="deuces", high_low_declare=True, declare_in_turn=True)
    assert "Players declare in turn from the dealer's left" in in_turn
    assert "declares at once" not in in_turn
    assert "Everyone declares at once" in said(variant="declare")
    assert HIGH_LOW_DECLARE not in said(variant="declare")
    assert "declare" not in said(variant="deuces")


def test_natural_beats_wild_is_said_when_the_table_plays_it() -> None:
    assert NATURAL_BEATS_WILD in said(variant="deuces", natural_beats_wild=True)
    assert NATURAL_BEATS_WILD not in said(variant="deuces")


def test_the_man_with_the_axes_payments_are_what_the_engine_takes() -> None:
    # Bob's door card is the 7♠: five antes of 2.
    rules = config(variant="man_with_the_axe", ante=2, bring_in=1)
    words = " ".join(how_it_plays(rules))
    assert "The payments here: 2 chips for a wild card and 10 chips for a seven." in words
    state = HandState.new(rules, [100, 100], stack_deck({0: "3c4d5h", 1: "AhAd7s"}))
    assert [e["amount"] for e in state.events if e["type"] == "pay"] == [10]
    # With no ante, a payment is counted in chips.
    assert "1 chip for a wild card and 5 chips for a seven" in said(
        variant="man_with_the_axe", ante=0
    )
    assert "payments here" not in said()


def test_english_studs_exchange_price_is_what_the_engine_charges() -> None:
    for structure, big_bet in (("fixed", 10), ("pot", 10)):
        state = play_to_decision(english(exchange_price=True, structure=structure, big_bet=big_bet))
        exchange, _ = state.legal_actions(0)
        words = " ".join(how_it_plays(state.config))
        [price] = re.findall(r"Each exchange costs (\d+) chips", words)
        assert int(price) == exchange.min
    assert "exchange costs" not in said(variant="english")
