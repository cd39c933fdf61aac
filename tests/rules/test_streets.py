"""Streets, burns, and running out of cards with eight players (seeds 000, 001, 003)."""

from __future__ import annotations

import pytest

from tables.rules import HandState
from tables.rules.cards import SUIT_CHARS, card_str, fisher_yates
from tables.rules.formats.phh import read_phh, replay, write_phh
from tables.rules.views import view
from tests.rules.stacking import config, stack_deck


def check_around(state: HandState, until: str | None = None) -> HandState:
    """Everyone checks (no bring-in at these tables) until ``until`` or the end."""
    while not state.finished and state.street_name != until:
        state.act(state.to_act, "check")
    return state


def test_streets_deal_two_down_one_up_then_three_up_then_one_down():
    state = check_around(HandState.new(config(bring_in=0), [50] * 3, fisher_yates(7)))
    assert [len(state.downcards(p)) for p in range(state.n)] == [3, 3, 3]
    assert [len(state.upcards(p)) for p in range(state.n)] == [4, 4, 4]


def test_one_card_is_burned_before_each_street_and_never_dealt():
    state = check_around(HandState.new(config(bring_in=0), [50] * 3, fisher_yates(7)))
    assert len(state.burns) == 5
    dealt = {c for p in range(state.n) for c in state.cards_of(p)}
    assert dealt.isdisjoint(state.burns)


def test_seven_players_reuse_the_burns_to_deal_everyone_a_seventh_card():
    state = check_around(HandState.new(config(bring_in=0), [50] * 7, fisher_yates(99)))
    assert any(e["type"] == "reuse_burns" for e in state.events)
    assert state.community == []
    assert all(len(state.downcards(p)) == 3 for p in range(state.n))


def test_eight_players_get_one_community_card_when_even_the_burns_run_short():
    state = HandState.new(config(bring_in=0), [50] * 8, fisher_yates(5))
    check_around(state, until="7th street")
    assert len(state.community) == 1
    assert all(len(state.downcards(p)) == 2 for p in range(state.n))
    assert view(state, None)["community"] == [card_str(state.community[0])]
    check_around(state)
    assert all(len(hand["cards"]) == 7 for hand in state.result["hands"].values())


def test_folded_cards_are_dead_even_when_the_deck_runs_short():
    state = HandState.new(config(bring_in=0), [50] * 8, fisher_yates(11))
    folder = state.to_act
    state.act(folder, "check")
    # Folding is not offered when checking is free, so the folder must face a bet.
    state.act(state.to_act, "bet", 5)
    while state.to_act != folder:
        state.act(state.to_act, "call")
    folded_cards = state.downcards(folder) + state.upcards(folder)
    state.act(folder, "fold")
    check_around(state)
    seven = [state.downcards(p) + state.upcards(p) for p in state.live]
    assert all(len(cards) == 7 for cards in seven)
    assert not {c for cards in seven for c in cards}.intersection(folded_cards)
    # 49 cards were used by 7th street, so the burns came back and no burn was left to spare.
    assert [e["type"] for e in state.events if e.get("street") == 4][:1] == ["no_burn"]


def suited(ranks_by_player: list[str]) -> dict[int, list[str]]:
    """Give each rank its next unused suit, so the cards are all different."""
    used: dict[str, int] = {}
    hands = {}
    for player, ranks in enumerate(ranks_by_player):
        hands[player] = []
        for r in ranks:
            hands[player].append(r + SUIT_CHARS[used.get(r, 0)])
            used[r] = used.get(r, 0) + 1
    return hands


def test_the_community_card_counts_as_a_showing_card_for_the_seventh_street_order():
    # Upcards for 3rd to 6th street. Player 0's A-K-Q-J is the best showing hand
    # until the community deuce pairs player 5's door card.
    ups = suited(["AKQJ", "AKQ9", "AKQ8", "AKJ9", "QJT8", "2346", "JT97", "T987", "2"])
    community = ups.pop(8)[0]
    streets = [{p: ("????" + cards[0]) for p, cards in ups.items()}]
    streets += [{p: cards[k] for p, cards in ups.items()} for k in (1, 2, 3)]
    streets[1]["burn"] = community  # the second burn comes back as the community card
    state = HandState.new(config(bring_in=0), [50] * 8, stack_deck(*streets))
    check_around(state, until="6th street")
    assert state.to_act == 0
    check_around(state, until="7th street")
    assert [card_str(c) for c in state.community] == [community]
    assert state.to_act == 5


def bet_and_fold(state: HandState, bet: int) -> None:
    """The first player bets, the next folds, everyone else calls."""
    state.act(state.to_act, "bet", bet)
    state.act(state.to_act, "fold")
    while state.to_act is not None and "call" in [a.kind for a in state.legal_actions()]:
        state.act(state.to_act, "call")


@pytest.mark.parametrize(
    ("players", "folds_on"),
    [
        (7, ()),
        (8, ()),
        (8, ("3rd street",)),
        # 3 cards left plus 4 burns back = 7, one more than the 6 players: burn, then deal.
        (8, ("3rd street", "6th street")),
    ],
)
def test_a_scripted_replay_burns_and_runs_short_exactly_like_the_deck(players, folds_on):
    state = HandState.new(config(bring_in=0), [50] * players, fisher_yates(1234))
    while not state.finished:
        if state.street_name in folds_on and state.current_bet == 0:
            bet_and_fold(state, 10 if state.street > 1 else 5)
            folds_on = tuple(s for s in folds_on if s != state.street_name)
            continue
        kinds = [a.kind for a in state.legal_actions()]
        state.act(state.to_act, "check" if "check" in kinds else "call")
    replayed = replay(read_phh(write_phh(state, everything=True)))
    assert (len(replayed.burns), replayed.stub_count) == (len(state.burns), state.stub_count)
    assert replayed.community == state.community
    assert replayed.stacks == state.stacks
