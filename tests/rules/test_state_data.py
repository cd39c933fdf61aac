"""The hand is data: JSON both ways, and a replay of its actions rebuilds it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tables.rules import HandState, IllegalAction
from tests.rules.stacking import play
from tests.rules.test_showdown import to_seventh


def test_a_hand_survives_json_and_back_mid_hand():
    state = to_seventh()
    data = json.loads(json.dumps(state.to_dict()))
    again = HandState.from_dict(data)
    assert again.to_dict() == state.to_dict()
    play(again, (1, "bet", 10))  # and it plays on
    assert again.to_act == 2


def test_a_loaded_hand_leaves_its_data_alone_unless_it_adopts_it():
    data = json.loads(json.dumps(to_seventh().to_dict()))
    before = json.dumps(data)
    play(HandState.from_dict(data), (1, "bet", 10))
    assert json.dumps(data) == before
    adopted = HandState.from_dict(data, adopt=True)
    assert adopted.to_dict() == json.loads(before)
    play(adopted, (1, "bet", 10))
    assert data["actions"] == adopted.actions  # one list, shared


def test_replaying_the_deck_and_actions_reproduces_the_state_exactly():
    state = play(to_seventh(), (1, "bet", 10), (2, "call"), (0, "raise", 20), (1, "call"))
    play(state, (2, "fold"))
    assert HandState.replay(state.to_dict()).to_dict() == state.to_dict()


def test_a_saved_hand_with_missing_fields_is_refused():
    data = to_seventh().to_dict()
    del data["deck"]
    with pytest.raises(IllegalAction, match="not a saved hand"):
        HandState.from_dict(data)


@pytest.mark.parametrize("bad", [[52, True], [7], "7h"])
def test_a_saved_hand_holding_something_not_a_card_is_refused(bad):
    data = to_seventh().to_dict()
    data["cards"][0][0] = bad
    with pytest.raises(IllegalAction, match="not a saved hand"):
        HandState.from_dict(data)


def test_a_replay_with_a_tampered_action_is_refused():
    data = to_seventh().to_dict()
    data["actions"][1]["amount"] = 7
    with pytest.raises(IllegalAction, match="can't call 7"):
        HandState.replay(data)


def test_a_move_the_clock_made_is_marked_in_its_action_and_event_and_replays_so():
    state = to_seventh()
    player = state.to_act
    actions, events = len(state.actions), len(state.events)
    state.act(player, "check", timed_out=True)
    assert state.actions[actions] == {
        "player": player, "kind": "check", "amount": None, "timed_out": True
    }  # fmt: skip
    assert state.events[events] == {
        "type": "check", "player": player, "total": 0, "all_in": False, "timed_out": True
    }  # fmt: skip
    play(state, (state.to_act, "bet", 10))
    assert "timed_out" not in state.actions[-1] and "timed_out" not in state.events[-1]
    assert HandState.replay(state.to_dict()).to_dict() == state.to_dict()


def test_a_moves_time_is_kept_in_its_action_and_replays_so():
    state = to_seventh()
    actions, events = len(state.actions), len(state.events)
    state.act(state.to_act, "check", at="2026-11-28T10:00:01.250+00:00")
    assert state.actions[actions]["at"] == "2026-11-28T10:00:01.250+00:00"
    assert "at" not in state.events[events]  # the log's words don't carry it
    play(state, (state.to_act, "bet", 10))
    assert "at" not in state.actions[-1]
    assert HandState.replay(state.to_dict()).to_dict() == state.to_dict()


def test_a_time_that_is_not_text_is_refused_and_changes_nothing():
    state = to_seventh()
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="a move's time is text"):
        state.act(state.to_act, "check", at=12)  # type: ignore[arg-type]
    assert state.to_dict() == before


# Hands saved by the engine before each player's cards were one list (down
# cards and upcards apart): four finished at the showdown, two mid-betting.
BEFORE_ONE_LIST = Path(__file__).parent / "saved" / "before_one_card_list.json"


@pytest.mark.parametrize("saved", json.loads(BEFORE_ONE_LIST.read_text()))
def test_a_hand_saved_with_down_cards_and_upcards_apart_loads_as_it_was(saved):
    state = HandState.from_dict(saved)
    assert [state.downcards(p) for p in range(state.n)] == saved["hole"]
    assert [state.upcards(p) for p in range(state.n)] == saved["up"]
    for name in ("stacks", "committed", "phase", "to_act", "events", "turn", "result"):
        assert getattr(state, name) == saved[name], name
    # And it plays on: the player to act has the options they had.
    if state.to_act is not None:
        assert state.legal_actions()
