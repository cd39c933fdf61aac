"""Staff pages for rake rules, stakes, tables, hands, rake and table chat.

Stakes are validated by ``Stakes.clean()``, which the admin's model form runs, so
the admin refuses exactly what the model refuses. A table's list of games (a
rotation or dealer's choice) is checked as a whole by its inline's formset.
Tables open and close through ``tables.services``, from the list's actions or
the table's own page; hands and rake are records of play and are read only.
Staff see every home game: its host in the list, and on its page its books
and settle-up, read only (``tables.selectors.home_ledger``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db.models import Count, Exists, Field, OuterRef, Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_POST

from tables import broadcast
from tables.models import (
    ENGINE_FIELDS,
    ChatLine,
    Hand,
    HandResult,
    HomeRules,
    RakeEntry,
    RakeRule,
    Seat,
    Stakes,
    Table,
    TableGame,
    WaitingPlayer,
)
from tables.names import as_sentence
from tables.rules import UNKNOWN, GameConfig, HandState
from tables.rules.cards import card_str
from tables.rules.config import percent_text
from tables.rules.state import Held
from tables.rules.variants import VARIANTS
from tables.selectors.home_ledger import HOUSE, Books, LedgerFigures, home_books
from tables.selectors.lobby import dealing_now

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldsetSpec
    from django_stubs_ext import WithAnnotations

    class SeatsTaken(TypedDict):
        taken: int

    # The stubs make the admin's and forms' classes generic in their model;
    # Django's are not subscriptable at runtime, so the model is named for mypy only.
    RakeRuleFormBase = forms.ModelForm[RakeRule]
    RakeRuleAdminBase = admin.ModelAdmin[RakeRule]
    StakesFormBase = forms.ModelForm[Stakes]
    StakesAdminBase = admin.ModelAdmin[Stakes]
    SeatInlineBase = admin.TabularInline[Seat, Table]
    WaitingPlayerInlineBase = admin.TabularInline[WaitingPlayer, Table]
    TableGameFormBase = forms.ModelForm[TableGame]
    EntryForm = forms.ModelForm[TableGame]
    TableGamesFormSetBase = forms.BaseInlineFormSet[TableGame, Table, EntryForm]
    TableGameInlineBase = admin.TabularInline[TableGame, Table]
    TableAdminBase = admin.ModelAdmin[Table]
    HomeRulesAdminBase = admin.ModelAdmin[HomeRules]
    HandResultInlineBase = admin.TabularInline[HandResult, Hand]
    HandAdminBase = admin.ModelAdmin[Hand]
    RakeEntryAdminBase = admin.ModelAdmin[RakeEntry]
    ChatLineAdminBase = admin.ModelAdmin[ChatLine]
else:
    RakeRuleFormBase = forms.ModelForm
    RakeRuleAdminBase = admin.ModelAdmin
    StakesFormBase = forms.ModelForm
    StakesAdminBase = admin.ModelAdmin
    SeatInlineBase = admin.TabularInline
    WaitingPlayerInlineBase = admin.TabularInline
    TableGameFormBase = forms.ModelForm
    TableGamesFormSetBase = forms.BaseInlineFormSet
    TableGameInlineBase = admin.TabularInline
    TableAdminBase = admin.ModelAdmin
    HomeRulesAdminBase = admin.ModelAdmin
    HandResultInlineBase = admin.TabularInline
    HandAdminBase = admin.ModelAdmin
    RakeEntryAdminBase = admin.ModelAdmin
    ChatLineAdminBase = admin.ModelAdmin


class ReadOnlyAdminMixin:
    """Shown to staff, never added, changed or deleted through the admin."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class PercentField(forms.DecimalField):
    """A stored percent shown as people write it: 10, not 10.00."""

    def prepare_value(self, value: Any) -> Any:
        return percent_text(value) if isinstance(value, Decimal) else value


class RakeRuleForm(RakeRuleFormBase):
    class Meta:
        model = RakeRule
        fields = "__all__"
        field_classes = {"percent": PercentField}


@admin.register(RakeRule)
class RakeRuleAdmin(RakeRuleAdminBase):
    form = RakeRuleForm
    list_display = ("name", "percent_shown", "cap", "no_rake_third_street")
    search_fields = ("name",)

    @admin.display(description="Percent", ordering="percent")
    def percent_shown(self, rule: RakeRule) -> str:
        return rule.percent_shown()


# What the two bet sizes mean in each structure, above the stakes' bets.
BETS_DESCRIPTION = (
    "Fixed limit: small bets on 3rd and 4th street, big bets from 5th on. Spread limit: "
    "any bet or raise from the small bet (the spread's minimum) to the big bet (its "
    "maximum). Pot and no limit: the small bet is the minimum bet; the big bet is not used."
)


def stakes_fieldsets() -> _FieldsetSpec:
    """The stakes' page, by section. Every engine option that no section places
    is a rule option, so that a new option in GameConfig shows up there."""
    sections: _FieldsetSpec = (
        (None, {"fields": ("name", "variant", "structure")}),
        (
            "Bets",
            {
                "fields": (
                    "ante",
                    "bring_in",
                    "small_bet",
                    "big_bet",
                    "max_raises",
                    "raise_at_least_last",
                ),
                "description": BETS_DESCRIPTION,
            },
        ),
        ("Seats and buy-in", {"fields": ("seats", "min_buy_in", "max_buy_in", "rake")}),
        (
            "Clock",
            {
                "fields": (
                    "action_seconds",
                    "clock",
                    "time_bank_seconds",
                    "bank_refill_seconds",
                    "bank_refill_hands",
                    "timeout_policy",
                    "sit_out_hands",
                )
            },
        ),
    )
    placed = {name for _, section in sections for name in section["fields"]}
    options = tuple(name for name in ENGINE_FIELDS if name not in placed)
    return (*sections, ("Rule options", {"fields": options}))


class StakesForm(StakesFormBase):
    """The admin's stakes form: every problem is reported on the first submit."""

    def clean(self) -> dict[str, Any]:
        super().clean()
        # A value its own field refused is unknown to Stakes.clean(), which then
        # leaves it out, rather than comparing the others with the value it had.
        for name in self.errors:
            if name in self.fields:
                setattr(self.instance, name, None)
        return self.cleaned_data


@admin.register(Stakes)
class StakesAdmin(StakesAdminBase):
    form = StakesForm
    list_display = ("name", "describe", "seats", "min_buy_in", "max_buy_in", "rake")
    list_filter = ("variant", "structure")
    list_select_related = ("rake",)
    search_fields = ("name",)
    fieldsets = stakes_fieldsets()

    @admin.display(description="Game")
    def describe(self, stakes: Stakes) -> str:
        return stakes.describe()

    def formfield_for_dbfield(
        self, db_field: Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.Field | None:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "open_pair_big_bet" and field is not None:
            # "Unknown" is Django's word for an empty yes/no; here it means the default.
            field.widget.choices = [
                ("unknown", "The variant's default"),
                ("true", "Yes"),
                ("false", "No"),
            ]
        return field


class SeatInline(ReadOnlyAdminMixin, SeatInlineBase):
    model = Seat
    fields = (
        "number",
        "player",
        "stack",
        "state",
        "sat_out_for",
        "leaving",
        "auto_rebuy_to",
        "joined_at",
    )
    readonly_fields = fields
    extra = 0


class WaitingPlayerInline(ReadOnlyAdminMixin, WaitingPlayerInlineBase):
    """The waiting list, first in line first, as the services keep it."""

    model = WaitingPlayer
    fields = ("player", "joined_at", "offered_seat", "offer_expires_at")
    readonly_fields = fields
    extra = 0


# ------------------------------------------------------------ a table's games

# Said by TableGame.clean() of an entry with both or neither of the two; the
# entry's form says it on the field to change instead.
ONE_OF_TWO = "Choose a stakes' game or a variant, one of the two."


class TableGameForm(TableGameFormBase):
    """One game of a table's list. Its position may be left empty: the entry
    then goes after the others, in the order of the rows."""

    position = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=32767,
        help_text="Its place in the list. Empty: after the others.",
    )

    class Meta:
        model = TableGame
        fields = ("position", "stakes", "variant")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.has_error("stakes") or self.has_error("variant"):
            return data
        if data.get("stakes") is not None and data.get("variant"):
            self.add_error(
                "variant",
                "Choose either a stakes' game or a variant, not both: empty the variant to "
                "deal the stakes' game, or the stakes to deal this variant at the table's sizes.",
            )
        elif data.get("stakes") is None and not data.get("variant"):
            self.add_error(
                "stakes", "Choose a stakes' game, or a variant to deal with the table's sizes."
            )
        return data

    def full_clean(self) -> None:
        super().full_clean()
        # clean() has said it on the field to change; the model says it again
        # for the whole entry.
        if self.has_error("stakes") or self.has_error("variant"):
            said = map(str, self.errors.get(NON_FIELD_ERRORS, []))
            kept = [message for message in said if message != ONE_OF_TWO]
            if kept:
                self.errors[NON_FIELD_ERRORS] = self.error_class(kept)
            else:
                self.errors.pop(NON_FIELD_ERRORS, None)


class TableGamesFormSet(TableGamesFormSetBase):
    """A table's list of games, checked as a whole against its policy and seats.

    Refused, nothing saved: a rotation or dealer's choice with no game, a
    fixed table with games listed, two games at one place, and a list with no
    game for as many players as the table seats (the rotation would have
    nothing to deal a full table). Each entry is checked with the table's
    stakes by ``TableGame.clean()``, or here for a table not saved yet.
    """

    def clean(self) -> None:
        kept = [form for form in self.forms if form.cleaned_data and not _deleted(form)]
        table = self.instance
        terms = table.stakes if table.stakes_id is not None else None
        if table._state.adding and terms is not None:
            for form in kept:
                _check_with_terms(form, terms)
        # Before the formset's own check of unique places, which would say less.
        _place(kept)
        problems = list(_list_problems(table, terms, kept))
        super().clean()
        if problems:
            raise ValidationError(problems)


def _deleted(form: EntryForm) -> bool:
    return bool(form.cleaned_data.get("DELETE"))


def _check_with_terms(form: EntryForm, terms: Stakes) -> None:
    """A variant entry's game with the table's stakes, for a table not saved yet
    (``TableGame.clean()`` checks it for a saved one), in the model's words."""
    variant = form.cleaned_data.get("variant")
    if not variant or form.cleaned_data.get("stakes") is not None or form.has_error("variant"):
        return
    problems = GameConfig.problems({**terms.known_options(), "variant": variant})
    if problems:
        form.add_error("variant", f"With the table's stakes: {as_sentence(problems[0])}")


def _place(forms_kept: list[EntryForm]) -> None:
    """Number the entries left without a position after the others, in the rows'
    order; refuse a place taken twice, on the later entry."""
    taken: dict[int, str] = {}
    given = [f.cleaned_data.get("position") for f in forms_kept]
    after = max((p for p in given if p is not None), default=-1) + 1
    for form in forms_kept:
        position = form.cleaned_data.get("position")
        if position is None:
            if form.has_error("position"):
                continue
            position, after = after, after + 1
            form.cleaned_data["position"] = form.instance.position = position
        name = _entry_name(form)
        if position in taken:
            form.add_error(
                "position",
                f"{taken[position]} has place {position}: choose another, or leave it empty "
                "for the end of the list.",
            )
        else:
            taken[position] = name


def _entry_name(form: EntryForm) -> str:
    variant = _entry_variant(form)
    game = VARIANTS.get(variant or "")
    return game.name if game is not None else "another game"


def _entry_variant(form: EntryForm) -> str | None:
    stakes = form.cleaned_data.get("stakes")
    return stakes.variant if stakes is not None else form.cleaned_data.get("variant") or None


def _list_problems(
    table: Table, terms: Stakes | None, forms_kept: list[EntryForm]
) -> Iterator[str]:
    """What is wrong with the list as a whole, for the table's policy and seats."""
    policy = Table.Policy(table.policy) if table.policy in Table.Policy.values else None
    if policy == Table.Policy.FIXED and forms_kept:
        yield (
            "A fixed table deals its stakes' game, every hand: choose a rotation or "
            "dealer's choice above to deal the games listed here, or delete them."
        )
    elif policy is not None and policy != Table.Policy.FIXED and not forms_kept:
        kind = "A rotation" if policy == Table.Policy.ROTATION else "Dealer's choice"
        yield (
            f"{kind} deals from the table's list of games, and it is empty: add at least "
            "one game below, or choose Fixed to deal the stakes' game."
        )
    variants = [v for v in map(_entry_variant, forms_kept) if v in VARIANTS]
    if policy == Table.Policy.FIXED or terms is None or not variants:
        return
    seats = terms.seats
    most = max(VARIANTS[v].max_players for v in variants)
    if most < seats:
        yield (
            f"The table seats {seats} (its stakes, {terms.name}), and no game listed is dealt "
            f"to more than {most} players: add a game for {seats}, such as seven-card stud, "
            "so that a full table has a game to play."
        )


class TableGameInline(TableGameInlineBase):
    """The games a rotation or dealer's-choice table deals, in the list's order."""

    model = TableGame
    form = TableGameForm
    formset = TableGamesFormSet
    fields = ("position", "stakes", "variant")
    ordering = ("position", "pk")
    verbose_name = "game"
    verbose_name_plural = "Games of a rotation or dealer's choice"

    def get_extra(self, request: HttpRequest, obj: Table | None = None, **kwargs: Any) -> int:
        return 3 if obj is None else 1

    def formfield_for_dbfield(
        self, db_field: Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.Field | None:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "stakes" and field is not None:
            # A row has room for the list and its "add stakes" button; the stakes'
            # own pages change, show and delete them.
            widget = field.widget
            widget.can_change_related = widget.can_delete_related = False
            widget.can_view_related = False
        return field


# What the games section of a table's page says above its fields.
GAMES_DESCRIPTION = (
    "Fixed: the table deals its stakes' game every hand. Rotation: each game of the list "
    "below in turn, changing between hands after the hands per game (0: an orbit of the "
    "dealer). Dealer's choice: before each hand, or each orbit, the dealer calls a game of "
    "the list, with the table's action time. A game of the list is a stakes' whole game "
    "(its structure and sizes), or a variant dealt with this table's stakes. A game the "
    "players don't fit is skipped (roll your own and English stud deal six at most, "
    "Baseball seven); the list needs one for a full table."
)


@admin.register(HomeRules)
class HomeRulesAdmin(HomeRulesAdminBase):
    """The one row of what hosts may open as home games."""

    fields = (
        "variants",
        "structures",
        "max_big_bet",
        "max_buy_in",
        "max_open_games",
        "rake",
        "idle_minutes",
    )

    # One row, made on first use: the list opens it, and there is nothing to add
    # or delete (and no query for the admin's menu to ask whether there is).
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: HomeRules | None = None) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        rules = HomeRules.current()
        return HttpResponseRedirect(reverse("admin:tables_homerules_change", args=[rules.pk]))


class RoomOrHomeFilter(admin.SimpleListFilter):
    """The room's tables apart from the players' home games."""

    title = "room or home"
    parameter_name = "home"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "Room tables"), ("yes", "Home games")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Table]) -> QuerySet[Table]:
        if self.value() in ("yes", "no"):
            return queryset.filter(host__isnull=self.value() == "no")
        return queryset


# The sections of a table's page; a home game's adds its own.
TABLE_FIELDSETS: _FieldsetSpec = (
    (None, {"fields": ("name", "stakes", "is_open", "created_at", "closed_at", "host")}),
    (
        "Games",
        {
            "fields": ("policy", "rotate_hands", "choice_for", "choice_default", "dealing"),
            "description": GAMES_DESCRIPTION,
        },
    ),
)
HOME_FIELDSET: _FieldsetSpec = (
    (
        "Home game",
        {
            "fields": ("paused", "seat_approval", "books"),
            "description": "Its host runs it from the table; staff may close it (above). "
            "The books are read when this page opens.",
        },
    ),
)


@admin.register(Table)
class TableAdmin(TableAdminBase):
    list_display = ("name", "stakes", "policy_shown", "game", "host", "is_open", "seats_taken")
    list_filter = (
        "is_open",
        RoomOrHomeFilter,
        "policy",
        "stakes__variant",
        "stakes__structure",
        "stakes",
    )
    list_select_related = ("stakes", "host")
    search_fields = ("name", "host__username")
    inlines = [TableGameInline, SeatInline, WaitingPlayerInline]
    actions = ["open_tables", "close_tables", "close_home_games"]

    def get_fieldsets(self, request: HttpRequest, obj: Table | None = None) -> _FieldsetSpec:
        return (*TABLE_FIELDSETS, *HOME_FIELDSET) if obj and obj.is_home else TABLE_FIELDSETS

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        games = Prefetch("games", TableGame.objects.select_related("stakes"))
        return (
            super().get_queryset(request).annotate(taken=Count("seat_set")).prefetch_related(games)
        )

    def get_readonly_fields(
        self, request: HttpRequest, obj: Table | None = None
    ) -> tuple[str, ...]:
        # A table in play opens and closes only through the services (the list's
        # actions, the button on its page), which let a hand in progress finish,
        # and keeps the stakes its players bought in at. What it deals now is
        # the services' to change (the game-state fields are not the form's).
        # A home game's host and settings are its players' to change (the
        # invite code is never shown).
        if obj:
            home = ("paused", "seat_approval", "books") if obj.is_home else ()
            return ("stakes", "is_open", "created_at", "closed_at", "dealing", "host", *home)
        return ("created_at", "closed_at", "dealing", "host")

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        """A table with players seated is closed, never deleted: deleting it
        would take their seats, and the chips on them, with it."""
        if obj is not None and obj.seat_set.exists():
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # The list's bulk delete would skip the check above: tables are closed there.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.display(description="Game")
    def game(self, table: Table) -> str:
        if table.is_mixed:
            return " · ".join(game.name for game in table.games.all()) or "No games listed"
        return table.stakes.describe()

    @admin.display(description="Games", ordering="policy")
    def policy_shown(self, table: Table) -> str:
        if table.policy == Table.Policy.ROTATION:
            every = f"every {table.rotate_hands} hands" if table.rotate_hands else "each orbit"
            return f"Rotation, {every}"
        if table.policy == Table.Policy.DEALERS_CHOICE:
            return f"Dealer's choice, each {table.choice_for}"
        return "Fixed"

    @admin.display(description="Now dealing")
    def dealing(self, table: Table) -> str:
        """The game being dealt and what is coming, as the lobby says them."""
        if table._state.adding:
            return "—"
        now = dealing_now(table)
        return f"{now.words}. {now.coming}" if now.coming else now.words

    @admin.display(description="Books")
    def books(self, table: Table) -> str:
        """The home game's books and settle-up, as its players see them, and
        its CSV file."""
        if table._state.adding or not table.is_home:
            return "—"
        return books_html(home_books(table.pk), reverse("home_ledger_csv", args=[table.pk]))

    @admin.display(description="Seats taken", ordering="taken")
    def seats_taken(self, table: WithAnnotations[Table, SeatsTaken]) -> str:
        return f"{table.taken} of {table.stakes.seats}"

    @admin.action(description="Open tables", permissions=["change"])
    def open_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        done = self._each_table(request, queryset, _open_and_deal)
        self.message_user(request, f"Opened {done} table(s).", messages.SUCCESS)

    @admin.action(
        description="Close tables (a hand in progress finishes first)", permissions=["change"]
    )
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        done = self._each_table(request, queryset, _close)
        self.message_user(
            request,
            f"Closed {done} table(s); a hand in progress plays to its end first, then every "
            "player is stood up, their chips back in their balance.",
            messages.SUCCESS,
        )

    @admin.action(
        description="Close the selected home games (a hand in play ends first)",
        permissions=["change"],
    )
    def close_home_games(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        """Close each home game chosen, as its host would, and say what became
        of each: closed, closing after its hand, closed already, or not a home game."""
        running = Hand.objects.filter(table=OuterRef("pk"), ended_at__isnull=True)
        chosen = queryset.annotate(hand_running=Exists(running)).order_by("name")
        closing = _HomeClosing()
        for table in chosen:
            if not table.is_home:
                closing.room.append(table.name)
            elif not table.is_open:
                closing.closed_already.append(table.name)
            elif self._each_table(request, [table], _close):
                (closing.after_hand if table.hand_running else closing.closed).append(table.name)
        for level, said in closing.messages():
            self.message_user(request, said, level)

    def get_urls(self) -> list[URLPattern]:
        open_close = self.admin_site.admin_view(require_POST(self.open_close_view))
        return [
            path("<path:object_id>/open-close/", open_close, name="tables_table_open_close"),
            *super().get_urls(),
        ]

    def open_close_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The Close table / Reopen table button of a table's page: POST ``to=close``
        or ``to=open``, then back to that page with a message."""
        table = self.get_object(request, unquote(object_id))
        if table is None:
            raise Http404("No such table.")
        if not self.has_change_permission(request, table):
            raise PermissionDenied
        back = HttpResponseRedirect(reverse("admin:tables_table_change", args=[table.pk]))
        to = request.POST.get("to")
        if to not in OPEN_CLOSE:
            self.message_user(request, "Choose Close table or Reopen table.", messages.ERROR)
            return back
        service, said = OPEN_CLOSE[to]
        if self._each_table(request, [table], service):
            self.message_user(request, said.format(table=table.name), messages.SUCCESS)
        return back

    def _each_table(
        self, request: HttpRequest, tables: Iterable[Table], service: Callable[[int], object]
    ) -> int:
        """Call ``service`` per table, reporting refusals; returns how many succeeded."""
        done = 0
        for table in tables:
            try:
                service(table.pk)
            except ValueError as error:
                self.message_user(request, f"{table}: {error}", messages.ERROR)
            else:
                done += 1
                broadcast.table_changed(table.pk)  # its page and the lobby show the change
        return done


class _HomeClosing:
    """What the admin's "close the selected home games" did, table by table."""

    def __init__(self) -> None:
        self.closed: list[str] = []
        self.after_hand: list[str] = []
        self.closed_already: list[str] = []
        self.room: list[str] = []

    def messages(self) -> Iterator[tuple[int, str]]:
        if self.closed:
            yield (
                messages.SUCCESS,
                f"Closed {_count(self.closed, 'home game')}: {', '.join(self.closed)}. "
                "Every player was stood up, their chips back in their balance.",
            )
        if self.after_hand:
            yield (
                messages.SUCCESS,
                f"Closed {_count(self.after_hand, 'home game')} with a hand in play: "
                f"{', '.join(self.after_hand)}. The hand plays to its end; then every "
                "player is stood up, their chips back in their balance.",
            )
        if self.closed_already:
            yield (
                messages.INFO,
                f"Closed already, left as they were: {', '.join(self.closed_already)}.",
            )
        if self.room:
            yield (
                messages.WARNING,
                f"Not home games, left open: {', '.join(self.room)}. Tables of the room "
                'close with "Close tables".',
            )


def _count(names: list[str], what: str) -> str:
    return f"{len(names)} {what}{'s' if len(names) != 1 else ''}"


def _figures(figures: LedgerFigures) -> tuple[int, ...]:
    return (
        figures.bought_in,
        figures.topped_up,
        figures.cashed_out,
        figures.on_table,
        figures.net,
    )


def books_html(books: Books, csv_url: str) -> str:
    """A home game's books as a table, each player's figures and their totals,
    then who pays whom to settle up, and a link to the same as CSV."""
    numbers = '<td class="num">{}</td>' * 5
    rows = format_html_join(
        "",
        "<tr><td>{}{}</td>" + numbers + "</tr>",
        ((row.name, "" if row.seated else " (not seated)", *_figures(row)) for row in books.rows),
    )
    payments = format_html_join(
        "",
        "<li>{} pays {} {} chips</li>",
        ((p.payer, HOUSE if p.payee_id is None else p.payee, p.amount) for p in books.payments),
    )
    rake = (
        format_html("<p>Rake taken by the house: {} chips.</p>", books.rake) if books.rake else ""
    )
    return format_html(
        '<div class="home-books" id="home-books"><table><thead><tr><th scope="col">Player</th>'
        '<th scope="col" class="num">Bought in</th><th scope="col" class="num">Topped up</th>'
        '<th scope="col" class="num">Cashed out</th><th scope="col" class="num">On the table</th>'
        '<th scope="col" class="num">Net</th></tr></thead><tbody>{}</tbody>'
        '<tfoot><tr><th scope="row">Total</th>' + numbers + "</tr></tfoot></table>{}"
        "{}"
        '<p><a href="{}" download>Download the books as CSV</a></p></div>',
        rows or format_html('<tr><td colspan="6">Nobody has bought in yet.</td></tr>'),
        *_figures(books.totals),
        rake,
        format_html("<p>To settle up:</p><ul>{}</ul>", payments)
        if books.payments
        else format_html("<p>To settle up: nobody owes anybody anything.</p>"),
        csv_url,
    )


def _open_and_deal(table_id: int) -> None:
    from tables.services import table_open_and_deal

    table_open_and_deal(table_id=table_id)  # players may be waiting in their seats


def _close(table_id: int) -> None:
    from tables.services import table_close

    table_close(table_id=table_id)


# What the button on a table's page asks for: the service, and what is said after.
OPEN_CLOSE: dict[str, tuple[Callable[[int], object], str]] = {
    "open": (_open_and_deal, "{table} is open: players can sit down, and hands are dealt."),
    "close": (
        _close,
        "{table} is closed: no new hand will be dealt and nobody new can sit down. A hand "
        "in play ends first; then every player is stood up, their chips back in their balance.",
    ),
}


def _cards(cards: Sequence[int]) -> str:
    return " ".join("??" if card == UNKNOWN else card_str(card) for card in cards)


class HandResultInline(ReadOnlyAdminMixin, HandResultInlineBase):
    model = HandResult
    fields = ("seat_number", "player", "starting_stack", "final_stack", "net")
    readonly_fields = fields
    extra = 0


@admin.register(Hand)
class HandAdmin(ReadOnlyAdminMixin, HandAdminBase):
    """Every card of every hand, for staff reviewing play; players never see this."""

    list_display = ("__str__", "table", "number", "game", "started_at", "ended_at", "finished")
    list_filter = ("table", "variant", "structure")
    list_select_related = ("table",)
    date_hierarchy = "started_at"
    fields = (
        "table",
        "number",
        "game",
        "started_at",
        "ended_at",
        "deck_commitment",
        "deck_salt",
        "dealer_seat",
        "full_deck",
        "players_cards",
        "moves",
        "story",
        "version",
    )
    inlines = [HandResultInline]

    @admin.display(description="Finished", boolean=True)
    def finished(self, hand: Hand) -> bool:
        return hand.is_finished

    @admin.display(description="Dealer's seat")
    def dealer_seat(self, hand: Hand) -> object:
        return hand.dealer_seat

    @admin.display(description="Deck, in dealing order")
    def full_deck(self, hand: Hand) -> str:
        return format_html("<code>{}</code>", _cards(hand.deck or []))

    @admin.display(description="Each player's cards")
    def players_cards(self, hand: Hand) -> str:
        rows = _player_rows(hand)
        if not rows:
            return "No cards dealt."
        return format_html(
            "<table><tr><th>Seat</th><th>Player</th>"
            "<th>Cards as dealt, [down cards] in brackets</th></tr>{}</table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td><code>{}</code></td></tr>", rows),
        )

    @admin.display(description="Moves")
    def moves(self, hand: Hand) -> str:
        rows = _move_rows(hand)
        if not rows:
            return "No moves yet."
        return format_html(
            "<table><tr><th>#</th><th>Time</th><th>Seat</th><th>Player</th><th>Move</th>"
            "<th>Chips</th><th>Made by the clock</th></tr>{}</table>",
            format_html_join("", "<tr>" + "<td>{}</td>" * 7 + "</tr>", rows),
        )

    @admin.display(description="The hand told street by street")
    def story(self, hand: Hand) -> str:
        if not hand.is_finished:
            return "Once the hand has ended."
        return format_html(
            '<a href="{}">Hand #{}</a>', reverse("hand_detail", args=[hand.pk]), hand.pk
        )


def _move_rows(hand: Hand) -> list[tuple[object, ...]]:
    """(number, time, seat, player, move, chips named, made by the clock) per move."""
    names = dict(zip(hand.player_ids(), hand.player_names(), strict=True))
    return [
        (
            move.number,
            timezone.localtime(move.at).strftime("%H:%M:%S.%f")[:-3] if move.at else "—",
            move.seat,
            names[move.player_id],
            move.kind.replace("_", " "),
            "" if move.amount is None else move.amount,
            "yes" if move.timed_out else "",
        )
        for move in hand.moves()
    ]


def _player_rows(hand: Hand) -> list[tuple[int, str, str]]:
    """(seat, player, cards as dealt) per player, in the engine's order."""
    # Loaded by the engine, which also reads hands stored before the one card list.
    dealt = zip(
        hand.seat_numbers(),
        hand.player_names(),
        HandState.from_dict(hand.state).cards,
        strict=False,
    )
    return [(seat, name, _as_dealt(cards)) for seat, name, cards in dealt]


def _as_dealt(cards: Sequence[Held]) -> str:
    """``[As] [Kd] 6c``: a player's cards in dealing order, down cards in brackets."""
    return " ".join(_cards([h.card]) if h.up else f"[{_cards([h.card])}]" for h in cards)


@admin.register(RakeEntry)
class RakeEntryAdmin(ReadOnlyAdminMixin, RakeEntryAdminBase):
    list_display = ("created_at", "hand", "table", "stakes", "amount")
    list_filter = ("stakes", "table")
    list_select_related = ("hand__table", "table", "stakes")
    date_hierarchy = "created_at"


@admin.register(ChatLine)
class ChatLineAdmin(ReadOnlyAdminMixin, ChatLineAdminBase):
    """What was said at the tables, for staff looking into a complaint."""

    list_display = ("sent_at", "table", "player", "text")
    list_filter = ("table",)
    list_select_related = ("table", "player")
    search_fields = ("text", "player__username")
    date_hierarchy = "sent_at"
