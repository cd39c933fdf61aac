"""Seed 002's disconnect protection: a player whose time ran out, having put
chips in beyond the ante, is all in for the pot so far.

The hands use ``RANKED`` from the all-in tests: player 0 makes four aces,
player 1 four kings and player 2 queens full, so 0 > 1 > 2 at every showdown.
Player 2's door deuce brings in; player 0's open aces act first from 4th street,
player 1's open kings when player 0 no longer bets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tables.rules import HandOver, HandState, IllegalAction, NotYourTurn
from tables.rules.formats.phh import PHHError, read_phh, replay, write_phh
from tables.rules.pots import build_pots
from tables.rules.state import PROTECT
from tables.rules.views import events_for, view
from tests.rules.stacking import config, play
from tests.rules.test_all_ins import RANKED, pots, run_out

PHH_FIXTURE = Path(__file__).parent / "phh" / "protect.phh"


def fresh(stacks: list[int] | None = None, **game) -> HandState:
    return HandState.new(config(**game), stacks or [100, 100, 100], RANKED)


def third_street_completed(stacks: list[int] | None = None) -> HandState:
    """Player 2 brings in, player 0 completes, player 1 calls; player 2 to act, 3 in."""
    return play(fresh(stacks), (2, "bring_in"), (0, "complete", 5), (1, "call"))


def protect_events(events: list[dict]) -> list[dict]:
    return [event for event in events if event["type"] == PROTECT]


def unchanged_by(state: HandState, attempt) -> None:
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        attempt()
    assert state.to_dict() == before


# --------------------------------------------------------------- who qualifies


def test_a_player_with_chips_in_beyond_the_ante_can_be_protected():
    state = third_street_completed()
    assert state.to_act == 2 and state.committed[2] == 3  # ante and bring-in
    assert state.can_protect()


def test_a_player_with_only_the_ante_in_cannot_be_protected():
    state = play(fresh(), (2, "bring_in"), (0, "complete", 5))
    assert state.to_act == 1 and state.committed[1] == 1
    assert not state.can_protect()
    unchanged_by(state, lambda: state.protect(1))


def test_the_bring_in_due_cannot_be_protected():
    state = fresh()
    assert not state.can_protect()
    unchanged_by(state, lambda: state.protect(2))


def test_without_an_ante_any_chip_put_in_qualifies():
    state = play(fresh(ante=0), (2, "bring_in"), (0, "complete", 5), (1, "call"))
    assert state.can_protect()


def test_a_player_may_be_protected_when_checking_is_free():
    state = play(third_street_completed(), (2, "call"))
    assert state.street == 1 and state.to_act == 0
    assert [a.kind for a in state.legal_actions()][0] == "check"
    assert state.can_protect()


# --------------------------------------------------- only the clock may do it


def test_protect_is_never_a_legal_action():
    state = third_street_completed()
    assert PROTECT not in [a.kind for a in state.legal_actions()]
    assert PROTECT not in [a["kind"] for a in view(state, 2)["legal_actions"]]


def test_a_player_cannot_choose_protection_through_act():
    state = third_street_completed()
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="only a timeout protects"):
        state.act(2, PROTECT)
    assert state.to_dict() == before


def test_only_the_player_to_act_can_be_protected():
    state = third_street_completed()
    before = state.to_dict()
    with pytest.raises(NotYourTurn):
        state.protect(0)
    assert state.to_dict() == before


def test_nobody_is_protected_after_the_hand():
    state = run_out(third_street_completed())
    before = state.to_dict()
    with pytest.raises(HandOver):
        state.protect(0)
    assert state.to_dict() == before


# ----------------------------------------------------------- what it does


def test_a_protected_player_puts_in_nothing_more_and_keeps_their_stack():
    state = third_street_completed()
    state.protect(2)
    assert (state.protected, state.committed[2], state.stacks[2]) == ([False, False, True], 3, 97)
    assert state.is_all_in(2)
    assert protect_events(state.events) == [
        {"type": PROTECT, "player": 2, "put_in": 3, "stack": 97}
    ]
    assert state.actions[-1] == {"player": 2, "kind": PROTECT, "amount": None}


def test_a_protected_player_is_never_asked_to_act_again():
    state = third_street_completed()
    state.protect(2)
    asked = []
    while not state.finished:
        asked.append(state.to_act)
        options = {a.kind: a for a in state.legal_actions()}
        if "bet" in options:  # every street opens with a bet, so it is called
            state.act(state.to_act, "bet", options["bet"].min)
        else:
            state.act(state.to_act, "call")
    assert 2 not in asked
    # Open aces lead 4th and 5th street; kings-and-threes lead 6th and 7th.
    assert asked == [0, 1, 0, 1, 1, 0, 1, 0]
    # 6 each on 3rd street, then 5 + 10 + 10 + 10: main pot 9 and side pot 76, both player 0's.
    assert state.stacks == [100 - 41 + 9 + 76, 100 - 41, 97]


def test_protected_on_third_street_the_loser_loses_only_what_was_put_in():
    state = third_street_completed()
    state.protect(2)
    play(state, (0, "bet", 5), (1, "call"))  # 4th street: a side pot
    run_out(state)
    assert pots(state) == [(9, [0, 1, 2], [0]), (16, [0, 1], [0])]
    assert state.stacks == [100 - 11 + 25, 100 - 11, 97]
    assert state.shown == [True, True, True]  # a protected hand shows like any all-in


def test_protected_facing_a_raise_wins_the_main_pot_and_the_side_pot_goes_on():
    """Player 0 (best hand) times out on 3rd street facing player 1's raise."""
    state = play(fresh(), (2, "bring_in"), (0, "complete", 5), (1, "raise", 10), (2, "call"))
    state.protect(0)
    play(state, (1, "bet", 5), (2, "call"))  # 4th street: player 1's open kings lead
    run_out(state)
    assert pots(state) == [(18, [0, 1, 2], [0]), (20, [1, 2], [1])]
    assert state.stacks == [100 - 6 + 18, 100 - 16 + 20, 100 - 16]


def test_protected_on_fifth_street_the_side_pot_builds_after_it():
    state = play(fresh(), (2, "bring_in"), (0, "complete", 5), (1, "call"), (2, "call"))
    play(state, (0, "bet", 5), (1, "call"), (2, "call"))  # 4th street: 11 each
    play(state, (0, "bet", 10), (1, "raise", 20), (2, "call"))  # 5th street
    state.protect(0)  # all in for 21, not calling the raise
    play(state, (1, "bet", 10), (2, "call"))  # 6th street
    run_out(state)
    assert pots(state) == [(63, [0, 1, 2], [0]), (40, [1, 2], [1])]
    assert state.stacks == [100 - 21 + 63, 100 - 41 + 40, 100 - 41]


def test_with_an_earlier_all_in_the_pots_stack_up_in_levels():
    """Player 2 is all in for 9 on 4th street; player 0 is protected at 21 on 5th."""
    state = fresh([100, 100, 9])
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "call"), (2, "call"))
    play(state, (0, "bet", 5), (1, "call"), (2, "call"))
    assert state.is_all_in(2)
    play(state, (0, "bet", 10), (1, "raise", 20))
    state.protect(0)
    # Nobody can match player 1's raise: its unmatched 10 goes back, and the
    # cards are dealt out with nobody left to bet against.
    assert ("return", 1, 10) in [
        (e["type"], e.get("player"), e.get("amount")) for e in state.events
    ]
    assert state.finished
    assert pots(state) == [(27, [0, 1, 2], [0]), (24, [0, 1], [0])]
    assert state.stacks == [100 - 21 + 51, 100 - 21, 0]


def test_heads_up_a_bet_the_protected_player_faced_is_returned_and_the_cards_run_out():
    state = HandState.new(config(), [100, 100], RANKED)
    play(state, (1, "bring_in"), (0, "complete", 5), (1, "call"))  # 6 each
    play(state, (0, "bet", 5))
    state.protect(1)
    assert state.finished
    assert pots(state) == [(12, [0, 1], [0])]
    assert state.stacks == [106, 94]


def test_heads_up_a_protection_when_checking_is_free_runs_the_cards_out_at_once():
    """The other player could only check, so they are not asked to."""
    state = HandState.new(config(), [100, 100], RANKED)
    play(state, (1, "bring_in"), (0, "call"))  # 3 each; 4th street, player 0 to act
    assert state.to_act == 0 and state.can_protect()
    state.protect(0)
    assert state.finished
    assert [a["player"] for a in state.actions] == [1, 0, 0]
    assert state.stacks == [103, 97]


def test_the_last_player_able_to_bet_still_answers_a_bet_they_face():
    """Player 1 bets all in; player 2 is protected; player 0, the only one left
    able to bet, must still call or fold."""
    state = fresh([100, 11, 100])
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "call"), (2, "call"))
    play(state, (0, "check"), (1, "bet", 5))
    assert state.is_all_in(1)
    state.protect(2)
    assert state.to_act == 0
    assert [a.kind for a in state.legal_actions()] == ["fold", "call"]


def test_a_protected_players_stack_counts_in_no_pot():
    state = third_street_completed()
    state.protect(2)
    play(state, (0, "bet", 5), (1, "raise", 10), (0, "call"))
    pots_now = build_pots(state.committed, [not f for f in state.folded])
    assert [(p.amount, p.eligible) for p in pots_now] == [(9, (0, 1, 2)), (26, (0, 1))]
    assert state.stacks[2] == 97


# ------------------------------------------------------------- views and logs


def test_everyone_sees_the_protected_player_as_all_in_with_their_stack():
    state = third_street_completed()
    state.protect(2)
    for viewer in (None, 0, 1, 2):
        seat = view(state, viewer)["players"][2]
        assert (seat["all_in"], seat["protected"], seat["stack"]) == (True, True, 97)
        assert view(state, viewer)["players"][0]["protected"] is False


def test_the_event_log_tells_everyone_of_the_protection():
    state = third_street_completed()
    state.protect(2)
    for viewer in (None, 0, 1, 2):
        assert protect_events(events_for(state, viewer)) == [
            {"type": PROTECT, "player": 2, "put_in": 3, "stack": 97}
        ]


# --------------------------------------------------------- data and replays


def protected_hand() -> HandState:
    state = third_street_completed()
    state.protect(2)
    play(state, (0, "bet", 5), (1, "call"))
    return state


def test_a_protection_survives_json_and_from_dict():
    state = protected_hand()
    saved = json.loads(json.dumps(state.to_dict()))
    again = HandState.from_dict(saved)
    assert again.to_dict() == state.to_dict()
    assert again.protected == [False, False, True]
    run_out(again)
    assert again.stacks == run_out(state).stacks


def test_replaying_the_action_list_reproduces_the_protection():
    for state in (protected_hand(), run_out(protected_hand())):
        assert HandState.replay(state.to_dict()).to_dict() == state.to_dict()


def test_a_hand_saved_before_protection_existed_still_loads():
    old = play(fresh(), (2, "bring_in"), (0, "complete", 5)).to_dict()
    del old["protected"]
    state = HandState.from_dict(old)
    assert state.protected == [False, False, False]
    assert {**old, "protected": [False, False, False]} == state.to_dict()
    play(state, (1, "call"))
    state.protect(2)  # and the new rule works on it


def test_a_saved_hand_with_an_unknown_field_is_still_refused():
    data = fresh().to_dict()
    data["surprise"] = True
    with pytest.raises(IllegalAction, match="not a saved hand"):
        HandState.from_dict(data)


def test_a_stored_protect_with_an_amount_is_refused():
    data = protected_hand().to_dict()
    entry = next(a for a in data["actions"] if a["kind"] == PROTECT)
    entry["amount"] = 5
    with pytest.raises(IllegalAction, match="takes no amount"):
        HandState.replay(data)


def test_a_stored_protect_for_a_player_who_did_not_qualify_is_refused():
    data = play(fresh(), (2, "bring_in"), (0, "complete", 5)).to_dict()
    data["actions"].append({"player": 1, "kind": PROTECT, "amount": None})
    with pytest.raises(IllegalAction, match="can't be protected"):
        HandState.replay(data)


# ---------------------------------------------------------------------- PHH


def test_a_protection_is_written_as_a_cardroom_commentary_where_it_happened():
    text = write_phh(run_out(protected_hand()), everything=True)
    actions = read_phh(text).actions
    at = actions.index("# _cardroom_protect p3")
    assert actions[at - 1 : at + 2] == ["p2 cc", "# _cardroom_protect p3", "d dh p1 As"]


def test_a_written_protection_replays_to_the_same_stacks():
    state = run_out(protected_hand())
    for viewer in (None, 0, 2):
        again = replay(read_phh(write_phh(state, viewer=viewer)))
        assert again.stacks == state.stacks
        assert again.protected == [False, False, True]


def test_the_hand_written_protection_file_replays():
    state = replay(read_phh(PHH_FIXTURE.read_text(encoding="utf-8")))
    assert state.finished and state.protected == [False, False, True]
    assert pots(state) == [(33, [0, 1, 2], [2]), (60, [0, 1], [0])]
    assert state.stacks == [119, 59, 122]


def test_other_bare_commentaries_are_still_no_ops():
    text = PHH_FIXTURE.read_text(encoding="utf-8").replace(
        '"# _cardroom_protect p3",', '"# _cardroom_protect p3",\n  "# p3 protects nothing here",'
    )
    assert replay(read_phh(text)).stacks == [119, 59, 122]


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("# _cardroom_protect", "is written '# _cardroom_protect pN'"),
        ("# _cardroom_protect p3 p1", "is written '# _cardroom_protect pN'"),
        ("# _cardroom_protect p9", "'p9' is not a player"),
        ("# _cardroom_protect p1", "turn"),
    ],
)
def test_a_malformed_or_illegal_protection_is_refused_by_its_index(written, message):
    text = PHH_FIXTURE.read_text(encoding="utf-8").replace("# _cardroom_protect p3", written)
    with pytest.raises(PHHError) as caught:
        replay(read_phh(text))
    assert str(caught.value).startswith(f"action 14 {written!r}: ")
    assert message in str(caught.value)


def test_a_protection_of_a_player_with_only_the_ante_in_is_refused():
    text = PHH_FIXTURE.read_text(encoding="utf-8").replace(
        '  "p1 cbr 5",\n  "p2 cc",', '  "# _cardroom_protect p1",'
    )
    with pytest.raises(PHHError, match="action 4 .*can't be protected"):
        replay(read_phh(text))
