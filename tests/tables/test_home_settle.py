"""Settling up a home game: who pays whom, in the fewest payments.

``tables.home.settle`` is pure Python: these tests need no database. The
property tests check every answer against the nets it was given, and the exact
search against a brute force over every way of splitting a few players.
"""

from __future__ import annotations

import doctest
from collections.abc import Iterator
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.home import settle as settle_module
from tables.home.settle import EXACT_LIMIT, Transfer, settle
from tests.rules.strategies import examples

# The doctest's six players: ann, cid and eve square among themselves, and so
# do ben, dot and fay.
TWO_TRIOS = {"ann": -80, "ben": -70, "cid": 60, "dot": -30, "eve": 20, "fay": 100}


def test_its_doctests_pass() -> None:
    # pytest collects doctests only under tables/rules (pyproject), so they run here.
    result = doctest.testmod(settle_module)
    assert result.attempted >= 3 and result.failed == 0


# ------------------------------------------------------------------ refusals


def test_it_refuses_nets_that_dont_sum_to_zero() -> None:
    with pytest.raises(ValueError, match=r"the nets must sum to 0 but sum to \+5"):
        settle({"alice": -10, "bob": 15})


@pytest.mark.parametrize("net", [2.5, 10.0, "10", True, None])
def test_it_refuses_a_net_that_is_not_a_whole_number_of_chips(net: object) -> None:
    with pytest.raises(ValueError, match=r"^bob's net must be a whole number of chips, not "):
        settle({"alice": -10, "bob": net, "carol": 10})  # type: ignore[dict-item]


# ------------------------------------------------------------------ examples


def test_nobody_pays_when_nobody_won_or_lost() -> None:
    assert settle({}) == []
    assert settle({"alice": 0, "bob": 0}) == []


def test_a_loser_pays_each_winner() -> None:
    assert settle({"alice": -30, "bob": 10, "carol": 20}) == [
        Transfer("alice", "bob", 10),
        Transfer("alice", "carol", 20),
    ]


def test_players_whose_nets_cancel_pay_each_other_earlier_names_first() -> None:
    nets = {"di": 10, "cy": 10, "bea": -10, "ann": -10}
    assert settle(nets) == [Transfer("ann", "cy", 10), Transfer("bea", "di", 10)]


def test_groups_that_square_among_themselves_settle_apart() -> None:
    assert settle(TWO_TRIOS) == [
        Transfer("ann", "cid", 60),
        Transfer("ann", "eve", 20),
        Transfer("ben", "fay", 70),
        Transfer("dot", "fay", 30),
    ]


def test_beyond_the_exact_limit_it_settles_largest_debt_to_largest_credit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(settle_module, "EXACT_LIMIT", 5)
    assert settle(TWO_TRIOS) == [
        Transfer("ann", "fay", 80),
        Transfer("ben", "cid", 60),
        Transfer("ben", "fay", 10),
        Transfer("dot", "eve", 20),
        Transfer("dot", "fay", 10),
    ]


def test_the_exact_search_finds_four_foursomes_among_sixteen_players() -> None:
    # Each foursome: one player lost what three others won. No two nets cancel,
    # so the search, not the pairing, has to find the foursomes.
    nets: dict[str, int] = {}
    for group, won in enumerate([(1, 20, 300), (2, 40, 500), (4, 70, 800), (8, 90, 900)]):
        nets[f"{group}-loser"] = -sum(won)
        nets.update({f"{group}-winner-{i}": chips for i, chips in enumerate(won)})
    assert len(nets) == EXACT_LIMIT
    transfers = settle(nets)
    assert len(transfers) == 16 - 4
    assert squared(nets, transfers)
    assert all(t.payer.split("-")[0] == t.payee.split("-")[0] for t in transfers)


# -------------------------------------------------------------- properties


def nets_of(values: list[int], names: list[str]) -> dict[str, int]:
    """The values as nets of the named players, a last one making them sum to 0."""
    return dict(zip(names, [*values, -sum(values)], strict=False))


@st.composite
def nets(draw: st.DrawFn, most: int = 12) -> dict[str, int]:
    """A few players' nets summing to 0: small, so that some of them often square
    among themselves, or anything up to a big game's."""
    size = draw(st.integers(0, most - 1))
    chips = draw(st.sampled_from([st.integers(-6, 6), st.integers(-100_000, 100_000)]))
    values = draw(st.lists(chips, min_size=size, max_size=size))
    names = draw(st.lists(st.text(min_size=1, max_size=4), min_size=size + 1, unique=True))
    return nets_of(values, names[: size + 1])


@st.composite
def grouped_nets(draw: st.DrawFn, most: int = 7) -> dict[str, int]:
    """Nets made of groups that each sum to 0 (one player lost what two or three
    others won), dealt to the players in any order: the cases where settling
    everyone as one group would take more payments."""
    sizes = draw(
        st.lists(st.integers(2, 3), min_size=2, max_size=2).filter(
            lambda sizes: sum(sizes) + len(sizes) <= most
        )
    )
    # Chips drawn evenly (hypothesis's own integers lean to the smallest, which
    # mostly cancel in pairs).
    rng = draw(st.randoms(use_true_random=False))
    values: list[int] = []
    for size in sizes:
        won = [rng.randint(1, 60) for _ in range(size)]
        values += [*won, -sum(won)]
    rng.shuffle(values)
    count = len(values)
    names = draw(
        st.lists(st.text(min_size=1, max_size=4), min_size=count, max_size=count, unique=True)
    )
    return dict(zip(names, values, strict=True))


def squared(nets: dict[str, int], transfers: list[Transfer]) -> bool:
    """Whether the payments leave every player at 0, each paid by a loser to a winner."""
    left = dict(nets)
    for t in transfers:
        if not (nets[t.payer] < 0 < nets[t.payee]):
            return False
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return not any(left.values())


@settings(max_examples=examples(60), deadline=None)
@given(nets())
def test_every_net_is_settled_exactly_in_whole_chips(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    assert squared(nets, transfers)
    assert all(type(t.amount) is int and t.amount > 0 for t in transfers)


@settings(max_examples=examples(60), deadline=None)
@given(nets())
def test_it_never_takes_more_than_one_payment_fewer_than_the_players(
    nets: dict[str, int],
) -> None:
    players = sum(1 for net in nets.values() if net)
    assert len(settle(nets)) <= max(players - 1, 0)


@settings(max_examples=examples(60), deadline=None)
@given(nets(), st.randoms(use_true_random=False))
def test_the_answer_does_not_depend_on_the_order_the_nets_come_in(
    nets: dict[str, int], rng: Random
) -> None:
    shuffled = list(nets.items())
    rng.shuffle(shuffled)
    transfers = settle(nets)
    assert settle(dict(shuffled)) == transfers
    assert transfers == sorted(transfers, key=lambda t: (t.payer, t.payee))


@settings(max_examples=examples(60), deadline=None)
@given(nets(most=7))
def test_it_takes_as_few_payments_as_a_brute_force_finds(nets: dict[str, int]) -> None:
    players = [name for name, net in nets.items() if net]
    assert len(settle(nets)) == len(players) - most_zero_groups(players, nets)


@settings(max_examples=examples(60), deadline=None)
@given(grouped_nets(most=7))
def test_it_finds_the_groups_that_square_among_themselves_as_a_brute_force_does(
    nets: dict[str, int],
) -> None:
    players = [name for name, net in nets.items() if net]
    assert len(settle(nets)) == len(players) - most_zero_groups(players, nets)


@settings(max_examples=examples(20), deadline=None)
@given(nets(most=40))
def test_past_the_exact_limit_it_still_settles_within_one_fewer_than_the_players(
    nets: dict[str, int],
) -> None:
    transfers = settle(nets)
    assert squared(nets, transfers)
    assert len(transfers) <= max(sum(1 for net in nets.values() if net) - 1, 0)


def most_zero_groups(players: list[str], nets: dict[str, int]) -> int:
    """The most groups summing to 0 the players split into, over every split.

    A group of k settles in no fewer than k - 1 payments, and the payments of
    any answer split the players into groups summing to 0, so the fewest
    payments is the players less this.
    """
    return max(
        len(split)
        for split in splits(players)
        if all(sum(nets[name] for name in group) == 0 for group in split)
    )


def splits(players: list[str]) -> Iterator[list[list[str]]]:
    """Every way of splitting ``players`` into groups (for 7, 877 of them)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for split in splits(rest):
        yield [[first], *split]
        for i in range(len(split)):
            yield [*split[:i], [first, *split[i]], *split[i + 1 :]]


def test_the_brute_force_counts_every_split() -> None:
    # Bell numbers: the ways of splitting 1 to 5 players.
    assert [sum(1 for _ in splits(list("abcde")[:n])) for n in range(1, 6)] == [1, 2, 5, 15, 52]
