"""Players and their chips.

A player's balance is the chips they hold away from the tables. It changes only
through :func:`accounts.services.ledger_post`, which writes a :class:`ChipTransfer`
row recording the balance afterwards, so the ledger explains every chip.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models

from cardroom.rows import RowLoaded


class User(AbstractUser, RowLoaded):
    class CardSize(models.TextChoices):
        NORMAL = "normal", "Normal"
        LARGE = "large", "Large"

    display_name = models.CharField(max_length=40, blank=True)
    balance = models.BigIntegerField(default=0, editable=False)
    # How the player likes cards drawn, on every page that shows them.
    four_colour_deck = models.BooleanField(
        default=False,
        verbose_name="four-colour deck",
        help_text="Clubs green and diamonds blue, so no two suits share a colour.",
    )
    card_size = models.CharField(max_length=8, choices=CardSize.choices, default=CardSize.NORMAL)
    # How the table behaves for them: sounds and movement. A browser can still
    # mute itself (the table's sound button); reduced motion always wins.
    sounds = models.BooleanField(
        default=True,
        verbose_name="sounds at the table",
        help_text="A card dealt, a check, a bet, your turn and time running out.",
    )
    animations = models.BooleanField(
        default=True,
        verbose_name="animations",
        help_text="Cards dealt and chips sliding to the pot and the winner. "
        "Off whenever your device asks for reduced motion.",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0), name="user_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.shown_name

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username


class ChipTransfer(RowLoaded):
    """One change to a player's balance; rows are only ever added."""

    class Kind(models.TextChoices):
        GRANT = "grant", "Grant"
        BUY_IN = "buy_in", "Buy-in"
        # Chips added to a seat already taken: a top-up, a rebuy after busting,
        # or an auto-rebuy; the note says which.
        TOP_UP = "top_up", "Top-up"
        CASH_OUT = "cash_out", "Cash-out"
        ADJUSTMENT = "adjustment", "Adjustment"

    user = models.ForeignKey(User, on_delete=models.PROTECT, related_name="transfers")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    amount = models.BigIntegerField(help_text="Chips into the balance; negative means out.")
    balance_after = models.BigIntegerField()
    table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="transfers"
    )
    note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount:+} for {self.user}"


class AddressQuota(RowLoaded):
    """How much of one limited action a key (an address, an email) has used in its window.

    ``accounts.services.quota_claim`` takes one use in the caller's
    transaction, with a conditional update, so two requests at once can't both
    take the last one. The window starts at the first use after the last
    window ended.
    """

    class Purpose(models.TextChoices):
        SIGNUP = "signup", "Signups from an address"
        RESET_ADDRESS = "reset_address", "Password reset mails asked from an address"
        RESET_EMAIL = "reset_email", "Password reset mails asked for an email address"

    purpose = models.CharField(max_length=16, choices=Purpose.choices)
    key = models.CharField(max_length=254, help_text="The address, or the email, lower-cased.")
    window_started = models.DateTimeField()
    used = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["purpose", "key"], name="one_quota_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.used} × {self.get_purpose_display()}: {self.key} since {self.window_started}"
