"""Hypothesis strategies and a random-play driver for the rules engine.

Games are drawn from every variant in every betting structure it suits, at the
house stakes (ante 1, bring-in 2, bets of 5 and 10: 5/10 fixed limit, a 5-10
spread, or a minimum bet of 5 at pot and no limit) with every rule option
drawn too, and stacks mostly of 1 to 60 chips, so that all-ins on the ante, on
the bring-in and on every later street turn up often. Some hands
also time players out: a player who qualifies may be protected (seed 002).
Decisions that are not bets (rolls, exchanges, declarations) are drawn too,
by any of the players still to make them, in any order.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from hypothesis import note, settings
from hypothesis import strategies as st

from tables.rules import GameConfig, HandState, LegalAction, RakeRule
from tables.rules.betting import STRUCTURES
from tables.rules.state import DECIDING, WAGERS
from tables.rules.variants import VARIANTS

# No hand at these stakes comes near this many actions; it bounds every driver loop.
MAX_ACTIONS = 200

Move = tuple[str, int | None]


def examples(count: int) -> int:
    """``count`` examples under the dev profile, scaled up under the ci one (tests/conftest.py)."""
    return count * settings.default.max_examples // 100


@st.composite
def rakes(draw: st.DrawFn) -> RakeRule:
    return RakeRule(
        draw(st.sampled_from(["0", "5", "10", "2.5"])),
        cap=draw(st.none() | st.integers(0, 5)),
        no_rake_third_street=draw(st.booleans()),
    )


@st.composite
def configs(
    draw: st.DrawFn,
    variants: tuple[str, ...] = tuple(VARIANTS),
    structures: tuple[str, ...] = tuple(STRUCTURES),
) -> GameConfig:
    variant = draw(st.sampled_from(variants))
    game = VARIANTS[variant]
    open_pair = [None, False, True] if game.open_pair_allowed else [None, False]
    return GameConfig(
        variant=variant,
        structure=draw(st.sampled_from([s for s in structures if s in game.structures])),
        raise_at_least_last=draw(st.booleans()),
        ante=draw(st.sampled_from([1, 0])),
        bring_in=draw(st.sampled_from([2, 0])),
        small_bet=5,
        big_bet=10,
        tie_break=draw(st.sampled_from(["position", "suit"])),
        open_pair_big_bet=draw(st.sampled_from(open_pair)),
        max_raises=draw(st.integers(1, 4)),
        heads_up_uncapped=draw(st.booleans()),
        all_in_opener=draw(st.sampled_from(["next_seat", "best_still_betting"])),
        short_all_in=draw(st.sampled_from(["half", "full"])),
        auto_muck=draw(st.booleans()),
        natural_beats_wild=game.wild_game and draw(st.booleans()),
        high_low_declare=(high_low := game.declares_high_low and draw(st.booleans())),
        declare_in_turn=(game.declares or high_low) and draw(st.booleans()),
        exchange_price=game.exchanges and draw(st.booleans()),
        rake=draw(rakes()),
    )


Decision = tuple[int, str, list[int] | None]


def choose_decision(data: st.DataObject, state: HandState) -> Decision:
    """A decision that is not a bet: any player still to make it, any of
    their choices, and any card the choice may name."""
    deciding = state.deciding()
    player = deciding[data.draw(index_below(len(deciding)))]
    options = state.legal_actions(player)
    option = options[data.draw(index_below(len(options)))]
    cards = None
    if option.cards is not None:
        cards = [option.cards[data.draw(index_below(len(option.cards)))]]
    note(f"player {player}: {option.kind} {cards}")
    return player, option.kind, cards


# Short stacks go all in on the ante, the bring-in and every street; deep ones reach
# capped raises and the showdowns where nobody is all in, so a losing hand may muck.
SHORT, MIXED, DEEP = st.integers(1, 60), st.integers(1, 400), st.integers(250, 400)
stacks = st.sampled_from([SHORT, MIXED, DEEP]).flatmap(
    lambda chips: st.lists(chips, min_size=2, max_size=8)
)
decks = st.permutations(range(52))


def legal_moves(state: HandState) -> list[Move]:
    """Every (kind, amount) the engine reports as legal now.

    Wagers take one of their exact totals, or where any total from min to
    max is allowed, the least, the most, one more than the least and the
    middle; a call or bring-in takes its chip
    amount or no amount; fold, check, show and muck take no amount.
    """
    moves: list[Move] = []
    for option in state.legal_actions():
        if option.kind in WAGERS:
            moves.extend((option.kind, total) for total in _totals(option))
        else:
            moves.append((option.kind, None))
            if option.kind in ("call", "bring_in"):
                moves.append((option.kind, option.min))
    return moves


def _totals(option: LegalAction) -> tuple[int, ...]:
    if option.amounts is not None:
        return option.amounts
    low, high = option.min, option.max
    assert low is not None and high is not None
    return tuple(sorted({low, min(low + 1, high), (low + high) // 2, high}))


def is_one_of(
    moves: list[Move],
    to_act: int,
    player: object,
    kind: object,
    amount: object,
    spans: dict[str, tuple[int, int]] | None = None,
) -> bool:
    """Whether (player, kind, amount) is exactly one of ``moves`` for ``to_act``,
    or a wager inside one of ``spans`` (kind: the least and most total, where
    the structure allows any amount between).

    Types are compared too: ``True`` and ``5.0`` equal ``1`` and ``5`` but are no chips.
    """
    if type(player) is not int or player != to_act or not isinstance(kind, str):
        return False
    if amount is not None and type(amount) is not int:
        return False
    if spans and kind in spans and isinstance(amount, int):
        low, high = spans[kind]
        return low <= amount <= high
    return (kind, amount) in moves


def open_spans(state: HandState) -> dict[str, tuple[int, int]]:
    """The wagers the engine reports as "any total from min to max"."""
    return {
        option.kind: (option.min, option.max)
        for option in state.legal_actions()
        if option.kind in WAGERS
        and option.amounts is None
        and option.min is not None
        and option.max is not None
    }


def choose_move(data: st.DataObject, state: HandState, stubbornness: int = 3) -> Move:
    """Any legal move, each move that stays in weighted ``stubbornness + 1`` times
    to a fold's once, so that hands reach the later streets and the deck runs short."""
    moves = legal_moves(state)
    assert moves, f"the hand is not over but player {state.to_act} has nothing to do"
    staying = [m for m in moves if m[0] != "fold"]
    pool = staying * stubbornness + moves
    move = pool[data.draw(index_below(len(pool)))]
    note(f"player {state.to_act}: {move[0]} {move[1]}")
    return move


@cache
def index_below(size: int) -> st.SearchStrategy[int]:
    """An index into a list of ``size`` choices."""
    # Building a strategy per draw costs more than the engine's whole move.
    return st.integers(0, size - 1)


def play_out(
    data: st.DataObject,
    state: HandState,
    after: Callable[[HandState], None] = lambda state: None,
) -> HandState:
    """Play random legal moves until the hand ends (or MAX_ACTIONS is reached),
    calling ``after(state)`` after every move. Some tables fold a lot, some hardly
    ever; at some, one turn in ``timeouts`` that may be protected times out."""
    stubbornness = data.draw(st.sampled_from([3, 0, 50]), label="stubbornness")
    timeouts = data.draw(st.sampled_from([0, 0, 2, 6]), label="one turn in N times out")
    while not state.finished and len(state.actions) < MAX_ACTIONS:
        if state.phase == DECIDING:
            player, kind, cards = choose_decision(data, state)
            state.act(player, kind, None, cards)
        elif timeouts and state.can_protect() and data.draw(index_below(timeouts)) == 0:
            note(f"player {state.to_act}: times out and is protected")
            state.protect(state.to_act)
        else:
            kind, amount = choose_move(data, state, stubbornness)
            state.act(state.to_act, kind, amount)
        after(state)
    return state
