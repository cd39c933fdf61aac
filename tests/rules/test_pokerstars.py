"""PokerStars-style text: what each viewer reads, and that the chips add up.

Personas are engine players named in seat order ``p1``, ``p2``...; an observer
(viewer None) sees only upcards and shown hands, staff (``everything``) see
every card. Random hands come from the PHH tests' ``random_hand(seed)``.
"""

from __future__ import annotations

import datetime
import re
from collections import defaultdict
from pathlib import Path

import pytest

from tables.rules import GameConfig, HandState
from tables.rules.cards import FULL_DECK, card_str, fisher_yates, parse_cards
from tables.rules.evaluators import Evaluator
from tables.rules.formats.phh import read_phh, replay
from tables.rules.formats.pokerstars import (
    HandInfo,
    PokerStarsError,
    _high_name,
    game_title,
    write_text,
)
from tests.rules.stacking import config, play, stack_deck
from tests.rules.test_all_ins import RANKED, run_out
from tests.rules.test_decisions import bet_passively, decide, roll_your_own
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
from tests.rules.test_sample_deal import CRAIG, JIMMY, KATHERINE, LARRY, sample_hand
from tests.rules.test_streets import check_around

PHH = Path(__file__).parent / "phh"
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
WHEN = datetime.datetime(2026, 11, 21, 20, 5, 9)
# A line that names the player's total for the street.
WAGER_TO = re.compile(r"(\S+): (?:brings in for|completes it to|bets|raises \d+ to) (\d+)")


def info_for(state: HandState, seats: list[int] | None = None) -> HandInfo:
    seats = seats or list(range(1, state.n + 1))
    return HandInfo(
        hand_id=42,
        table="Table 1",
        started=WHEN,
        zone="UTC",
        players=[f"p{seat}" for seat in seats],
        seats=seats,
        max_seats=8,
    )


def text(state: HandState, viewer: int | None = None, **options) -> str:
    return write_text(state, info_for(state, options.pop("seats", None)), viewer=viewer, **options)


def sample_text(viewer: int | None = None, **options) -> str:
    """The seeds' sample deal with its people's names; Jimmy deals from seat 1."""
    state = finished_sample_hand()
    info = HandInfo(
        hand_id=9,
        table="Sample Deal",
        started=WHEN,
        zone="UTC",
        players=["Larry", "Craig", "Katherine", "Jimmy"],
        seats=[2, 3, 4, 1],
        max_seats=8,
    )
    return write_text(state, info, viewer=viewer, **options)


def lines_of(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


def stacks_read_back(text: str) -> dict[str, int]:
    """Every player's chips after the hand, worked out from the text alone, the
    way a tracking tool reads it: chips in from each action, out from returns
    and collections."""
    stacks: dict[str, int] = {}
    street: dict[str, int] = defaultdict(int)  # each player's chips in this street
    for line in text.split("*** SUMMARY ***")[0].splitlines():
        if line.startswith("*** "):
            street.clear()
        elif seat := re.fullmatch(r"Seat \d+: (\S+) \((\d+) in chips\)", line):
            stacks[seat[1]] = int(seat[2])
        elif ante := re.fullmatch(r"(\S+): posts the ante (\d+)( and is all-in)?", line):
            stacks[ante[1]] -= int(ante[2])
        elif paid := re.fullmatch(r"(\S+): pays (\d+) for the \S+", line):  # Man with the Axe
            stacks[paid[1]] -= int(paid[2])
        elif to := re.match(
            r"(\S+): (?:brings in for|completes it to|bets|raises \d+ to) (\d+)", line
        ):
            stacks[to[1]] -= int(to[2]) - street[to[1]]
            street[to[1]] = int(to[2])
        elif call := re.match(r"(\S+): calls (\d+)", line):
            stacks[call[1]] -= int(call[2])
            street[call[1]] += int(call[2])
        elif back := re.fullmatch(r"Uncalled bet \((\d+)\) returned to (\S+)", line):
            stacks[back[2]] += int(back[1])
        elif won := re.fullmatch(r"(\S+) collected (\d+) from .*pot.*", line):
            stacks[won[1]] += int(won[2])
    return stacks


def named_stacks(state: HandState) -> dict[str, int]:
    return {f"p{player + 1}": chips for player, chips in enumerate(state.stacks)}


# ---------------------------------------------------------------- the layout


def test_the_sample_deal_reads_as_jimmy_saw_it():
    text = sample_text(JIMMY)
    assert text.splitlines()[:4] == [
        "PokerStars Hand #9:  7 Card Stud Limit (300/500) - 2026/11/21 20:05:09 UTC",
        "Table 'Sample Deal' 8-max (Play Money)",
        "Seat 1: Jimmy (10000 in chips)",
        "Seat 2: Larry (10000 in chips)",
    ]
    assert lines_of(text, "Dealt to") == [
        "Dealt to Larry [4s]",
        "Dealt to Craig [Kd]",
        "Dealt to Katherine [4d]",
        "Dealt to Jimmy [9h 5d 9c]",
        "Dealt to Craig [Kd] [Jc]",
        "Dealt to Jimmy [9h 5d 9c] [Kh]",
        "Dealt to Craig [Kd Jc] [Th]",
        "Dealt to Jimmy [9h 5d 9c Kh] [Kc]",
        "Dealt to Craig [Kd Jc Th] [Td]",
        "Dealt to Jimmy [9h 5d 9c Kh Kc] [3s]",
        "Dealt to Jimmy [9h 5d 9c Kh Kc 3s] [5s]",  # Craig's river card is face down
    ]


def test_the_sample_deal_bets_as_the_seed_tells_it():
    lines = sample_text(LARRY).splitlines()
    third = lines[lines.index("*** 3rd STREET ***") + 5 : lines.index("*** 4th STREET ***")]
    assert third == [
        "Katherine: brings in for 100",
        "Jimmy: calls 100",
        "Larry: folds",
        "Craig: completes it to 300",
        "Katherine: folds",
        "Jimmy: calls 200",
    ]
    assert lines[lines.index("*** SHOW DOWN ***") :] == [
        "*** SHOW DOWN ***",
        "Craig: shows [Qs 2h Kd Jc Th Td Ad] (a straight, Ten to Ace)",
        "Jimmy: mucks hand",
        "Craig collected 3800 from pot",
        "*** SUMMARY ***",
        "Total pot 3800 | Rake 0",
        "Seat 1: Jimmy mucked",
        "Seat 2: Larry folded on the 3rd Street (didn't bet)",
        "Seat 3: Craig showed [Qs 2h Kd Jc Th Td Ad] and won (3800) with a straight, Ten to Ace",
        "Seat 4: Katherine folded on the 3rd Street",
    ]


def test_jimmy_reads_his_own_mucked_hand_in_the_summary():
    assert "Seat 1: Jimmy mucked [9h 5d 9c Kh Kc 3s 5s]" in sample_text(JIMMY)


def test_an_uncalled_bet_goes_back_and_the_winner_does_not_show():
    state = play(sample_hand(), (KATHERINE, "bring_in"), (JIMMY, "complete", 300))
    play(state, (LARRY, "fold"), (CRAIG, "fold"), (KATHERINE, "fold"))
    lines = text(state).splitlines()
    assert lines[-9:] == [
        "Uncalled bet (200) returned to p4",
        "p4 collected 300 from pot",
        "p4: doesn't show hand",
        "*** SUMMARY ***",
        "Total pot 300 | Rake 0",
        "Seat 1: p1 folded on the 3rd Street (didn't bet)",
        "Seat 2: p2 folded on the 3rd Street (didn't bet)",
        "Seat 3: p3 folded on the 3rd Street",
        "Seat 4: p4 collected (300)",
    ]


def test_seat_lines_and_summary_go_by_seat_and_deals_by_dealing_order():
    state = finished_sample_hand()
    lines = text(state, seats=[7, 2, 5, 3]).splitlines()
    assert lines_of("\n".join(lines), "Seat ")[:4] == [
        "Seat 2: p2 (10000 in chips)",
        "Seat 3: p3 (10000 in chips)",
        "Seat 5: p5 (10000 in chips)",
        "Seat 7: p7 (10000 in chips)",
    ]
    assert lines_of("\n".join(lines), "Dealt to")[:4] == [
        "Dealt to p7 [4s]",
        "Dealt to p2 [Kd]",
        "Dealt to p5 [4d]",
        "Dealt to p3 [9c]",
    ]
    assert [line.split(":")[0] for line in lines[-4:]] == ["Seat 2", "Seat 3", "Seat 5", "Seat 7"]


# ------------------------------------------------------------- who sees what


@pytest.mark.parametrize("viewer", [None, LARRY, CRAIG, KATHERINE, JIMMY])
def test_the_sample_deal_names_only_cards_the_viewer_saw(viewer):
    state = finished_sample_hand()
    named = set(CARD.findall(sample_text(viewer)))
    assert named <= cards_seen_by(state, viewer)
    for player in (LARRY, KATHERINE, JIMMY):  # nobody shows these down cards
        if player != viewer:
            assert not named & {card_str(card) for card in state.downcards(player)}


def test_staff_read_every_card_dealt():
    state = finished_sample_hand()
    named = set(CARD.findall(sample_text(everything=True)))
    dealt = {card_str(e["card"]) for e in state.events if e["type"] == "deal"}
    assert dealt <= named
    assert "Seat 1: Jimmy mucked [9h 5d 9c Kh Kc 3s 5s]" in sample_text(everything=True)
    larry_down = " ".join(card_str(c) for c in state.downcards(LARRY))
    assert f"Dealt to Larry [{larry_down} 4s]" in sample_text(everything=True)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_hands_name_only_cards_each_viewer_saw(seed):
    state = random_hand(seed)
    for viewer in (None, *range(state.n)):
        named = set(CARD.findall(text(state, viewer)))
        assert named <= cards_seen_by(state, viewer), f"viewer {viewer}"


# ----------------------------------------------------------- chips add up


@pytest.mark.parametrize("seed", SEEDS)
def test_the_text_alone_gives_every_finishing_stack(seed):
    state = random_hand(seed)
    assert stacks_read_back(text(state, 0)) == named_stacks(state)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_total_pot_is_every_chip_collected_plus_the_rake(seed):
    state = random_hand(seed)
    written = text(state, everything=True)
    total, rake = map(int, re.search(r"Total pot (\d+) .*\| Rake (\d+)", written).groups())
    collected = sum(int(n) for n in re.findall(r"^\S+ collected (\d+) from", written, re.M))
    assert rake == state.result["rake"]
    assert collected + rake == total


def test_side_pots_are_collected_last_first_and_named_in_the_summary():
    state = play(HandState.new(config(), [12, 40, 100], RANKED), (2, "bring_in"))
    play(state, (0, "complete", 5), (1, "call"), (2, "call"))
    play(state, (0, "bet", 5), (1, "raise", 10), (2, "call"), (0, "call"))
    written = text(run_out(state), everything=True)
    assert "p1: calls 1 and is all-in" in written
    assert [line for line in written.splitlines() if " collected " in line][:2] == [
        "p2 collected 8 from side pot",
        "p1 collected 36 from main pot",
    ]
    assert "Total pot 44 Main pot 36. Side pot 8. | Rake 0" in written.splitlines()
    assert stacks_read_back(written) == named_stacks(state)


def test_a_player_all_in_on_the_ante_says_so():
    state = run_out(HandState.new(config(ante=5), [3, 100, 100], RANKED))
    assert "p1: posts the ante 3 and is all-in" in text(state)


# --------------------------------------------------------------- the games


def test_razz_names_lows_with_the_ace_last():
    state = replay(read_phh((PHH / "razz.phh").read_text()))
    written = text(state)
    assert "p2: shows [3h 4h 5c 8c Td 2h Ac] (Lo: 5,4,3,2,A)" in written
    assert "Seat 1: p1 showed [As 2d Kc 6d 9h 3c 4d] and lost with Lo: 6,4,3,2,A" in written
    assert written.startswith("PokerStars Hand #42:  Razz Limit (5/10) - ")


def test_hi_lo_names_both_halves_and_collects_each():
    state = replay(read_phh((PHH / "stud8.phh").read_text()))
    written = text(state)
    assert written.startswith("PokerStars Hand #42:  7 Card Stud Hi/Lo Limit (5/10) - ")
    assert "p2: shows [Kh Ks Kd Qc 7c 8s 6c] (HI: three of a kind, Kings)" in written
    assert "p1: shows [As 2c 3d 4d 7h Jc Qd] (HI: high card Ace; LO: 7,4,3,2,A)" in written
    assert [line for line in written.splitlines() if " collected " in line][:2] == [
        "p2 collected 48 from pot",
        "p1 collected 47 from pot",
    ]
    assert "No low hand qualified" not in written


def test_hi_lo_without_a_low_says_no_low_qualified():
    state = HandState.new(config(variant="stud8"), [100] * 3, RANKED)
    written = text(run_out(state))
    assert "(HI: four of a kind, Aces)" in written
    assert "No low hand qualified" in written


def test_the_shared_river_card_when_the_deck_runs_short():
    state = check_around(HandState.new(config(bring_in=0), [50] * 8, fisher_yates(5)))
    river = card_str(state.community[0])
    written = text(state, 0)
    assert f"*** RIVER *** [{river}]" in written
    assert f"Board [{river}]" in written
    assert not lines_of(written.split("*** RIVER ***")[1], "Dealt to")


def test_a_timeout_protection_is_written_as_a_timeout():
    state = play(HandState.new(config(), [100] * 3, RANKED), (2, "bring_in"))
    play(state, (0, "complete", 5), (1, "call"))
    state.protect(2)
    written = text(run_out(state))
    assert "p3 has timed out" in written
    assert stacks_read_back(written) == named_stacks(state)


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("2c5d9hJsKd3c7h", "high card King"),
        ("6c6d9hJsKd3c7h", "a pair of Sixes"),
        ("2c2dJhJsKd3c7h", "two pair, Jacks and Deuces"),
        ("4c4d4hJsKd3c7h", "three of a kind, Fours"),
        ("Ac2d3h4s5cKdQh", "a straight, Ace to Five"),
        ("2h5h9hJhKh3c7d", "a flush, King high"),
        ("5c5d5hAsAd3c7h", "a full house, Fives full of Aces"),
        ("KcKdKhKs2d3c7h", "four of a kind, Kings"),
        ("5h6h7h8h9h2c2d", "a straight flush, Five to Nine"),
        ("ThJhQhKhAh2c2d", "a Royal Flush"),
    ],
)
def test_high_hands_have_pokerstars_names(cards, name):
    assert _high_name(Evaluator(high=True), parse_cards(cards)) == name


def headed_hand(**options) -> HandState:
    """A two-player hand over on 3rd street: one brings in, the other completes
    to the minimum bet of 5, and the first folds."""
    state = HandState.new(config(**options), [100, 100], list(FULL_DECK))
    first = state.to_act
    return play(state, (first, "bring_in"), (1 - first, "complete", 5), (first, "fold"))


@pytest.mark.parametrize(
    ("structure", "big_bet", "header"),
    [
        ("fixed", 10, "7 Card Stud Limit (5/10)"),
        ("spread", 20, "7 Card Stud Spread Limit (5/20)"),  # the spread's least and most
        ("pot", 10, "7 Card Stud Pot Limit (2/5)"),  # the bring-in and the minimum bet
        ("no", 10, "7 Card Stud No Limit (2/5)"),
    ],
)
def test_the_header_names_the_betting_structure_and_its_stakes(structure, big_bet, header):
    written = text(headed_hand(structure=structure, big_bet=big_bet))
    assert written.startswith(f"PokerStars Hand #42:  {header} - 2026/11/21 20:05:09 UTC\n")


def opened_hand(**options) -> HandState:
    """A two-player hand with no bring-in, over on 3rd street: the best door
    card opens with a bet of the minimum, 5, and the other folds."""
    state = HandState.new(config(bring_in=0, **options), [100, 100], list(FULL_DECK))
    first = state.to_act
    return play(state, (first, "bet", 5), (1 - first, "fold"))


# The header's stakes as a tracking tool reads them: "(small/big)".
STAKES = re.compile(r"PokerStars Hand #\d+:  .+ \((\d+)/(\d+)\) - ")


@pytest.mark.parametrize(
    ("structure", "big_bet", "header"),
    [
        ("fixed", 10, "7 Card Stud Limit (5/10)"),  # the bring-in was never in it
        ("spread", 20, "7 Card Stud Spread Limit (5/20)"),
        ("pot", 10, "7 Card Stud Pot Limit (5/5)"),  # the opening bet and the minimum bet
        ("no", 10, "7 Card Stud No Limit (5/5)"),
    ],
)
def test_without_a_bring_in_the_header_stakes_are_bets_not_zero(structure, big_bet, header):
    written = text(opened_hand(structure=structure, big_bet=big_bet))
    assert written.startswith(f"PokerStars Hand #42:  {header} - 2026/11/21 20:05:09 UTC\n")
    assert "brings in" not in written
    assert re.search(r"^p\d: bets 5$", written, flags=re.M)  # the bet that opens


@pytest.mark.parametrize("bring_in", [0, 2])
@pytest.mark.parametrize("structure", ["fixed", "spread", "pot", "no"])
def test_a_tracking_tool_reads_two_stakes_with_the_minimum_bet_first_or_last(structure, bring_in):
    # Fixed and spread put the minimum bet first; pot and no limit, like
    # PokerStars' blinds, last. Neither is ever 0, and the smaller comes first.
    big_bet = 20 if structure == "spread" else 10
    options = {"structure": structure, "big_bet": big_bet}
    hand = opened_hand(**options) if bring_in == 0 else headed_hand(**options)
    stakes = STAKES.match(text(hand))
    assert stakes
    small, big = int(stakes[1]), int(stakes[2])
    assert 0 < small <= big
    assert (small if structure in ("fixed", "spread") else big) == 5


@pytest.mark.parametrize(
    ("variant", "game"),
    [
        ("razz", "Razz Pot Limit"),
        ("stud8", "7 Card Stud Hi/Lo Pot Limit"),
        ("london", "London Lowball Pot Limit"),
    ],
)
def test_the_header_names_each_variant(variant, game):
    written = text(headed_hand(variant=variant, structure="pot"))
    assert written.startswith(f"PokerStars Hand #42:  {game} (2/5) - ")


def test_london_lowball_names_lows_in_ace_to_six_words():
    # p1's wheel is a straight in ace-to-six: Q-4-3-2-A plays, and loses to 7-6-4-3-2.
    state = replay(read_phh((PHH / "london.phh").read_text()))
    written = text(state)
    assert "p1: shows [Ac 2d Kd 3h 4s 5c Qh] (Lo: Q-4-3-2-A low)" in written
    assert "p2: shows [2c 3c 4d 6h 7s Kc Kh] (Lo: 7-6-4-3-2 low)" in written
    assert "Seat 2: p2 showed [2c 3c 4d 6h 7s Kc Kh] and won (62) with Lo: 7-6-4-3-2 low" in (
        written
    )


def test_a_pot_limit_hand_tells_its_pot_sized_bets():
    state = replay(read_phh((PHH / "stud_pot.phh").read_text()))
    written = text(state)
    assert written.startswith("PokerStars Hand #42:  7 Card Stud Pot Limit (2/5) - ")
    assert "p1: raises 15 to 20" in written
    assert "p1: bets 63" in written
    assert stacks_read_back(written) == named_stacks(state)


# ------------------------------------------------- decisions that are not bets


def section(text: str, header: str) -> list[str]:
    """The lines under one ``*** header ***``, up to the next header."""
    lines = text.splitlines()
    start = lines.index(f"*** {header} ***") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("***")), len(lines))
    return lines[start:end]


def test_an_exchange_is_headed_as_a_draw_with_its_price_and_both_cards():
    written = text(exchanged_hand(), ALICE)
    assert written.startswith("PokerStars Hand #42:  English Stud Limit (5/10) - ")
    assert section(written, "FIRST EXCHANGE") == [
        "p1: pays 10 for the exchange",
        "p1: exchanges [2c] for [Ac]",  # face up: everyone reads both
        "p2: stands pat",
    ]
    assert section(written, "SECOND EXCHANGE") == [
        "p1: stands pat",
        "p2: pays 10 for the exchange",
        "p2: exchanges a down card",  # bob's K♠ and K♥ are his
    ]
    # Later deals hold the new card in the old one's place.
    assert "Dealt to p1 [Ah Ad Ac 9h 4c] [5s]" in written
    assert stacks_read_back(written) == named_stacks(exchanged_hand()) == {"p1": 113, "p2": 87}


def test_the_player_who_exchanged_a_down_card_reads_both_cards():
    assert "p2: exchanges [Ks] for [Kh]" in section(text(exchanged_hand(), BOB), "SECOND EXCHANGE")


def test_rolls_are_told_after_the_deal_once_all_have_rolled():
    written = text(rolled_hand(), ALICE)
    assert section(written, "1st ROUND") == [
        "Dealt to p1 [Kh 2d]",
        "p1: rolls [Kh]",
        "p2: rolls [7c]",
        "p2: brings in for 2",
        "p1: completes it to 5",
        "p2: folds",
        "Uncalled bet (3) returned to p1",
        "p1 collected 6 from pot",
        "p1: doesn't show hand",
    ]
    assert "Seat 2: p2 folded on the 1st Round" in written


def test_a_rolled_card_is_among_the_old_cards_of_the_next_deal():
    # Alice: K♥ 2♦ then 2♠ 9♥; she rolls the K♥, then the 2♦ from the first round.
    state = decide(roll_your_own(), {ALICE: ("roll", "Kh"), BOB: ("roll", "7c")})
    while state.street_name == "1st round":
        bet_passively(state)
    decide(state, {ALICE: ("roll", "2d"), BOB: ("roll", "7d")})
    while not state.finished:
        if state.deciding():
            for player in state.deciding():
                kind, cards = state.default_decision(player)
                state.act(player, kind, None, cards)
        else:
            bet_passively(state)
    rounds = section(text(state, None), "2nd ROUND")
    assert rounds[:2] == ["p1: rolls [2d]", "p2: rolls [7d]"]
    assert "Dealt to p1 [Kh 2d 2s 9h] [" in text(state, ALICE)


def test_declarations_come_before_the_showdown_and_name_the_hand_the_way_declared():
    written = text(declared_hand())
    assert written.startswith("PokerStars Hand #42:  7 Card Stud Hi/Lo Declare Limit (5/10) - ")
    assert section(written, "DECLARE") == [
        "p1: declares high and low",
        "p2: declares low",
        "p3: declares high",
    ]
    assert section(written, "SHOW DOWN")[:5] == [
        "p1: shows [Ac 2d 3h 4s 5c Kd 9c] (HI: a straight, Ace to Five; LO: 5,4,3,2,A)",
        "p2: shows [Ad 2c 3s 4d 5h Qc 8s] (LO: 5,4,3,2,A)",
        "p3: shows [Kc Kh 7d 9d Js 6c Th] (HI: a pair of Kings)",
        "p3 collected 5 from pot",
        "p2 collected 4 from pot",
    ]
    assert "No low hand qualified" not in written


def test_the_bug_is_named_after_the_seats_and_in_the_hands_it_plays_in():
    # Alice: 9♥ 7♥ down, 4♥ 2♥ K♣ up, K♦ down: a flush with the bug.
    deck = stack_deck(
        {0: "9h7h4h", 1: "QcQdQh"}, {0: "2h", 1: "3s"}, {0: "Kc", 1: "5d"}, {0: "Kd", 1: "8s"}
    )
    rules = config(variant="aces_straights_flushes", auto_muck=False)
    state = HandState.new(rules, [100, 100], deck)
    while not state.finished:
        bet_passively(state)
    lines = text(state).splitlines()
    assert lines[4].startswith("The bug: a joker in the centre, every hand's seventh card")
    assert "p1: shows [9h 7h 4h 2h Kc Kd] (a flush, Ace high (with the bug))" in lines
    # The bug plays for bob too: an ace beside his queens, never a fourth queen.
    assert "p2: shows [Qc Qd Qh 3s 5d 8s] (three of a kind, Queens (with the bug))" in lines
    assert "*** 6th STREET ***" in lines and "*** RIVER ***" not in lines


@pytest.mark.parametrize(
    ("variant", "title"),
    [
        ("roll_your_own", "Roll Your Own Stud Limit"),
        ("english", "English Stud Limit"),
        ("aces_straights_flushes", "6 Card Stud (Aces, Straights and Flushes) Limit"),
        ("declare", "7 Card Stud Hi/Lo Declare Limit"),
        ("declare8", "7 Card Stud Hi/Lo Declare (8 or Better) Limit"),
    ],
)
def test_the_home_games_with_decisions_are_named_in_the_header(variant, title):
    assert game_title(GameConfig(variant=variant)) == title


# ------------------------------------------------------------------ refusals


def test_a_hand_in_play_is_not_written():
    with pytest.raises(PokerStarsError, match="finished"):
        text(sample_hand())


def test_a_viewer_outside_the_hand_is_refused():
    with pytest.raises(PokerStarsError, match="viewer"):
        text(finished_sample_hand(), 4)


def test_every_player_needs_a_name_and_a_seat():
    state = finished_sample_hand()
    info = info_for(state)
    short = HandInfo(**{**info.__dict__, "players": info.players[:3]})
    with pytest.raises(PokerStarsError, match="4 players"):
        write_text(state, short)
