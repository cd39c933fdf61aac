"""Stakes, tables, seats, hands and rake, as the services persist them.

The rules live in ``tables.rules``; these models store what a table is set to
and what happened, and only ``tables.services`` changes them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.dateparse import parse_datetime

from cardroom.rows import RowLoaded
from tables.names import as_sentence
from tables.rules import GameConfig, IllegalAction
from tables.rules import RakeRule as EngineRake
from tables.rules.betting import STRUCTURES
from tables.rules.config import percent_text
from tables.rules.games import structure_choices, variant_choices
from tables.rules.variants import VARIANTS

# Both lists come from the engine's registry: a new variant or structure there
# is a new choice here (and a migration for the new choices).
VARIANT_CHOICES = variant_choices()


class RakeRule(RowLoaded):
    name = models.CharField(max_length=60, unique=True)
    percent = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
        help_text="Share of each pot, in percent.",
    )
    cap = models.PositiveIntegerField(null=True, blank=True, help_text="Empty: no cap.")
    no_rake_third_street = models.BooleanField(
        default=True, help_text="No rake when the hand ends before 4th street."
    )

    def __str__(self) -> str:
        cap = f", cap {self.cap}" if self.cap is not None else ""
        return f"{self.name} ({self.percent_shown()}{cap})"

    def percent_shown(self) -> str:
        """``"10%"``, ``"2.5%"``: the percent as people write it."""
        return f"{percent_text(self.percent)}%"

    def engine_rule(self) -> EngineRake:
        return EngineRake(
            percent=percent_text(self.percent),
            cap=self.cap,
            no_rake_third_street=self.no_rake_third_street,
        )


def _between(low: int, high: int) -> list[MinValueValidator | MaxValueValidator]:
    return [MinValueValidator(low), MaxValueValidator(high)]


MAX_SEATS = 8  # the most seats a table has (and players a hand is dealt to)


class Stakes(RowLoaded):
    class TimeoutPolicy(models.TextChoices):
        CHECK_FOLD = "check_fold", "Check if checking is free, otherwise fold"
        ALL_IN = (
            "all_in",
            "Disconnect protection: a player with chips in the pot beyond the ante "
            "goes all in for what they have put in; anyone else checks or folds",
        )

    class Clock(models.TextChoices):
        PER_TURN = "per_turn", "A fresh countdown every turn"
        TIME_BANK = "time_bank", "A time bank spent across hands, refilled every few hands"

    class TieBreak(models.TextChoices):
        POSITION = "position", "The player nearer the dealer's left"
        SUIT = "suit", "The higher suit of the highest card (in razz, the lower suit)"

    # What a home game's host sets, opening the game and changing it (the game
    # itself, ``variant``, comes from the games they choose): the host's forms
    # ask for these, and a change writes these and the variant.
    HOST_TERMS = (
        "structure",
        "ante",
        "bring_in",
        "small_bet",
        "big_bet",
        "seats",
        "min_buy_in",
        "max_buy_in",
        "action_seconds",
    )

    class AllInOpener(models.TextChoices):
        NEXT_SEAT = "next_seat", "The next seat clockwise acts first, as if they had checked (WSOP)"
        BEST_STILL_BETTING = (
            "best_still_betting",
            "The best hand among those still betting acts first",
        )

    class ShortAllIn(models.TextChoices):
        HALF = "half", "Half a bet or more reopens raising"
        FULL = "full", "Only a full raise reopens raising"

    name = models.CharField(max_length=60, unique=True)
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES, default="stud")
    structure = models.CharField(max_length=8, choices=structure_choices(), default="fixed")
    ante = models.PositiveIntegerField(
        default=0, help_text="Below the bring-in, or below the small bet with no bring-in."
    )
    bring_in = models.PositiveIntegerField(
        default=0, help_text="Below the small bet. 0: no bring-in; the best door card opens."
    )
    small_bet = models.PositiveIntegerField(
        validators=[MinValueValidator(1)],
        help_text="Fixed limit: the bet on 3rd and 4th street. Spread limit: the spread's "
        "minimum, the smallest bet or raise. Pot and no limit: the minimum bet.",
    )
    big_bet = models.PositiveIntegerField(
        validators=[MinValueValidator(1)],
        help_text="Fixed limit: the bet from 5th street on, at least the small bet. Spread "
        "limit: the spread's maximum, the largest bet or raise, above the small bet. Pot and "
        "no limit: not used (any number from 1).",
    )
    min_buy_in = models.PositiveIntegerField(
        help_text="At least the big bet (fixed limit), the spread's maximum (spread limit) "
        "or the minimum bet (pot and no limit)."
    )
    max_buy_in = models.PositiveIntegerField(help_text="At least the minimum buy-in.")
    seats = models.PositiveSmallIntegerField(
        default=8, validators=_between(2, MAX_SEATS), help_text="2 to 8."
    )
    action_seconds = models.PositiveSmallIntegerField(
        default=10,
        validators=_between(5, 300),
        verbose_name="action time",
        help_text="Seconds a player has for each move before the countdown or their time "
        "bank runs: 5 to 300.",
    )
    clock = models.CharField(
        max_length=12,
        choices=Clock.choices,
        default=Clock.PER_TURN,
        verbose_name="extra time",
        help_text="What a player gets once the action time is up.",
    )
    # The column keeps its old name: it was the time bank before the countdown
    # became the default.
    time_bank_seconds = models.PositiveSmallIntegerField(
        default=20,
        validators=_between(0, 600),
        verbose_name="countdown or time bank",
        help_text="Seconds of the countdown each turn; with a time bank, the seconds each "
        "player starts with and the most the bank can hold: 0 to 600.",
    )
    bank_refill_seconds = models.PositiveSmallIntegerField(
        default=5,
        validators=_between(0, 600),
        verbose_name="time bank refill",
        help_text="With a time bank: seconds added to a player's bank every few hands they "
        "are dealt into, up to its size. 0: never refilled. 0 to 600.",
    )
    bank_refill_hands = models.PositiveSmallIntegerField(
        default=5,
        validators=_between(1, 100),
        verbose_name="hands per refill",
        help_text="With a time bank: the hands a player is dealt into between refills: 1 to 100.",
    )
    timeout_policy = models.CharField(
        max_length=12,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.CHECK_FOLD,
        verbose_name="when time runs out",
        help_text="What the server does for a player whose action time and extra time are up.",
    )
    sit_out_hands = models.PositiveSmallIntegerField(
        default=10,
        validators=_between(1, 100),
        help_text="A player dealt out of this many hands in a row is stood up, "
        "their chips back in their balance: 1 to 100.",
    )
    tie_break = models.CharField(
        max_length=8,
        choices=TieBreak.choices,
        default="position",
        verbose_name="ties for first to act",
        help_text="Who brings in or acts first when door cards or showing hands tie.",
    )
    all_in_opener = models.CharField(
        max_length=20,
        choices=AllInOpener.choices,
        default="next_seat",
        verbose_name="when the opener is all in",
        help_text="Who acts first when the low door card, or the best hand showing, is all in.",
    )
    open_pair_big_bet = models.BooleanField(
        null=True,
        blank=True,
        help_text="Fixed limit: whether a pair showing on 4th street lets players bet the big "
        "bet. The variant's default: on in stud, off in stud hi-lo; razz, London lowball "
        "and Mississippi (no 4th-street round) have none.",
    )
    max_raises = models.PositiveSmallIntegerField(
        default=3,
        validators=_between(1, 10),
        help_text="Fixed and spread limit: raises allowed after the bet in a betting round "
        "(3: a bet and three raises): 1 to 10. Pot and no limit have no cap.",
    )
    raise_at_least_last = models.BooleanField(
        default=True,
        verbose_name="raise at least the last raise",
        help_text="Spread limit: a raise must be at least as big as the last bet or raise of "
        "the round. Off: any raise from the spread's minimum. (Pot and no limit always "
        "play it; fixed limit has no choice of size.)",
    )
    heads_up_uncapped = models.BooleanField(
        default=False,
        help_text="Fixed and spread limit: no limit on raises when only two players start "
        "the round.",
    )
    short_all_in = models.CharField(
        max_length=4,
        choices=ShortAllIn.choices,
        default="half",
        help_text="When an all-in raise for less than a full bet lets players raise again.",
    )
    auto_muck = models.BooleanField(
        default=True,
        help_text="Hands that can't win any pot are mucked unshown at the showdown; "
        "off: every hand is shown.",
    )
    natural_beats_wild = models.BooleanField(
        default=False,
        help_text="Wild-card games: a hand the natural cards make beats the same hand made "
        "with wild cards. Off: equal hands split, natural or not.",
    )
    declare_in_turn = models.BooleanField(
        default=False,
        help_text="Hi-lo declare: players declare in turn from the dealer's left, each "
        "hearing the ones before. Off: everyone declares at once, unseen.",
    )
    high_low_declare = models.BooleanField(
        default=False,
        help_text="Wild-card games: play high-low, each player declaring high, low or both "
        "before the showdown (ace-to-five lows, no qualifier).",
    )
    exchange_price = models.BooleanField(
        default=False,
        help_text="English stud: an exchange costs the minimum bet at that point, paid to "
        "the pot and not matched. Off: exchanges are free.",
    )
    rake = models.ForeignKey(
        RakeRule, null=True, blank=True, on_delete=models.PROTECT, related_name="stakes"
    )

    class Meta:
        verbose_name_plural = "stakes"
        ordering = ["variant", "small_bet", "name"]

    def __str__(self) -> str:
        return self.name

    def describe(self) -> str:
        """The game in the engine's words: ``"Razz, pot limit, minimum bet 5, ante 1,
        bring-in 2"``, ``"Seven-card stud, 5/10, ante 1"``."""
        try:
            return GameConfig(**{name: getattr(self, name) for name in DESCRIBED}).describe()
        except IllegalAction:  # saved without clean(): still name it, so staff can fix it
            game = f"{self.get_variant_display()}, {self.get_structure_display().lower()}"
            return f"{game} (not a valid game)"

    def game_config(self, *, rake: EngineRake | None = None) -> GameConfig:
        """The stakes' game for the engine, with their own rake, or ``rake``
        (a mixed table's list deals each game with the table's rake)."""
        return GameConfig(**self._columns(), rake=self._engine_rake() if rake is None else rake)

    def engine_rake(self) -> EngineRake:
        """The stakes' rake as the engine takes it (none without a rule)."""
        return self._engine_rake()

    def _columns(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in ENGINE_COLUMNS}

    def _engine_rake(self) -> EngineRake:
        return self.rake.engine_rule() if self.rake else EngineRake()

    def clean(self) -> None:
        """Every problem at once, each on the field to change: the engine's own
        checks of the game's options, then the stakes' rules around them.

        A value its own field refuses, or None where the field can't hold one,
        is unknown (missing, or refused) and takes no part.
        """
        errors: dict[str, list[str]] = {}
        for field, message in self._problems():
            errors.setdefault(field, []).append(message)
        if errors:
            raise ValidationError(errors)

    def _problems(self) -> Iterator[tuple[str, str]]:
        refused: set[str] = set()
        for problem in GameConfig.problems(self.known_options()):
            refused.add(problem.option)
            yield problem.option, as_sentence(problem)
        try:
            self._engine_rake()
        except IllegalAction as exc:  # a rake rule saved without its own checks
            yield "rake", as_sentence(exc)
        yield from self._house_problems(refused)

    def known_options(self) -> dict[str, Any]:
        """The options in the stakes' columns that their own fields accept: one
        refused there (or missing) is that field's error alone."""
        known: dict[str, Any] = {}
        for field in self._meta.concrete_fields:
            if field.name in ENGINE_COLUMNS:
                with contextlib.suppress(ValidationError):
                    known[field.name] = field.clean(getattr(self, field.name), self)
        return known

    def _house_problems(self, refused: set[str]) -> Iterator[tuple[str, str]]:
        """The rules of these stakes beyond the engine's: the ante's size, the
        buy-ins, an option the structure would ignore, and the seats."""
        ante, bring_in, small = self.ante, self.bring_in, self.small_bet
        low, high = self.min_buy_in, self.max_buy_in
        if _known(ante, bring_in) and bring_in and ante >= bring_in:
            yield "ante", f"The ante ({ante}) must be below the bring-in ({bring_in})."
        elif _known(ante, bring_in, small) and not bring_in and ante >= small:
            yield "ante", f"The ante ({ante}) must be below the small bet ({small})."
        cover, words = STRUCTURES.get(self.structure, STRUCTURES["fixed"]).one_bet
        bet = getattr(self, cover)
        if _known(low, bet) and low < bet:
            yield "min_buy_in", f"The minimum buy-in must cover {words} ({bet})."
        if _known(low, high) and high < low:
            yield "max_buy_in", f"The maximum buy-in ({high}) can't be below the minimum ({low})."
        structure = STRUCTURES.get(self.structure)
        ignored = structure is not None and not structure.open_pair
        if self.open_pair_big_bet and ignored and "open_pair_big_bet" not in refused:
            yield "open_pair_big_bet", "The open-pair big bet is a fixed-limit rule."
        # (More than any table seats is the field's own error.)
        variant, seats = VARIANTS.get(self.variant), self.seats
        if variant is not None and _known(seats) and variant.max_players < seats <= MAX_SEATS:
            most = variant.max_players
            yield "seats", f"{variant.name} is dealt to at most {most} players, not {seats}."


# The engine's options, GameConfig's fields: each is the Stakes field of its
# name (the rake a RakeRule row), so game_config(), the validation and the
# admin's fieldsets follow from GameConfig.
ENGINE_FIELDS = tuple(option.name for option in dataclasses.fields(GameConfig))
# The options kept in the stakes' own columns: all but the rake.
ENGINE_COLUMNS = tuple(name for name in ENGINE_FIELDS if name != "rake")
# What describe() reads: the game and its bet sizes (no rake to fetch, no rule
# options but the one that names the game).
# The game fields a hand and its GameConfig share.
HAND_GAME = ("variant", "structure", "ante", "bring_in", "small_bet", "big_bet")
DESCRIBED = ("variant", "high_low_declare", "structure", "ante", "bring_in", "small_bet", "big_bet")


def _known(*values: object) -> bool:
    return None not in values


class Table(RowLoaded):
    """A table: its terms (seats, buy-ins, clock, rake, sit-out rules: its
    stakes), and the game or games it deals, by its policy.

    A fixed table deals its stakes' game. A rotation or dealer's-choice table
    deals from its list of games (:class:`TableGame`): each game in turn, or
    the one the dealer calls (``tables.services.games``). The fields after
    ``choice_default`` are that policy's state, which only the services write.
    """

    class Policy(models.TextChoices):
        FIXED = "fixed", "Fixed: the stakes' game, every hand"
        ROTATION = "rotation", "Rotation: each game of the list in turn"
        DEALERS_CHOICE = "dealers_choice", "Dealer's choice: the dealer calls a game from the list"

    class ChoiceFor(models.TextChoices):
        HAND = "hand", "The next hand"
        ORBIT = "orbit", "The next orbit: until the deal comes back round to them"

    class ChoiceDefault(models.TextChoices):
        LAST = "last", "The last game dealt (the list's first before any)"
        FIRST = "first", "The list's first game"

    name = models.CharField(max_length=60, unique=True)
    stakes = models.ForeignKey(
        Stakes,
        on_delete=models.PROTECT,
        related_name="tables",
        help_text="The table's terms: seats, buy-ins, clock, rake and sit-out rules; and "
        "its game when it deals one game, or the sizes its list's games share.",
    )
    is_open = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    policy = models.CharField(
        max_length=16,
        choices=Policy.choices,
        default=Policy.FIXED,
        verbose_name="games",
        help_text="Which game each hand is: one, a rotation, or the dealer's call.",
    )
    rotate_hands = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(100)],
        verbose_name="hands per game",
        help_text="Rotation: the hands dealt of each game before the next; 0: one orbit, "
        "until the deal comes back round to where the game began. 0 to 100.",
    )
    choice_for = models.CharField(
        max_length=8,
        choices=ChoiceFor.choices,
        default=ChoiceFor.HAND,
        verbose_name="the dealer calls",
        help_text="Dealer's choice: whether each call is for one hand or for an orbit.",
    )
    choice_default = models.CharField(
        max_length=8,
        choices=ChoiceDefault.choices,
        default=ChoiceDefault.LAST,
        verbose_name="when the dealer doesn't call",
        help_text="Dealer's choice: the game dealt when the dealer's time runs out or they "
        "are away. A game that doesn't fit the players gives way to the list's first that does.",
    )
    # The policy's state. The game of the hands now being dealt: its position
    # in the list (None before the first, and at a fixed table), how many
    # hands of it have been dealt since it began, and the dealer's seat then.
    game_position = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    game_hands = models.PositiveIntegerField(default=0, editable=False)
    game_began_seat = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # A dealer's call under way (``call_seat`` set) or just made (``called``,
    # kept for the hand it is dealt with). ``call_number`` counts the calls,
    # so a late timeout for an earlier one changes nothing.
    call_number = models.PositiveIntegerField(default=0, editable=False)
    call_seat = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    call_player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    call_deadline = models.DateTimeField(null=True, blank=True, editable=False)
    call_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    called = models.JSONField(null=True, blank=True, editable=False)
    # A home game: a private table a player opened and hosts. Only its host,
    # its members (players who opened its invite link) and staff may see it;
    # to everyone else it does not exist (``tables.selectors.tables``).
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="hosted_tables",
        help_text="A home game's host. Empty: a table of the room, open to all.",
    )
    # The invite link's code (``/home/join/#<code>``: in the fragment, which
    # browsers never send, so no server or proxy logs it). Never shown but
    # to the host.
    invite_code = models.CharField(max_length=64, blank=True, editable=False)
    # A home game its host has paused: no new hand is dealt until they resume
    # it; a hand in play finishes (``tables.services.home``).
    paused = models.BooleanField(
        default=False,
        help_text="A home game whose host has paused the deal: no new hand starts.",
    )
    # A home game whose host approves each seat: a member's seat is a request
    # (``SeatRequest``) until the host approves it.
    seat_approval = models.BooleanField(
        default=False,
        help_text="A home game whose host approves each seat request. Off: anyone "
        "with the invite link may sit.",
    )
    # The host's change to the game list, sizes or clock, waiting for the next
    # deal (``tables.services.home_changes``), or once applied the last one made
    # (``"applied": true``), for the pages to announce. Empty: none made.
    pending_change = models.JSONField(null=True, blank=True, editable=False)
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When staff last reopened it: a home game's idle time counts from then at
    # the earliest (``tables.services.home_idle``). Empty: never reopened.
    reopened_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["call_expires_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["invite_code"],
                condition=~models.Q(invite_code=""),
                name="one_table_per_invite_code",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_home(self) -> bool:
        """Whether this is a home game: a private table with a host."""
        return self.host_id is not None

    @property
    def is_mixed(self) -> bool:
        """Whether the table deals from its list (a rotation or dealer's choice)."""
        return self.policy != self.Policy.FIXED

    @property
    def current_hand(self) -> Hand | None:
        return self.hands.filter(ended_at__isnull=True).first()


class HomeRules(RowLoaded):
    """What hosts may open as home games: one row, set by the operator in the admin.

    Empty lists allow every game and structure. A home game's stakes are its
    host's choice within these, and its rake is the rule here (default none).
    """

    variants = models.JSONField(
        default=list,
        blank=True,
        help_text="The games hosts may deal (their codes, as `manage.py games` lists them). "
        "Empty: every game.",
    )
    structures = models.JSONField(
        default=list,
        blank=True,
        help_text="The betting structures hosts may use (fixed, spread, pot, no). Empty: all.",
    )
    max_big_bet = models.PositiveIntegerField(
        default=100,
        validators=[MinValueValidator(1)],
        help_text="The largest bet size a host may set: small or big bet, spread "
        "minimum or maximum, minimum bet.",
    )
    max_buy_in = models.PositiveIntegerField(
        default=10_000,
        validators=[MinValueValidator(1)],
        help_text="The largest maximum buy-in a host may set.",
    )
    max_open_games = models.PositiveSmallIntegerField(
        default=3,
        validators=_between(1, 100),
        help_text="How many open home games one player may host at once: 1 to 100.",
    )
    rake = models.ForeignKey(
        RakeRule,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The rake at home games. Empty: none.",
    )
    idle_minutes = models.PositiveIntegerField(
        default=120,
        help_text="A home game in which no hand has been dealt for this many minutes "
        "closes itself. 0: never.",
    )

    class Meta:
        verbose_name = verbose_name_plural = "home game rules"

    def __str__(self) -> str:
        return "Home game rules"

    @classmethod
    def current(cls) -> HomeRules:
        """The operator's rules (the defaults until they are first saved)."""
        rules, _ = cls.objects.get_or_create(pk=1)
        return rules

    def clean(self) -> None:
        unknown = [v for v in self.variants or [] if v not in VARIANTS]
        if not isinstance(self.variants, list) or unknown:
            raise ValidationError({"variants": f"Not a game: {', '.join(map(str, unknown))}."})
        bad = [s for s in self.structures or [] if s not in STRUCTURES]
        if not isinstance(self.structures, list) or bad:
            raise ValidationError({"structures": f"Not a structure: {', '.join(map(str, bad))}."})


class TableMember(RowLoaded):
    """A player who opened a home game's invite link (or was let in by its
    host): they may see, watch and join the table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="home_tables"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="one_membership_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"


class SeatRequest(RowLoaded):
    """A member's request to sit at a home game whose host approves each seat:
    the seat and buy-in they asked for, until the host approves or refuses it
    or they withdraw it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_requests")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_requests"
    )
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    buy_in = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="one_seat_request_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} asks for seat {self.number} at {self.table}"


class HomeBot(RowLoaded):
    """A bot its host added to a home game: the house's bot process
    (``manage.py run_bots --home``) plays it there until the host removes it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="bots")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="home_bots"
    )
    buy_in = models.PositiveIntegerField()
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["added_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="one_home_bot_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} playing at {self.table}"


class TableGame(RowLoaded):
    """One game of a mixed table's list: either a stakes' whole game (its
    variant, structure, sizes and rule options), or a variant dealt with the
    sizes and options of the table's own stakes (seed 003's "spread limit
    dealer's choice"). Either way the table's terms, its rake included, stay
    the table's."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    position = models.PositiveSmallIntegerField(
        default=0, help_text="Its place in the list: the rotation's order."
    )
    stakes = models.ForeignKey(
        Stakes,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name="game of the stakes",
        help_text="A game with its own structure and sizes. Empty: the variant below, "
        "with the table's sizes.",
    )
    variant = models.CharField(
        max_length=32,
        choices=VARIANT_CHOICES,
        blank=True,
        help_text="A game dealt with the table's stakes' structure, sizes and options.",
    )

    class Meta:
        ordering = ["table", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_game_per_place"),
            models.CheckConstraint(
                condition=models.Q(stakes__isnull=True) ^ models.Q(variant=""),
                name="game_of_stakes_or_variant",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def game_variant(self) -> str:
        """The variant this entry deals."""
        return self.stakes.variant if self.stakes is not None else self.variant

    @property
    def name(self) -> str:
        """The game's name: "Razz"."""
        variant = VARIANTS.get(self.game_variant)
        return variant.name if variant is not None else self.game_variant

    @property
    def max_players(self) -> int:
        variant = VARIANTS.get(self.game_variant)
        return variant.max_players if variant is not None else MAX_SEATS

    def game_config(self, terms: Stakes) -> GameConfig:
        """The game this entry deals at a table whose stakes are ``terms``."""
        if self.stakes is not None:
            return self.stakes.game_config(rake=terms.engine_rake())
        return dataclasses.replace(terms.game_config(), variant=self.variant)

    def clean(self) -> None:
        if (self.stakes_id is None) == (not self.variant):
            raise ValidationError("Choose a stakes' game or a variant, one of the two.")
        terms = self.table.stakes if self.table_id is not None else None
        if self.stakes is None and terms is not None:
            options = {**terms.known_options(), "variant": self.variant}
            problems = GameConfig.problems(options)
            if problems:
                raise ValidationError(
                    {"variant": [f"With the table's stakes: {as_sentence(problems[0])}"]}
                )


class Seat(RowLoaded):
    class State(models.TextChoices):
        PLAYING = "playing", "Playing"
        SITTING_OUT = "sitting_out", "Sitting out"
        DISCONNECTED = "disconnected", "Disconnected"

    # The states dealt into the next hand (with chips). A disconnected player is
    # dealt in, as in online rooms: the turn clock, not the socket, decides.
    DEALT_IN_STATES = (State.PLAYING, State.DISCONNECTED)

    class SatOutFor(models.TextChoices):
        CHOICE = "", "Their own choice"
        TIMEOUTS = "timeouts", "Two turns timed out"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    stack = models.BigIntegerField(default=0)
    state = models.CharField(max_length=12, choices=State.choices, default=State.PLAYING)
    joined_at = models.DateTimeField(auto_now_add=True)
    # Only with the stakes' time bank clock (``Stakes.Clock.TIME_BANK``); the
    # countdown of the default clock is whole every turn and stored nowhere.
    # Empty until the player first dips into it: the stakes' whole time bank.
    # It is spent across hands and refilled every ``bank_refill_hands`` hands
    # the player is dealt into, counted by ``hands_since_refill``. Both outlive
    # the seat for a while (:class:`KeptTimeBank`), so that standing up and
    # sitting down again fills nothing.
    time_bank_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="Time bank left, in milliseconds. Empty: all of it."
    )
    hands_since_refill = models.PositiveSmallIntegerField(
        default=0, help_text="Hands dealt to this player since their time bank was last refilled."
    )
    # Two in a row sit the player out; any move of their own resets it.
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)
    sat_out_for = models.CharField(
        max_length=12,
        choices=SatOutFor.choices,
        blank=True,
        help_text="Why the seat is sitting out, when the server sat it out.",
    )
    leaving = models.BooleanField(
        default=False, help_text="The player leaves, cashing out, when the hand in play ends."
    )
    # Asked during a hand the player is dealt into: the seat plays that hand out
    # and sits out when it ends. Until then only its player is told
    # (``tables.selectors.snapshots``); the others see a seat in the hand.
    sitting_out_next = models.BooleanField(
        default=False, help_text="The player sits out when the hand in play ends."
    )
    # Since when a seat disconnected or sitting out has been so. At a table
    # where no hand has been dealt for ``CARDROOM_IDLE_SEAT_SECONDS`` since
    # then, the seat is stood up (``tables.services.seats_stand_up_idle``).
    away_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player disconnected or sat out. Empty while they play.",
    )
    # Hands dealt at the table without this seat since it last played one; at
    # the stakes' ``sit_out_hands`` the player is stood up.
    hands_missed = models.PositiveSmallIntegerField(default=0)
    # Between hands the stack is topped up to this from the balance, as far as
    # the balance allows (``tables.services.seat_auto_rebuy_set``).
    auto_rebuy_to = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Chips the stack is topped up to after each hand. Empty: no auto-rebuy.",
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["table", "player"], name="one_seat_per_player"),
            models.CheckConstraint(
                condition=models.Q(stack__gte=0), name="seat_stack_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"


class KeptTimeBank(RowLoaded):
    """The time bank a player stood up with, kept for their return to the table.

    A time bank is the player's at the table, not the seat's: one who stands
    up and sits down again, in any seat, within
    ``tables.services.time_bank_kept_for()`` gets back the bank and the refill
    progress they left with, so leaving is no way to a full bank. Only a bank
    that is not as a new seat's is kept (with the countdown clock, never), and
    sitting down again takes the row, used or too old.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="kept_time_banks")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    time_bank_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="Time bank left, in milliseconds. Empty: all of it."
    )
    hands_since_refill = models.PositiveSmallIntegerField(default=0)
    left_at = models.DateTimeField(help_text="When the player stood up.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="one_kept_bank_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}'s time bank at {self.table_id}"


class WaitingPlayer(RowLoaded):
    """A player in line for a seat at a full table, first come first served.

    When a seat frees, the first in line without an offer is offered it until
    ``offer_expires_at``: nobody else may take it meanwhile. Taking any seat at
    the table, leaving the list, or letting the offer run out takes the player
    off the list, and the seat passes to the next in line.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="waiting_players")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="waiting_at"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    offered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["table", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="one_wait_per_player"),
            models.UniqueConstraint(fields=["table", "offered_seat"], name="one_offer_per_seat"),
            models.CheckConstraint(
                condition=models.Q(offered_seat__isnull=True, offer_expires_at__isnull=True)
                | models.Q(offered_seat__isnull=False, offer_expires_at__isnull=False),
                name="offer_has_seat_and_expiry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} waiting at {self.table}"


class TableConnection(RowLoaded):
    """One open websocket of a logged-in viewer at a table, as its Daphne process vouches.

    A player may have the table open in several tabs, on several Daphne
    processes; their seat shows them disconnected only when the last of these
    rows goes (``tables.services.connection_close``). Each process refreshes
    ``seen_at`` on all of its rows every ``CONNECTION_HEARTBEAT_SECONDS``, so
    the rows of a process that was killed, which never closed its sockets, go
    stale and stop counting; beat's sweep then deletes them.
    """

    channel_name = models.CharField(max_length=200, unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # Not indexed: every heartbeat writes it on every row, and unindexed it is
    # written in place of the old row version (a HOT update). The sweep that
    # reads it scans the live sockets, a table of that many rows.
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["table", "player"])]

    def __str__(self) -> str:
        return f"{self.player_id} at {self.table_id} on {self.channel_name}"


@dataclass(frozen=True)
class Move:
    """One player's move in a hand: its number among the hand's actions (the
    hand's ``version`` after it), the seat and player, what they did, the
    chips they named (a wager's street total; None for the others), whether
    the turn clock made it, and when (None for hands stored before moves were
    timed)."""

    number: int
    seat: int
    player_id: int
    kind: str
    amount: int | None
    timed_out: bool
    at: datetime.datetime | None


class Hand(RowLoaded):
    """One hand at a table. ``deck`` and ``state`` hold every card: server-only."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    deck = models.JSONField(help_text="The shuffled deck, revealed only after the hand.")
    deck_salt = models.CharField(max_length=64)
    deck_commitment = models.CharField(
        max_length=64, help_text="SHA-256 of the salt and deck, published when the hand starts."
    )
    # The game the hand was dealt, as it was dealt: its history, filters,
    # exports and reports read these (and the frozen config in ``state``),
    # never the table's stakes, which may change after it.
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES, db_index=True)
    structure = models.CharField(max_length=8, choices=structure_choices())
    ante = models.PositiveBigIntegerField()
    bring_in = models.PositiveBigIntegerField()
    small_bet = models.PositiveBigIntegerField()
    big_bet = models.PositiveBigIntegerField()
    game = models.CharField(
        max_length=200, help_text="The game and its stakes in words, as the hand was dealt."
    )
    seat_count = models.PositiveSmallIntegerField(help_text="The seats the table had.")
    # A mixed table's game: where it stands in the table's list (None at a
    # fixed table), and at dealer's choice the call that chose it: {"by":
    # username, "how": "called", "timed_out" or "away"} (None for the hands
    # of an orbit after its first).
    game_position = models.PositiveSmallIntegerField(null=True, blank=True)
    call = models.JSONField(null=True, blank=True)
    # The players' names as the table showed them at the deal, so the hand
    # keeps them whatever happens to the seats (older hands have none).
    seating = models.JSONField(
        help_text="Engine player order: seat numbers, player ids and usernames."
    )
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    # The turn clock. The turn being timed is always ``version``; the player to
    # act has until ``turn_deadline`` and then their time bank, which runs out at
    # ``turn_expires_at``. Both are empty when nobody is to act.
    turn_deadline = models.DateTimeField(
        null=True, blank=True, help_text="End of the action time of the turn now being played."
    )
    turn_expires_at = models.DateTimeField(
        null=True, blank=True, help_text="When the turn times out: action time plus time bank."
    )
    reconnect_extended = models.JSONField(
        default=list, blank=True, help_text="Players who have had their reconnect extension."
    )
    # The expiry the turn's timeout task was sent for. A task is sent only for a
    # turn near its expiry (``services.turn_timeouts_claim_due``): most turns are
    # played well before it, and need none.
    timeout_sent_for = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="The expiry a timeout task was sent for."
    )

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_per_table"),
        ]
        indexes = [
            models.Index(fields=["table", "-started_at"]),
            # For the reports and the hand search: finished hands in the order they
            # ended (id breaks ties), with their table and game, from the index
            # alone (the activity report counts them by both, bench/README.md).
            # Also how the clock's sweeps find the running hands (ended_at null).
            # No index covers a column that a move writes (``HAND_MOVED`` in
            # tables.services.hands but ended_at, written once): PostgreSQL
            # then writes a move's new row version beside the old one (a HOT
            # update) without adding an entry to each of these indexes.
            models.Index(
                fields=["ended_at", "id"], include=["table", "variant"], name="hand_ended_covering"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}"

    @property
    def is_finished(self) -> bool:
        return self.ended_at is not None

    @staticmethod
    def game_fields(config: GameConfig, seat_count: int) -> dict[str, Any]:
        """The fields that record the game a hand is dealt with ``config`` at a
        table of ``seat_count`` seats (the config itself is frozen in ``state``)."""
        game = {name: getattr(config, name) for name in HAND_GAME}
        return {**game, "game": config.describe(), "seat_count": seat_count}

    def stakes_words(self) -> str:
        """The hand's bet sizes in words, as its structure says them: "2/4" at
        fixed limit, "pot limit, minimum bet 5" (the whole game is ``game``)."""
        try:
            config = GameConfig(**{name: getattr(self, name) for name in HAND_GAME})
        except IllegalAction:  # stored by hand, not by the services: still say the sizes
            return f"{self.small_bet}/{self.big_bet}"
        return config.betting.describe(config)

    # Who was dealt in. ``seating`` is written and read only through these: the
    # engine numbers its players 0, 1, ... in ``seating["players"]`` order.

    @staticmethod
    def seating_of(dealer: int, players: Sequence[tuple[int, int, str]]) -> dict[str, Any]:
        """The seating of a hand dealt with the button at seat ``dealer`` to
        ``players``, (seat number, user id, username) in engine order."""
        return {
            "dealer": dealer,
            "players": [
                {"seat": seat, "player": player_id, "name": name}
                for seat, player_id, name in players
            ],
        }

    @property
    def dealer_seat(self) -> int:
        """The seat number of the hand's dealer button."""
        return int(self.seating["dealer"])

    def seat_numbers(self) -> list[int]:
        """Each engine player's seat number, in engine order."""
        return [entry["seat"] for entry in self.seating["players"]]

    def player_ids(self) -> list[int]:
        """Each engine player's user id, in engine order."""
        return [entry["player"] for entry in self.seating["players"]]

    def engine_player(self, player_id: int | None) -> int | None:
        """``player_id``'s engine player number; None if they were not dealt in."""
        ids = self.player_ids()
        return ids.index(player_id) if player_id in ids else None

    def player_names(self, known: Mapping[int, str] | None = None) -> list[str]:
        """The players' usernames in engine order, as the table showed them at
        the deal, whatever has happened to their seats since.

        Hands dealt before the names were kept take them from ``known`` (user id
        to username, e.g. the seats' players the caller has already read), and
        failing that from the accounts, in one query.
        """
        found = dict(known or {})
        missing = self.players_unnamed() - set(found)
        if missing:
            users = get_user_model().objects.filter(pk__in=missing)
            found.update(users.values_list("pk", "username"))
        return [entry.get("name") or found[entry["player"]] for entry in self.seating["players"]]

    def moves(self) -> list[Move]:
        """The players' moves, in order, from the engine's action list: the
        hand's one record of them (a scripted deal is no one's move)."""
        seats, players = self.seat_numbers(), self.player_ids()
        moves = []
        for number, action in enumerate(self.state.get("actions", []), start=1):
            player = action.get("player")
            if player is None:
                continue
            at = action.get("at")
            moves.append(
                Move(
                    number=number,
                    seat=seats[player],
                    player_id=players[player],
                    kind=action["kind"],
                    amount=action.get("amount"),
                    timed_out=action.get("timed_out") is True,
                    at=parse_datetime(at) if at else None,
                )
            )
        return moves

    def players_unnamed(self) -> set[int]:
        """The user ids whose names the hand didn't keep (hands dealt before it did)."""
        return {entry["player"] for entry in self.seating["players"] if "name" not in entry}


class ChatLine(RowLoaded):
    """One line of a table's chat, kept so a page opened later shows the recent talk."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_lines"
    )
    text = models.CharField(max_length=300)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "pk"]
        indexes = [models.Index(fields=["table", "-id"])]

    def __str__(self) -> str:
        return f"{self.table} #{self.pk}: {self.text[:40]}"


class HandResult(RowLoaded):
    """What one player put in and took out of one hand."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hand_results"
    )
    seat_number = models.PositiveSmallIntegerField()
    starting_stack = models.BigIntegerField()
    final_stack = models.BigIntegerField()
    net = models.BigIntegerField(help_text="Chips won (positive) or lost (negative).")
    # A copy of this player's own cards from ``Hand.state``, so a list of a
    # player's hands needn't load every hand's whole state. Only ever shown to
    # this player (and staff): it holds their down cards.
    cards = models.JSONField(
        default=list,
        blank=True,
        help_text=(
            "The player's own cards in dealing order, each face up or down: "
            '[{"card": "Ah", "up": false}, ...].'
        ),
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="one_result_per_player"),
        ]
        indexes = [models.Index(fields=["player", "hand"])]

    def __str__(self) -> str:
        return f"{self.hand}: {self.player} {self.net:+}"


class RakeEntry(RowLoaded):
    hand = models.OneToOneField(Hand, on_delete=models.PROTECT, related_name="rake_entry")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rake_entries")
    stakes = models.ForeignKey(Stakes, on_delete=models.PROTECT, related_name="rake_entries")
    # The hand's game, copied as the table and stakes are, so the rake report
    # groups by it from this table alone.
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    amount = models.PositiveBigIntegerField()  # a share of a pot, which may be as big
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "rake entries"
        indexes = [
            models.Index(fields=["created_at"]),
            models.Index(fields=["table", "created_at"]),
            models.Index(fields=["stakes", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.amount} from {self.hand}"


class PlayerDay(RowLoaded):
    """A player was dealt into at least one hand at a table on a day.

    A summary of :class:`HandResult` for the activity report, which counts
    distinct players per day, week, stakes and table over any range without
    reading every hand's results. ``tables.services`` writes the rows with a
    hand's results when it ends (one per player, a row already there is kept),
    and never changes them; finished hands are never deleted (their rake entry
    protects them), so no row outlives its hands.

    ``day`` is the date in the site's time zone (``TIME_ZONE``) at the time the
    hand ended, ``timezone.localdate(hand.ended_at)``, as the reports count
    days. A later change of ``TIME_ZONE`` leaves the rows already written on
    the old zone's days. ``stakes`` is the table's, which never changes once
    the table exists: kept here so that counting per stakes needs no join.
    ``variant`` is the game the hands were dealt: at a mixed table a player
    has a row for each game they played there that day.
    """

    day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="player_days")
    stakes = models.ForeignKey(Stakes, on_delete=models.PROTECT, related_name="player_days")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="player_days"
    )
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)

    class Meta:
        constraints = [
            # Also the index the report's ranges of days read.
            models.UniqueConstraint(
                fields=["day", "table", "player", "variant"], name="one_player_day_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} on {self.day}"
