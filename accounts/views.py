"""Signing up, logging out and a player's own profile."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from axes.helpers import get_client_username
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.db import IntegrityError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters

from accounts.addresses import client_address
from accounts.forms import (
    CardPreferencesForm,
    DisplayNameForm,
    EmailForm,
    ProfilePasswordForm,
    SignupForm,
)
from accounts.lockout import LoginLimitsHandler
from accounts.services import (
    MODEL_BACKEND,
    ResetLimited,
    SignupLimited,
    password_reset_quota_claim,
    user_display_name_set,
    user_email_set,
    user_password_set,
    user_signup,
)

if TYPE_CHECKING:
    from accounts.http import AuthenticatedHttpRequest

RECENT_TRANSFERS = 20


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(landing_page(request))
    form = SignupForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            user = user_signup(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
                address=client_address(request),
            )
        except IntegrityError:
            # Someone took the name between the form's check and the insert.
            form.add_error("username", "That username was just taken; please choose another.")
        except SignupLimited as refusal:
            form.add_error(None, str(refusal))
            status = 429
        else:
            login(request, user, backend=MODEL_BACKEND)
            messages.success(request, _welcome(user.shown_name))
            return redirect(landing_page(request))
    context = {"form": form, "next": _next(request)}
    return render(request, "accounts/signup.html", context, status=status)


def landing_page(request: HttpRequest) -> str:
    """Where a player goes once logged in: the page ``next`` names, if it is on
    this site, else the lobby."""
    target = _next(request)
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else reverse("lobby")


def _next(request: HttpRequest) -> str:
    return request.POST.get("next") or request.GET.get("next", "")


def _welcome(name: str) -> str:
    grant = settings.CARDROOM_SIGNUP_GRANT
    if not grant:
        return f"Welcome, {name}!"
    return f"Welcome, {name}! You have been granted {grant:,} play chips."


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The page django-axes shows for a login refused after too many failures:
    it says whether the account or the address is locked out, or both."""
    left = LoginLimitsHandler().failures_left(request, credentials)
    context = {
        "username": get_client_username(request, credentials),
        "minutes": settings.LOGIN_LOCKOUT_MINUTES,
        "limit": settings.LOGIN_FAILURE_LIMIT,
        "address_limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT,
        "account_locked": left["username"] <= 0,
        "address_locked": left["ip_address"] <= 0,
    }
    return render(request, "accounts/locked_out.html", context, status=429)


class LogoutView(auth_views.LogoutView):
    """Django's logout (POST only), saying so afterwards."""

    next_page = "home"

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You have logged out.")
        return response


@login_required
@sensitive_post_parameters("old_password", "new_password1", "new_password2")
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The balance and recent chip movements, and the player's own settings: how
    cards are drawn, the name the site greets them by, their password and the
    email for password resets. Each form posts on its own (``which`` names it)."""
    which = request.POST.get("which") if request.method == "POST" else None
    user = request.user
    profile_forms = {
        "cards": CardPreferencesForm(_posted(request, which, "cards"), instance=user),
        "name": DisplayNameForm(
            _posted(request, which, "name"), initial={"display_name": user.display_name}
        ),
        "password": ProfilePasswordForm(user, _posted(request, which, "password")),
        "email": EmailForm(_posted(request, which, "email"), initial={"email": user.email}),
    }
    if which in profile_forms and profile_forms[which].is_valid():
        messages.success(request, _profile_save(request, profile_forms[which]))
        return redirect("accounts:profile")
    transfers = user.transfers.select_related("table")[:RECENT_TRANSFERS]
    context = {"transfers": transfers, **profile_forms}
    return render(request, "accounts/profile.html", context)


def _posted(request: HttpRequest, which: str | None, form: str) -> QueryDict | None:
    """The posted data for the form that was posted; the others are shown unbound."""
    return request.POST if which == form else None


def _profile_save(request: AuthenticatedHttpRequest, form: BaseForm) -> str:
    """Save one of the profile's forms; what to tell the player."""
    data, user_id = form.cleaned_data, request.user.pk
    if isinstance(form, CardPreferencesForm):
        form.save()
        return "Your table preferences are saved."
    if isinstance(form, DisplayNameForm):
        user_display_name_set(user_id=user_id, display_name=data["display_name"])
        return "Your display name is saved."
    if isinstance(form, ProfilePasswordForm):
        user = user_password_set(user_id=user_id, password=data["new_password1"])
        # This session goes on; the player's others end, as Django checks them
        # against the password they were made with.
        update_session_auth_hash(request, user)
        return "Your password is changed. Any other browser you were logged in on is logged out."
    user_email_set(user_id=user_id, email=data["email"])
    return "Your email address is saved."


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with a limit on the mails asked from one address and for one email."""

    template_name = "accounts/password_reset.html"
    subject_template_name = "accounts/password_reset_subject.txt"
    email_template_name = "accounts/password_reset_email.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        try:
            password_reset_quota_claim(
                address=client_address(self.request), email=form.cleaned_data["email"]
            )
        except ResetLimited as refusal:
            form.add_error(None, str(refusal))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)
