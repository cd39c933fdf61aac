"""pokerkit's PHH files replay here to pokerkit's finishing stacks.

pokerkit plays random stud, razz and stud hi-lo hands (2 to 8 players, short
stacks, all-ins, eight players running out of cards) and writes each with its
own PHH writer (tests/rules/pokerkit_hands.py). ``replay`` must reach
pokerkit's finishing stacks wherever the two sets of rules coincide.

Where they differ by design, the hand is recognised by the rule that applies,
at the point where the replays part, and counted under it; a hand that differs
for any other reason fails the test with its seed. The differences:

* ALL_IN_BRING_IN: a bring-in all in for no more than the bring-in. The WSOP
  stud rules have everyone else enter for at least the full bring-in and
  complete to a full bet. pokerkit lets them call the short amount, and takes
  an all-in ``cbr`` for the bring-in as a short completion to raise from.
* SHORT_ALL_IN: a complete, bet or raise all in for less than a full one.
  WSOP Live Action rule 129 (Robert's Rules too): it reopens the betting only
  if it is half a bet or more, and a player facing it may complete it to a
  full wager. pokerkit puts a full bet on top of the all-in, and reopens.
* ODD_CHIP: a pot with an odd chip to place. Seed 002 gives a tie's odd
  chip to the hand with the highest card by suit (high) or the lowest (low),
  and a hi-lo pot's to the high half, each side pot on its own (WSOP rules 73
  and 74). pokerkit goes by seat, and first merges the pots whose remaining
  hands are the same.
* NO_LOW_SIDE_POT: in stud hi-lo, a pot that no hand eligible for it
  qualifies low for goes whole to its best high hand (WSOP: each side pot is
  split on its own; with no qualifying low the high hand wins the pot).
  pokerkit splits every pot whenever any hand in the deal has a low.
* COMMUNITY_CARD: when the deck runs short, the community card counts in
  every showing hand for the 7th-street order of action (seed 003); pokerkit
  reads the upcards alone.
* REUSED_CARDS: pokerkit ran out of cards and dealt folded or mucked cards
  again, which seed 000 forbids: a folded hand's cards are dead.

pokerkit never makes the big bet on 4th street with an open pair, and its
files can't differ from ours there: every size it bets is one we allow.

The other way round, pokerkit reads our hi-lo declare files (written
``F7S/8``) to the end: the declarations are commentaries to it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import pokerkit
import pytest

from tables.rules.cards import parse_cards
from tables.rules.formats.phh import HandHistory, PHHError, read_phh, replay
from tables.rules.state import BOARD, WAGERS, HandState
from tests.rules.pokerkit_hands import GAMES, PokerkitHand, pokerkit_hand
from tests.rules.strategies import examples
from tests.rules.test_phh import DECLARE

AGREE = "agree"
ALL_IN_BRING_IN = "all-in bring-in: the others enter for the full bring-in (WSOP)"
SHORT_ALL_IN = "short all-in wager: completed to a full wager, reopens at half a bet (WSOP 129)"
ODD_CHIP = "odd chip: by card and suit, and to the high half of each side pot (seed 002, WSOP)"
NO_LOW_SIDE_POT = "no low in a side pot: its high hand takes it whole (WSOP)"
COMMUNITY_CARD = "community card: it counts for the 7th-street order of action (seed 003)"
REUSED_CARDS = "reused cards: a folded hand's cards are never dealt again (seed 000)"


def hands_per_game() -> int:
    """300 hands of each game locally; the ci hypothesis profile (.ci/run) scales it up."""
    return examples(300)


@dataclass(frozen=True)
class Outcome:
    """How our replay of one pokerkit file went."""

    history: HandHistory
    stacks: list[int] | None  # ours, when the replay got to the end
    refused_at: int | None  # the action our replay refused, if it did
    error: str | None


def our_replay(hand: PokerkitHand) -> Outcome:
    history = read_phh(hand.text)
    try:
        return Outcome(history, replay(history).stacks, None, None)
    except PHHError as exc:
        match = re.match(r"action ([0-9]+) ", str(exc))
        return Outcome(history, None, int(match[1]) if match else None, str(exc))


def verdict(hand: PokerkitHand) -> str:
    """AGREE, the rule difference that explains the hand, or what went wrong."""
    outcome = our_replay(hand)
    if outcome.stacks == hand.stacks:
        return AGREE
    history = outcome.history
    if outcome.refused_at is not None:
        return _refusal_rule(hand, outcome) or f"unexplained: {outcome.error}"
    if outcome.stacks is None:
        return f"unexplained: {outcome.error}"
    if _had_all_in_bring_in(history, len(history.actions)):
        return ALL_IN_BRING_IN
    return _award_rule(replay(history), hand.stacks) or (
        f"unexplained: stacks {outcome.stacks}, pokerkit {hand.stacks}"
    )


def _refusal_rule(hand: PokerkitHand, outcome: Outcome) -> str | None:
    index = outcome.refused_at
    assert index is not None
    before = replay(outcome.history, upto=index)
    action = outcome.history.actions[index]
    if action.startswith("d ") and hand.reused_cards and _deals_a_dead_card(before, action):
        return REUSED_CARDS
    if _had_all_in_bring_in(outcome.history, index):
        return ALL_IN_BRING_IN
    if " cbr " in action and _short_all_in_stands(before):
        return SHORT_ALL_IN
    if before.community and _opens_the_round(before, action):
        return COMMUNITY_CARD
    return None


def _deals_a_dead_card(state: HandState, action: str) -> bool:
    """Where we deal the community card, or a card a folded player was dealt."""
    if state.pending_deal is not None and state.pending_deal[0] == BOARD:
        return True
    dead = {c for p in range(state.n) if state.folded[p] for c in state.cards_of(p)}
    return any(card in dead for card in parse_cards(action.split()[-1]))


def _had_all_in_bring_in(history: HandHistory, upto: int) -> bool:
    """Whether, before action ``upto``, the bring-in went in all in, and either
    short of the bring-in or written as a ``cbr`` (pokerkit's completion)."""
    state = replay(history, upto=upto)
    posted = [e for e in state.events if e["type"] == "bring_in"]
    if not posted or not posted[0]["all_in"]:
        return False
    by = f"p{posted[0]['player'] + 1} "
    written = next(a for a in history.actions if a.startswith(by))
    return posted[0]["total"] < state.config.bring_in or " cbr " in written


def _short_all_in_stands(state: HandState) -> bool:
    """The round's top wager is an all-in short of a full one (it set no new full level)."""
    wagers = [e for e in _this_street(state) if e["type"] in WAGERS]
    if not wagers:
        return False
    top = wagers[-1]
    return top["all_in"] and top["total"] == state.current_bet > state.full_level


def _this_street(state: HandState) -> list[dict]:
    starts = [i for i, e in enumerate(state.events) if e["type"] in ("burn", "no_burn")]
    return state.events[starts[-1] :] if starts else state.events


def _opens_the_round(state: HandState, action: str) -> bool:
    """The action is someone else's first move of a round nobody has acted in."""
    acted = any(e["type"] in ("check", "call", "fold", *WAGERS) for e in _this_street(state))
    return state.to_act is not None and not acted and not action.startswith(f"p{state.to_act + 1} ")


def _award_rule(state: HandState, theirs: list[int]) -> str | None:
    """ODD_CHIP or NO_LOW_SIDE_POT, if the stacks differ only among the players
    those rules award chips to, and no chip is made or lost."""
    pots = state.result["pots"]
    any_low = any(hand.get("low") for hand in state.result["hands"].values())
    odd: set[int] = set()  # players who share a pot with an odd chip to place
    lowless: set[int] = set()  # players of a hi-lo pot that nobody in it qualifies low for
    for pot in pots:
        winners = pot["high_winners"] + pot["low_winners"]
        if len(winners) > 1 and (pot["amount"] - pot["rake"]) % len(winners):
            odd.update(winners)
        if state.game.low and any_low and not pot["low_winners"]:
            lowless.update(pot["eligible"])
    gaps = {p: ours - pk for p, (ours, pk) in enumerate(zip(state.stacks, theirs, strict=True))}
    moved = {p for p, gap in gaps.items() if gap}
    if sum(gaps.values()) != 0 or not moved <= odd | lowless:
        return None
    if moved - odd:
        return NO_LOW_SIDE_POT
    return ODD_CHIP if all(abs(gaps[p]) <= len(pots) for p in moved) else None


# Every verdict of this run, by test: tests/rules/conftest.py prints them at the end.
TALLIES: dict[str, Counter[str]] = {}


def tally(name: str, hands: list[PokerkitHand]) -> Counter[str]:
    verdicts = Counter(verdict(hand) for hand in hands)
    TALLIES[name] = verdicts
    return verdicts


def unexplained(hands: list[PokerkitHand]) -> list[str]:
    return [f"seed {h.seed}: {v}" for h in hands if (v := verdict(h)).startswith("unexplained")]


@pytest.mark.parametrize("game", list(GAMES))
def test_pokerkit_files_replay_to_pokerkits_stacks_or_a_named_rule(game: str) -> None:
    hands = [pokerkit_hand(seed, game=game) for seed in range(hands_per_game())]
    verdicts = tally(game, hands)
    assert not any(v.startswith("unexplained") for v in verdicts), unexplained(hands)
    # The rules coincide in most hands; a difference is the exception, not the excuse.
    assert verdicts[AGREE] >= 0.85 * len(hands), verdicts
    assert verdicts[SHORT_ALL_IN] and verdicts[ALL_IN_BRING_IN], verdicts


def test_eight_players_who_never_fold_run_out_of_cards_alike() -> None:
    hands = [pokerkit_hand(seed, crowded=True) for seed in range(hands_per_game() // 10)]
    verdicts = tally("8 players, no folds", hands)
    assert not any(v.startswith("unexplained") for v in verdicts), unexplained(hands)
    community = [h for h in hands if "d db " in h.text]
    assert len(community) == len(hands), "every such hand ends on a community card"
    # Where the community card doesn't change who opens 7th street, we agree.
    assert sum(verdict(h) == AGREE for h in community) >= len(community) // 2, verdicts


@pytest.mark.parametrize(
    ("seed", "game", "rule"),
    [
        # One hand of each kind, found by the random hands above, so that each
        # rule stays recognised however the random ones happen to fall.
        (7, "stud", ALL_IN_BRING_IN),
        (61, "stud", SHORT_ALL_IN),
        (31, "razz", REUSED_CARDS),
        (10, "stud8", NO_LOW_SIDE_POT),
        (359, "stud8", ODD_CHIP),
        (4, None, COMMUNITY_CARD),
    ],
)
def test_each_rule_difference_is_recognised(seed: int, game: str | None, rule: str) -> None:
    hand = pokerkit_hand(seed, game=game, crowded=game is None)
    assert verdict(hand) == rule


def test_pokerkit_plays_a_hi_lo_declare_file_through_as_the_cards_speak() -> None:
    """Each declaration is a commentary to pokerkit: it replays every action
    as stud hi-lo, and only the pot goes another way."""
    *_, theirs = pokerkit.notation.HandHistory.loads(DECLARE)
    ours = replay(read_phh(DECLARE))
    assert not theirs.status  # the hand is over
    # Ours: carol's kings take the high half she declared, bob's wheel the low.
    assert ours.stacks == [97, 101, 102]
    # As the cards speak, the two wheels are the best high and the best low:
    # carol wins nothing, and alice and bob share her antes and bring-in.
    assert theirs.stacks[2] == 97
    assert theirs.stacks[0] + theirs.stacks[1] == ours.stacks[0] + ours.stacks[1] + 5
