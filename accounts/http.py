"""The request a view behind ``login_required`` gets, for the type checker."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """An ``HttpRequest`` whose user has logged in, as in every view behind
    ``login_required``. Only annotations name it: Django still passes a plain
    ``HttpRequest``, whose ``user`` the decorator has checked."""

    user: User
