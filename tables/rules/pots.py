"""Main and side pots, rake shares, and splitting a pot between winners.

All functions are pure and work in whole chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from tables.rules.cards import low_rank, rank, suit

if TYPE_CHECKING:
    from tables.rules.evaluators import Evaluator


@dataclass(slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # players who may win it, in seat order


def build_pots(committed: Sequence[int], live: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Split everything put in into a main pot and side pots.

    Each distinct commitment level of a live player closes a pot that everyone
    who reached that level can win; folded chips stay in the pots they reached.
    ``dead``: chips paid in that nobody matches (Man with the Axe's payments,
    left out of ``committed``), which go to the main pot.

    >>> [(p.amount, p.eligible) for p in build_pots([5, 20, 20], [True, True, True])]
    [(15, (0, 1, 2)), (30, (1, 2))]
    >>> [(p.amount, p.eligible) for p in build_pots([10, 4, 10], [True, False, True])]
    [(24, (0, 2))]
    >>> [(p.amount, p.eligible) for p in build_pots([3, 9, 0], [False, True, False])]
    [(12, (1,))]
    """
    if dead:
        matched = build_pots(committed, live)
        everyone = tuple(i for i in range(len(committed)) if live[i])
        if matched and matched[0].eligible == everyone:
            matched[0].amount += dead
            return matched
        # A player still in has matched nothing (all in on payments alone):
        # the dead chips make a pot of their own that every hand may win.
        return [Pot(dead, everyone), *matched]
    players = range(len(committed))
    in_hand = [i for i in players if live[i]]
    if len(in_hand) == 1:  # everyone else folded: one pot, theirs (most hands end so)
        total = sum(committed)
        return [Pot(total, (in_hand[0],))] if total else []
    levels = sorted({committed[i] for i in in_hand if committed[i] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        eligible = []
        for i in players:
            chips = committed[i]
            if chips > previous:  # the slice of their chips between the two levels
                amount += (chips if chips < level else level) - previous
                if chips >= level and live[i]:
                    eligible.append(i)
        if pots and pots[-1].eligible == tuple(eligible):
            pots[-1].amount += amount
        else:
            pots.append(Pot(amount, tuple(eligible)))
        previous = level
    # Chips a folded player put in above every live player's level have no
    # other home; they go to the last pot (after uncalled bets are returned
    # this only happens with no live chips at all).
    extra = sum(c - previous for c in committed if c > previous)
    if extra:
        if pots:
            pots[-1].amount += extra
        else:
            pots.append(Pot(extra, tuple(in_hand)))
    return pots


def allocate_rake(amounts: Sequence[int], rake: int) -> list[int]:
    """Share ``rake`` between pots in proportion to their size, in whole chips.

    Leftover chips go to the pots with the largest remainders, the main pot
    first on ties, so every player pays rake in proportion to what they contest.

    >>> allocate_rake([30, 10], 3)
    [2, 1]
    >>> allocate_rake([10, 10, 10], 2)
    [1, 1, 0]
    """
    total = sum(amounts)
    if total == 0 or rake == 0:
        return [0] * len(amounts)
    shares = [a * rake // total for a in amounts]
    remainders = sorted(range(len(amounts)), key=lambda i: (-(amounts[i] * rake % total), i))
    for i in remainders[: rake - sum(shares)]:
        shares[i] += 1
    return shares


def split_evenly(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Split ``amount`` between ``winners``, given in odd-chip order.

    >>> split_evenly(7, [2, 0])
    {2: 4, 0: 3}
    """
    share, odd = divmod(amount, len(winners))
    return {w: share + (1 if i < odd else 0) for i, w in enumerate(winners)}


class Contender(NamedTuple):
    """What a pot needs to know about one shown hand. (A NamedTuple: a
    showdown makes one per hand.)"""

    cards: tuple[int, ...]  # all the player's cards, with any community card
    high_key: int | None  # higher is better; None when the game has no high half
    low_key: int | None  # lower is better; None without a (qualifying) low
    wild: int = 0  # the cards wild in this hand, as a mask
    # With the table's natural_beats_wild option: the natural cards alone make
    # this high (or low), so it beats the same hand made with wild cards.
    high_natural: bool = False
    low_natural: bool = False
    # Chicago: this hand's spade in the hole that plays for the spade half,
    # as a number where higher is better (0: none).
    spade: int = 0
    # Hi-lo declare: "high", "low" or "both" (None: the cards speak).
    declared: str | None = None
    # The cards wild in the low hand, where they differ from ``wild`` (Low
    # Hole played high-low: an ace in the hole); None: the same.
    low_wild: int | None = None


def high_chip_order(hand: Contender, evaluator: Evaluator) -> tuple[int, int]:
    """Seed 002: a high tie's odd chip goes to the highest card by suit
    (spades high) among the five cards played."""
    played = evaluator.high_cards(hand.cards, hand.wild)
    return max((rank(c), suit(c)) for c in played)


def low_chip_order(hand: Contender, evaluator: Evaluator) -> tuple[int, int]:
    """Seed 002: a low tie's odd chip goes to the lowest card by suit (clubs
    low) among the five cards played."""
    wild = hand.wild if hand.low_wild is None else hand.low_wild
    played = evaluator.low_cards(hand.cards, wild)
    return min((low_rank(c), suit(c)) for c in played)


@dataclass(slots=True)
class PotAward:
    amount: int
    rake: int
    eligible: tuple[int, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: dict[int, int]
    spade_winners: tuple[int, ...] = ()


def award_pot(
    pot: Pot,
    rake: int,
    hands: Mapping[int, Contender],
    evaluator: Evaluator,
    *,
    spade_half: bool = False,
    declare: bool = False,
) -> PotAward:
    """Award one pot (after its rake) between the shown hands eligible for it.

    Split games give the odd chip to the high half; with no qualifying low
    the high hand scoops. Ties split evenly, odd chips by seed 002's card order.
    With ``spade_half`` (Chicago) the best spade in the hole among the
    pot's hands takes half, the odd chip staying with the best hand; with no
    spade in the hole among them, the best hand takes it all. With
    ``declare`` each hand plays only the way its owner declared
    (:func:`declared_winners`).
    """
    net = pot.amount - rake
    contenders = [i for i in pot.eligible if i in hands]
    if declare:
        high_winners, low_winners = declared_winners(contenders, hands, evaluator)
    else:
        high_winners = _best_high(contenders, hands, evaluator) if evaluator.high else ()
        low_winners = _best_low(contenders, hands, evaluator) if evaluator.low else ()
    spade = max((hands[i].spade for i in contenders), default=0) if spade_half else 0
    if spade:
        [holder] = [i for i in contenders if hands[i].spade == spade]  # one card, one holder
        part = net // 2
        shares = _merge(split_evenly(net - part, high_winners), {holder: part})
        return PotAward(
            pot.amount, rake, pot.eligible, high_winners, low_winners, shares, (holder,)
        )
    if high_winners and low_winners:
        low_part = net // 2
        shares = _merge(
            split_evenly(net - low_part, high_winners), split_evenly(low_part, low_winners)
        )
    elif high_winners or low_winners:
        shares = split_evenly(net, high_winners or low_winners)
    else:
        shares = {}
    return PotAward(pot.amount, rake, pot.eligible, high_winners, low_winners, shares)


def declared_winners(
    contenders: Sequence[int], hands: Mapping[int, Contender], evaluator: Evaluator
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Hi-lo declare (seed 003): the winners of a pot's high and low halves.

    The best high among those who declared high or both shares the pot with
    the best (qualifying) low among those who declared low or both; if only
    one way has a winner, it takes the whole pot. A player who declared both
    must beat every other hand both ways, not tie: otherwise they win
    nothing, and the pot goes between the others as if they had not played.
    Should nobody win the way they declared (every "both" failed, or every
    low declared misses the qualifier), the cards speak (docs/rules.md).
    """
    highs = [i for i in contenders if hands[i].declared in ("high", "both")]
    lows = [i for i in contenders if hands[i].declared in ("low", "both")]
    best_high = _best_high(highs, hands, evaluator)
    best_low = _best_low(lows, hands, evaluator)
    failed = {
        i
        for i in contenders
        if hands[i].declared == "both" and (best_high != (i,) or best_low != (i,))
    }
    if failed:
        best_high = _best_high([i for i in highs if i not in failed], hands, evaluator)
        best_low = _best_low([i for i in lows if i not in failed], hands, evaluator)
    if not best_high and not best_low:
        # Nobody won the way they declared (every "both" failed, or every
        # low declared missed the qualifier): the cards speak.
        return _best_high(contenders, hands, evaluator), _best_low(contenders, hands, evaluator)
    return best_high, best_low


def _best_high(
    contenders: Sequence[int], hands: Mapping[int, Contender], evaluator: Evaluator
) -> tuple[int, ...]:
    keys = {i: key for i in contenders if (key := hands[i].high_key) is not None}
    if not keys:
        return ()
    best = max(keys.values())
    tied = _naturals_first([i for i, key in keys.items() if key == best], hands, high=True)
    if len(tied) == 1:
        return tuple(tied)
    return tuple(sorted(tied, key=lambda i: high_chip_order(hands[i], evaluator), reverse=True))


def _best_low(
    contenders: Sequence[int], hands: Mapping[int, Contender], evaluator: Evaluator
) -> tuple[int, ...]:
    keys = {i: key for i in contenders if (key := hands[i].low_key) is not None}
    if not keys:
        return ()
    best = min(keys.values())
    tied = _naturals_first([i for i, key in keys.items() if key == best], hands, high=False)
    if len(tied) == 1:
        return tuple(tied)
    return tuple(sorted(tied, key=lambda i: low_chip_order(hands[i], evaluator)))


def _naturals_first(tied: list[int], hands: Mapping[int, Contender], *, high: bool) -> list[int]:
    """Of equal hands, the natural ones win, where the table plays that rule
    (only then is a hand marked natural)."""
    naturals = [i for i in tied if (hands[i].high_natural if high else hands[i].low_natural)]
    return naturals or tied


def _merge(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    merged = dict(a)
    for player, chips in b.items():
        merged[player] = merged.get(player, 0) + chips
    return merged
