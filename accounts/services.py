"""The only code that changes a player's chip balance."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from accounts.models import ChipTransfer, User


class LedgerError(ValueError):
    """A transfer that would leave a balance negative, or is malformed."""


@transaction.atomic
def ledger_post(
    *,
    user_id: int,
    kind: str,
    amount: int,
    table_id: int | None = None,
    note: str = "",
    by_id: int | None = None,
) -> ChipTransfer:
    """Move ``amount`` chips into (or, if negative, out of) a balance and record it.

    Locks the player's row so concurrent transfers can't both spend one chip.
    """
    if type(amount) is not int or amount == 0:
        raise LedgerError(f"a transfer needs a non-zero whole number of chips, not {amount!r}")
    if kind not in ChipTransfer.Kind.values:
        raise LedgerError(f"unknown transfer kind {kind!r}")
    user = User.objects.select_for_update().get(pk=user_id)
    if user.balance + amount < 0:
        raise LedgerError(f"{user.shown_name} has {user.balance} chips, fewer than {-amount}")
    user.balance += amount
    user.save(update_fields=["balance"])
    return ChipTransfer.objects.create(
        user=user,
        kind=kind,
        amount=amount,
        balance_after=user.balance,
        table_id=table_id,
        note=note,
        created_by_id=by_id,
    )


@transaction.atomic
def user_signup(
    *,
    username: str,
    password: str,
    display_name: str = "",
    email: str = "",
) -> User:
    """Create a player and give them the configured play-chip grant."""
    user = User.objects.create_user(
        username=username, password=password, display_name=display_name, email=email
    )
    grant = settings.CARDROOM_SIGNUP_GRANT
    if grant:
        ledger_post(user_id=user.pk, kind=ChipTransfer.Kind.GRANT, amount=grant, note="welcome")
    user.refresh_from_db()
    return user
