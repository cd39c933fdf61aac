"""Who pays whom when a home game settles up, in the fewest transfers.

Pure Python, no Django: given each player's net result in chips (what the game
won or lost them; the nets sum to 0), :func:`settle` lists the payments that
square everyone.

The fewest payments: a group of k players whose nets sum to 0 can settle among
themselves in k - 1 payments (each payment squares at least one of them, the
last one two), and the players' payments, seen as a graph, fall into such
groups, each of k players needing at least k - 1. So n players settle in
n - g payments, where g is the most groups summing to 0 they split into.
Finding g is a partition problem, hard in general, so:

- Up to :data:`EXACT_LIMIT` players with a nonzero net, a search over their
  subsets finds it: the fewest payments, exactly. (At the limit it takes a
  fraction of a second.)
- Beyond, all of them settle as one group, the largest debt paid to the
  largest credit first: at most n - 1 payments, which is the fewest unless some
  of them happen to square among themselves.

Either way two players whose nets cancel exactly (one down 40, another up 40)
are paired off first: some fewest split always has them as a group of their
own, and the search then has fewer players to look at.

Everything is in a fixed order: players are taken by name, equal amounts go to
the earlier name, and the payments come out by payer, then payee.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

# The most players with a nonzero net the exact search takes on: 2 ** 16 subsets.
EXACT_LIMIT = 16


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` chips."""

    payer: str
    payee: str
    amount: int


def settle(nets: Mapping[str, int]) -> list[Transfer]:
    """The payments, fewest first, that square each player's ``nets`` (chips won,
    positive, or lost, negative), by payer, then payee.

    >>> settle({"alice": -30, "bob": 10, "carol": 20, "dave": 0})  # doctest: +NORMALIZE_WHITESPACE
    [Transfer(payer='alice', payee='bob', amount=10),
     Transfer(payer='alice', payee='carol', amount=20)]

    Players who square among themselves settle apart: here ann, cid and eve,
    and ben, dot and fay, in 2 + 2 payments, where settling all six as one
    group, largest debt to largest credit, would take 5.

    >>> nets = {"ann": -80, "ben": -70, "cid": 60, "dot": -30, "eve": 20, "fay": 100}
    >>> for t in settle(nets):
    ...     print(t.payer, "pays", t.payee, t.amount)
    ann pays cid 60
    ann pays eve 20
    ben pays fay 70
    dot pays fay 30

    Nets that don't sum to 0 are refused: someone's result is missing.

    >>> settle({"alice": -30, "bob": 20})
    Traceback (most recent call last):
    ...
    ValueError: the nets must sum to 0 but sum to -10: every chip won is lost by someone
    """
    owed = _checked(nets)
    pairs, rest = _opposites(owed)
    groups = pairs + (_fewest_groups(rest, owed) if len(rest) <= EXACT_LIMIT else [rest])
    transfers = [transfer for group in groups for transfer in _settle_group(group, owed)]
    return sorted(transfers, key=lambda t: (t.payer, t.payee))


def _checked(nets: Mapping[str, int]) -> dict[str, int]:
    """The nonzero nets, by name; ValueError for a net that isn't a whole number
    of chips, or nets that don't sum to 0."""
    for name, net in nets.items():
        if type(net) is not int:
            raise ValueError(f"{name}'s net must be a whole number of chips, not {net!r}")
    total = sum(nets.values())
    if total:
        raise ValueError(
            f"the nets must sum to 0 but sum to {total:+}: every chip won is lost by someone"
        )
    return {name: nets[name] for name in sorted(nets) if nets[name]}


def _opposites(owed: dict[str, int]) -> tuple[list[list[str]], list[str]]:
    """Each debtor paired, by name, with the first creditor by name owed exactly
    what they owe; and the players left over, by name."""
    pairs: list[list[str]] = []
    paired: set[str] = set()
    for debtor in (name for name, net in owed.items() if net < 0):
        for creditor, net in owed.items():
            if net == -owed[debtor] and creditor not in paired:
                pairs.append([debtor, creditor])
                paired.update((debtor, creditor))
                break
    return pairs, [name for name in owed if name not in paired]


def _fewest_groups(names: list[str], owed: dict[str, int]) -> list[list[str]]:
    """``names`` split into the most groups that each sum to 0.

    Put the players in some order: the most groups is the most points at which
    the running sum comes back to 0. ``best[mask]`` is that most over the
    orders of the subset ``mask`` (the last of which can be anyone in it), one
    more when the subset itself sums to 0.
    """
    values = [owed[name] for name in names]
    full = (1 << len(names)) - 1
    total, best = [0] * (full + 1), [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
        best[mask] = max(best[mask ^ bit] for bit in _bits(mask)) + (total[mask] == 0)
    order = _an_order(full, best, total)
    return _cut_at_zero([names[i] for i in order], owed)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def _an_order(mask: int, best: list[int], total: list[int]) -> list[int]:
    """An order of the players in ``mask`` (indices) reaching ``best[mask]``: built
    from the back, taking off each time the first player whose removal keeps it."""
    order: list[int] = []
    while mask:
        rest = best[mask] - (total[mask] == 0)
        bit = next(bit for bit in _bits(mask) if best[mask ^ bit] == rest)
        order.append(bit.bit_length() - 1)
        mask ^= bit
    return order[::-1]


def _cut_at_zero(names: list[str], owed: dict[str, int]) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    running = 0
    for name in names:
        groups[-1].append(name)
        running += owed[name]
        if running == 0:
            groups.append([])
    return [group for group in groups if group]


def _settle_group(group: list[str], owed: dict[str, int]) -> list[Transfer]:
    """Payments squaring a group whose nets sum to 0, in at most one fewer than
    its players: the largest debt is paid to the largest credit, earlier names
    first among equals, each payment squaring one of the two, or both."""
    debts = {name: -owed[name] for name in group if owed[name] < 0}
    credits = {name: owed[name] for name in group if owed[name] > 0}
    transfers = []
    while debts:
        payer = min(debts, key=lambda name: (-debts[name], name))
        payee = min(credits, key=lambda name: (-credits[name], name))
        amount = min(debts[payer], credits[payee])
        transfers.append(Transfer(payer, payee, amount))
        for side, name in ((debts, payer), (credits, payee)):
            side[name] -= amount
            if not side[name]:
                del side[name]
    return transfers
