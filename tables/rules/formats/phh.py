"""Hand histories in the PHH format, written from and replayed through the engine.

A PHH file (https://phh.readthedocs.io) is TOML: the game's stakes, the
starting stacks and an ``actions`` array in which the dealer (``d``) and the
players (``p1``, ``p2``, ...) take turns. ``p1`` is our player 0.

* :func:`write_phh` exports a finished hand for one viewer. Down cards that
  viewer never saw are written ``??``; burns are never written.
* :func:`read_phh` parses and checks a file into a :class:`HandHistory`, and
  :func:`replay` plays it through :meth:`HandState.from_script`.
* :func:`write_phhs` / :func:`read_phhs` handle the ``.phhs`` form, many hands
  in one file: one TOML table per hand, ``[1]``, ``[2]`` and so on, each holding
  that hand's fields. Readers keep the tables in file order and take any label.

Showdowns are written ``pN sm <all the player's cards in dealing order>`` for a
shown hand and a bare ``pN sm`` for a muck. The reader also takes ``pN sm -``
(show the cards as dealt), just the down cards, and shows that other tools
write straight after an all-in, before the last streets are dealt, then again
at the showdown (see :class:`_Shows`).

A card the file doesn't know is ``??``, face down or face up. The result must
not depend on one: a player with unknown cards who reaches the showdown must
show them, and where unknown upcards leave open who brings in or acts first,
the file's next bet action names them (:meth:`HandState.open_with`).

Errors name the action by its index in the ``actions`` array, counting from 0,
quote it and say why: ``action 7 'p2 cbr 40': p2 can't raise to 40; allowed:
...``. A file that stops before its hand is over is an error too, saying
where the hand stands: ``hand unfinished: p3 to act on 6th street``.

Table options PHH has no field for (rake, tie-breaks, raise caps...) travel in
one user-defined field, ``_cardroom_rules``, written only when they differ from
the defaults, so that a raked hand replays to the same finishing stacks.

With ``commentary=True`` each action carries the narrator's line for it as
PHH commentary (``"p2 cc # bob calls 5"``), the words of the hand page
(:mod:`tables.rules.narration`), and what has no action of its own (an
uncalled bet handed back, the pots) is a line that is only a commentary. The
words tell no card the file doesn't write.

The standard's stud codes (``F7S``, ``FR``, ``F7S/8``) are fixed limit, and it
has none for London lowball or Mississippi stud. Two more user-defined fields, written only when
needed, say what those codes can't, and the standard fields stay as close as
other tools can still read:

* ``_cardroom_structure``: ``"spread"``, ``"pot"`` or ``"no"`` (absent:
  ``"fixed"``). ``small_bet`` and ``big_bet`` are the two bet sizes in fixed
  limit, and the spread's least and most bet in spread limit. In pot and no
  limit ``small_bet`` is the minimum bet on every street, and ``big_bet`` is
  written as the table's stakes have it, though no bet depends on it: the
  stud codes require the field, and the stakes come back whole.
* ``_cardroom_variant``: ``"london"``, with ``variant = "FR"``, or one of
  the stud games the standard has no code for (Mississippi, the wild-card
  games, the home games of decisions below), with ``variant = "F7S"``, or
  ``"F7S/8"`` for hi-lo declare (see :data:`STAND_INS`). A tool that reads
  only ``F7S`` replays the actions, but reads wild cards as natural.

The reader honours both, and refuses a value it doesn't know, or a
``_cardroom_variant`` that doesn't go with the file's ``variant``.

PHH has no action for seed 002's timeout protection (a player whose time ran
out is all in for what they have put in). It is written where it happened, as
an action that is only a commentary, ``"# _cardroom_protect p2"``: valid PHH
that other tools read as a no-op, and that this reader applies. The underscore
marks it as ours, as PHH's user-defined field names are marked.

The home games' decisions that are not bets are written so:

* English stud's exchange is PHH's own draw action, for one card: ``p1 sd
  7h`` (``p1 sd ??`` for a down card the file doesn't know), and the next
  action deals the card that replaces it, ``d dh p1 2c``, as a draw game's
  file does. A bare ``p1 sd`` stands pat. The price of an exchange (the
  ``exchange_price`` option, in ``_cardroom_rules``) has no action: the
  replay charges it as the table did.
* A roll (roll your own) and a declaration (hi-lo declare) are actions that
  are only a commentary, as a protection is: ``# _cardroom_roll p2 Kd`` and
  ``# _cardroom_declare p2 low`` (``high``, ``low`` or ``both``). Other
  tools read them as no-ops; a hi-lo declare file, written ``F7S/8``, replays
  there to the end, only the pots going as the cards speak.
* A choice everyone makes at once is written where its player made it, so
  that a replay makes them in the same order. Only a finished hand is
  written, and every choice has been revealed by then.
* A roll is public. A down card exchanged away is ``??`` to all but its
  owner, even when they show at the showdown (the show is of the cards they
  end with), and so is the down card that replaced it, which the show then
  names (see :class:`_Sight`).

>>> history = read_phh('''
... variant = "F7S"
... antes = [1, 1]
... bring_in = 2
... small_bet = 5
... big_bet = 10
... starting_stacks = [50, 50]
... actions = ["d dh p1 ????2c", "d dh p2 ????Kd", "p1 pb", "p2 cbr 5", "p1 f"]
... ''')
>>> replay(history).stacks
[47, 53]
"""

from __future__ import annotations

import datetime
import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tables.rules.betting import STRUCTURES
from tables.rules.cards import FULL_DECK, card_str, cards_str, parse_card
from tables.rules.config import GameConfig, percent_text
from tables.rules.errors import IllegalAction
from tables.rules.formats import fasttoml
from tables.rules.narration import Narrator
from tables.rules.state import (
    BOARD,
    DEALING,
    DECIDING,
    DECLARATIONS,
    EXCHANGE,
    PROTECT,
    ROLL,
    SHOWDOWN,
    STAND_PAT,
    UNKNOWN,
    WAGERS,
    HandState,
)
from tables.rules.variants import BY_PHH, VARIANTS, Variant
from tables.rules.views import events_for

RULES_FIELD = "_cardroom_rules"
VARIANT_FIELD = "_cardroom_variant"
STRUCTURE_FIELD = "_cardroom_structure"
REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
# GameConfig options with a field of their own: those the PHH standard defines
# for stud, and the structure (STRUCTURE_FIELD). The rest go in RULES_FIELD.
PHH_STAKES = ("variant", "ante", "bring_in", "small_bet", "big_bet")
OWN_FIELDS = (*PHH_STAKES, "structure")
FIXED = "fixed"  # the structure every PHH stud code stands for
# The PHH code written for a variant the standard has no code for. London
# lowball is razz's game but for the low ranking: the same deal, the highest
# door card bringing in, the lowest showing hand acting first, and no split.
# Only ace-to-six's straights and flushes, which count against a low, differ.
# A tool that knows only FR replays every bet and every show of the file; only
# who wins a pot may differ from ours. Mississippi is stud's deal and
# showdown with no betting round after 4th street: a tool that knows only F7S
# expects one there, before the 5th-street cards. VARIANT_FIELD names the
# real game.
STAND_INS = {
    "london": "FR",
    "mississippi": "F7S",
    "deuces": "F7S",
    "acey_ducey": "F7S",
    "one_eyed_jacks": "F7S",
    "suicide_king": "F7S",
    "queens": "F7S",
    "low_hole": "F7S",
    "man_with_the_axe": "F7S",
    "baseball": "F7S",
    "high_chicago": "F7S",
    "low_chicago": "F7S",
    # Roll your own deals two down cards a round and English stud exchanges
    # cards; a tool that knows only F7S can't follow either. Aces, Straights
    # and Flushes stops at six cards. Hi-lo declare is stud hi-lo's deal and
    # betting: a tool that knows only F7S/8 replays every action of the file
    # (our declarations are commentaries to it), and only the pots may differ.
    "roll_your_own": "F7S",
    "english": "F7S",
    "aces_straights_flushes": "F7S",
    "declare": "F7S/8",
    "declare8": "F7S/8",
}
PLAIN_VERBS = {"bring_in": "pb", "check": "cc", "call": "cc", "fold": "f", "muck": "sm"}
MAX_PLAYERS = 8
MUCK = "muck"  # what a bare ``pN sm`` reads as
# Moves PHH has no action for, each written as an action that is only a
# commentary: the note's name, the player and what the move needs.
PROTECT_NOTE = "_cardroom_protect"  # ``# _cardroom_protect pN``
ROLL_NOTE = "_cardroom_roll"  # ``# _cardroom_roll pN Kd``
DECLARE_NOTE = "_cardroom_declare"  # ``# _cardroom_declare pN high`` (low, both)
NOTES = {
    PROTECT_NOTE: ("a timeout protection", "pN"),
    ROLL_NOTE: ("a roll", "pN card"),
    DECLARE_NOTE: ("a declaration", "pN high|low|both"),
}
DECLARE_KINDS = {choice: kind for kind, choice in DECLARATIONS.items()}  # "low" -> "declare_low"
# What an unfinished file's players are waiting to do, by the decision's name.
DECIDING_WORDS = {
    ROLL: "roll a card face up",
    EXCHANGE: "exchange a card or stand pat",
    "declare": "declare",
}

# Cards as PHH writes them, read by one look-up; parse_card reads (or refuses) the rest.
CARD_CODES = {card_str(card): card for card in FULL_DECK} | {"??": UNKNOWN}
# What ``pN sm`` asks for: MUCK, None for the cards as dealt (``-``), or named cards.
Shown = list[int] | str | None


class PHHError(ValueError):
    """A PHH file that can't be read or replayed; the message names the field or action."""


@dataclass(frozen=True)
class HandHistory:
    """One checked PHH hand: what the engine needs, plus every field as read."""

    config: GameConfig
    starting_stacks: list[int]
    actions: list[str]
    finishing_stacks: list[int] | None
    fields: dict[str, Any]

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> HandHistory:
        """Check one hand's fields (a parsed ``.phh`` file or ``.phhs`` table)."""
        if not isinstance(fields, dict):
            raise PHHError("a hand must be a table of fields")
        missing = [name for name in REQUIRED if name not in fields]
        if missing:
            raise PHHError(f"missing required field(s): {', '.join(missing)}")
        stacks = _chip_list(fields, "starting_stacks", least=1)
        if not 2 <= len(stacks) <= MAX_PLAYERS:
            raise PHHError(f"starting_stacks: a stud hand has 2 to {MAX_PLAYERS} players")
        finishing = None
        if "finishing_stacks" in fields:
            finishing = _chip_list(fields, "finishing_stacks", count=len(stacks))
        return cls(
            config=_config(fields, len(stacks)),
            starting_stacks=stacks,
            actions=_action_list(fields),
            finishing_stacks=finishing,
            fields=dict(fields),
        )


# ------------------------------------------------------------------- reading


def read_phh(text: str | bytes) -> HandHistory:
    """Parse and check one ``.phh`` document."""
    return HandHistory.from_fields(_load_toml(text))


def read_phhs(text: str | bytes) -> list[HandHistory]:
    """Parse and check every hand of a ``.phhs`` document, in file order."""
    histories = []
    for label, fields in phhs_sections(text).items():
        try:
            histories.append(HandHistory.from_fields(fields))
        except PHHError as exc:
            raise PHHError(f"hand [{label}]: {exc}") from None
    return histories


def phhs_sections(text: str | bytes) -> dict[str, dict[str, Any]]:
    """The unchecked fields of each hand in a ``.phhs`` document, by table name."""
    document = _load_toml(text)
    for label, fields in document.items():
        if not isinstance(fields, dict):
            raise PHHError(f"{label!r} is not a hand: a .phhs file holds one [N] table per hand")
    if not document:
        raise PHHError("the .phhs file holds no hands")
    return document


def _load_toml(text: str | bytes) -> dict[str, Any]:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PHHError(f"not UTF-8 text: {exc}") from None
    document = fasttoml.loads(text)  # most hand histories, in a fraction of the time
    if document is not None:
        return document
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}") from None


def _chips(value: Any, name: str, *, least: int = 0) -> int:
    """Whole chips; a float is taken only when it is a whole number (``25.0``)."""
    if type(value) is float and value.is_integer():
        value = int(value)
    if type(value) is not int or value < least:
        kind = "a positive" if least else "a non-negative"
        raise PHHError(f"{name} must be {kind} whole number of chips, not {value!r}")
    return value


def _chip_list(
    fields: dict[str, Any], name: str, *, count: int | None = None, least: int = 0
) -> list[int]:
    values = fields[name]
    if not isinstance(values, list):
        raise PHHError(f"{name} must be an array with one number per player")
    if count is not None and len(values) != count:
        raise PHHError(f"{name} has {len(values)} entries for {count} players")
    if all(type(v) is int and v >= least for v in values):
        return list(values)
    return [_chips(v, f"{name}[{i}]", least=least) for i, v in enumerate(values)]


def _config(fields: dict[str, Any], players: int) -> GameConfig:
    variant = _variant_read(fields)
    _refuse_button_fields(fields)
    options = {
        **_house_rules_read(fields),
        "variant": variant,
        "structure": _structure_read(fields),
        "ante": _uniform_ante(_chip_list(fields, "antes", count=players)),
        **{name: _chips(fields[name], name) for name in ("bring_in", "small_bet", "big_bet")},
    }
    try:
        return _game(tuple(options.items()))
    except TypeError:  # a house rule given as a table: not hashable, so not kept
        return _game_now(options)


@functools.lru_cache(maxsize=256)
def _game(options: tuple[tuple[str, Any], ...]) -> GameConfig:
    """The game of a file; the hands of one table's history share theirs."""
    return _game_now(dict(options))


def _game_now(options: dict[str, Any]) -> GameConfig:
    try:
        return GameConfig.from_dict(options)
    except IllegalAction as exc:
        raise PHHError(f"the game can't be set up: {exc}") from None


def _variant_read(fields: dict[str, Any]) -> str:
    """Our variant code: from the PHH code, or from VARIANT_FIELD when the file has it."""
    code = fields["variant"]
    if not isinstance(code, str) or code not in BY_PHH:
        raise PHHError(f"variant {code!r} is not played here; use one of {', '.join(BY_PHH)}")
    ours = fields.get(VARIANT_FIELD)
    if ours is None:
        return BY_PHH[code].code
    if not isinstance(ours, str) or ours not in VARIANTS:
        raise PHHError(f"{VARIANT_FIELD} must be one of {', '.join(VARIANTS)}, not {ours!r}")
    expected = phh_variant(VARIANTS[ours])
    if expected != code:
        raise PHHError(
            f"{VARIANT_FIELD} {ours!r} is written with variant {expected!r}, not {code!r}"
        )
    return ours


def _structure_read(fields: dict[str, Any]) -> str:
    """The betting structure: STRUCTURE_FIELD's, or fixed limit as the stud codes say."""
    structure = fields.get(STRUCTURE_FIELD, FIXED)
    if not isinstance(structure, str) or structure not in STRUCTURES:
        raise PHHError(
            f"{STRUCTURE_FIELD} must be one of {', '.join(STRUCTURES)}, not {structure!r}"
        )
    return structure


def phh_variant(variant: Variant) -> str:
    """The PHH code a variant is written with: its own, or its stand-in's."""
    code = variant.phh or STAND_INS.get(variant.code)
    if code is None:
        raise PHHError(f"PHH has no variant code for {variant.name}, and none stands in for it")
    return code


def _refuse_button_fields(fields: dict[str, Any]) -> None:
    blinds = fields.get("blinds_or_straddles")
    harmless = blinds is None or (isinstance(blinds, list) and not any(blinds))  # all zeros
    if not harmless:
        raise PHHError("blinds_or_straddles: stud has a bring-in, not blinds")
    if "min_bet" in fields:
        raise PHHError(
            "min_bet: stud here takes its minimum bet from small_bet, beside big_bet; "
            f"pot and no limit are named in {STRUCTURE_FIELD}"
        )


def _uniform_ante(antes: list[int]) -> int:
    """The engine takes the same ante from everyone, so the file must too."""
    if len(set(antes)) != 1:
        raise PHHError(f"antes: every player must ante the same here, not {antes}")
    return antes[0]


def _house_rules_read(fields: dict[str, Any]) -> dict[str, Any]:
    rules = fields.get(RULES_FIELD, {})
    if not isinstance(rules, dict):
        raise PHHError(f"{RULES_FIELD} must be a table of game options")
    clash = sorted(set(rules) & set(OWN_FIELDS))
    if clash:
        raise PHHError(f"{RULES_FIELD} can't set {', '.join(clash)}; a field of its own does")
    return dict(rules)


def _action_list(fields: dict[str, Any]) -> list[str]:
    actions = fields["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError("actions must be an array of strings")
    return list(actions)


# ------------------------------------------------------------------ replaying


def replay(history: HandHistory, *, upto: int | None = None) -> HandState:
    """Play every action of ``history`` through the engine, to the end of the hand.

    Raises :class:`PHHError` naming the first action the engine refuses and
    why, or saying where the hand stands when the actions stop before it is
    over, or giving both sets of stacks when the file's finishing stacks
    disagree with the replay's.

    With ``upto``, only the first ``upto`` actions are played, and the hand
    is returned as it stands then: over or not, stacks unchecked.
    """
    try:
        state = HandState.from_script(history.config, history.starting_stacks)
    except IllegalAction as exc:
        raise PHHError(f"the hand can't start: {exc}") from None
    shows = _Shows(state)
    players = {f"p{i + 1}": i for i in range(state.n)}
    for index, text in enumerate(history.actions[:upto]):
        try:
            _step(state, text, shows, index, players)
        except IllegalAction as exc:
            raise _blamed(index, text, exc) from None
        if state.phase == SHOWDOWN:
            shows.settle()
    if upto is not None:
        return state
    if not state.finished:
        raise PHHError(f"hand unfinished: {_waiting_on(state)}")
    _check_finish(history, state)
    return state


def _blamed(index: int, text: str, exc: IllegalAction) -> PHHError:
    """A refusal naming the action, counting from 0 as in the ``actions`` array.

    The engine numbers players from 0; the file's ``p1`` is its player 0, so
    its words are put back into the file's names.
    """
    return PHHError(f"action {index} {text!r}: {_file_names(str(exc))}")


def _file_names(words: str) -> str:
    return re.sub(r"\bplayer ([0-9]+)\b", lambda m: f"p{int(m[1]) + 1}", words)


def _step(state: HandState, text: str, shows: _Shows, index: int, players: dict[str, int]) -> None:
    """Apply one action line; ``players`` maps the file's names (``p1``) to ours."""
    action, commentary = text, ""
    if "#" in text:  # commentary follows a '#'
        action, _, commentary = text.partition("#")
    words = action.split()
    if len(words) < 2:
        if words:
            raise IllegalAction("an action is an actor and a verb, like 'p1 cc'")
        _commentary(state, commentary.split())  # an empty action or a bare commentary
    elif words[0] == "d":
        _deal(state, words[1:], players)
    else:
        player = players[words[0]] if words[0] in players else _player(state, words[0])
        if words[1] == "sm":
            shows.show(player, _shown_cards(words[2:]), index, text)
        elif words[1] == "sd":
            _exchange(state, player, words[2:])
        else:
            _bet(state, player, words[1], words[2:])


def _commentary(state: HandState, words: list[str]) -> None:
    """A bare commentary is a no-op, unless it is one of our NOTES: a timeout
    protection, a roll or a declaration."""
    if not words or words[0] not in NOTES:
        return
    note, args = words[0], words[1:]
    what, form = NOTES[note]
    if len(args) != len(form.split()):
        raise IllegalAction(f"{what} is written '# {note} {form}'")
    player = _player(state, args[0])
    if note == PROTECT_NOTE:
        state.protect(player)
    elif note == ROLL_NOTE:
        state.act(player, ROLL, cards=_read_cards(args[1]))
    elif args[1] in DECLARE_KINDS:
        state.act(player, DECLARE_KINDS[args[1]])
    else:
        raise IllegalAction(f"{what} is written '# {note} {form}', not {args[1]!r}")


def _exchange(state: HandState, player: int, args: list[str]) -> None:
    """PHH's draw action, ``pN sd``: English stud's exchange of one card
    (``pN sd 7h``, ``pN sd ??`` for a down card the file doesn't know), its
    replacement dealt by the next ``d dh``, or a stand pat (a bare ``pN sd``)."""
    if not state.game.exchanges:
        raise IllegalAction(f"{state.game.name} has no exchanges to stand pat or discard in")
    if not args:
        state.act(player, STAND_PAT)
        return
    cards = _read_cards(args[0]) if len(args) == 1 else []
    if len(cards) != 1:
        raise IllegalAction("an exchange is of one card, like 'p1 sd 7h'; 'p1 sd' stands pat")
    state.act(player, EXCHANGE, cards=cards)


def _deal(state: HandState, words: list[str], players: dict[str, int]) -> None:
    if words[0] == "dh" and len(words) == 3:
        player = players[words[1]] if words[1] in players else _player(state, words[1])
        state.deal(player, _read_cards(words[2]))
    elif words[0] == "db" and len(words) == 2:
        state.deal(BOARD, _read_cards(words[1]))
    else:
        raise IllegalAction("the dealer's actions are 'd dh pN cards' and 'd db card'")


def _bet(state: HandState, player: int, verb: str, args: list[str]) -> None:
    if state.opening_choices():
        state.open_with(player)  # unknown upcards: the file says who acts first
    if verb == "cbr" and len(args) == 1:
        amount = _amount(args[0])
        state.act(player, _wager_kind(state, amount), amount)
    elif verb in ("pb", "cc", "f") and not args:
        kind = {"pb": "bring_in", "f": "fold"}.get(verb) or _check_or_call(state, player)
        state.act(player, kind)
    else:
        raise IllegalAction("player actions are pb, cbr AMOUNT, cc, f, sd [card] and sm [cards]")


def _player(state: HandState, word: str) -> int:
    match = re.fullmatch(r"p([1-9][0-9]*)", word)
    if not match or int(match[1]) > state.n:
        raise IllegalAction(f"{word!r} is not a player; this hand has p1 to p{state.n}")
    return int(match[1]) - 1


def _read_cards(text: str) -> list[int]:
    """PHH cards: two characters each, ``??`` for a card nobody saw."""
    codes = CARD_CODES
    if text in codes:  # one card, as on every street after the 3rd
        return [codes[text]]
    if len(text) % 2:
        raise IllegalAction(f"{text!r} is not a list of cards")
    pairs = [text[i : i + 2] for i in range(0, len(text), 2)]
    return [codes[pair] if pair in codes else parse_card(pair) for pair in pairs]


def _amount(text: str) -> int:
    if text.isascii() and text.isdigit():
        return int(text)
    match = re.fullmatch(r"([0-9]+)(?:\.0*)?", text)
    if not match:
        raise IllegalAction(f"the amount {text!r} must be a whole number of chips")
    return int(match[1])


def _wager_kind(state: HandState, amount: int) -> str:
    """What ``cbr AMOUNT`` is here: a complete, bet or raise, or the bring-in.

    Some tools write a bring-in player's all-in for no more than the bring-in
    as ``cbr``; it posts the same chips as ``pb``, so it is read as the bring-in.
    """
    wager = "raise"
    for option in state.legal_actions():
        if option.kind == "bring_in" and option.min == amount:
            return "bring_in"
        if option.kind in WAGERS:
            wager = option.kind
    return wager


def _check_or_call(state: HandState, player: int) -> str:
    """``cc``: a call when the player has a bet to match, otherwise a check."""
    return "call" if state.bets[player] < state.current_bet else "check"


def _shown_cards(args: list[str]) -> Shown:
    if not args:
        return MUCK
    if args == ["-"]:
        return None
    if len(args) != 1:
        raise IllegalAction("write the shown cards together, like 'AhKd7c'")
    return _read_cards(args[0])


def _showdown(state: HandState, player: int, shown: Shown) -> None:
    if shown == MUCK:
        state.act(player, "muck")
    else:
        state.act(player, "show", cards=shown if isinstance(shown, list) else None)


@dataclass
class _Held:
    """A show written before the showdown (at an all-in), kept for it."""

    index: int
    text: str
    shown: Shown  # named cards: the player's cards so far, in dealing order


class _Shows:
    """``sm`` actions: at the showdown, and those written before or after it.

    Other tools show an all-in player's hand straight away, and again at the
    showdown once the last cards are dealt. An early show is checked against
    the cards dealt so far and held; at the showdown it is made, with the cards
    dealt since. A later show by a player who has shown must name the same
    cards. Either way the result comes from the cards, not from the file.
    """

    def __init__(self, state: HandState) -> None:
        self.state = state
        self.held: dict[int, _Held] = {}

    def show(self, player: int, shown: Shown, index: int, text: str) -> None:
        state = self.state
        if state.phase == DEALING and state.pending_deal is not None:
            self._hold(player, _Held(index, text, self._so_far(player, shown)))
        elif state.phase != DEALING and state.shown[player]:
            self._repeat(player, shown)
        else:
            _showdown(state, player, shown)

    def settle(self) -> None:
        """At the showdown, make the held shows, in the order they were written."""
        for player, held in self.held.items():
            try:
                _showdown(self.state, player, self._with_later_cards(player, held.shown))
            except IllegalAction as exc:
                raise _blamed(held.index, held.text, exc) from None
        self.held.clear()

    def _so_far(self, player: int, shown: Shown) -> Shown:
        """Named cards, before the showdown: all the player's cards so far in
        dealing order, or just the down ones, which the engine puts in place."""
        if not isinstance(shown, list):
            return shown
        return self.state.shown_cards(player, shown)

    def _hold(self, player: int, held: _Held) -> None:
        before = self.held.get(player)
        if before is not None and not _repeats(held.shown, before.shown):
            earlier = before.shown if isinstance(before.shown, list) else []
            raise IllegalAction(
                f"player {player} showed {cards_str(earlier)} in action "
                f"{before.index}; a later show must repeat those cards"
            )
        self.held[player] = held

    def _with_later_cards(self, player: int, shown: Shown) -> Shown:
        if not isinstance(shown, list):
            return shown
        return shown + _dealt(self.state, player)[len(shown) :]

    def _repeat(self, player: int, shown: Shown) -> None:
        """A show by a player who has shown: it must name the same cards."""
        cards = _dealt(self.state, player)
        if shown == MUCK:
            raise IllegalAction(f"player {player} has shown their hand; it can't be mucked")
        if not isinstance(shown, list):
            return
        if shown not in (cards, self.state.downcards(player)):
            raise IllegalAction(
                f"player {player} has shown {cards_str(cards)}; a later show can't "
                f"name other cards ({cards_str(c for c in shown if c != UNKNOWN)})"
            )


def _repeats(later: Shown, earlier: Shown) -> bool:
    """Whether a later show names the earlier one's cards first (mucks and ``-`` pass)."""
    if not isinstance(later, list) or not isinstance(earlier, list):
        return True
    return later[: len(earlier)] == earlier


def _dealt(state: HandState, player: int) -> list[int]:
    """The player's own cards, in dealing order (no community card)."""
    return [held.card for held in state.cards[player]]


def _waiting_on(state: HandState) -> str:
    """Where an unfinished hand stands, in the file's names."""
    street = state.street_name
    if state.phase == SHOWDOWN:
        names = ", ".join(f"p{p + 1}" for p in state.showdown_order)
        return f"{names} to show or muck at the showdown"
    if state.phase == DECIDING:
        names = ", ".join(f"p{p + 1}" for p in state.deciding())
        return f"{names} to {DECIDING_WORDS[state.decision_name or '']} on {street}"
    if state.phase == DEALING:
        target, count = state.pending_deal or (BOARD, 0)
        whom = "the board" if target == BOARD else f"p{target + 1}"
        return f"the dealer to deal {count} card(s) to {whom} on {street}"
    if state.to_act is None:
        names = " or ".join(f"p{p + 1}" for p in state.opening_choices())
        return f"{names} to act first on {street}"
    return f"p{state.to_act + 1} to act on {street}"


def _check_finish(history: HandHistory, state: HandState) -> None:
    if history.finishing_stacks is not None and history.finishing_stacks != state.stacks:
        raise PHHError(
            f"finishing_stacks: the file says {history.finishing_stacks} "
            f"but the actions leave {state.stacks}"
        )


# ------------------------------------------------------------------- writing


def write_phh(
    state: HandState,
    *,
    viewer: int | None = None,
    everything: bool = False,
    extra: dict[str, Any] | None = None,
    commentary: bool = False,
) -> str:
    """A finished hand as a PHH document, as ``viewer`` saw it.

    ``viewer`` is a player number, or None for an observer; ``everything``
    (staff only) writes every down card. Others' down cards are ``??`` unless
    shown at the showdown. ``extra`` adds optional fields (``players``,
    ``hand``, ``table``, ``time``, ``seat_count``...). ``commentary`` tells
    each action in words, naming players as ``extra["players"]`` does.
    """
    fields = hand_fields(
        state, viewer=viewer, everything=everything, extra=extra, commentary=commentary
    )
    return _dump(fields)


def write_phhs(
    hands: Iterable[HandState | HandHistory | dict[str, Any] | str],
    *,
    viewer: int | None = None,
    everything: bool = False,
) -> str:
    """Many hands as one ``.phhs`` document: tables ``[1]``, ``[2]``, ...

    Each hand is a finished :class:`HandState` (written for ``viewer``), the
    fields :func:`hand_fields` gives (each hand for its own viewer), a
    :class:`HandHistory`, or the text of a ``.phh`` document.
    """
    sections = []
    for number, hand in enumerate(hands, start=1):
        if isinstance(hand, HandState):
            fields = hand_fields(hand, viewer=viewer, everything=everything)
        elif isinstance(hand, dict):
            fields = hand
        else:
            fields = (hand if isinstance(hand, HandHistory) else read_phh(hand)).fields
        sections.append(f"[{number}]\n{_dump(fields)}")
    return "\n".join(sections)


def hand_fields(
    state: HandState,
    *,
    viewer: int | None = None,
    everything: bool = False,
    extra: dict[str, Any] | None = None,
    commentary: bool = False,
) -> dict[str, Any]:
    """The PHH fields of a finished hand, in the order they are written."""
    _check_writable(state, viewer)
    config, sight = state.config, _Sight.of(state, viewer, everything)
    said = None
    if commentary:
        names = (extra or {}).get("players") or [f"p{p + 1}" for p in range(state.n)]
        said = _said(state, sight, names)
    fields: dict[str, Any] = {
        "variant": phh_variant(config.game),
        "antes": [config.ante] * state.n,
        "bring_in": config.bring_in,
        "small_bet": config.small_bet,
        "big_bet": config.big_bet,
        "starting_stacks": list(state.starting_stacks),
        "actions": _action_lines(state, sight, said),
        "finishing_stacks": list(state.stacks),
    }
    if config.game.phh is None:
        fields[VARIANT_FIELD] = config.variant
    if config.structure != FIXED:
        fields[STRUCTURE_FIELD] = config.structure
    rules = _house_rules(config)
    if rules:
        fields[RULES_FIELD] = rules
    for name, value in (extra or {}).items():
        if name in fields:
            raise PHHError(f"extra field {name!r} would overwrite the hand's own")
        fields[name] = value
    return fields


def _check_writable(state: HandState, viewer: int | None) -> None:
    if not state.finished:
        raise PHHError("only a finished hand can be written")
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < state.n):
        raise PHHError(f"viewer must be a player from 0 to {state.n - 1} or None, not {viewer!r}")


@dataclass(frozen=True)
class _Sight:
    """The cards an export names: every upcard, the viewer's down cards, and
    the down cards of a player who showed them, all of them for staff.

    A card exchanged away is dead and never shown: only its owner and staff
    read it. The card that replaced a shown player's down card is written
    ``??`` where it is dealt, and named by the show. ``pN sd ??`` can't say
    which of several unknown down cards went, and the reader takes the first:
    were the others named, the show could find a named card where an unknown
    one was taken. With every card an exchange touches unknown, any unknown
    one will do: the show names them all where they end up.
    """

    viewer: int | None
    everything: bool
    shown: frozenset[int]
    discards: frozenset[int]

    @classmethod
    def of(cls, state: HandState, viewer: int | None, everything: bool) -> _Sight:
        shown = frozenset(event["player"] for event in state.events if event["type"] == "show")
        return cls(viewer, everything, shown, frozenset(state.discards))

    def sees(self, event: dict[str, Any]) -> bool:
        """Whether the card of a deal or an exchange event is written."""
        player, card = event["player"], event["card"]
        if card == UNKNOWN:
            return False
        if self.everything or event["up"] or player == self.viewer:
            return True
        return player in self.shown and card not in self.discards and not event.get("exchange")

    def card(self, event: dict[str, Any]) -> str:
        return card_str(event["card"]) if self.sees(event) else "??"


def _action_lines(
    state: HandState, sight: _Sight, said: list[str | None] | None = None
) -> list[str]:
    """The ``actions`` array; with ``said``, each event's words as commentary."""
    lines: list[str] = []
    notes: dict[int, str] = {}  # line index -> its commentary, added once the line is whole
    dealing = None  # (player, street) of the deal line being built
    hidden = _hidden_choices(state.events)
    revealed = set(hidden.values())  # choices written where they were made, not here
    for index, event in enumerate(state.events):
        words = said[index] if said else None
        if event["type"] != "deal":
            dealing = None
            if index in revealed:
                made = []
            else:  # a choice made at once with others is written where it was made
                made = _event_line(state.events[hidden.get(index, index)], sight)
            if words and made and not made[0].startswith("#"):  # a note has no words
                notes[len(lines)] = words
            elif words and not made and event["type"] != "ante":  # the antes have a field
                made = [f"# {words}"]
            lines.extend(made)
            continue
        player, alone = event["player"], event.get("extra") or event.get("exchange")
        if dealing == (player, event["street"]) and not alone:
            lines[-1] += sight.card(event)
        else:
            # An extra card (Baseball) or one replacing a card exchanged is a
            # deal of its own, as the reader expects it.
            lines.append(f"d dh p{player + 1} {sight.card(event)}")
            dealing = None if alone else (player, event["street"])
        if words:
            notes[len(lines) - 1] = words
    return [f"{line} # {notes[i]}" if i in notes else line for i, line in enumerate(lines)]


def _hidden_choices(events: list[dict[str, Any]]) -> dict[int, int]:
    """Each ``decided`` event's index -> the index of the roll or declaration
    it kept hidden until everyone had chosen.

    The file writes each choice where it was made, so that a replay makes
    them in the same order; a finished hand has revealed them all.
    """
    waiting: dict[int, int] = {}
    made: dict[int, int] = {}
    for index, event in enumerate(events):
        if event["type"] == "decided":
            waiting[event["player"]] = index
        elif event["type"] in (ROLL, "declare") and event["player"] in waiting:
            made[waiting.pop(event["player"])] = index
    return made


def _said(state: HandState, sight: _Sight, names: list[str]) -> list[str | None]:
    """Each event's words, told from the cards the file writes: everyone's upcards,
    and the down cards ``sight`` names (burns for staff only)."""
    events = events_for(state, everything=sight.everything)
    for index, event in enumerate(events):
        if event["type"] in ("deal", EXCHANGE) and event["card"] is None:
            original = state.events[index]
            if sight.sees(original):
                events[index] = {**event, "card": card_str(original["card"])}
    return [told.text for told in Narrator(names, state).tell(events)]


def _event_line(event: dict[str, Any], sight: _Sight) -> list[str]:
    """The action line for one non-deal event; none for antes, burns, returns..."""
    kind = event["type"]
    if kind == "board":
        return [f"d db {card_str(event['card'])}"]
    actor = f"p{event.get('player', 0) + 1}"
    if kind in WAGERS:
        return [f"{actor} cbr {event['total']}"]
    if kind == "show":
        return [f"{actor} sm {cards_str(event['cards'])}"]
    if kind == EXCHANGE:  # PHH's draw: the card goes, the next ``d dh`` replaces it
        return [f"{actor} sd {sight.card(event)}"]
    if kind == STAND_PAT:
        return [f"{actor} sd"]
    if kind == PROTECT:
        return [f"# {PROTECT_NOTE} {actor}"]
    if kind == ROLL:
        return [f"# {ROLL_NOTE} {actor} {card_str(event['card'])}"]
    if kind == "declare":
        return [f"# {DECLARE_NOTE} {actor} {event['choice']}"]
    if kind in PLAIN_VERBS:
        return [f"{actor} {PLAIN_VERBS[kind]}"]
    return []


def _house_rules(config: GameConfig) -> dict[str, Any]:
    """The table's options that PHH has no field for and that differ from the defaults."""
    default = GameConfig().to_dict()
    rules = {
        name: value
        for name, value in config.to_dict().items()
        if name not in OWN_FIELDS and value != default[name]
    }
    if "rake" in rules:
        # A plain decimal ("10", "2.5"), even for a hand stored with "1E+1".
        rules["rake"] = {**rules["rake"], "percent": percent_text(config.rake.percent)}
    return rules


# -------------------------------------------------------------- TOML output

TOML_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _dump(fields: dict[str, Any]) -> str:
    """Top-level ``key = value`` lines; the actions one per line for people to read."""
    lines = []
    for name, value in fields.items():
        if name == "actions" and value:
            items = "".join(f"  {_toml(action)},\n" for action in value)
            lines.append(f"actions = [\n{items}]\n")
        elif value is not None:
            lines.append(f"{_key(name)} = {_toml(value)}\n")
    return "".join(lines)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_key(k)} = {_toml(v)}" for k, v in value.items() if v is not None)
        return ("{ " + ", ".join(pairs) + " }") if value else "{}"
    if isinstance(value, (datetime.date, datetime.time)):
        return _moment(value)
    raise PHHError(f"can't write a {type(value).__name__} to PHH: {value!r}")


def _float(value: float) -> str:
    if value != value:
        return "nan"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return repr(value)


def _moment(value: datetime.date | datetime.time) -> str:
    if isinstance(value, datetime.time) and value.tzinfo is not None:
        raise PHHError("TOML has no time of day with a time zone; give a datetime")
    return value.isoformat()


def _string(text: str) -> str:
    def escape(char: str) -> str:
        if char in TOML_ESCAPES:
            return TOML_ESCAPES[char]
        return f"\\u{ord(char):04x}" if ord(char) < 0x20 or ord(char) == 0x7F else char

    return '"' + "".join(escape(c) for c in text) + '"'


def _key(name: str) -> str:
    if not isinstance(name, str):
        raise PHHError(f"a field name must be text, not {name!r}")
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _string(name)
