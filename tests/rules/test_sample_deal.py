"""The sample deal of seeds 000 and 001, played through the engine.

Players in dealing order: Larry (0), Craig (1), Katherine (2) and Jimmy (3),
who deals. The seed's stakes are 25c antes and a $1 bring-in; it completes to
$3 and bets $5 later, so the fixed limit here is 300/500 in cents. The seed's
$10 bet on 7th street is not a fixed-limit size, so Craig bets 500 there.
"""

from __future__ import annotations

import pytest

from tables.rules import HandState
from tables.rules.views import view
from tests.rules.seats import down_of
from tests.rules.stacking import config, play, stack_deck

LARRY, CRAIG, KATHERINE, JIMMY = range(4)

DECK = stack_deck(
    {LARRY: "????4s", CRAIG: "Qs2hKd", KATHERINE: "????4d", JIMMY: "9h5d9c"},
    {CRAIG: "Jc", JIMMY: "Kh"},
    {CRAIG: "Th", JIMMY: "Kc"},
    {CRAIG: "Td", JIMMY: "3s"},
    {CRAIG: "Ad", JIMMY: "5s"},
)


def sample_hand(**options) -> HandState:
    game = config(ante=25, bring_in=100, small_bet=300, big_bet=500, **options)
    return HandState.new(game, [10_000] * 4, DECK)


def play_to_seventh(state: HandState) -> HandState:
    return play(
        state,
        (KATHERINE, "bring_in"),
        (JIMMY, "call"),
        (LARRY, "fold"),
        (CRAIG, "complete", 300),
        (KATHERINE, "fold"),
        (JIMMY, "call"),
        (CRAIG, "check"),
        (JIMMY, "check"),
        (JIMMY, "bet", 500),
        (CRAIG, "call"),
        (JIMMY, "bet", 500),
        (CRAIG, "call"),
    )


def test_the_four_of_diamonds_brings_in_by_suit():
    state = sample_hand()
    assert state.to_act == KATHERINE
    assert [a.kind for a in state.legal_actions()] == ["bring_in", "complete"]


def test_after_the_bring_in_jimmy_cannot_check():
    state = play(sample_hand(), (KATHERINE, "bring_in"))
    assert [a.kind for a in state.legal_actions()] == ["fold", "call", "complete"]


def test_craigs_king_jack_acts_before_jimmys_king_nine_on_fourth_street():
    state = play(
        sample_hand(),
        (KATHERINE, "bring_in"),
        (JIMMY, "call"),
        (LARRY, "fold"),
        (CRAIG, "complete", 300),
        (KATHERINE, "fold"),
        (JIMMY, "call"),
    )
    assert state.street_name == "4th street"
    assert state.to_act == CRAIG


def test_jimmys_open_kings_act_first_from_fifth_street_on():
    state = play(sample_hand(), (KATHERINE, "bring_in"), (JIMMY, "call"), (LARRY, "fold"))
    play(state, (CRAIG, "complete", 300), (KATHERINE, "fold"), (JIMMY, "call"))
    play(state, (CRAIG, "check"), (JIMMY, "check"))
    assert (state.street_name, state.to_act) == ("5th street", JIMMY)
    play(state, (JIMMY, "bet", 500), (CRAIG, "call"))
    assert (state.street_name, state.to_act) == ("6th street", JIMMY)
    play(state, (JIMMY, "bet", 500), (CRAIG, "call"))
    assert (state.street_name, state.to_act) == ("7th street", JIMMY)


def test_craigs_ace_high_straight_beats_kings_and_nines():
    state = play(play_to_seventh(sample_hand(auto_muck=False)), (JIMMY, "check"))
    play(state, (CRAIG, "bet", 500), (JIMMY, "call"))
    hands = state.result["hands"]
    assert hands[str(CRAIG)]["high"] == "straight, ace high"
    assert hands[str(JIMMY)]["high"] == "two pair, kings and nines"
    assert state.result["payouts"] == [0, 3800, 0, 0]
    assert state.stacks == [9_975, 11_975, 9_875, 8_175]


def test_craig_shows_first_as_the_last_bettor_and_jimmy_mucks():
    state = play(play_to_seventh(sample_hand()), (JIMMY, "check"))
    play(state, (CRAIG, "bet", 500), (JIMMY, "call"))
    shows = [e for e in state.events if e["type"] in ("show", "muck")]
    assert [(e["type"], e["player"]) for e in shows] == [("show", CRAIG), ("muck", JIMMY)]
    seen_by_larry = view(state, LARRY)["players"][JIMMY]
    assert down_of(seen_by_larry) == [None, None, None]


@pytest.mark.parametrize("viewer", [None, LARRY, KATHERINE])
def test_nobody_else_sees_craigs_down_cards_before_the_showdown(viewer):
    state = play_to_seventh(sample_hand())
    assert down_of(view(state, viewer)["players"][CRAIG]) == [None, None, None]
    assert down_of(view(state, CRAIG)["players"][CRAIG]) == ["Qs", "2h", "Ad"]
