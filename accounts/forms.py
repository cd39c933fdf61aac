"""Forms for signing up and for staff adjusting a player's chips."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import UsernameField

from accounts.models import User

# Far beyond any sensible correction; it stops a typo of extra zeros, not a policy.
MAX_ADJUSTMENT = 1_000_000_000


class CardPreferencesForm(forms.ModelForm):
    """How a player likes the table: cards drawn, sounds and movement; kept on their account."""

    class Meta:
        model = User
        fields = ["four_colour_deck", "card_size", "sounds", "animations"]


class SignupForm(forms.Form):
    """Username, display name and a password typed twice.

    It only checks the input; ``accounts.services.user_signup`` creates the player.
    """

    username = UsernameField(
        max_length=150,
        validators=User._meta.get_field("username").validators,
        help_text="Letters, digits and @ . + - _ only; you log in with it.",
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )
    display_name = forms.CharField(
        max_length=40,
        required=False,
        help_text="The name other players see at the table. Empty: your username.",
    )
    email = forms.EmailField(
        required=False,
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text="Only to send you a link if you forget your password. Nobody else sees it.",
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="The same password, to catch a typo.",
    )

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        # Case-insensitive so "Alice" can't pass for "alice" at the table.
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError("That username is taken; please choose another.")
        return username

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        password1, password2 = cleaned.get("password1"), cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", "The two passwords don't match.")
        elif password2:
            self._validate_password(password2)
        return cleaned

    def _validate_password(self, password: str) -> None:
        # An unsaved user lets the similarity validator compare against the names.
        candidate = User(
            username=self.cleaned_data.get("username", ""),
            display_name=self.cleaned_data.get("display_name", ""),
        )
        try:
            password_validation.validate_password(password, candidate)
        except forms.ValidationError as error:
            self.add_error("password2", error)


class EmailForm(forms.Form):
    """The address password reset links go to; empty removes it."""

    email = forms.EmailField(
        required=False,
        max_length=254,
        label="Email",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text="Only to send you a link if you forget your password. Empty: none.",
    )


class ChipAdjustmentForm(forms.Form):
    """A signed number of chips and the reason, for the ledger."""

    amount = forms.IntegerField(
        min_value=-MAX_ADJUSTMENT,
        max_value=MAX_ADJUSTMENT,
        help_text="Chips to add; a negative number takes chips away.",
    )
    note = forms.CharField(
        max_length=200,
        help_text="Why. It is kept on the ledger row, and the player sees it in their history.",
    )

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("An adjustment of 0 chips changes nothing.")
        return amount
