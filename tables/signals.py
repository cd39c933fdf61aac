"""A user who logs out or is deactivated stops acting through the table sockets left open.

Each table consumer also checks, before acting on any message, that its user is
still who Django's auth finds on the socket's session
(:func:`tables.selectors.players.player_is_current`): that catches what no signal
reports, such as a deactivation by a bulk ``update()``. These receivers close
the sockets at once instead of at their next message.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest

from tables import broadcast


@receiver(user_logged_out, dispatch_uid="tables.close_on_logout")
def sockets_close_on_logout(
    sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any
) -> None:
    """Close the sockets opened with the session that logged out (sent before it is flushed)."""
    if user is None or request is None:
        return
    key = request.session.session_key
    if key is not None:
        broadcast.user_sockets_close(user.pk, reason="you logged out", session_key=key)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="tables.close_on_deactivate")
def sockets_close_on_deactivation(
    sender: Any, instance: Any, update_fields: frozenset[str] | None, **kwargs: Any
) -> None:
    """Close every socket of a user saved as inactive (the admin's change form, say)."""
    if instance.is_active or (update_fields is not None and "is_active" not in update_fields):
        return
    broadcast.user_sockets_close(instance.pk, reason="this account was deactivated")
