"""Chicago (seed 000): the high (or low) spade in the hole takes half the pot,
the best hand the other half; with no spade in the hole, the best hand all."""

from __future__ import annotations

from tables.rules import HandState
from tables.rules.narration import Narrator
from tables.rules.views import events_for, view
from tests.rules.stacking import config, stack_deck
from tests.rules.test_variants import call_down


def chicago(variant: str, deck: list[int], stacks: list[int] | None = None) -> HandState:
    rules = config(variant=variant, auto_muck=False)
    return call_down(HandState.new(rules, stacks or [100, 100, 100], deck))


# Alice: K♠ in the hole, a pair of jacks. Bob: three nines, 4♠ in the hole.
# Carol: nothing, and no spade down; her 2♠ is face up.
SPADES_DOWN = stack_deck(
    {0: "KsJd7c", 1: "9c4s9d", 2: "3h6h2s"},
    {0: "Jh", 1: "9h", 2: "Tc"},
    {0: "5d", 1: "Qc", 2: "8d"},
    {0: "3c", 1: "Ah", 2: "Kd"},
    {0: "8h", 1: "6c", 2: "Qh"},
)


def test_high_chicago_the_high_spade_in_the_hole_takes_half_the_pot():
    state = chicago("high_chicago", SPADES_DOWN)
    [pot] = state.result["pots"]
    assert pot["amount"] == 9  # three antes and three calls of the bring-in
    assert pot["high_winners"] == [1]  # bob's nines
    assert pot["spade_winners"] == [0]  # alice's K♠ beats bob's 4♠
    assert pot["shares"] == [[0, 4], [1, 5]]  # the odd chip stays with the best hand
    assert state.result["payouts"] == [4, 5, 0]


def test_low_chicago_the_low_spade_in_the_hole_takes_half_and_an_upcard_spade_does_not_count():
    state = chicago("low_chicago", SPADES_DOWN)
    [pot] = state.result["pots"]
    assert pot["spade_winners"] == [1]  # bob's 4♠ down, not carol's 2♠ up
    assert pot["shares"] == [[1, 9]]  # bob's nines take the other half too


def test_chicago_with_no_spade_in_the_hole_the_best_hand_takes_it_all():
    deck = stack_deck(
        {0: "KhJd7c", 1: "9c4c9d"},
        {0: "Jh", 1: "9h"},
        {0: "5d", 1: "Qc"},
        {0: "3c", 1: "As"},  # a spade, but face up
        {0: "8h", 1: "6c"},
    )
    state = chicago("high_chicago", deck, [100, 100])
    [pot] = state.result["pots"]
    assert pot["spade_winners"] == []
    assert pot["shares"] == [[1, pot["amount"]]]


def test_each_side_pot_has_its_own_spade_half():
    # Carol is all in for her ante and 2: the main pot (9) is three-way; the
    # side pot is alice's and bob's bets past that. Carol's A♠ takes half the
    # main pot; alice's K♠, the best spade between the two, half the side pot.
    deck = stack_deck(
        {0: "KsJd7c", 1: "9c4h9d", 2: "As6h3h"},
        {0: "Jh", 1: "9h", 2: "Tc"},
        {0: "5d", 1: "Qc", 2: "8d"},
        {0: "3c", 1: "Ah", 2: "Kd"},
        {0: "8h", 1: "6c", 2: "Qh"},
    )
    rules = config(variant="high_chicago", auto_muck=False)
    state = HandState.new(rules, [100, 100, 3], deck)
    while not state.finished:
        options = {a.kind: a for a in state.legal_actions()}
        move = next(k for k in ("bring_in", "bet", "call", "show") if k in options)
        state.act(state.to_act, move, options[move].min if move == "bet" else None)
    main, side = state.result["pots"]
    assert main["eligible"] == [0, 1, 2] and main["spade_winners"] == [2]
    assert side["eligible"] == [0, 1] and side["spade_winners"] == [0]
    assert dict(main["shares"])[2] == main["amount"] // 2
    assert dict(side["shares"])[0] == side["amount"] // 2


def test_the_log_names_each_half():
    state = chicago("high_chicago", SPADES_DOWN)
    told = Narrator(["Alice", "Bob", "Carol"], state).tell(events_for(state))
    assert told[-1].text == "Pot of 9: Alice wins 4 (high spade), Bob wins 5 (best hand)"


# The card that won a spade half is named in its hand's words in the result,
# for pages to mark at the showdown; only shown hands are in the result.


def spades_named(state: HandState) -> dict[str, str]:
    return {p: words["spade"] for p, words in state.result["hands"].items() if "spade" in words}


def test_the_result_names_the_high_spade_that_won_in_its_hand():
    state = chicago("high_chicago", SPADES_DOWN)
    # Bob's 4♠ in the hole lost the spade half: not named; carol's 2♠ is up.
    assert spades_named(state) == {"0": "Ks"}


def test_the_result_names_the_low_spade_that_won_not_a_lower_one_face_up():
    state = chicago("low_chicago", SPADES_DOWN)
    assert spades_named(state) == {"1": "4s"}


def test_with_no_spade_in_the_hole_no_card_is_named():
    deck = stack_deck(
        {0: "KhJd7c", 1: "9c4c9d"},
        {0: "Jh", 1: "9h"},
        {0: "5d", 1: "Qc"},
        {0: "3c", 1: "As"},  # a spade, but face up
        {0: "8h", 1: "6c"},
    )
    state = chicago("high_chicago", deck, [100, 100])
    assert state.result["pots"][0]["spade_winners"] == []
    assert spades_named(state) == {}


def test_each_pots_spade_winner_has_its_spade_named():
    deck = stack_deck(
        {0: "KsJd7c", 1: "9c4h9d", 2: "As6h3h"},
        {0: "Jh", 1: "9h", 2: "Tc"},
        {0: "5d", 1: "Qc", 2: "8d"},
        {0: "3c", 1: "Ah", 2: "Kd"},
        {0: "8h", 1: "6c", 2: "Qh"},
    )
    state = HandState.new(config(variant="high_chicago", auto_muck=False), [100, 100, 3], deck)
    while not state.finished:
        options = {a.kind: a for a in state.legal_actions()}
        move = next(k for k in ("bring_in", "bet", "call", "show") if k in options)
        state.act(state.to_act, move, options[move].min if move == "bet" else None)
    # Carol's A♠ took the main pot's spade half, alice's K♠ the side pot's.
    assert spades_named(state) == {"2": "As", "0": "Ks"}


def test_every_viewer_sees_the_named_spade_face_up_in_its_winners_cards():
    # With auto-muck, alice's losing pair of jacks is shown for her K♠.
    state = call_down(HandState.new(config(variant="high_chicago"), [100] * 3, SPADES_DOWN))
    assert spades_named(state) == {"0": "Ks"}
    for viewer in (None, 0, 1, 2):
        seen = view(state, viewer)
        assert seen["result"]["hands"]["0"]["spade"] == "Ks"
        assert "Ks" in [held["card"] for held in seen["players"][0]["cards"]]
