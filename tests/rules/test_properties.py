"""Invariants of the rules engine under random legal play (hypothesis).

Every test deals a random hand of any variant (stud, razz, stud hi-lo, London
lowball) in any betting structure it suits (fixed, spread, pot or no limit) to 2
to 8 players with short stacks (mostly 1 to 60 chips, so all-ins happen on every
street), at ante 1, bring-in 2 (or none) and bets of 5 and 10, with the table's
rule options drawn at random, and plays it out by choosing among all the moves
the engine reports as legal.
In some hands players also time out and are protected (seed 002), so every
property holds with protected players too.

The viewers are every seat plus an observer (``None``): a seat may see its own down
cards, everybody's up cards, the board and the down cards of hands shown at the
showdown; an observer sees only the last three.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import Phase, find, given, note, settings
from hypothesis import strategies as st

from tables.rules import GameConfig, HandOver, HandState, IllegalAction
from tables.rules.cards import card_str, rank, suit
from tables.rules.evaluators.wild import natural
from tables.rules.state import BET_KINDS, DECIDING, DECISION_KINDS, PROTECT, WAGERS
from tables.rules.variants import VARIANTS
from tables.rules.views import events_for, view, view_from
from tests.rules.seats import down_of, up_of
from tests.rules.strategies import (
    MAX_ACTIONS,
    choose_decision,
    choose_move,
    configs,
    decks,
    examples,
    index_below,
    is_one_of,
    legal_moves,
    open_spans,
    play_out,
    stacks,
)

EXAMPLES = 150
# A search for a kind of hand: it fails (NoSuchExample) if random play never deals one.
# Only whether one exists matters, so what is found is not shrunk; derandomized, the
# search is the same every run, so it can't pass or fail by luck.
FIND = settings(
    max_examples=2000, deadline=None, database=None, phases=[Phase.generate], derandomize=True
)
ANY_GAME = configs()
HI_LO = configs(variants=("stud8",))
DECISIONS = configs(
    variants=tuple(c for c, v in VARIANTS.items() if v.rolls or v.exchanges or v.declares)
)


def random_hands(count: int = EXAMPLES, games: st.SearchStrategy = ANY_GAME) -> Callable:
    """Run the test on random games, stacks, decks and move choices."""

    def wrap(test: Callable) -> Callable:
        @functools.wraps(test)
        def seated(game: GameConfig, stacks: list[int], deck: list[int], data: Any) -> None:
            test(game, stacks[: game.game.max_players], deck, data)  # Baseball seats seven

        seated = given(game=games, stacks=stacks, deck=decks, data=st.data())(seated)
        return settings(max_examples=examples(count), deadline=None)(seated)

    return wrap


def finished_hand(game: GameConfig, stacks: list[int], deck: list[int], data: Any) -> HandState:
    state = play_out(data, HandState.new(game, stacks, deck))
    assert state.finished, f"the hand did not end within {MAX_ACTIONS} actions"
    return state


def checked_hand(game, stacks, deck, data, check: Callable[[HandState], None]) -> HandState:
    """Play a hand out, running ``check`` on the fresh deal and after every action."""
    state = HandState.new(game, stacks, deck)
    check(state)
    return play_out(data, state, check)


def viewers(state: HandState) -> list[int | None]:
    return [None, *range(state.n)]


# ---------------------------------------------------------------------------- chips


@random_hands()
def test_chips_are_conserved_after_every_action(game, stacks, deck, data):
    def check(state: HandState) -> None:
        rake = state.result["rake"] if state.finished else 0
        assert sum(state.stacks) + sum(state.committed) + rake == sum(stacks)

    checked_hand(game, stacks, deck, data, check)


@random_hands()
def test_no_stack_or_commitment_ever_goes_negative(game, stacks, deck, data):
    def check(state: HandState) -> None:
        assert min(state.stacks) >= 0, state.stacks
        assert min(state.committed) >= 0, state.committed

    checked_hand(game, stacks, deck, data, check)


# ---------------------------------------------------------------------------- cards


def dealt_and_burned(state: HandState) -> list[int]:
    hole = [c for p in range(state.n) for c in state.downcards(p)]
    up = [c for p in range(state.n) for c in state.upcards(p)]
    return hole + up + state.community + state.burns + state.discards


@random_hands()
def test_no_card_is_dealt_twice(game, stacks, deck, data):
    def check(state: HandState) -> None:
        cards = dealt_and_burned(state)
        assert len(set(cards)) == len(cards), sorted(cards)

    checked_hand(game, stacks, deck, data, check)


@random_hands()
def test_dealt_burned_and_undealt_cards_make_up_the_deck(game, stacks, deck, data):
    def check(state: HandState) -> None:
        assert sorted(dealt_and_burned(state) + state.stub) == list(range(52))
        assert len(state.stub) == state.stub_count

    checked_hand(game, stacks, deck, data, check)


def folded_snapshots() -> tuple[dict[int, set[int]], Callable[[HandState], None]]:
    """Record each player's cards at the moment they fold."""
    folded: dict[int, set[int]] = {}

    def record(state: HandState) -> None:
        for player in range(state.n):
            if state.folded[player] and player not in folded:
                folded[player] = set(state.downcards(player) + state.upcards(player))

    return folded, record


@random_hands()
def test_a_folded_players_cards_never_reach_another_seat_the_board_or_the_burns(
    game, stacks, deck, data
):
    folded, record = folded_snapshots()

    def check(state: HandState) -> None:
        record(state)
        for player, cards in folded.items():
            elsewhere = set(state.community + state.burns)
            for other in range(state.n):
                if other != player:
                    elsewhere.update(state.downcards(other) + state.upcards(other))
            assert not cards & elsewhere, (player, sorted(cards & elsewhere))

    checked_hand(game, stacks, deck, data, check)


@random_hands()
def test_a_folded_player_is_dealt_no_more_cards(game, stacks, deck, data):
    folded, record = folded_snapshots()

    def check(state: HandState) -> None:
        record(state)
        for player, cards in folded.items():
            assert set(state.downcards(player) + state.upcards(player)) == cards

    checked_hand(game, stacks, deck, data, check)


# ---------------------------------------------------------------------------- views

CARD_TEXT = re.compile(r'"([2-9TJQKA][cdhs])"')
CARD_SLOTS = ("card", "cards", "down", "up", "community")


def may_know(state: HandState, viewer: int | None) -> set[str]:
    """The cards ``viewer`` may know: all up cards, the board, their own down
    cards and the down cards of hands shown at the showdown; of the cards
    exchanged away, the up ones and the viewer's own."""
    cards = {c for p in range(state.n) for c in state.upcards(p)} | set(state.community)
    for player in range(state.n):
        if player == viewer or state.shown[player]:
            cards.update(state.downcards(player))
    for event in state.events:
        if event["type"] == "exchange" and (event["up"] or event["player"] == viewer):
            cards.add(event["card"])
    return {card_str(c) for c in cards}


def cards_in(payload: Any) -> set[str]:
    """Every card a payload names: card text anywhere, and any card left as a
    number in a card slot."""
    named = set(CARD_TEXT.findall(json.dumps(payload)))
    named.update(card_str(c) for c in _numbers_in_card_slots(payload))
    return named


def _numbers_in_card_slots(payload: Any, in_slot: bool = False) -> list[int]:
    if isinstance(payload, dict):
        return [n for k, v in payload.items() for n in _numbers_in_card_slots(v, k in CARD_SLOTS)]
    if isinstance(payload, list):
        return [n for v in payload for n in _numbers_in_card_slots(v, in_slot)]
    if in_slot and type(payload) is int and 0 <= payload < 52:
        return [payload]
    return []


@random_hands(100)
def test_no_view_shows_another_seats_unshown_down_cards(game, stacks, deck, data):
    def check(state: HandState) -> None:
        for viewer in viewers(state):
            seats = view(state, viewer)["players"]
            for player in range(state.n):
                if player != viewer and not state.shown[player]:
                    assert down_of(seats[player]) == [None] * len(state.downcards(player))

    checked_hand(game, stacks, deck, data, check)


@random_hands(100)
def test_each_players_view_made_from_the_observers_is_their_own_view(game, stacks, deck, data):
    """What a table's change shows each player (``view_from``) is what ``view``
    builds for them alone: their own cards, and no one else's."""

    def check(state: HandState) -> None:
        observed = view(state)
        for viewer in viewers(state):
            assert view_from(observed, state, viewer) == view(state, viewer), viewer

    checked_hand(game, stacks, deck, data, check)


@random_hands(75)
def test_a_card_is_marked_wild_exactly_when_its_viewer_may_know_it_is(game, stacks, deck, data):
    """Wild marks tell nothing a card doesn't: another player's card is marked
    only where everyone knows which cards are wild (not in Low Hole, where
    that would tell the rank of a down card), or once that hand is shown."""

    def check(state: HandState) -> None:
        for viewer in viewers(state):
            seats = view(state, viewer)["players"]
            for player in range(state.n):
                open_hand = player == viewer or state.shown[player]
                wild = state.marked_wild(player) if open_hand else state.known_wild(player)
                for held, seen in zip(state.cards[player], seats[player]["cards"], strict=True):
                    if seen["card"] is None:
                        assert "wild" not in seen
                    else:
                        assert seen.get("wild", False) == bool(wild >> held.card & 1), seen

    checked_hand(game, stacks, deck, data, check)


@random_hands(75)
def test_no_view_or_event_log_names_a_card_its_viewer_may_not_know(game, stacks, deck, data):
    def check(state: HandState) -> None:
        for viewer in viewers(state):
            allowed = may_know(state, viewer)
            assert cards_in(view(state, viewer)) <= allowed, viewer
            assert cards_in(events_for(state, viewer)) <= allowed, viewer

    checked_hand(game, stacks, deck, data, check)


@random_hands(100)
def test_every_view_shows_the_up_cards_the_board_and_the_down_cards_it_may_see(
    game, stacks, deck, data
):
    def check(state: HandState) -> None:
        for viewer in viewers(state):
            seen = view(state, viewer)
            assert seen["community"] == [card_str(c) for c in state.community]
            for player, seat in enumerate(seen["players"]):
                assert up_of(seat) == [card_str(c) for c in state.upcards(player)]
                if player == viewer or state.shown[player]:
                    assert down_of(seat) == [card_str(c) for c in state.downcards(player)]

    checked_hand(game, stacks, deck, data, check)


@random_hands(100)
def test_only_the_player_to_act_is_shown_legal_actions(game, stacks, deck, data):
    """...or, in a decision everyone makes at once, each player still to make it."""

    def check(state: HandState) -> None:
        for viewer in viewers(state):
            shown = view(state, viewer)["legal_actions"]
            if viewer is not None and (viewer == state.to_act or viewer in state.deciding()):
                assert shown == [option.to_dict() for option in state.legal_actions(viewer)]
                assert shown, viewer
            else:
                assert shown == [], viewer

    checked_hand(game, stacks, deck, data, check)


# -------------------------------------------------------------- saving and replaying


def midway(game, stacks, deck, data, actions: list[dict]) -> tuple[int, HandState]:
    """The same hand replayed move by move up to a random point: (moves made, hand)."""
    made = data.draw(st.integers(0, len(actions)), label="moves before the checkpoint")
    state = HandState.new(game, stacks, deck)
    for action in actions[:made]:
        state.apply(action)
    return made, state


@random_hands()
def test_replaying_the_action_list_rebuilds_the_hand(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    _, halfway = midway(game, stacks, deck, data, state.actions)
    for saved in (halfway.to_dict(), state.to_dict()):
        assert HandState.replay(saved).to_dict() == saved


@random_hands()
def test_a_saved_hand_survives_json_and_from_dict(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    _, halfway = midway(game, stacks, deck, data, state.actions)
    for saved in (halfway.to_dict(), state.to_dict()):
        loaded = json.loads(json.dumps(saved))
        assert loaded == saved
        assert HandState.from_dict(loaded).to_dict() == saved


@random_hands()
def test_a_hand_restored_midway_plays_on_to_the_same_end(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    made, halfway = midway(game, stacks, deck, data, state.actions)
    restored = HandState.from_dict(json.loads(json.dumps(halfway.to_dict())))
    for action in state.actions[made:]:
        restored.apply(action)
    assert restored.to_dict() == state.to_dict()


# ------------------------------------------------------------------- legal actions


@random_hands()
def test_every_reported_legal_move_is_accepted(game, stacks, deck, data):
    state = HandState.new(game, stacks, deck)
    while not state.finished and len(state.actions) < MAX_ACTIONS:
        if state.phase == DECIDING:
            player, kind, cards = choose_decision(data, state)
            amount = None
        else:
            (kind, amount), player, cards = choose_move(data, state), state.to_act, None
        try:
            state.act(player, kind, amount, cards)
        except IllegalAction as refusal:
            pytest.fail(f"{kind} {amount} {cards} was reported legal, then refused: {refusal}")


GARBAGE = ("x", 3.5, True, False, -1, 10**9, [5], {"amount": 5})


def illegal_attempts(state: HandState) -> list[tuple[Any, Any, Any]]:
    """Moves that differ from a reported legal one in player, kind or amount."""
    moves, player = legal_moves(state), state.to_act
    kinds = [kind for kind, _ in moves]
    kind, amount = moves[0]
    attempts = [(other, kind, amount) for other in range(state.n)]
    attempts += [(p, kind, amount) for p in (-1, state.n, None, str(player), float(player), True)]
    for wrong in (*BET_KINDS, "show", "muck", "deal", PROTECT, "", "FOLD", None, 3, ["fold"]):
        if wrong not in kinds:
            attempts += [(player, wrong, a) for a in dict.fromkeys([None, *(a for _, a in moves)])]
    for kind, amount in moves:
        if amount is not None:
            attempts += [(player, kind, x) for x in (amount - 1, amount + 1, float(amount))]
            attempts.append((player, kind, str(amount)))
        attempts += [(player, kind, junk) for junk in GARBAGE]
        if kind in WAGERS:
            attempts.append((player, kind, None))
    spans = open_spans(state)
    return [a for a in attempts if not is_one_of(moves, player, *a, spans)]


@random_hands()
def test_an_illegal_move_is_refused_and_changes_nothing(game, stacks, deck, data):
    def check(state: HandState) -> None:
        if state.finished or state.phase == DECIDING:  # the next test's
            return
        attempts = illegal_attempts(state)
        player, kind, amount = attempts[data.draw(index_below(len(attempts)))]
        note(f"tried: player {player!r}: {kind!r} {amount!r}")
        before, allowed = state.to_dict(), state.legal_actions()
        with pytest.raises(IllegalAction):
            state.act(player, kind, amount)
        assert state.to_dict() == before
        assert state.legal_actions() == allowed

    checked_hand(game, stacks, deck, data, check)


def illegal_decisions(state: HandState) -> list[tuple[Any, Any, Any, Any]]:
    """Decisions that differ from a reported legal one in player, kind,
    amount or cards: (player, kind, amount, cards) each."""
    deciding = state.deciding()
    player = deciding[0]
    options = state.legal_actions(player)
    legal = {(o.kind, c) for o in options for c in (o.cards or (None,))}
    attempts: list[tuple[Any, Any, Any, Any]] = []
    for other in [*range(state.n), -1, state.n, None, str(player), True]:
        if other not in deciding:
            attempts += [(other, kind, None, None if c is None else [c]) for kind, c in legal]
    kinds = [o.kind for o in options]
    for wrong in (*DECISION_KINDS, *BET_KINDS, "show", "deal", PROTECT, "", None, ["roll"]):
        if wrong not in kinds:
            attempts.append((player, wrong, None, None))
    elsewhere = [c for c in range(52) if c not in state.cards_of(player)][:3]
    for option in options:
        attempts += [(player, option.kind, junk, None) for junk in (0, 5, "5", 3.5)]
        if option.cards is None:
            attempts.append((player, option.kind, None, [option.cards or 0]))
            continue
        first = option.cards[0]
        attempts += [
            (player, option.kind, None, cards)
            for cards in (None, [], [first, first], [str(first)], [True], [-1], [52], first)
        ]
        attempts += [(player, option.kind, None, [card]) for card in elsewhere]
    return [a for a in attempts if not _is_legal(a, player, legal)]


def _is_legal(attempt: tuple[Any, Any, Any, Any], player: int, legal: set) -> bool:
    who, kind, amount, cards = attempt
    if type(who) is not int or who != player or amount is not None or not isinstance(kind, str):
        return False
    if cards is None:
        return (kind, None) in legal
    named = cards[0] if isinstance(cards, list) and len(cards) == 1 else None
    return type(named) is int and (kind, named) in legal


@random_hands(games=DECISIONS)
def test_an_illegal_decision_is_refused_and_changes_nothing(game, stacks, deck, data):
    """A roll, an exchange or a declaration by someone not deciding, of a
    kind not offered, with an amount, or naming a card not offered."""

    def check(state: HandState) -> None:
        if state.phase != DECIDING:
            return
        attempts = illegal_decisions(state)
        player, kind, amount, cards = attempts[data.draw(index_below(len(attempts)))]
        note(f"tried: player {player!r}: {kind!r} {amount!r} {cards!r}")
        before = state.to_dict()
        with pytest.raises(IllegalAction):
            state.act(player, kind, amount, cards)
        assert state.to_dict() == before

    checked_hand(game, stacks, deck, data, check)


@random_hands(games=DECISIONS)
def test_a_choice_made_at_once_stays_hidden_until_everyone_has_chosen(game, stacks, deck, data):
    """While players roll or declare at once, nobody else's view or log tells
    what a player chose; once the last one chooses, every choice shows."""

    def check(state: HandState) -> None:
        if state.phase != DECIDING or not state.simultaneous:
            return
        for viewer in viewers(state):
            seen = view(state, viewer)
            assert seen["deciding"] == state.deciding()
            for player in range(state.n):
                mine = player == viewer and state.choices[player] is not None
                assert (seen["your_choice"] is not None) == mine or player != viewer
                assert seen["players"][player]["declared"] is None
            for event in events_for(state, viewer):
                assert event["type"] not in ("roll", "declare") or event["street"] != state.street
                if event["type"] == "decided":
                    assert set(event) == {"type", "player"}

    checked_hand(game, stacks, deck, data, check)


@random_hands()
def test_no_move_is_accepted_after_the_hand_ends(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    before = state.to_dict()
    player = data.draw(st.integers(0, state.n - 1))
    kind = data.draw(st.sampled_from(["fold", "check", "call", "bet", "show", "muck"]))
    with pytest.raises(HandOver):
        state.act(player, kind, 5 if kind == "bet" else None)
    assert state.to_dict() == before
    assert state.legal_actions() == []


@random_hands()
def test_every_hand_ends_within_the_action_bound(game, stacks, deck, data):
    state = play_out(data, HandState.new(game, stacks, deck))
    assert state.finished, f"{len(state.actions)} actions and the hand goes on"


# ------------------------------------------------------------------------- payouts


def pot_shares(pot: dict) -> dict[int, int]:
    return {player: chips for player, chips in pot["shares"]}


@random_hands()
def test_each_pot_is_shared_only_among_live_players_eligible_for_it(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    for pot in state.result["pots"]:
        assert set(pot_shares(pot)) <= set(pot["eligible"]), pot
        assert not any(state.folded[p] for p in pot["eligible"]), (pot, state.folded)


@random_hands()
def test_each_pot_is_paid_out_in_full_after_its_rake(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    pots = state.result["pots"]
    for pot in pots:
        assert sum(pot_shares(pot).values()) + pot["rake"] == pot["amount"], pot
    assert sum(pot["rake"] for pot in pots) == state.result["rake"]


@random_hands()
def test_payouts_are_the_sums_of_the_pot_shares(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    totals = [0] * state.n
    for pot in state.result["pots"]:
        for player, chips in pot_shares(pot).items():
            totals[player] += chips
    assert state.result["payouts"] == totals


@random_hands()
def test_a_folded_player_wins_nothing(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    for player in range(state.n):
        if state.folded[player]:
            assert state.result["payouts"][player] == 0, (player, state.result)


@random_hands()
def test_no_player_wins_more_from_a_rival_than_they_matched(game, stacks, deck, data):
    """Side pots: whoever put in ``c`` chips can win at most ``min(c, c_rival)``
    from each rival, so at most the sum of those over the table, plus the
    payments nobody matches (Man with the Axe), which go to the main pot."""
    state = finished_hand(game, stacks, deck, data)
    payouts = state.result["payouts"]
    paid = [0] * state.n
    for event in state.events:
        if event["type"] == "pay":
            paid[event["player"]] += event["amount"]
    # What each player put in to be matched, from where they started, ended
    # and were paid, less their payments.
    put_in = [s - e + w - p for s, e, w, p in zip(stacks, state.stacks, payouts, paid, strict=True)]
    for player, won in enumerate(payouts):
        most = sum(min(c, put_in[player]) for c in put_in) + sum(paid)
        assert won <= most, (player, put_in, paid, payouts)


@random_hands()
def test_the_rake_is_the_tables_percentage_of_the_whole_pot_capped(game, stacks, deck, data):
    """Rounded down, and nothing from a hand that ends on third street if the rule says so."""
    state = finished_hand(game, stacks, deck, data)
    rule, total = game.rake, sum(pot["amount"] for pot in state.result["pots"])
    expected = int(total * Fraction(rule.percent) / 100)
    if rule.cap is not None:
        expected = min(expected, rule.cap)
    if rule.no_rake_third_street and state.street == 0:
        expected = 0
    assert state.result["rake"] == expected


@random_hands()
def test_an_uncontested_pot_goes_whole_to_the_last_player_standing(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    if not state.result["uncontested"]:
        return
    [winner] = state.live
    total = sum(pot["amount"] for pot in state.result["pots"])
    assert state.result["payouts"][winner] == total - state.result["rake"]


def best_hands(state: HandState, contenders: list[int]) -> tuple[set[int], set[int]]:
    """(the best high hands, the best qualifying low hands) among ``contenders``;
    in hi-lo declare, among those who declared each way and still qualify."""
    if state.game.declares:
        return declared_best(state, contenders)
    return cards_speak(state, contenders)


def declared_best(state: HandState, contenders: list[int]) -> tuple[set[int], set[int]]:
    """Seed 003: the best high of those who declared high or both, and the
    best low of those who declared low or both, where a "both" declarer who
    is not alone the best both ways drops out; if nobody is left with a
    winning hand, the cards speak."""
    said = {p: state.declared[p] for p in contenders}
    highs = [p for p in contenders if said[p] in ("high", "both")]
    lows = [p for p in contenders if said[p] in ("low", "both")]
    high, _ = cards_speak(state, highs)
    _, low = cards_speak(state, lows)
    out = {p for p in contenders if said[p] == "both" and (high != {p} or low != {p})}
    high, _ = cards_speak(state, [p for p in highs if p not in out])
    _, low = cards_speak(state, [p for p in lows if p not in out])
    return (high, low) if high or low else cards_speak(state, contenders)


def cards_speak(state: HandState, contenders: list[int]) -> tuple[set[int], set[int]]:
    """The best high and low hands by their cards alone; with the table's
    natural_beats_wild, a hand its natural cards make beats its equal made wild."""
    game, naturals_win = state.game, state.config.natural_beats_wild
    highs, lows = {}, {}
    for player in contenders:
        cards, wild = state.cards_of(player), state.wild_for(player)
        high = game.evaluator.high_key(cards, wild)
        if high is not None:
            highs[player] = (
                high,
                naturals_win and made_naturally(game, cards, wild, high, low=False),
            )
        low_wild = state.wild_for(player, low=True)
        low = game.evaluator.low_key(cards, low_wild)
        if low is not None:
            lows[player] = (
                -low,
                naturals_win and made_naturally(game, cards, low_wild, low, low=True),
            )
    best_high = {p for p, k in highs.items() if k == max(highs.values())}
    best_low = {p for p, k in lows.items() if k == max(lows.values())}
    return best_high, best_low


def made_naturally(game, cards, wild, key, *, low: bool) -> bool:
    """Whether the natural cards alone (no wild one) make the high (or low) hand of ``key``."""
    naturals = natural(cards, wild)
    if len(naturals) < 5:
        return False
    made = game.evaluator.low_key(naturals) if low else game.evaluator.high_key(naturals)
    return made == key


def contested_pots(state: HandState) -> list[dict]:
    return [] if state.result["uncontested"] else state.result["pots"]


def best_spade(state: HandState, contenders: list[int]) -> set[int]:
    """Chicago: who holds the best spade in the hole among the shown hands
    of ``contenders`` (the highest, or in Low Chicago the lowest)."""
    if state.game.spade_half is None:
        return set()
    spades = {
        (rank(card), player)
        for player in contenders
        if state.shown[player]
        for card in state.downcards(player)
        if suit(card) == 3
    }
    if not spades:
        return set()
    pick = max if state.game.spade_half == "high" else min
    return {pick(spades)[1]}


@random_hands()
def test_each_contested_pot_goes_only_to_its_best_shown_hands(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    for pot in contested_pots(state):
        best_high, best_low = best_hands(state, pot["eligible"])
        spade = best_spade(state, pot["eligible"])
        winners = {p for p, chips in pot_shares(pot).items() if chips}
        assert winners <= best_high | best_low | spade, (pot, best_high, best_low, spade)


@random_hands()
def test_a_one_sided_pot_is_split_evenly_between_its_best_hands(game, stacks, deck, data):
    """Stud, razz, and hi-lo with no qualifying low: one best hand scoops, and
    tied best hands each get the pot divided between them, rounded down or up."""
    state = finished_hand(game, stacks, deck, data)
    for pot in contested_pots(state):
        best_high, best_low = best_hands(state, pot["eligible"])
        if best_high and best_low or best_spade(state, pot["eligible"]):
            continue  # a hi-lo split, or Chicago's spade half: see the tests below
        best = best_high or best_low
        net, shares = pot["amount"] - pot["rake"], pot_shares(pot)
        for player in best:
            assert shares.get(player, 0) in (net // len(best), -(-net // len(best))), pot


@random_hands(games=HI_LO)
def test_hi_lo_gives_a_hand_without_the_best_high_at_most_half_a_pot(game, stacks, deck, data):
    """The low half is the smaller one: the odd chip goes to the high."""
    state = finished_hand(game, stacks, deck, data)
    for pot in contested_pots(state):
        best_high, _ = best_hands(state, pot["eligible"])
        net = pot["amount"] - pot["rake"]
        for player, chips in pot_shares(pot).items():
            if player not in best_high:
                assert chips <= net // 2, (player, pot)


# ------------------------------------------------------------ timeouts (seed 002)


def protection_watch() -> tuple[dict[int, tuple[int, int]], Callable[[HandState], None]]:
    """Record (chips put in, chips behind) of each player at the moment they are
    protected, from the ``protect`` event (a protection may end the hand at once)."""
    at_protection: dict[int, tuple[int, int]] = {}

    def record(state: HandState) -> None:
        for event in state.events:
            if event["type"] == PROTECT:
                at_protection[event["player"]] = (event["put_in"], event["stack"])
        assert set(at_protection) == {p for p in range(state.n) if state.protected[p]}

    return at_protection, record


@random_hands()
def test_a_protected_player_never_bets_again_and_keeps_the_chips_behind(game, stacks, deck, data):
    at_protection, record = protection_watch()

    def check(state: HandState) -> None:
        record(state)
        for player, (put_in, behind) in at_protection.items():
            assert not state.folded[player]
            assert state.is_all_in(player)
            if not state.finished:
                assert state.committed[player] == put_in, (player, state.committed)
                assert state.stacks[player] == behind, (player, state.stacks)
                assert not (state.phase == "betting" and state.to_act == player)
            else:
                assert state.stacks[player] == behind + state.result["payouts"][player]

    checked_hand(game, stacks, deck, data, check)


@random_hands()
def test_a_protected_player_had_put_in_more_than_the_ante_and_plays_for_the_main_pot(
    game, stacks, deck, data
):
    at_protection, record = protection_watch()
    state = checked_hand(game, stacks, deck, data, record)
    for player, (put_in, _) in at_protection.items():
        assert put_in > min(game.ante, stacks[player])
        assert player in state.result["pots"][0]["eligible"], (player, state.result["pots"])


@random_hands()
def test_a_showdown_with_a_protected_player_shows_every_hand(game, stacks, deck, data):
    state = finished_hand(game, stacks, deck, data)
    if state.result["uncontested"] or not any(state.protected):
        return
    assert all(state.shown[p] for p in state.live), (state.shown, state.protected)


@random_hands()
def test_can_protect_says_exactly_whether_protect_is_accepted(game, stacks, deck, data):
    def check(state: HandState) -> None:
        if state.finished:
            return
        trial, before = HandState.from_dict(state.to_dict()), state.to_dict()
        try:
            trial.protect(state.to_act)
        except IllegalAction:
            assert not state.can_protect()
            assert trial.to_dict() == before
        else:
            assert state.can_protect()

    checked_hand(game, stacks, deck, data, check)


class _Draws:
    """Lets ``play_out`` draw from inside a composite strategy."""

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def draw(self, strategy: st.SearchStrategy, label: str | None = None) -> Any:
        return self._draw(strategy)


@st.composite
def played_hands(draw: st.DrawFn) -> HandState:
    game = draw(ANY_GAME)
    state = HandState.new(game, draw(stacks)[: game.game.max_players], draw(decks))
    return play_out(_Draws(draw), state)


def protected_on(state: HandState) -> set[int]:
    """The streets on which somebody was protected."""
    street, streets = 0, set()
    for event in state.events:
        if event["type"] in ("deal", "board"):
            street = event["street"]
        elif event["type"] == PROTECT:
            streets.add(street)
    return streets


@pytest.mark.parametrize("street", range(5))
def test_random_play_protects_players_on_every_street(street):
    """The properties above see protections, on every street: a search finds one."""
    find(played_hands(), lambda state: street in protected_on(state), settings=FIND)


def test_random_play_has_a_protected_player_win_a_main_pot_while_another_takes_a_side_pot():
    def split(state: HandState) -> bool:
        pots = state.result["pots"]
        if not pots:  # no ante, no bring-in and no bet: nothing was put in
            return False
        main_winners = {p for p, chips in pot_shares(pots[0]).items() if chips}
        side_winners = {p for pot in pots[1:] for p, chips in pot_shares(pot).items() if chips}
        return any(state.protected[p] for p in main_winners) and bool(side_winners - main_winners)

    find(played_hands(), split, settings=FIND)
