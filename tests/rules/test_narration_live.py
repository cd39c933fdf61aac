"""The live narrator: a hand told a move at a time, each event once, in the
very words a telling of the whole hand so far gives it.

The table's live log sends each change's new events with their lines. It
used to tell the whole hand again at every change and keep the new lines;
:class:`LiveNarrator` tells only the new events. These tests hold it to the
old way at every step of random hands of every variant. Personas: players
a, b, c... in engine order, named "Seat n (a)" while seated and "Seat n" once
they leave, as the live log names them; the viewer is drawn (None: an
observer, the live log's own viewer).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules import GameConfig, HandState
from tables.rules.narration import LiveNarrator, Narrator
from tables.rules.views import events_for
from tests.rules.strategies import configs, decks, examples, index_below, play_out, stacks
from tests.rules.test_phh import BOB, exchanged_hand


def seated_names(state: HandState) -> list[str]:
    return [f"Seat {p + 1} ({chr(ord('a') + p)})" for p in range(state.n)]


def whole(state: HandState, viewer: int | None, names: list[str]) -> list[tuple[str, ...]]:
    """Every event so far, told at once: how the live log used to tell each change."""
    return [told.lines for told in Narrator(names, state).tell(events_for(state, viewer))]


def tell_new(live: LiveNarrator, state: HandState, viewer: int | None, names: list[str]) -> list:
    new = events_for(state, viewer, since=live.events_told)
    return [told.lines for told in live.tell_new(new, names, state)]


@settings(max_examples=examples(200), deadline=None)
@given(game=configs(), chips=stacks, deck=decks, data=st.data())
def test_each_change_is_told_as_the_whole_hand_so_far_tells_it(
    game: GameConfig, chips: list[int], deck: list[int], data: Any
) -> None:
    state = HandState.new(game, chips[: game.game.max_players], deck)
    viewer = data.draw(st.sampled_from([None, *range(state.n)]), label="viewer")
    names = seated_names(state)
    live = LiveNarrator(names, state)
    told: list[tuple[str, ...]] = []

    def check(state: HandState) -> None:
        if data.draw(index_below(8), label="someone leaves") == 0:
            gone = data.draw(index_below(state.n), label="who")
            names[gone] = f"Seat {gone + 1}"
        before = len(told)
        told.extend(tell_new(live, state, viewer, names))
        assert told[before:] == whole(state, viewer, names)[before:]
        assert live.events_told == len(state.events) == len(told)

    check(state)
    play_out(data, state, check)


@settings(max_examples=examples(100), deadline=None)
@given(game=configs(), chips=stacks, deck=decks, data=st.data())
def test_a_hand_told_move_by_move_reads_as_the_whole_hand_told_at_once(
    game: GameConfig, chips: list[int], deck: list[int], data: Any
) -> None:
    # Each move's events hold all of a street's cards and each exchange's
    # replacement, so in play nothing told early is told differently later.
    state = HandState.new(game, chips[: game.game.max_players], deck)
    names = seated_names(state)
    live = LiveNarrator(names, state)
    told = tell_new(live, state, None, names)
    play_out(data, state, lambda state: told.extend(tell_new(live, state, None, names)))
    assert told == whole(state, None, names)


def test_a_replacement_card_told_after_its_exchange_is_told_as_the_whole_hand_tells_it():
    # A hand history's exchange may come a step before its card (the hand
    # page tells them apart); the live narrator still says what one telling
    # of the events so far says.
    state = exchanged_hand()
    for viewer in (BOB, None):
        events = events_for(state, viewer)
        cut = max(i for i, event in enumerate(events) if event["type"] == "exchange") + 1
        names = ["a", "b"]
        live = LiveNarrator(names, state)
        first = [told.lines for told in live.tell_new(events[:cut], names, state)]
        then = [told.lines for told in live.tell_new(events[cut:], names, state)]
        once = [told.lines for told in Narrator(names, state).tell(events)]
        assert then == once[cut:]
        assert then[0] == ()  # the whole hand's telling says it with the exchange
        assert first[:-1] == once[: cut - 1]


def test_a_streets_cards_told_in_two_batches_are_told_once_at_the_first():
    state = exchanged_hand()
    events = events_for(state)
    deals = [i for i, event in enumerate(events) if event["type"] == "deal"]
    cut = deals[1]  # between alice's first two cards
    live = LiveNarrator(["a", "b"], state)
    first = live.tell_new(events[:cut], ["a", "b"], state)
    then = live.tell_new(events[cut:], ["a", "b"], state)
    assert first[-1].lines == ("a is dealt a down card",)
    assert then[0].lines == ()
    assert [told.lines for told in then] == whole(state, None, ["a", "b"])[cut:]
