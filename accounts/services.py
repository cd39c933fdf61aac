"""The only code that changes a player's chip balance."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import AddressQuota, ChipTransfer, User

# The authentication backend that checks passwords and loads users back from
# their sessions; a player logged in without a password (just signed up, or a
# bot) is logged in as if through it.
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


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
        raise LedgerError(f"{user.shown_name} has {user.balance:,} chips, fewer than {-amount:,}")
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


def user_email_set(*, user_id: int, email: str) -> None:
    """Set the address a player's password reset links go to ("" for none)."""
    User.objects.filter(pk=user_id).update(email=email)


def user_display_name_set(*, user_id: int, display_name: str) -> None:
    """Set the name the site greets a player by ("" for their username)."""
    User.objects.filter(pk=user_id).update(display_name=display_name)


@transaction.atomic
def user_password_set(*, user_id: int, password: str) -> User:
    """Give a player a new password, already checked by the caller's form.

    Returns the player, so the caller can keep its own session logged in
    (``update_session_auth_hash``); every other session of theirs ends, since
    Django checks each session against the password it was made with.
    """
    user = User.objects.select_for_update().get(pk=user_id)
    user.set_password(password)
    user.save(update_fields=["password"])
    return user


class SignupLimited(ValueError):
    """Too many signups from one address for now; nothing was created."""


class ResetLimited(ValueError):
    """Too many password reset mails asked for now, from the address or for the email."""


@transaction.atomic
def user_signup(
    *,
    username: str,
    password: str,
    display_name: str = "",
    email: str = "",
    address: str | None = None,
) -> User:
    """Create a player and give them the configured play-chip grant.

    With ``address`` (a visitor's, from ``accounts.addresses``) it first takes
    one of that address's signups, and raises ``SignupLimited`` if none is left.
    """
    if address is not None:
        signup_quota_claim(address=address)
    user = User.objects.create_user(
        username=username, password=password, display_name=display_name, email=email
    )
    grant = settings.CARDROOM_SIGNUP_GRANT
    if grant:
        ledger_post(user_id=user.pk, kind=ChipTransfer.Kind.GRANT, amount=grant, note="welcome")
    user.refresh_from_db()
    return user


def signup_quota_claim(*, address: str, now: datetime.datetime | None = None) -> None:
    """Take one of ``address``'s signups, or raise ``SignupLimited``.

    Call it inside the signup's transaction: if the signup fails, the signup
    taken is given back with it.
    """
    limit = settings.CARDROOM_SIGNUPS_PER_ADDRESS
    window = datetime.timedelta(hours=settings.CARDROOM_SIGNUP_WINDOW_HOURS)
    if not quota_claim(AddressQuota.Purpose.SIGNUP, address, limit, window, now):
        raise SignupLimited(
            f"Too many accounts have been made from your address: at most {limit} every "
            f"{_hours(window)}. Please try again later."
        )


@transaction.atomic
def password_reset_quota_claim(
    *, address: str, email: str, now: datetime.datetime | None = None
) -> None:
    """Take one password reset mail from ``address`` and one for ``email``, or raise
    ``ResetLimited`` and take neither.

    The limit for the email holds whether or not it belongs to a player, so a
    refusal tells nobody who plays here.
    """
    window = datetime.timedelta(minutes=settings.CARDROOM_PASSWORD_RESET_WINDOW_MINUTES)
    limits = (
        (
            AddressQuota.Purpose.RESET_ADDRESS,
            address,
            settings.CARDROOM_PASSWORD_RESETS_PER_ADDRESS,
        ),
        (
            AddressQuota.Purpose.RESET_EMAIL,
            email.lower(),
            settings.CARDROOM_PASSWORD_RESETS_PER_EMAIL,
        ),
    )
    for purpose, key, limit in limits:
        if not quota_claim(purpose, key, limit, window, now):
            raise ResetLimited(
                f"Too many password reset mails have been asked for: at most {limit} every "
                f"{_hours(window)}. Please try again later."
            )


def quota_claim(
    purpose: str,
    key: str,
    limit: int,
    window: datetime.timedelta,
    now: datetime.datetime | None = None,
) -> bool:
    """Take one use of ``purpose`` for ``key``; False when its ``limit`` per ``window``
    is used up. A limit of 0 is no limit.

    Call it inside the caller's transaction: if what it guards fails, the use
    is given back with it.
    """
    if not limit:
        return True
    now = now or timezone.now()
    AddressQuota.objects.bulk_create(
        [AddressQuota(purpose=purpose, key=key, window_started=now)], ignore_conflicts=True
    )
    quotas = AddressQuota.objects.filter(purpose=purpose, key=key)
    quotas.filter(window_started__lte=now - window).update(window_started=now, used=0)
    return bool(quotas.filter(used__lt=limit).update(used=F("used") + 1))


def _hours(window: datetime.timedelta) -> str:
    """``"24 hours"``, ``"hour"`` or ``"15 minutes"``: a window as the refusals say it."""
    minutes = round(window.total_seconds() / 60)
    if minutes % 60:
        return f"{minutes} minutes"
    return "hour" if minutes == 60 else f"{minutes // 60} hours"
