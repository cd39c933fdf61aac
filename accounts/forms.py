"""Forms for signing up, the profile page, and staff managing players."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    PasswordChangeForm,
    UserChangeForm,
    UsernameField,
)
from django.core.validators import MaxLengthValidator

from accounts.models import User

if TYPE_CHECKING:
    # The stubs make these forms generic in their model; Django's classes are
    # not subscriptable at runtime, so the model is named for mypy only.
    UserModelForm = forms.ModelForm[User]
    UserChangeFormBase = UserChangeForm[User]
else:
    UserModelForm = forms.ModelForm
    UserChangeFormBase = UserChangeForm

# Far beyond any sensible correction; it stops a typo of extra zeros, not a policy.
MAX_ADJUSTMENT = 1_000_000_000

# The names of the house's bots (``tables.bot_accounts``), which nobody may sign up as.
HOUSE_BOT = re.compile(r"bot-[0-9]+")
# A new username fits a seat at the table and a line of the hand log. The
# column holds Django's 150, so accounts made before the limit keep their
# longer names, and log in and play with them as before.
USERNAME_MAX_LENGTH = 24
USERNAME_HELP = (
    f"Up to {USERNAME_MAX_LENGTH} letters, digits and @ . + - _. You log in with it, and it is "
    "your name at the tables, in hand logs and in hand histories."
)
# Checked on the server, with no maxlength in the page: a browser cuts a
# longer name to that length without a word, and the player would never know.
username_length = MaxLengthValidator(
    USERNAME_MAX_LENGTH,
    message="A username has at most %(limit_value)d characters; this one has %(show_value)d.",
)
DISPLAY_NAME_HELP = (
    "How the site greets you: at the top of every page and on your profile. At the tables, "
    "in hand logs and histories everyone sees your username, so nobody can pass for "
    "another player. Empty: your username."
)


class CardPreferencesForm(UserModelForm):
    """How a player likes the table: cards drawn, sounds and movement; kept on their account."""

    class Meta:
        model = User
        fields = ["four_colour_deck", "card_size", "sounds", "animations"]


class SignupForm(forms.Form):
    """Username, display name and a password typed twice.

    It only checks the input; ``accounts.services.user_signup`` creates the player.
    """

    username = UsernameField(
        validators=[User.username_validator, username_length],
        help_text=USERNAME_HELP,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )
    display_name = forms.CharField(max_length=40, required=False, help_text=DISPLAY_NAME_HELP)
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
        username: str = self.cleaned_data["username"]
        # Case-insensitive so "Alice" can't pass for "alice" at the table.
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError("That username is taken; please choose another.")
        if HOUSE_BOT.fullmatch(username.casefold()):
            raise forms.ValidationError(
                "Names like bot-1 are the house's bots; please choose another."
            )
        return username

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, which the stubs allow to be None
        cleaned = self.cleaned_data
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


class DisplayNameForm(forms.Form):
    """The name the site greets a player by; empty: their username."""

    display_name = forms.CharField(max_length=40, required=False, help_text=DISPLAY_NAME_HELP)


class ProfilePasswordForm(PasswordChangeForm):
    """Django's: the current password, then the new one twice, through every validator.

    Without its autofocus, which would scroll the profile page down to it.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["old_password"].widget.attrs.pop("autofocus", None)


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
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("An adjustment of 0 chips changes nothing.")
        return amount


class PlayerCreationForm(AdminUserCreationForm):
    """The admin's "Add user": a new username keeps to the signup's limit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _username_checked_here(self.fields["username"]).validators.append(username_length)


class PlayerChangeForm(UserChangeFormBase):
    """The admin's player page: a changed username keeps to the signup's limit;
    one made before the limit stays as it is while other fields change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "username" in self.fields:
            _username_checked_here(self.fields["username"])

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if "username" in self.changed_data:
            username_length(username)
        return username


def _username_checked_here(field: forms.Field) -> forms.Field:
    """Leave the length to ``username_length``: no maxlength for the browser to cut
    at, and not the column's 150 as a second, different complaint."""
    field.validators = [v for v in field.validators if not isinstance(v, MaxLengthValidator)]
    field.widget.attrs.pop("maxlength", None)
    field.help_text = USERNAME_HELP
    return field
