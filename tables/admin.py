"""Staff pages for rake rules, stakes, tables, hands, rake and table chat.

Stakes are validated by ``Stakes.clean()``, which the admin's model form runs, so
the admin refuses exactly what the model refuses. Tables open and close through
``tables.services``, from the list's actions or the table's own page; hands and
rake are records of play and are read only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Field, QuerySet
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
    RakeEntry,
    RakeRule,
    Seat,
    Stakes,
    Table,
    WaitingPlayer,
)
from tables.rules import UNKNOWN, HandState
from tables.rules.cards import card_str
from tables.rules.config import percent_text
from tables.rules.state import Held

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
    TableAdminBase = admin.ModelAdmin[Table]
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
    TableAdminBase = admin.ModelAdmin
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


@admin.register(Table)
class TableAdmin(TableAdminBase):
    list_display = ("name", "stakes", "game", "is_open", "seats_taken")
    list_filter = ("is_open", "stakes__variant", "stakes__structure", "stakes")
    list_select_related = ("stakes",)
    search_fields = ("name",)
    inlines = [SeatInline, WaitingPlayerInline]
    actions = ["open_tables", "close_tables"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).annotate(taken=Count("seat_set"))

    def get_readonly_fields(
        self, request: HttpRequest, obj: Table | None = None
    ) -> tuple[str, ...]:
        # A table in play opens and closes only through the services (the list's
        # actions, the button on its page), which let a hand in progress finish,
        # and keeps the stakes its players bought in at.
        return ("stakes", "is_open", "created_at") if obj else ("created_at",)

    @admin.display(description="Game")
    def game(self, table: Table) -> str:
        return table.stakes.describe()

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
