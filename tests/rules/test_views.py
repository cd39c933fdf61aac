"""What each seat and each observer may see (persona: player 0 is "alice",
player 1 "bob", player 2 "carol"; None is an observer, who sees only upcards)."""

from __future__ import annotations

import json

from tables.rules import HandState
from tables.rules.cards import card_str
from tables.rules.views import events_for, view
from tests.rules.seats import down_of, up_of
from tests.rules.stacking import config, play
from tests.rules.test_all_ins import RANKED, run_out
from tests.rules.test_showdown import to_seventh

ALICE, BOB, CAROL, OBSERVER = 0, 1, 2, None


def fresh() -> HandState:
    return HandState.new(config(), [100] * 3, RANKED)


def test_a_player_sees_their_own_down_cards_and_nobody_elses():
    seats = view(fresh(), ALICE)["players"]
    assert down_of(seats[ALICE]) == ["Ac", "Ad"]
    assert down_of(seats[BOB]) == [None, None]
    assert down_of(seats[CAROL]) == [None, None]


def test_an_observer_sees_no_down_cards_but_every_upcard():
    seats = view(fresh(), OBSERVER)["players"]
    assert all(down_of(seat) == [None, None] for seat in seats)
    assert [up_of(seat) for seat in seats] == [["Ah"], ["Kh"], ["2c"]]


def test_only_the_player_to_act_gets_their_legal_actions():
    state = fresh()
    assert view(state, CAROL)["legal_actions"] == [
        {"kind": "bring_in", "min": 2, "max": 2, "amounts": [2]},
        {"kind": "complete", "min": 5, "max": 5, "amounts": [5]},
    ]
    assert view(state, ALICE)["legal_actions"] == []
    assert view(state, OBSERVER)["legal_actions"] == []


def test_the_view_shows_stacks_bets_and_pots():
    state = play(fresh(), (CAROL, "bring_in"), (ALICE, "complete", 5))
    seen = view(state, BOB)
    assert [(s["stack"], s["bet"]) for s in seen["players"]] == [(94, 5), (99, 0), (97, 2)]
    assert seen["pots"] == [{"amount": 3, "eligible": [0, 1, 2]}]
    assert (seen["to_act"], seen["current_bet"], seen["street"]) == (BOB, 5, "3rd street")


def test_shown_hands_become_visible_to_everyone_and_mucked_hands_never_do():
    state = play(to_seventh(), (1, "bet", 10), (2, "call"), (0, "call"))
    seen = view(state, OBSERVER)
    assert down_of(seen["players"][1]) == ["Kc", "Kd", "8d"]
    assert down_of(seen["players"][0]) == ["Ac", "Ad", "7d"]
    assert down_of(seen["players"][2]) == [None, None, None]  # mucked
    text = json.dumps(seen)
    assert all(card_str(c) not in text for c in state.downcards(2))


def test_a_mucked_hand_is_named_to_its_player_alone():
    state = play(to_seventh(), (1, "bet", 10), (2, "call"), (0, "call"))
    assert state.mucked == [False, False, True]  # carol's hand couldn't win
    words = view(state, CAROL)["your_hand"]
    assert words == state.hand_words(CAROL) and words["high"]
    for viewer in (ALICE, BOB, OBSERVER):
        seen = view(state, viewer)
        assert seen["your_hand"] is None
        assert words["high"] not in json.dumps(seen)
    # Everyone hears that she mucked: she reached the showdown.
    assert [p["mucked"] for p in view(state, OBSERVER)["players"]] == [False, False, True]


def test_event_logs_hide_other_players_down_cards_and_every_burn():
    state = run_out(fresh())
    for viewer in (ALICE, BOB, CAROL, OBSERVER):
        for event in events_for(state, viewer):
            if event["type"] == "burn":
                assert event["card"] is None
            if event["type"] == "deal" and not event["up"] and event["player"] != viewer:
                assert event["card"] is None
    mine = [e["card"] for e in events_for(state, ALICE) if e["type"] == "deal" and e["player"] == 0]
    assert mine[:2] == ["Ac", "Ad"]


def test_a_viewer_who_has_some_events_gets_the_rest_hidden_the_same_way():
    state = run_out(fresh())
    count = len(state.events)
    for viewer in (ALICE, OBSERVER):
        whole = events_for(state, viewer)
        for since in (0, 1, count // 2, count - 1, count):
            assert events_for(state, viewer, since=since) == whole[since:]


def test_a_folded_players_down_cards_stay_hidden_after_the_hand():
    state = play(fresh(), (CAROL, "bring_in"), (ALICE, "complete", 5), (BOB, "fold"))
    play(state, (CAROL, "fold"))
    assert state.finished
    assert down_of(view(state, ALICE)["players"][BOB]) == [None, None]
    assert down_of(view(state, BOB)["players"][BOB]) == ["Kc", "Kd"]
