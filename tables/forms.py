"""Form pieces the tables app's pages share: a range of whole days."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils import timezone

from tables.models import VARIANT_CHOICES, HomeRules, Stakes
from tables.rules import GameConfig
from tables.rules.games import structure_choices
from tables.rules.variants import VARIANTS

# The days a range may name. Pages add a day to the end of a range and take
# midnight in the site's time zone, which overflows near the calendar's ends
# (9999-12-31, 0001-01-01); no hand was played before Cardroom existed, and
# the activity report works through every day of its range.
FIRST_DAY = datetime.date(2000, 1, 1)
LAST_DAY = datetime.date(2099, 12, 31)
DAY_OUT_OF_RANGE = f"Enter a date from {FIRST_DAY} to {LAST_DAY}."
DATE_ERRORS = {"invalid": "Enter a real date as YYYY-MM-DD, such as 2025-03-01."}

# The largest id a database row can have (a signed 64-bit integer).
MAX_ID = 2**63 - 1


def date_field(label: str) -> forms.DateField:
    """An optional day, with a date picker in browsers and a plain message when bad."""
    return forms.DateField(
        required=False,
        label=label,
        error_messages=DATE_ERRORS,
        validators=[
            MinValueValidator(FIRST_DAY, message=DAY_OUT_OF_RANGE),
            MaxValueValidator(LAST_DAY, message=DAY_OUT_OF_RANGE),
        ],
        widget=forms.DateInput(
            attrs={"type": "date", "min": FIRST_DAY.isoformat(), "max": LAST_DAY.isoformat()}
        ),
    )


def midnight(day: datetime.date) -> datetime.datetime:
    """The start of ``day`` in the current time zone (``timezone.override``)."""
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


class DateRangeForm(forms.Form):
    """An optional range of whole days, both ends included, in the current
    time zone: the site's, as the house's reports count them."""

    start = date_field("From")
    end = date_field("To")

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, which the stubs allow to be None
        cleaned = self.cleaned_data
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and end < start:
            raise forms.ValidationError(f"The range ends ({end}) before it starts ({start}).")
        return cleaned


class TimeZoneForm(forms.Form):
    """The player's time zone: the one ``tz`` names (an IANA name, such as
    ``America/New_York``; the page's script fills in the browser's), or the
    site's when it is left out.

    A view works in the zone chosen with ``timezone.override(form.zone())``,
    so that every time it writes, and any range's midnights, are the player's.
    """

    tz = forms.CharField(
        required=False,
        label="Time zone",
        max_length=64,
        widget=forms.HiddenInput(attrs={"data-time-zone-field": ""}),
    )

    def clean_tz(self) -> ZoneInfo | None:
        name: str = self.cleaned_data["tz"]
        if not name:
            return None
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a file it can't read
            raise forms.ValidationError(
                f"{name!r} is not a time zone this site knows; leave it out for the site's."
            ) from None

    def zone(self) -> ZoneInfo | None:
        """The zone chosen, once the form is valid; None for the site's."""
        if not self.is_valid():
            return None
        zone: ZoneInfo | None = self.cleaned_data["tz"]
        return zone


class PlayerDateRangeForm(TimeZoneForm, DateRangeForm):
    """A range of days in the player's time zone (:class:`TimeZoneForm`)."""

    def narrows(self) -> bool:
        """Whether a valid form's choices leave hands out (the zone alone doesn't)."""
        return any(value for name, value in self.cleaned_data.items() if name != "tz")


# ------------------------------------------------------------ a home game


if TYPE_CHECKING:
    StakesFormBase = forms.ModelForm[Stakes]
else:
    StakesFormBase = forms.ModelForm


class HomeGameForm(StakesFormBase):
    """A player's new home game: its name, its games and how they are dealt,
    and its stakes, within the operator's rules (``HomeRules``).

    The stakes' own checks (``Stakes.clean``) run as in the admin, each problem
    on its field; then the operator's limits, and each game of the list with
    these stakes.
    """

    name = forms.CharField(max_length=40, label="Name of the game")
    policy = forms.ChoiceField(
        label="Games",
        choices=[
            ("fixed", "One game, every hand"),
            ("rotation", "A rotation: each game in turn"),
            ("dealers_choice", "Dealer's choice: each dealer calls the game"),
        ],
        initial="dealers_choice",
    )
    games = forms.MultipleChoiceField(
        label="Games to deal",
        widget=forms.CheckboxSelectMultiple,
        help_text="One for a single game; several for a rotation or dealer's choice, "
        "dealt in turn in this list's order.",
    )
    rotate_hands = forms.IntegerField(
        label="Hands per game",
        min_value=0,
        max_value=100,
        initial=0,
        required=False,
        help_text="A rotation: hands of each game before the next; 0: an orbit.",
    )
    seat_approval = forms.BooleanField(
        label="I approve each seat",
        required=False,
        help_text="A friend with the link asks for a seat, and sits once you approve. "
        "Unticked, anyone with the link may sit. You can change this during the game.",
    )

    class Meta:
        model = Stakes
        fields = Stakes.HOST_TERMS

    field_order = ("name", "policy", "games", "rotate_hands", "structure")
    # A spread-limit dealer's choice, as seed 003's home game: where a new form starts.
    STARTING = {
        "policy": "dealers_choice",
        "games": ["stud", "baseball", "queens", "razz"],
        "structure": "spread",
        "ante": 1,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 20,
        "seats": 7,
        "min_buy_in": 100,
        "max_buy_in": 1000,
        "action_seconds": 20,
    }
    LABELS = {
        "bring_in": "Bring-in",
        "min_buy_in": "Minimum buy-in",
        "max_buy_in": "Maximum buy-in",
        "action_seconds": "Action time, in seconds",
    }

    def __init__(self, *args: Any, rules: HomeRules, **kwargs: Any) -> None:
        kwargs.setdefault("initial", self.STARTING)
        super().__init__(*args, **kwargs)
        for name, label in self.LABELS.items():
            self.fields[name].label = label
        self.rules = rules
        allowed = set(rules.variants or [code for code, _ in VARIANT_CHOICES])
        structures = set(rules.structures or [code for code, _ in structure_choices()])
        games, structure = self.fields["games"], self.fields["structure"]
        assert isinstance(games, forms.ChoiceField) and isinstance(structure, forms.ChoiceField)
        games.choices = [(c, n) for c, n in VARIANT_CHOICES if c in allowed]
        structure.choices = [(c, n) for c, n in structure_choices() if c in structures]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        games: list[str] = data.get("games") or []
        # The stakes' own checks (Stakes.clean, after this) see the game of the
        # list dealt to the most players, for the seats; the service names them.
        widest = max(games, key=lambda code: VARIANTS[code].max_players, default="stud")
        self.instance.variant, self.instance.name = widest, "home game"
        policy = data.get("policy")
        if policy == "fixed" and len(games) > 1:
            self.add_error("games", "One game deals every hand: tick one, or choose a mix.")
        if policy in ("rotation", "dealers_choice") and len(games) < 2:
            self.add_error("games", "A mix needs two games or more.")
        self._check_limits(data)
        return data

    def _check_limits(self, data: dict[str, Any]) -> None:
        rules, stakes = self.rules, self.instance
        # Any bet size: the small bet is pot and no limit's minimum bet.
        for size in ("small_bet", "big_bet"):
            if (data.get(size) or 0) > rules.max_big_bet and not self.has_error(size):
                self.add_error(size, f"Home games go up to {rules.max_big_bet} here.")
        if data.get("max_buy_in") and data["max_buy_in"] > rules.max_buy_in:
            self.add_error("max_buy_in", f"Home games' buy-ins go up to {rules.max_buy_in} here.")
        games = data.get("games") or []
        if not games or self.has_error("games"):
            return
        for code in games:
            problems = GameConfig.problems({**stakes.known_options(), "variant": code})
            if problems:
                name = VARIANTS[code].name
                self.add_error("games", f"{name} with these stakes: {problems[0]}.")
                return
        seats = data.get("seats")
        if seats and not any(VARIANTS[code].max_players >= seats for code in games):
            self.add_error("seats", f"None of these games is dealt to {seats} players.")
