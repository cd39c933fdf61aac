"""The narrator: each event in Cardroom's words, and the ledger's figures.

The live log, the hand page and PHH's commentary all read these lines; the
PokerStars text reads the same ledger. Personas: the seeds' sample deal
(Larry, Craig, Katherine, Jimmy), or players a, b, c in engine order; an
observer (viewer None) sees upcards and shown hands only.
"""

from __future__ import annotations

import re

import pokerkit
import pytest

from tables.rules import HandState
from tables.rules.cards import card_str, parse_card
from tables.rules.formats.phh import read_phh, replay, write_phh
from tables.rules.narration import Ledger, Narrator, Told, card_text
from tables.rules.views import events_for
from tests.rules.stacking import config, play, stack_deck
from tests.rules.test_all_ins import RANKED, run_out
from tests.rules.test_decisions import roll_your_own
from tests.rules.test_phh import (
    ALICE,
    BOB,
    SEEDS,
    cards_seen_by,
    declared_hand,
    exchanged_hand,
    finished_sample_hand,
    random_hand,
    rolled_hand,
)
from tests.rules.test_sample_deal import KATHERINE

SAMPLE_NAMES = ["Larry", "Craig", "Katherine", "Jimmy"]
CARD_WORDS = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")
CARD_CODES = re.compile(r"[2-9TJQKA][cdhs]")


def told(state: HandState, viewer: int | None = None, names=None) -> list[Told]:
    names = names or [chr(ord("a") + p) for p in range(state.n)]
    return Narrator(names, state).tell(events_for(state, viewer))


def lines(state: HandState, viewer: int | None = None, names=None) -> list[str]:
    return [line for each in told(state, viewer, names) for line in each.lines]


def test_the_sample_deal_is_told_as_an_observer_saw_it():
    """Seeds 000/001's sample deal, every line, with the cost of each call."""
    said = lines(finished_sample_hand(), names=SAMPLE_NAMES)
    assert said == [
        "Larry antes 25",
        "Craig antes 25",
        "Katherine antes 25",
        "Jimmy antes 25",
        "Larry is dealt 2 down cards and 4♠ up",
        "Craig is dealt 2 down cards and K♦ up",
        "Katherine is dealt 2 down cards and 4♦ up",
        "Jimmy is dealt 2 down cards and 9♣ up",
        "Katherine brings in 100",
        "Jimmy calls 100",
        "Larry folds",
        "Craig completes to 300",
        "Katherine folds",
        "Jimmy calls 200",  # he had 100 in: the completion costs him 200 more
        "Craig is dealt J♣",
        "Jimmy is dealt K♥",
        "Craig checks",
        "Jimmy checks",
        "Craig is dealt 10♥",
        "Jimmy is dealt K♣",
        "Jimmy bets 500",
        "Craig calls 500",
        "Craig is dealt 10♦",
        "Jimmy is dealt 3♠",
        "Jimmy bets 500",
        "Craig calls 500",
        "Craig is dealt a down card",
        "Jimmy is dealt a down card",
        "Jimmy checks",
        "Craig bets 500",
        "Jimmy calls 500",
        "Craig shows Q♠ 2♥ K♦ J♣ 10♥ 10♦ A♦: straight, ace high",
        "Jimmy mucks, unshown",
        "Pot of 3,800: Craig wins 3,800",
    ]


def test_a_player_reads_their_own_down_cards_and_no_one_elses():
    state = finished_sample_hand()
    said = lines(state, KATHERINE, names=SAMPLE_NAMES)
    hole = [card_text(card_str(card)) for card in state.cards_of(KATHERINE)[:2]]
    assert f"Katherine is dealt {hole[0]} {hole[1]} down and 4♦ up" in said
    assert "Larry is dealt 2 down cards and 4♠ up" in said
    assert "Jimmy is dealt a down card" in said


def test_the_ledger_keeps_the_pot_before_each_event_and_what_each_put_in():
    figures = {
        each.lines[0]: each.figures
        for each in told(finished_sample_hand(), None, SAMPLE_NAMES)
        if each.lines
    }
    assert figures["Katherine brings in 100"].pot == 100  # the four antes
    assert figures["Craig completes to 300"].raised_by == 200  # from the bring-in's 100
    assert figures["Jimmy calls 200"].added == 200
    assert figures["Craig is dealt J♣"].pot == 800
    assert figures["Craig is dealt J♣"].street == 1
    assert figures["Pot of 3,800: Craig wins 3,800"].pot == 3800


def test_a_call_after_a_raise_costs_only_what_the_caller_lacked():
    state = HandState.new(config(), [100, 100, 100], RANKED)
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "raise", 10), (2, "call"), (0, "call"))
    assert [line for line in lines(state) if "calls" in line] == ["c calls 8", "a calls 5"]


def test_an_uncalled_bet_is_handed_back_and_leaves_the_pot():
    state = HandState.new(config(), [100, 100, 100], RANKED)
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "fold"), (2, "fold"))
    tail = told(state)[-2:]
    assert tail[0].lines == ("Uncalled bet of 3 returned to a",)
    assert tail[0].figures.added == -3
    assert tail[1].lines == ("Pot of 7: a wins 7, uncontested",)
    assert tail[1].figures.pot == 7  # three antes, the bring-in and the 2 of a's 5 it matched


def test_side_pots_are_named_and_an_all_in_is_said():
    state = HandState.new(config(), [12, 40, 100], RANKED)
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "call"), (2, "call"))
    play(state, (0, "bet", 5), (1, "raise", 10), (2, "call"), (0, "call"))
    run_out(state)
    said = lines(state)
    assert "a calls 1, all in" in said  # 12 less an ante, a completion and a bet
    assert said[-2:] == ["Main pot of 36: a wins 36", "Side pot 1 of 8: b wins 8"]


def test_hi_lo_says_which_half_each_winner_took():
    # a makes the wheel, the best low; b's kings full beat its straight for high.
    deck = stack_deck(
        {0: "AcAd2h", 1: "KcKd9h"},
        {0: "3s", 1: "Ks"},
        {0: "4d", 1: "9c"},
        {0: "5c", 1: "Jh"},
        {0: "Qd", 1: "Qh"},
    )
    state = run_out(HandState.new(config(variant="stud8"), [100, 100], deck))
    assert lines(state)[-1] == "Pot of 6: a wins 3 (low), b wins 3 (high)"


def test_a_move_the_clock_made_says_so():
    state = HandState.new(config(), [100, 100, 100], RANKED)
    play(state, (2, "bring_in"))
    state.act(0, "fold", timed_out=True)
    assert lines(state)[-1] == "a folds (out of time)"


def test_a_burn_card_is_told_to_staff_only():
    state = finished_sample_hand()
    staff = Narrator(SAMPLE_NAMES, state).tell(events_for(state, everything=True))
    burns = [each for each in staff if each.event["type"] == "burn"]
    assert burns and all(each.lines[0].startswith("Burned: ") for each in burns)
    assert all(not each.lines for each in told(state) if each.event["type"] == "burn")


def test_a_street_is_told_once_per_player_even_when_one_move_deals_several():
    state = HandState.new(config(), [3, 100], RANKED)  # a is all in on 3rd street
    play(state, (1, "bring_in"), (0, "call"))
    run_out(state)
    deals = [each for each in told(state) if each.event["type"] == "deal"]
    told_deals = [(each.event["street"], each.event["player"]) for each in deals if each.lines]
    assert len(told_deals) == len(set(told_deals)) == 2 * len(state.game.streets)


@pytest.mark.parametrize("seed", SEEDS)
def test_no_line_names_a_card_its_viewer_may_not_see(seed):
    state = random_hand(seed)
    for viewer in [None, *range(state.n)]:
        seen = {card_text(code) for code in cards_seen_by(state, viewer)}
        named = {card for line in lines(state, viewer) for card in CARD_WORDS.findall(line)}
        assert named <= seen, (viewer, named - seen)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_ledger_counts_every_chip_the_pots_award(seed):
    """Antes, bets and calls less uncalled bets: the pots' total, in every game."""
    state = random_hand(seed)
    ledger = Ledger(state.starting_stacks, state.config.bring_in)
    for event in state.events:
        ledger.follow(event)
    assert ledger.pot == sum(pot["amount"] for pot in state.result["pots"])


# ------------------------------------------------- decisions that are not bets


def test_rolls_made_at_once_are_told_as_decided_then_as_rolled():
    # Bob chose first; the rolls are revealed together, from the dealer's left.
    said = lines(rolled_hand())
    assert said[4:9] == [
        "b has decided",
        "a has decided",
        "a rolls the K♥",
        "b rolls the 7♣",
        "b brings in 2",
    ]


def test_a_choice_the_clock_made_says_so():
    state = roll_your_own()
    state.act(ALICE, "roll", None, [parse_card("2d")], timed_out=True)
    assert lines(state)[-1] == "a has decided (out of time)"


def test_declarations_made_at_once_are_told_as_decided_then_as_declared():
    said = lines(declared_hand())
    start = said.index("c has decided")
    assert said[start : start + 6] == [
        "c has decided",
        "a has decided",
        "b has decided",
        "a declares high and low",
        "b declares low",
        "c declares high",
    ]
    assert said[-1] == "Pot of 9: b wins 4 (low), c wins 5 (high)"


def test_an_exchange_is_told_with_its_price_and_the_card_that_replaced_it():
    said = lines(exchanged_hand())  # an observer
    assert said[said.index("a pays 10 to exchange") :][:3] == [
        "a pays 10 to exchange",
        "a exchanges the 2♣ for the A♣",  # face up: everyone sees both
        "b stands pat",
    ]
    assert "b exchanges a down card" in said
    assert "b exchanges the K♠ for the K♥" in lines(exchanged_hand(), BOB)
    assert not any("K♠" in line for line in lines(exchanged_hand(), ALICE))


def test_an_exchange_told_before_its_replacement_is_dealt_tells_each_alone():
    # As a hand page tells a replayed hand: the exchange is one step, the
    # dealer's card the next.
    state = exchanged_hand()
    for viewer, gone, new in ((BOB, "the K♠", "the K♥"), (None, "a down card", "a down card")):
        events = events_for(state, viewer)
        cut = max(i for i, event in enumerate(events) if event["type"] == "exchange") + 1
        narrator = Narrator(["a", "b"], state)
        first, then = narrator.tell(events[:cut]), narrator.tell(events[cut:])
        assert first[-1].lines == (f"b exchanges {gone}",)
        assert then[0].lines == (f"b is dealt {new} in exchange",)


def test_the_ledger_opens_a_new_round_after_a_decision_on_the_same_street():
    # English stud's last round with six players: no card is dealt after the
    # second exchange, and the round's bets start from nothing.
    ledger = Ledger([100, 100], bring_in=2)
    for event in (
        {"type": "bet", "player": 0, "total": 10, "all_in": False, "street": 3},
        {"type": "call", "player": 1, "total": 10, "all_in": False},
        {"type": "stand_pat", "player": 0, "street": 3},
        {"type": "stand_pat", "player": 1, "street": 3},
        {"type": "bet", "player": 0, "total": 10, "all_in": False},
    ):
        figures = ledger.follow(event)
    assert figures.added == 10 and figures.raised_by == 10
    assert ledger.pot == 30


# ------------------------------------------------------------ PHH commentary


def test_phh_commentary_tells_each_action_in_the_hand_pages_words():
    state = finished_sample_hand()
    text = write_phh(state, viewer=KATHERINE, extra={"players": SAMPLE_NAMES}, commentary=True)
    actions = read_phh(text).fields["actions"]
    assert "p4 cc # Jimmy calls 200" in actions
    assert "d dh p4 ?? # Jimmy is dealt a down card" in actions
    assert actions[-1] == "# Pot of 3,800: Craig wins 3,800"
    # Every action line but the pots' says its own move in words.
    assert all(" # " in action for action in actions[:-1])


def test_phh_commentary_changes_nothing_a_reader_replays():
    state = finished_sample_hand()
    plain = write_phh(state, viewer=KATHERINE)
    told = write_phh(state, viewer=KATHERINE, commentary=True)
    assert replay(read_phh(told)).stacks == replay(read_phh(plain)).stacks == state.stacks
    *_, theirs = pokerkit.notation.HandHistory.loads(told)  # an independent reader
    assert list(theirs.stacks) == state.stacks


def split_action(action: str) -> tuple[str, str]:
    """An action's move and its words. One of our notes, an action that is
    only a commentary (``# _cardroom_roll p2 Kd``), is all move and no words."""
    move, _, words = action.partition("#")
    return (words, "") if words.strip().startswith("_cardroom_") else (move, words)


@pytest.mark.parametrize("seed", SEEDS)
def test_phh_commentary_names_no_card_the_file_does_not_write(seed):
    state = random_hand(seed)
    for viewer in [None, *range(state.n)]:
        actions = read_phh(write_phh(state, viewer=viewer, commentary=True)).fields["actions"]
        moves, words = zip(*map(split_action, actions), strict=True)
        written = {card_text(code) for move in moves for code in CARD_CODES.findall(move)}
        said = {card for text in words for card in CARD_WORDS.findall(text)}
        assert said <= written, (viewer, said - written)


def test_phh_commentary_tells_rolls_once_revealed_and_a_note_has_no_words():
    text = write_phh(rolled_hand(), extra={"players": ["alice", "bob"]}, commentary=True)
    assert read_phh(text).fields["actions"][:7] == [
        "d dh p1 ???? # alice is dealt 2 down cards",
        "d dh p2 ???? # bob is dealt 2 down cards",
        "# _cardroom_roll p2 7c",
        "# _cardroom_roll p1 Kh",
        "# alice rolls the K♥",
        "# bob rolls the 7♣",
        "p2 pb # bob brings in 2",
    ]


def test_phh_commentary_tells_an_exchange_on_its_sd_line():
    text = write_phh(exchanged_hand(), extra={"players": ["alice", "bob"]}, commentary=True)
    actions = read_phh(text).fields["actions"]
    start = actions.index("# bob pays 10 to exchange")
    assert actions[start : start + 3] == [
        "# bob pays 10 to exchange",
        "p2 sd ?? # bob exchanges a down card",
        "d dh p2 ??",  # told with the exchange
    ]
