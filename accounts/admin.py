"""Staff pages for players and the chip ledger.

A balance is never edited in a form: staff post an adjustment, which goes through
``ledger_post`` like every other chip movement and leaves a ledger row behind.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from accounts.forms import ChipAdjustmentForm, PlayerChangeForm, PlayerCreationForm
from accounts.models import ChipTransfer, User
from accounts.services import LedgerError, ledger_post

if TYPE_CHECKING:
    # The stubs make the admin classes generic in their model; Django's are not
    # subscriptable at runtime, so the model is named for mypy only.
    UserAdminBase = DjangoUserAdmin[User]
    ChipTransferAdminBase = admin.ModelAdmin[ChipTransfer]
else:
    UserAdminBase = DjangoUserAdmin
    ChipTransferAdminBase = admin.ModelAdmin

# Django's UserAdmin always sets its fieldsets (the "or" is for the stubs,
# which type them as any ModelAdmin's, and those may be None).
DJANGO_FIELDSETS = DjangoUserAdmin.fieldsets or ()


@admin.register(User)
class UserAdmin(UserAdminBase):
    form = PlayerChangeForm
    add_form = PlayerCreationForm
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        ("Player", {"fields": ("display_name", "balance", "ledger")}),
        *DJANGO_FIELDSETS[1:],
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("username", "display_name", "usable_password", "password1", "password2"),
            },
        ),
    )
    readonly_fields = ("balance", "ledger")
    list_display = ("username", "display_name", "balance", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    actions = ["adjust_chips"]

    def get_urls(self) -> list[Any]:
        adjust = self.admin_site.admin_view(self.adjust_chips_view)
        return [
            path("<path:object_id>/adjust-chips/", adjust, name="accounts_user_adjust_chips"),
            *super().get_urls(),
        ]

    @admin.display(description="Ledger")
    def ledger(self, user: User) -> str:
        # By the user's id, not ``?user=``: Django checks an id lookup against the
        # column's range, so an edited link with a huge number lists nothing
        # instead of failing on SQLite.
        url = reverse("admin:accounts_chiptransfer_changelist") + f"?user__id__exact={user.pk}"
        return format_html('<a href="{}">Every chip transfer of {}</a>', url, user.username)

    def has_adjust_chips_permission(self, request: HttpRequest) -> bool:
        # An adjustment adds a ledger row, so it takes the ledger's "add" permission.
        return request.user.has_perm("accounts.add_chiptransfer")

    @admin.action(description="Adjust chips", permissions=["adjust_chips"])
    def adjust_chips(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        form = ChipAdjustmentForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return self._adjustment_page(request, form, list(queryset), from_action=True)
        for player in queryset:
            self._post_adjustment(request, player, form.cleaned_data)
        return None

    def adjust_chips_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if not self.has_adjust_chips_permission(request):
            raise PermissionDenied
        player = self.get_object(request, unquote(object_id))
        if player is None:
            raise Http404("No such player.")
        form = ChipAdjustmentForm(request.POST or None)
        if not form.is_valid():
            return self._adjustment_page(request, form, [player], from_action=False)
        self._post_adjustment(request, player, form.cleaned_data)
        return HttpResponseRedirect(reverse("admin:accounts_user_change", args=[player.pk]))

    def _post_adjustment(self, request: HttpRequest, player: User, data: dict[str, Any]) -> None:
        amount, note = data["amount"], data["note"]
        try:
            transfer = ledger_post(
                user_id=player.pk,
                kind=ChipTransfer.Kind.ADJUSTMENT,
                amount=amount,
                note=note,
                by_id=request.user.pk,
            )
        except LedgerError as error:
            self.message_user(
                request, f"{player.username}'s chips were not adjusted: {error}.", messages.ERROR
            )
            return
        self.log_change(request, player, f"Adjusted chips by {amount:+}: {note}")
        self.message_user(
            request,
            f"{player.username}: {amount:+,} chips; balance now {transfer.balance_after:,}.",
            messages.SUCCESS,
        )

    def _adjustment_page(
        self,
        request: HttpRequest,
        form: ChipAdjustmentForm,
        players: Iterable[User],
        *,
        from_action: bool,
    ) -> TemplateResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": "Adjust chips",
            "opts": self.opts,
            "form": form,
            "players": players,
            "from_action": from_action,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/accounts/user/adjust_chips.html", context)


@admin.register(ChipTransfer)
class ChipTransferAdmin(ChipTransferAdminBase):
    """The ledger, read only: rows are written by ``ledger_post`` and never changed."""

    list_display = ("created_at", "user", "kind", "amount", "balance_after", "table", "note")
    list_filter = ("kind",)
    list_select_related = ("user", "table")
    search_fields = ("user__username", "user__display_name", "note")
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
