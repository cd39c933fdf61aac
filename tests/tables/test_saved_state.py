"""A hand's state as its row keeps it (``tables.services.common.saved_state``):
what ``HandState.to_dict`` gives after a trip through JSON, at every moment
of random hands of every game, and sharing nothing with the state, which
plays on."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules import GameConfig, HandState
from tables.services.common import saved_state
from tests.rules.strategies import configs, decks, examples, play_out, stacks


@given(game=configs(), stacks=stacks, deck=decks, data=st.data())
@settings(max_examples=examples(60), deadline=None)
def test_the_saved_state_is_the_states_data_as_json_gives_it_back(
    game: GameConfig, stacks: list[int], deck: list[int], data: Any
) -> None:
    saved: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def check(state: HandState) -> None:
        mine = saved_state(state)
        assert mine == json.loads(json.dumps(state.to_dict()))
        saved.append((mine, copy.deepcopy(mine)))

    state = HandState.new(game, stacks[: game.game.max_players], deck)
    check(state)
    play_out(data, state, check)
    # Every move changed the state in place; nothing saved before changed with it.
    assert all(mine == kept for mine, kept in saved)
    assert HandState.from_dict(saved[-1][0]).to_dict() == state.to_dict()


def test_a_key_that_is_not_text_comes_back_as_text_as_from_postgresql() -> None:
    state = HandState.new(GameConfig(ante=1, bring_in=2, small_bet=5, big_bet=10), [100, 100])
    state.result = {3: {"payout": 7}}  # the engine writes none such: orjson is asked again
    saved = saved_state(state)
    assert saved["result"] == {"3": {"payout": 7}}
    assert saved == json.loads(json.dumps(state.to_dict()))
