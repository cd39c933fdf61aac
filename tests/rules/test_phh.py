"""PHH hand histories: what an export names, and that every export replays.

Random hands are played with ``random.Random(seed)`` so a failure names its seed,
in every variant and betting structure. In the staff export every card is
written; in a player's or an observer's export, other players' down cards are
``??`` unless shown at the showdown.
"""

from __future__ import annotations

import datetime
import random
from pathlib import Path
from typing import Any

import pytest

from tables.rules import UNKNOWN, GameConfig, HandState, RakeRule
from tables.rules.cards import FULL_DECK, card_str, parse_card
from tables.rules.formats.phh import (
    PHHError,
    read_phh,
    read_phhs,
    replay,
    write_phh,
    write_phhs,
)
from tables.rules.games import Game, games
from tables.rules.state import WAGERS, LegalAction
from tables.rules.variants import VARIANTS
from tables.rules.views import events_for, view
from tests.rules.stacking import config, stack_deck
from tests.rules.test_decisions import (
    bet_passively,
    decide,
    declare,
    english,
    play_to_decision,
    roll_your_own,
)
from tests.rules.test_sample_deal import CRAIG, JIMMY, play, play_to_seventh, sample_hand

FIXTURES = Path(__file__).parent / "phh"
# 150 random hands: every game several times, and hands that run out of cards
# (eight players to 7th street, a community card). The round trips must cover
# those; test_random_play_reaches_showdowns_all_ins_and_every_game checks they do.
SEEDS = range(150)
GAMES = games()  # every variant in every betting structure it is dealt in
# What only the way a hand was dealt sets: the engine's deck and burns, or the
# file's deal actions. A replay deals from the file and knows no burned card.
DEALING_FIELDS = ("scripted", "deck", "stub", "burns", "actions", "turn")


# ------------------------------------------------------------------- helpers


def game_id(game: Game) -> str:
    return f"{game.variant.code}-{game.structure.code}"


def random_config(rng: random.Random, game: Game | None = None) -> GameConfig:
    game = game or rng.choice(GAMES)
    small = rng.randint(2, 10)
    # A spread's most bet is above its least; fixed limit's big bet may equal
    # the small one; pot and no limit carry the table's big bet unused.
    multiples = (2, 3, 4) if game.structure.code == "spread" else (1, 2)
    options = {
        "variant": game.variant.code,
        "structure": game.structure.code,
        "ante": rng.randint(0, 3),
        "bring_in": rng.randint(0, small - 1),
        "small_bet": small,
        "big_bet": small * rng.choice(multiples),
        "auto_muck": rng.random() < 0.7,
    }
    if rng.random() < 0.3:  # house rules that PHH has no field for
        options.update(tie_break="suit", short_all_in="full", rake=RakeRule("5", cap=3))
        options.update(raise_at_least_last=False, heads_up_uncapped=True)
        if game.variant.wild_game:
            options.update(natural_beats_wild=True)
        if game.variant.declares:
            options.update(declare_in_turn=True)
        if game.variant.declares_high_low:
            options.update(high_low_declare=True)
        if game.variant.exchanges:
            options.update(exchange_price=True)
    return GameConfig(**options)


def random_amount(rng: random.Random, option: LegalAction) -> int | None:
    """An amount the option allows: one of its sizes, or any total from min to max."""
    if option.kind not in WAGERS:
        return None
    if option.amounts is not None:
        return rng.choice(option.amounts)
    assert option.min is not None and option.max is not None
    return rng.randint(option.min, option.max)


def random_hand(seed: int, game: Game | None = None) -> HandState:
    """A finished hand of random legal play (of ``game``, or a random one);
    stacks of 1..300 make all-ins common."""
    rng = random.Random(seed)
    # Seeds take the games in turn, so any run of len(GAMES) seeds deals each.
    game = game or GAMES[seed % len(GAMES)]
    stacks = [rng.randint(1, 300) for _ in range(rng.randint(2, 8))]
    del stacks[game.variant.max_players :]  # Baseball seats seven
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    state = HandState.new(random_config(rng, game), stacks, deck)
    while not state.finished:
        player = state.to_act if state.to_act is not None else rng.choice(state.deciding())
        options = state.legal_actions(player)
        weights = [1 if option.kind == "fold" else 4 for option in options]
        option = rng.choices(options, weights)[0]
        cards = None if option.cards is None else [rng.choice(option.cards)]
        state.act(player, option.kind, random_amount(rng, option), cards)
    return state


def as_played(state: HandState) -> dict[str, Any]:
    """The saved hand without what only its dealing sets (burned cards masked)."""
    data = state.to_dict()
    for name in DEALING_FIELDS:
        del data[name]
    data["events"] = [
        {**event, "card": None} if event["type"] == "burn" else event for event in data["events"]
    ]
    return data


def ups_seen(state: HandState, viewer: int | None, player: int) -> list[str | None]:
    """A player's upcards in ``viewer``'s view of the hand."""
    return [held["card"] for held in view(state, viewer)["players"][player]["cards"] if held["up"]]


def finished_sample_hand() -> HandState:
    """Seeds 000/001: Craig's straight beats Jimmy, who mucks; Larry and Katherine fold."""
    state = play(play_to_seventh(sample_hand()), (JIMMY, "check"))
    return play(state, (CRAIG, "bet", 500), (JIMMY, "call"))


# Personas of the decision games (tests/rules/test_decisions.py's decks): alice is
# p1 (player 0), bob p2, carol p3; an observer sees upcards, rolls and shown hands.
ALICE, BOB, CAROL = 0, 1, 2


def exchanged_hand(bobs: str = "Ks") -> HandState:
    """English stud at 5/10 with the exchange's price. Alice pays 10 to swap her
    2♣ (up) for the A♣ after 5th street, bob stands pat; after 6th, alice
    stands pat and bob swaps a king in the hole (``bobs``: his K♠ or K♦) for
    the K♥. Both show: alice's three aces beat bob's kings."""
    state = play_to_decision(english(exchange_price=True))
    decide(state, {ALICE: ("exchange", "2c"), BOB: ("stand_pat", None)})
    play_to_decision(state)
    decide(state, {ALICE: ("stand_pat", None), BOB: ("exchange", bobs)})
    while not state.finished:
        bet_passively(state)
    return state


def rolled_hand() -> HandState:
    """Roll your own: bob rolls his 7♣ before alice rolls her K♥, so bob's
    seven brings in; alice completes and bob folds."""
    state = decide(roll_your_own(), {BOB: ("roll", "7c"), ALICE: ("roll", "Kh")})
    state.act(BOB, "bring_in")
    state.act(ALICE, "complete", 5)
    state.act(BOB, "fold")
    return state


def declared_hand() -> HandState:
    """Hi-lo declare: carol declares high with kings, alice both and bob low
    with the same wheel. Alice ties bob's low and wins nothing; carol takes
    the high half (5 of the 9 chips), bob the low (4)."""
    return decide(
        declare(),
        {CAROL: ("declare_high", None), ALICE: ("declare_both", None), BOB: ("declare_low", None)},
    )


def cards_seen_by(state: HandState, viewer: int | None) -> set[str]:
    """Every card the engine's own view of the event log shows ``viewer``."""
    seen = set()
    for event in events_for(state, viewer):
        if event.get("card"):
            seen.add(event["card"])
        seen.update(card for card in event.get("cards", ()) if card)
    return seen


def cards_written(text: str) -> list[str]:
    """Every card named in a PHH document's actions, ``??`` included: dealt,
    shown, exchanged (``sd``) or rolled (``# _cardroom_roll pN card``)."""
    written = []
    for action in read_phh(text).actions:
        words = action.split()
        named = words[0] == "d" or (words[1] in ("sm", "sd") and len(words) > 2)
        if named or words[:2] == ["#", "_cardroom_roll"]:
            packed = words[-1]
            written += [packed[i : i + 2] for i in range(0, len(packed), 2)]
    return written


def hidden_down_cards(state: HandState, viewer: int | None) -> int:
    """The down cards an export for ``viewer`` writes ``??``: another player's,
    unless they showed it at the showdown. A card exchanged away is never shown,
    and the card that replaced a shown one is named by the show alone."""
    shown = {e["player"] for e in state.events if e["type"] == "show"}
    dead = set(state.discards)

    def hidden(event: dict[str, Any]) -> bool:
        if event["up"] or event["player"] == viewer:
            return False
        named_by_show = event["card"] not in dead and not event.get("exchange")
        return event["player"] not in shown or not named_by_show

    return sum(1 for e in state.events if e["type"] in ("deal", "exchange") and hidden(e))


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def refusal(text: str) -> str:
    with pytest.raises(PHHError) as caught:
        replay(read_phh(text))
    return str(caught.value)


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("seed", SEEDS)
def test_the_staff_export_replays_to_the_same_stacks(seed):
    state = random_hand(seed)
    replayed = replay(read_phh(write_phh(state, everything=True)))
    assert replayed.finished
    assert replayed.stacks == state.stacks


@pytest.mark.parametrize("game", GAMES, ids=game_id)
@pytest.mark.parametrize("seed", range(4))
def test_the_staff_export_replays_to_the_same_hand_in_every_game(game, seed):
    state = random_hand(seed, game)
    replayed = replay(read_phh(write_phh(state, everything=True)))
    assert as_played(replayed) == as_played(state)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_players_export_replays_to_the_same_stacks(seed):
    state = random_hand(seed)
    for viewer in (0, state.n - 1, None):
        replayed = replay(read_phh(write_phh(state, viewer=viewer)))
        assert replayed.stacks == state.stacks, f"viewer {viewer}"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_players_export_names_only_cards_that_player_saw(seed):
    state = random_hand(seed)
    for viewer in (0, None):
        written = cards_written(write_phh(state, viewer=viewer))
        named = [card for card in written if card != "??"]
        assert set(named) <= cards_seen_by(state, viewer)
        assert written.count("??") == hidden_down_cards(state, viewer)


def test_random_play_reaches_showdowns_all_ins_and_every_game():
    """The round trips above must cover what makes them hard."""
    hands = [random_hand(seed) for seed in SEEDS]
    kinds = {e["type"] for hand in hands for e in hand.events}
    assert {"show", "muck", "board"} <= kinds, "no hand ran out of cards: try more seeds"
    assert any(e.get("all_in") for hand in hands for e in hand.events)
    played = {(hand.config.variant, hand.config.structure) for hand in hands}
    assert played == {(game.variant.code, game.structure.code) for game in GAMES}
    assert any(hand.result["rake"] for hand in hands)


# ---------------------------------------------------------- the sample deal


def test_the_sample_deal_exports_the_seeds_actions_to_an_observer():
    text = write_phh(finished_sample_hand())
    assert read_phh(text).actions == [
        "d dh p1 ????4s",  # Larry folds: his down cards stay hidden
        "d dh p2 Qs2hKd",  # Craig shows at the showdown
        "d dh p3 ????4d",
        "d dh p4 ????9c",  # Jimmy mucks
        "p3 pb",
        "p4 cc",
        "p1 f",
        "p2 cbr 300",
        "p3 f",
        "p4 cc",
        "d dh p2 Jc",
        "d dh p4 Kh",
        "p2 cc",
        "p4 cc",
        "d dh p2 Th",
        "d dh p4 Kc",
        "p4 cbr 500",
        "p2 cc",
        "d dh p2 Td",
        "d dh p4 3s",
        "p4 cbr 500",
        "p2 cc",
        "d dh p2 Ad",
        "d dh p4 ??",
        "p4 cc",
        "p2 cbr 500",
        "p4 cc",
        "p2 sm Qs2hKdJcThTdAd",
        "p4 sm",
    ]


def test_the_sample_deal_writes_the_stakes_and_stacks():
    history = read_phh(write_phh(finished_sample_hand()))
    assert history.fields["variant"] == "F7S"
    assert history.fields["antes"] == [25, 25, 25, 25]
    assert (history.config.bring_in, history.config.small_bet, history.config.big_bet) == (
        100,
        300,
        500,
    )
    assert history.starting_stacks == [10_000] * 4
    assert history.finishing_stacks == [9_975, 11_975, 9_875, 8_175]


def test_jimmy_sees_his_own_mucked_hand_in_his_export():
    actions = read_phh(write_phh(finished_sample_hand(), viewer=JIMMY)).actions
    assert "d dh p4 9h5d9c" in actions
    assert "d dh p4 5s" in actions
    assert "d dh p1 ????4s" in actions


def test_the_staff_export_names_every_down_card_but_no_burn():
    state = finished_sample_hand()
    written = cards_written(write_phh(state, everything=True))
    burns = {card_str(e["card"]) for e in state.events if e["type"] == "burn"}
    assert "??" not in written
    assert not burns & set(written)


# ------------------------------------------------------------ writing options


def test_extra_fields_are_written_after_the_hand():
    extra = {
        "players": ["Larry", "Craig", "Katherine", "Jimmy"],
        "hand": 17,
        "table": "Table 3",
        "seat_count": 8,
        "time": datetime.time(21, 5, 30),
    }
    fields = read_phh(write_phh(finished_sample_hand(), extra=extra)).fields
    assert {name: fields[name] for name in extra} == extra


def test_extra_text_survives_quotes_backslashes_and_control_characters():
    names = ['Bobby "Tables"', "back\\slash", "new\nline\ttab", "\x7f\x01", "Zoë ♠"]
    extra = {"players": names[:4], "event": names[4], "odd key": 1.5}
    fields = read_phh(write_phh(finished_sample_hand(), extra=extra)).fields
    assert {name: fields[name] for name in extra} == extra


def test_a_replayed_hand_can_be_written_again():
    state = random_hand(7)
    text = write_phh(state, viewer=0)
    again = write_phh(replay(read_phh(text)), everything=True)
    assert read_phh(again).actions == read_phh(text).actions
    assert replay(read_phh(again)).stacks == state.stacks


def test_an_extra_field_may_not_overwrite_the_hands_own():
    with pytest.raises(PHHError, match="actions"):
        write_phh(finished_sample_hand(), extra={"actions": []})


def test_a_hand_in_play_is_not_written():
    with pytest.raises(PHHError, match="finished"):
        write_phh(sample_hand())


def test_a_viewer_outside_the_hand_is_refused():
    with pytest.raises(PHHError, match="viewer"):
        write_phh(finished_sample_hand(), viewer=4)


def test_house_rules_travel_in_a_user_defined_field():
    state = HandState.new(
        GameConfig(ante=1, bring_in=2, small_bet=5, big_bet=10, rake=RakeRule("10", cap=2)),
        [50, 50],
        list(FULL_DECK),
    )
    while not state.finished:  # the first to act bets, the other calls: a raked pot
        kinds = {option.kind: option for option in state.legal_actions()}
        kind = next(k for k in ("complete", "bet", "call") if k in kinds)
        state.act(state.to_act, kind, kinds[kind].min if kind != "call" else None)
    assert state.result["rake"] == 2
    history = read_phh(write_phh(state, everything=True))
    rake = {"percent": "10", "cap": 2, "no_rake_third_street": True}
    assert history.fields["_cardroom_rules"] == {"rake": rake}
    assert history.config.rake == RakeRule("10", cap=2)
    assert replay(history).stacks == state.stacks


@pytest.mark.parametrize(
    ("stored", "written"),
    [("1E+1", "10"), ("10", "10"), ("2.50", "2.5"), ("2.5", "2.5"), ("1E+2", "100")],
)
def test_the_rake_percent_is_written_as_a_plain_decimal(stored, written):
    """Hands stored before the fix hold the percent as the database's Decimal
    normalized it ("1E+1" for 10): their files say "10" all the same."""
    state = HandState.new(
        GameConfig(ante=1, bring_in=2, small_bet=5, big_bet=10, rake=RakeRule(stored, cap=2)),
        [50, 50],
        list(FULL_DECK),
    )
    while not state.finished:
        kinds = {option.kind: option for option in state.legal_actions()}
        kind = next(k for k in ("complete", "bet", "call") if k in kinds)
        state.act(state.to_act, kind, kinds[kind].min if kind != "call" else None)

    text = write_phh(state, everything=True)

    assert f'percent = "{written}"' in text
    history = read_phh(text)
    assert history.config.rake == RakeRule(written, cap=2)
    assert replay(history).stacks == state.stacks


# ------------------------------------------- games PHH's stud codes don't name

STUD_POT = fixture("stud_pot.phh")
LONDON = fixture("london.phh")
STUD_GAMES = {game.structure.code: game for game in GAMES if game.variant.code == "stud"}
LONDON_FIXED = next(g for g in GAMES if g.variant.code == "london" and g.structure.code == "fixed")
MISSISSIPPI_FIXED = next(
    g for g in GAMES if g.variant.code == "mississippi" and g.structure.code == "fixed"
)


def test_a_fixed_limit_stud_hand_writes_no_field_of_ours_for_its_game():
    fields = read_phh(write_phh(finished_sample_hand())).fields
    assert fields["variant"] == "F7S"
    assert "_cardroom_structure" not in fields
    assert "_cardroom_variant" not in fields


@pytest.mark.parametrize("structure", ["spread", "pot", "no"])
def test_a_structure_the_stud_codes_cant_say_is_named_in_a_user_field(structure):
    state = random_hand(0, STUD_GAMES[structure])
    fields = read_phh(write_phh(state)).fields
    assert fields["variant"] == "F7S"  # still the standard's code: other tools read the file
    assert fields["_cardroom_structure"] == structure
    assert "structure" not in fields.get("_cardroom_rules", {})


@pytest.mark.parametrize("structure", ["fixed", "spread", "pot", "no"])
def test_the_small_and_big_bet_fields_are_the_stakes_bet_sizes(structure):
    state = random_hand(1, STUD_GAMES[structure])
    fields = read_phh(write_phh(state)).fields
    assert (fields["small_bet"], fields["big_bet"]) == (
        state.config.small_bet,
        state.config.big_bet,
    )


def test_a_pot_limit_file_replays_to_its_finishing_stacks():
    state = replay(read_phh(STUD_POT))
    assert state.config.structure == "pot"
    assert state.stacks == [76, 345, 179]


def test_in_pot_limit_small_bet_is_the_minimum_bet_and_the_pot_the_most():
    # 4th street, p1 to act: the pot is 3 antes + 3 x 20 = 63.
    state = replay(read_phh(STUD_POT), upto=11)
    assert state.legal_actions() == [LegalAction("check"), LegalAction("bet", 5, 63)]


def test_a_pot_limit_raise_past_the_pot_is_refused():
    message = refusal(STUD_POT.replace('"p1 cbr 20"', '"p1 cbr 21"'))
    assert message == "action 5 'p1 cbr 21': p1 can't raise to 21; allowed: fold; call 5; " + (
        "raise to 10 to 20"
    )


def test_london_lowball_is_written_as_razz_and_named_in_a_user_field():
    fields = read_phh(write_phh(random_hand(0, LONDON_FIXED))).fields
    assert fields["variant"] == "FR"
    assert fields["_cardroom_variant"] == "london"


def test_a_london_lowball_file_is_read_as_london_lowball():
    history = read_phh(LONDON)
    assert history.config.variant == "london"


def test_a_london_lowball_wheel_is_a_straight_and_loses_to_a_seven_low():
    state = replay(read_phh(LONDON))
    assert state.result["hands"]["0"]["low"] == "Q-4-3-2-A low"
    assert state.result["hands"]["1"]["low"] == "7-6-4-3-2 low"
    assert state.stacks == [69, 131]


def test_without_the_variant_field_a_london_file_replays_as_razz_to_other_stacks():
    # What a tool that knows only FR makes of it: every action replays, the wheel wins.
    text = LONDON.replace('_cardroom_variant = "london"\n', "")
    assert read_phh(text).config.variant == "razz"
    assert refusal(text) == (
        "finishing_stacks: the file says [69, 131] but the actions leave [131, 69]"
    )


def test_mississippi_is_written_as_stud_and_named_in_a_user_field():
    state = random_hand(3, MISSISSIPPI_FIXED)
    text = write_phh(state, everything=True)
    fields = read_phh(text).fields
    assert (fields["variant"], fields["_cardroom_variant"]) == ("F7S", "mississippi")
    assert replay(read_phh(text)).stacks == state.stacks


def test_without_the_variant_field_a_mississippi_file_is_refused_where_stud_bets():
    """Read as stud, a betting round is due after 4th street, where the file
    deals the 5th-street cards."""
    mississippi = GameConfig(variant="mississippi", ante=1, bring_in=2, small_bet=5, big_bet=10)
    state = HandState.new(mississippi, [100, 100], list(FULL_DECK))
    while not state.finished:
        kinds = [a.kind for a in state.legal_actions()]
        state.act(
            state.to_act, next(k for k in ("bring_in", "check", "call", "show") if k in kinds)
        )
    text = write_phh(state).replace('_cardroom_variant = "mississippi"\n', "")
    assert read_phh(text).config.variant == "stud"
    assert refusal(text) == (
        "action 6 'd dh p1 4s': nothing is to be dealt now; the hand is betting on 4th street"
    )


@pytest.mark.parametrize(
    ("text", "edits", "message"),
    [
        (
            LONDON,
            [('_cardroom_variant = "london"', '_cardroom_variant = "badugi"')],
            f"_cardroom_variant must be one of {', '.join(VARIANTS)}, not 'badugi'",
        ),
        (
            LONDON,
            [('_cardroom_variant = "london"', "_cardroom_variant = 3")],
            f"_cardroom_variant must be one of {', '.join(VARIANTS)}, not 3",
        ),
        (
            LONDON,
            [('variant = "FR"', 'variant = "F7S"')],
            "_cardroom_variant 'london' is written with variant 'FR', not 'F7S'",
        ),
        (
            STUD_POT,
            [('_cardroom_structure = "pot"', '_cardroom_structure = "half-pot"')],
            "_cardroom_structure must be one of fixed, spread, pot, no, not 'half-pot'",
        ),
        (
            STUD_POT,
            [('_cardroom_structure = "pot"', '_cardroom_structure = "Pot Limit"')],
            "_cardroom_structure must be one of fixed, spread, pot, no, not 'Pot Limit'",
        ),
        (
            STUD_POT,
            [('_cardroom_structure = "pot"', '_cardroom_structure = ["pot"]')],
            "_cardroom_structure must be one of fixed, spread, pot, no, not ['pot']",
        ),
        (
            STUD_POT,
            [('_cardroom_structure = "pot"', '_cardroom_rules = { structure = "pot" }')],
            "_cardroom_rules can't set structure; a field of its own does",
        ),
        (
            STUD_POT,
            [
                ('_cardroom_structure = "pot"', '_cardroom_structure = "spread"'),
                ("big_bet = 10", "big_bet = 5"),
            ],
            "the game can't be set up: a spread's maximum (5) must be above its minimum (5)",
        ),
    ],
)
def test_a_bad_value_in_our_game_fields_is_refused_by_name(text, edits, message):
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    with pytest.raises(PHHError) as caught:
        read_phh(text)
    assert str(caught.value) == message


# ------------------------------------------------------------- hand-written


def test_a_razz_hand_replays_to_the_wheels_win():
    state = replay(read_phh(fixture("razz.phh")))
    assert state.finished
    assert state.stacks == [59, 142, 99]
    assert state.result["hands"]["1"]["low"].startswith("5")


def test_a_stud8_hand_splits_high_and_low():
    state = replay(read_phh(fixture("stud8.phh")))
    assert state.result["payouts"] == [47, 48, 0]  # the odd chip goes high
    assert state.stacks == [101, 102, 97]


RAZZ = fixture("razz.phh")


def test_an_oversized_bet_is_refused_by_its_index_and_text():
    message = refusal(RAZZ.replace('"p2 cbr 5  # completes"', '"p2 cbr 999"'))
    assert message.startswith("action 4 'p2 cbr 999': p2 can't complete to 999")
    assert "complete to 5" in message


def test_an_action_out_of_turn_is_refused():
    message = refusal(RAZZ.replace('"p2 cbr 5  # completes"', '"p3 cbr 5"'))
    assert message.startswith("action 4 'p3 cbr 5': ")
    assert "turn" in message


def test_a_player_outside_the_hand_is_refused():
    assert "'p4' is not a player" in refusal(RAZZ.replace('"p3 f"', '"p4 f"'))


def test_a_card_dealt_twice_is_refused():
    message = refusal(RAZZ.replace('"d dh p1 6d"', '"d dh p1 As"'))
    assert message.startswith("action 7 'd dh p1 As': ")


def test_unknown_variants_are_refused_by_name():
    with pytest.raises(PHHError, match="variant 'NT'"):
        read_phh(RAZZ.replace('"FR"', '"NT"'))


def test_garbage_is_not_toml():
    with pytest.raises(PHHError, match="not valid TOML"):
        read_phh("variant = [F7S\nantes = ")


def test_non_uniform_antes_are_refused():
    with pytest.raises(PHHError, match=r"antes: every player must ante the same"):
        read_phh(RAZZ.replace("antes = [1, 1, 1]", "antes = [0, 0, 5]"))


def test_a_missing_field_is_named():
    with pytest.raises(PHHError, match="missing required field.*starting_stacks"):
        read_phh(RAZZ.replace("starting_stacks = [100, 100, 100]", ""))


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ("starting_stacks = [100, 100, 100]", "starting_stacks = [100, 99.5, 100]", "stacks"),
        ("bring_in = 2", "bring_in = 1.5", "bring_in"),
        ("small_bet = 5", 'small_bet = "5"', "small_bet"),
        ('"p2 cbr 10",\n  "p1 cc",\n  "# 6th', '"p2 cbr 10.5",\n  "p1 cc",\n  "# 6th', "10.5"),
    ],
)
def test_amounts_must_be_whole_chips(old, new, named):
    with pytest.raises(PHHError, match=r"whole number") as caught:
        replay(read_phh(RAZZ.replace(old, new)))
    assert named in str(caught.value)


def test_whole_floats_are_read_as_chips():
    text = RAZZ.replace("antes = [1, 1, 1]", "antes = [1.0, 1.0, 1.0]")
    assert read_phh(text).config.ante == 1


def test_finishing_stacks_that_disagree_with_the_replay_are_refused():
    text = fixture("stud8.phh").replace("[101, 102, 97]", "[102, 101, 97]")
    with pytest.raises(PHHError, match="finishing_stacks"):
        replay(read_phh(text))


def test_blinds_have_no_place_in_stud():
    with pytest.raises(PHHError, match="blinds_or_straddles"):
        read_phh(RAZZ + "blinds_or_straddles = [1, 2, 0]\n")


ALL_IN_EARLY = """
variant = "F7S"
antes = [0, 0]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [4, 100]
actions = [
  "d dh p1 ????2c", "d dh p2 KsKd9h",
  "p1 pb", "p2 cbr 2", "p1 cbr 4", "p2 cc",
  "p1 sm AsAd2c", "p2 sm -",
  "d dh p1 7c", "d dh p2 Kh",
  "d dh p1 8c", "d dh p2 8d",
  "d dh p1 5d", "d dh p2 7d",
  "d dh p1 Jh", "d dh p2 Js",
]
"""


def test_shows_written_right_after_an_all_in_wait_for_the_showdown():
    state = replay(read_phh(ALL_IN_EARLY))
    assert state.finished
    assert state.stacks == [0, 104]
    assert state.result["hands"]["0"]["cards"] == ["As", "Ad", "2c", "7c", "8c", "5d", "Jh"]


def test_a_file_that_stops_before_the_last_deal_is_an_unfinished_hand():
    text = ALL_IN_EARLY.replace('"d dh p1 Jh", "d dh p2 Js",', "")
    assert refusal(text) == "hand unfinished: the dealer to deal 1 card(s) to p1 on 7th street"


def test_a_file_that_stops_with_a_player_to_act_says_who():
    text = fixture("stud8.phh")
    cut = text[: text.index('  "p1 cc",\n  "d dh p1 Qd"')] + "]\n"
    assert refusal(cut) == "hand unfinished: p1 to act on 6th street"


def test_an_unfinished_hand_is_an_error_even_with_finishing_stacks():
    text = fixture("stud8.phh").replace('  "p1 sm As2c3d4d7hJcQd",\n', "")
    assert refusal(text) == "hand unfinished: p1 to show or muck at the showdown"


def test_a_player_may_show_at_the_all_in_and_again_at_the_showdown():
    # As pokerkit writes it: the cards so far, then all seven.
    text = ALL_IN_EARLY.replace(
        '"d dh p1 Jh", "d dh p2 Js",',
        '"d dh p1 Jh", "d dh p2 Js", "p1 sm AsAd2c7c8c5dJh", "p2 sm KsKd9hKh8d7dJs",',
    )
    state = replay(read_phh(text))
    assert state.stacks == [0, 104]
    assert state.result["hands"]["1"]["cards"] == ["Ks", "Kd", "9h", "Kh", "8d", "7d", "Js"]


def test_a_later_show_may_repeat_just_the_down_cards():
    text = ALL_IN_EARLY.replace('"d dh p2 Js",', '"d dh p2 Js", "p1 sm AsAdJh",')
    assert replay(read_phh(text)).stacks == [0, 104]


def test_shows_may_repeat_while_the_cards_are_still_coming():
    text = ALL_IN_EARLY.replace('"d dh p2 8d",', '"d dh p2 8d", "p1 sm AsAd2c7c8c",')
    assert replay(read_phh(text)).stacks == [0, 104]


def test_a_later_show_of_other_cards_is_refused():
    text = ALL_IN_EARLY.replace('"d dh p2 Js",', '"d dh p2 Js", "p1 sm AsAc2c7c8c5dJh",')
    message = refusal(text)
    assert message.startswith("action 16 'p1 sm AsAc2c7c8c5dJh': p1 has shown AsAd2c7c8c5dJh;")


def test_a_show_while_the_cards_are_coming_must_repeat_the_earlier_one():
    text = ALL_IN_EARLY.replace('"d dh p2 8d",', '"d dh p2 8d", "p1 sm AhAd2c7c8c",')
    message = refusal(text)
    assert message == (
        "action 12 'p1 sm AhAd2c7c8c': p1 showed AsAd2c in action 6; "
        "a later show must repeat those cards"
    )


def test_a_player_who_has_shown_cannot_muck_afterwards():
    text = ALL_IN_EARLY.replace('"d dh p2 Js",', '"d dh p2 Js", "p1 sm",')
    assert refusal(text).endswith("p1 has shown their hand; it can't be mucked")


def test_an_early_show_of_cards_the_player_was_not_dealt_is_refused_at_once():
    message = refusal(ALL_IN_EARLY.replace('"p1 sm AsAd2c"', '"p1 sm AsAd3c"'))
    assert message == "action 6 'p1 sm AsAd3c': p1 can't show cards they weren't dealt"


# A televised hand as the PHH dataset records it: the seats that fold on 3rd
# street never show their cards, door card included.
UNKNOWN_DOORS = """
variant = "F7S"
antes = [1, 1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100, 100]
actions = [
  "d dh p1 ??????", "d dh p2 ????Qh", "d dh p3 ??????", "d dh p4 ????9d",
  "p3 pb", "p4 cbr 5", "p1 f", "p2 cc", "p3 f",
  "d dh p2 Qs", "d dh p4 Td",
  "p2 cbr 10", "p4 f",
]
finishing_stacks = [99, 110, 97, 94]
"""


def test_unknown_door_cards_leave_the_bring_in_to_the_file():
    state = replay(read_phh(UNKNOWN_DOORS))
    assert state.stacks == [99, 110, 97, 94]
    assert state.upcards(0) == [UNKNOWN]


def test_an_unknown_upcard_is_shown_to_every_viewer_as_unknown():
    state = replay(read_phh(UNKNOWN_DOORS))
    for viewer in (None, 0, 1):
        assert ups_seen(state, viewer, 0) == [None]
    assert ups_seen(state, None, 1) == ["Qh", "Qs"]


def test_the_bring_in_named_by_the_file_must_fit_the_known_door_cards():
    # p2's queen can't bring in against p4's nine.
    text = UNKNOWN_DOORS.replace('"p3 pb", "p4 cbr 5", "p1 f", "p2 cc", "p3 f"', '"p2 pb"')
    assert refusal(text) == (
        "action 4 'p2 pb': p2 can't act first on 3rd street: "
        "by the cards known it is one of p1, p3, p4"
    )


UNKNOWN_FOURTH = """
variant = "F7S"
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 ????Kh", "d dh p2 ????Qd", "d dh p3 ????3c",
  "p3 pb", "p1 cc", "p2 cc",
  "d dh p1 ??", "d dh p2 Qs", "d dh p3 4c",
  "{first} cc",
]
"""


def test_unknown_upcards_on_a_later_street_leave_the_opener_to_the_file():
    # Queens showing open unless p1's king found a pair in the unknown card.
    state = replay(read_phh(UNKNOWN_FOURTH.format(first="p1")), upto=10)
    assert state.actions[-2]["kind"] == "open_with"
    assert state.to_act == 1


def test_an_opener_the_known_upcards_rule_out_is_refused():
    message = refusal(UNKNOWN_FOURTH.format(first="p3"))
    assert message == (
        "action 9 'p3 cc': p3 can't act first on 4th street: by the cards known it is one of p1, p2"
    )


def test_a_player_with_unknown_cards_at_the_showdown_must_show_them():
    head = UNKNOWN_DOORS[: UNKNOWN_DOORS.index('  "p2 cbr 10"')]
    text = (
        head
        + """  "p2 cc", "p4 cc",
  "d dh p2 3c", "d dh p4 4c", "p2 cc", "p4 cc",
  "d dh p2 5c", "d dh p4 6c", "p2 cc", "p4 cc",
  "d dh p2 ??", "d dh p4 ??", "p2 cc", "p4 cc",
  "p2 sm -",
]
"""
    )
    assert refusal(text) == "action 25 'p2 sm -': p2's cards are unknown; show them by name"


def test_a_cbr_for_the_all_in_bring_in_posts_the_bring_in():
    # pokerkit writes a bring-in player's all-in below the bring-in as cbr.
    text = ALL_IN_EARLY.replace("starting_stacks = [4, 100]", "starting_stacks = [1, 100]")
    text = text.replace('"p1 pb", "p2 cbr 2", "p1 cbr 4", "p2 cc",', '"p1 cbr 1", "p2 cc",')
    state = replay(read_phh(text))
    assert [e["type"] for e in state.events if e["type"] in WAGERS + ("bring_in",)] == ["bring_in"]
    assert state.stacks == [0, 101]


def test_a_bare_sm_mucks_and_sm_dash_shows_as_dealt():
    text = fixture("stud8.phh").replace('"p1 sm As2c3d4d7hJcQd"', '"p1 sm"')
    text = text.replace('"p2 sm KhKsKdQc7c8s6c"', '"p2 sm -"')
    text = text.replace("[101, 102, 97]", "[54, 149, 97]")
    state = replay(read_phh(text))
    assert state.mucked[0] and state.shown[1]


# --------------------------------------------------------------------- .phhs


def test_three_hands_round_trip_through_a_phhs_file():
    hands = [random_hand(seed) for seed in (3, 4, 5)]
    text = write_phhs(hands, everything=True)
    assert [line for line in text.splitlines() if line.startswith("[")] == ["[1]", "[2]", "[3]"]
    histories = read_phhs(text)
    assert [replay(h).stacks for h in histories] == [hand.stacks for hand in hands]


def test_a_phhs_file_takes_documents_and_histories_too():
    text = write_phhs([fixture("razz.phh"), read_phh(fixture("stud8.phh"))])
    stacks = [replay(history).stacks for history in read_phhs(text)]
    assert stacks == [[59, 142, 99], [101, 102, 97]]


def test_a_bad_hand_in_a_phhs_file_is_named_by_its_table():
    text = write_phhs([fixture("razz.phh"), fixture("stud8.phh")]).replace('"F7S/8"', '"XX"')
    with pytest.raises(PHHError, match=r"hand \[2\]: variant 'XX'"):
        read_phhs(text)


def test_a_phhs_file_holds_only_hands():
    with pytest.raises(PHHError, match="not a hand"):
        read_phhs('variant = "FR"\n')


# ------------------------------------------- decisions that are not bets


def test_an_exchange_is_written_as_phhs_draw_of_one_card_and_its_deal():
    actions = read_phh(write_phh(exchanged_hand())).actions  # an observer's export
    assert actions[:12] == [
        "d dh p1 AhAd2c",
        "d dh p2 ??Kd3c",  # bob shows, but never the K♠ he exchanged away
        "p1 pb",
        "p2 cc",
        "d dh p1 9h",
        "d dh p2 8d",
        "p1 cc",
        "p2 cc",
        "d dh p1 4c",
        "d dh p2 Qc",
        "p2 cc",
        "p1 cc",
    ]
    assert actions[12:15] == ["p1 sd 2c", "d dh p1 Ac", "p2 sd"]  # the price has no action
    assert actions[19:22] == ["p1 sd", "p2 sd ??", "d dh p2 ??"]
    assert actions[-2:] == ["p1 sm AhAdAc9h4c5s7d", "p2 sm KhKd3c8dQcJh7s"]


def test_the_player_who_exchanged_a_down_card_reads_both_cards_in_their_export():
    actions = read_phh(write_phh(exchanged_hand(), viewer=BOB)).actions
    assert actions[1] == "d dh p2 KsKd3c"
    assert actions[19:22] == ["p1 sd", "p2 sd Ks", "d dh p2 Kh"]


def test_an_exchange_replays_with_its_price_to_the_same_hand():
    state = exchanged_hand()
    for viewer in (ALICE, BOB, None):
        history = read_phh(write_phh(state, viewer=viewer))
        assert history.fields["_cardroom_rules"]["exchange_price"] is True
        replayed = replay(history)
        assert replayed.stacks == state.stacks == [113, 87]
        assert replayed.result["hands"] == state.result["hands"]


def test_which_unknown_down_card_went_is_left_to_the_show():
    # Bob exchanges his second down card, the K♦, and keeps the K♠ he shows.
    state = exchanged_hand("Kd")
    text = write_phh(state)
    assert '"d dh p2 Ks??3c"' in text and '"p2 sd ??"' in text
    # Had the file not known the K♠ either, the replay would take it for the
    # card exchanged: the first unknown one. Both stay unknown till the show,
    # which names each card where it ended.
    replayed = replay(read_phh(text.replace('"d dh p2 Ks??3c"', '"d dh p2 ????3c"')))
    bobs = ["Ks", "Kh", "3c", "8d", "Qc", "Jh", "7s"]
    assert replayed.result["hands"]["1"]["cards"] == state.result["hands"]["1"]["cards"] == bobs


def test_rolls_made_at_once_are_written_where_each_was_made():
    state = rolled_hand()
    assert read_phh(write_phh(state)).actions == [
        "d dh p1 ????",
        "d dh p2 ????",
        "# _cardroom_roll p2 7c",  # bob chose first
        "# _cardroom_roll p1 Kh",
        "p2 pb",
        "p1 cbr 5",
        "p2 f",
    ]
    replayed = replay(read_phh(write_phh(state, everything=True)))
    assert as_played(replayed) == as_played(state)  # the same order of choices


def test_a_roll_names_a_card_the_file_did_not_know():
    replayed = replay(read_phh(write_phh(rolled_hand())))
    assert replayed.upcards(ALICE) == [parse_card("Kh")]
    assert replayed.cards[ALICE][1].card == UNKNOWN  # her other card stays unknown


# Hi-lo declare, written by hand: tests/rules/test_decisions.py's three wheels
# and kings, every round checked or called. Alice brings in with the 3♥.
DECLARE = """
variant = "F7S/8"
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
_cardroom_variant = "declare"
actions = [
  "d dh p1 Ac2d3h", "d dh p2 Ad2c3s", "d dh p3 KcKh7d",
  "p1 pb", "p2 cc", "p3 cc",
  "d dh p1 4s", "d dh p2 4d", "d dh p3 9d", "p3 cc", "p1 cc", "p2 cc",
  "d dh p1 5c", "d dh p2 5h", "d dh p3 Js", "p3 cc", "p1 cc", "p2 cc",
  "d dh p1 Kd", "d dh p2 Qc", "d dh p3 6c", "p1 cc", "p2 cc", "p3 cc",
  "d dh p1 9c", "d dh p2 8s", "d dh p3 Th", "p1 cc", "p2 cc", "p3 cc",
  "# _cardroom_declare p3 high",
  "# _cardroom_declare p1 both",
  "# _cardroom_declare p2 low",
  "p1 sm Ac2d3h4s5cKd9c",
  "p2 sm Ad2c3s4d5hQc8s",
  "p3 sm KcKh7d9dJs6cTh",
]
"""


def test_a_declare_file_holds_each_hand_to_its_declaration():
    state = replay(read_phh(DECLARE))
    [pot] = state.result["pots"]
    # Alice's wheel ties bob's low, so her "both" wins nothing.
    assert (pot["high_winners"], pot["low_winners"]) == ([CAROL], [BOB])
    assert state.stacks == [97, 101, 102]
    assert state.result["hands"]["0"]["declared"] == "both"


def test_declarations_made_at_once_are_written_in_the_order_made():
    actions = read_phh(write_phh(declared_hand())).actions
    assert actions[-6:-3] == [
        "# _cardroom_declare p3 high",
        "# _cardroom_declare p1 both",
        "# _cardroom_declare p2 low",
    ]
    assert actions == read_phh(DECLARE).actions


def test_declarations_in_turn_are_written_in_turn():
    state = declare(declare_in_turn=True)
    decide(state, {p: ("declare_high", None) for p in (ALICE, BOB, CAROL)})
    history = read_phh(write_phh(state))
    assert history.fields["_cardroom_rules"]["declare_in_turn"] is True
    assert [a for a in history.actions if "declare" in a] == [
        "# _cardroom_declare p1 high",
        "# _cardroom_declare p2 high",
        "# _cardroom_declare p3 high",
    ]
    assert replay(history).stacks == state.stacks


def test_the_new_home_games_are_written_with_a_stud_code_and_named_in_a_user_field():
    hands = {"english": exchanged_hand(), "roll_your_own": rolled_hand()}
    hands["declare"] = declared_hand()
    for code, state in hands.items():
        fields = read_phh(write_phh(state)).fields
        assert (fields["variant"], fields["_cardroom_variant"]) == (
            "F7S/8" if code == "declare" else "F7S",
            code,
        )


def test_the_bug_plays_in_a_replayed_aces_straights_and_flushes_hand():
    # Alice: 9♥ 7♥ down, 4♥ 2♥ K♣ up, K♦ down: a flush with the bug, over
    # bob's three queens.
    deck = stack_deck(
        {0: "9h7h4h", 1: "QcQdQh"}, {0: "2h", 1: "3s"}, {0: "Kc", 1: "5d"}, {0: "Kd", 1: "8s"}
    )
    state = HandState.new(config(variant="aces_straights_flushes"), [100, 100], deck)
    while not state.finished:
        bet_passively(state)
    history = read_phh(write_phh(state))
    assert (history.fields["variant"], history.config.variant) == ("F7S", "aces_straights_flushes")
    replayed = replay(history)
    assert replayed.result["hands"]["0"]["high"] == "flush, ace high (with the bug)"
    assert replayed.stacks == state.stacks


@pytest.mark.parametrize(
    ("text", "old", "new", "message"),
    [
        (
            RAZZ,
            '"p3 f"',
            '"p3 sd 7h"',
            "action 5 'p3 sd 7h': Razz has no exchanges to stand pat or discard in",
        ),
        (
            DECLARE,
            '"# _cardroom_declare p1 both"',
            '"# _cardroom_declare p1 sideways"',
            "action 31 '# _cardroom_declare p1 sideways': a declaration is written "
            "'# _cardroom_declare pN high|low|both', not 'sideways'",
        ),
        (
            DECLARE,
            '"# _cardroom_declare p1 both"',
            '"# _cardroom_declare p1"',
            "action 31 '# _cardroom_declare p1': a declaration is written "
            "'# _cardroom_declare pN high|low|both'",
        ),
        (
            DECLARE,
            '"# _cardroom_declare p1 both"',
            '"# _cardroom_roll p1 Kd"',
            "action 31 '# _cardroom_roll p1 Kd': p1 can't 'roll' now; "
            "allowed: declare high; declare low; declare both",
        ),
    ],
)
def test_a_decision_the_game_does_not_allow_is_refused_by_its_action(text, old, new, message):
    assert old in text
    assert refusal(text.replace(old, new)) == message


def test_an_exchange_of_two_cards_is_refused():
    text = write_phh(exchanged_hand()).replace('"p1 sd 2c"', '"p1 sd 2c9h"')
    assert refusal(text) == (
        "action 12 'p1 sd 2c9h': an exchange is of one card, like 'p1 sd 7h'; 'p1 sd' stands pat"
    )


def test_a_roll_of_a_card_the_player_does_not_hold_is_refused():
    text = write_phh(rolled_hand(), everything=True)
    text = text.replace("_cardroom_roll p1 Kh", "_cardroom_roll p1 Qs")
    assert refusal(text).startswith("action 3 '# _cardroom_roll p1 Qs': p1 must name one card")


def test_a_file_that_stops_at_the_declarations_says_who_has_yet_to_declare():
    text = DECLARE.split('  "# _cardroom_declare p1')[0] + "]\n"  # carol has declared
    assert refusal(text) == "hand unfinished: p1, p2 to declare on 7th street"
