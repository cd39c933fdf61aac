"""Signing up, logging out and a player's own profile."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters

from accounts.addresses import client_address
from accounts.forms import CardPreferencesForm, EmailForm, SignupForm
from accounts.services import (
    MODEL_BACKEND,
    ResetLimited,
    SignupLimited,
    password_reset_quota_claim,
    user_email_set,
    user_signup,
)

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


def locked_out(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    """The page django-axes shows for a login refused after too many failures."""
    context = {"minutes": settings.LOGIN_LOCKOUT_MINUTES, "limit": settings.LOGIN_FAILURE_LIMIT}
    return render(request, "accounts/locked_out.html", context, status=429)


class LogoutView(auth_views.LogoutView):
    """Django's logout (POST only), saying so afterwards."""

    next_page = "home"

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You have logged out.")
        return response


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The balance and recent chip movements; the email for password resets, and
    how cards are drawn. Each form posts on its own (``which`` names it)."""
    which = request.POST.get("which") if request.method == "POST" else None
    form = EmailForm(
        request.POST if which == "email" else None, initial={"email": request.user.email}
    )
    cards = CardPreferencesForm(request.POST if which == "cards" else None, instance=request.user)
    if which == "email" and form.is_valid():
        user_email_set(user_id=request.user.pk, email=form.cleaned_data["email"])
        messages.success(request, "Your email address is saved.")
        return redirect("accounts:profile")
    if which == "cards" and cards.is_valid():
        cards.save()
        messages.success(request, "Your table preferences are saved.")
        return redirect("accounts:profile")
    transfers = request.user.transfers.select_related("table")[:RECENT_TRANSFERS]
    context = {"transfers": transfers, "form": form, "cards": cards}
    return render(request, "accounts/profile.html", context)


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
