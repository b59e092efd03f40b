"""Writes about players: display names, languages, deletion, suspension.

Anything that changes which results count for a player ends by telling the standing listeners
(the boards rebuild that player's entries) inside the same transaction; a name that changes is
told to the names listeners (accounts/listeners.py).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.listeners import player_names_changed, player_standing_changed
from accounts.models import User, name_validator
from accounts.selectors import display_name_taken

logger = logging.getLogger(__name__)

TAKEN_MESSAGE = "That display name is taken."


def display_name_clean(*, name: str, exclude_user_id: int | None = None) -> str:
    """`name` stripped, if it is well formed and free; raises ValidationError otherwise."""
    name = (name or "").strip()
    name_validator(name)
    if display_name_taken(name=name, exclude_user_id=exclude_user_id):
        raise ValidationError(TAKEN_MESSAGE, code="taken")
    return name


def user_display_name_set(*, user: User, display_name: str) -> User:
    name = display_name_clean(name=display_name, exclude_user_id=user.pk)
    try:
        with transaction.atomic():
            User.objects.filter(pk=user.pk).update(display_name=name)
    except IntegrityError:  # taken meanwhile by another request
        raise ValidationError(TAKEN_MESSAGE, code="taken") from None
    # The boards keep names in the cache: the new one shows at once, the old one names no one.
    player_names_changed(user_id=user.pk, names=[user.public_name, name])
    user.display_name = name
    return user


def language_clean(*, language: str) -> str:
    """`language` if it is a code of settings.LANGUAGES (or blank: no choice); raises ValidationError."""
    language = (language or "").strip()
    codes = [code for code, _name in settings.LANGUAGES]
    if language and language not in codes:
        raise ValidationError(
            "%(language)s is not a language of Yukon Online: use one of %(codes)s.",
            code="unsupported_language",
            params={"language": repr(language), "codes": ", ".join(codes)},
        )
    return language


def user_language_set(*, user: User, language: str) -> User:
    """Remember the player's language on the account (blank forgets it); the sign-in applies it."""
    language = language_clean(language=language)
    User.objects.filter(pk=user.pk).update(language=language)
    user.language = language
    return user


def user_delete(*, user: User) -> None:
    """Delete a player: their results stay only as anonymous rows (no user), their entries go.

    Submissions are detached first (their replays then answer 404 to everyone), the
    leaderboard drops the player's entries, then the user row and everything personal that
    hangs on it (e-mail addresses, issued games) are deleted.
    """
    user_id = user.pk
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user_id).update(is_active=False)
        detached = user.submissions.update(user=None)
        player_standing_changed(user_id=user_id)
        User.objects.filter(pk=user_id).delete()
    player_names_changed(user_id=user_id, names=[user.public_name])
    logger.info("account deleted", extra={"user_id": user_id, "detached_submissions": detached})


def user_suspend(*, user: User, reason: str) -> User:
    """Suspend a player: their entries leave every board and new results are rejected."""
    reason = (reason or "").strip()[:200] or "suspended by the staff"
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).update(
            is_suspended=True, suspension_reason=reason, suspended_at=now
        )
        player_standing_changed(user_id=user.pk)
    user.is_suspended, user.suspension_reason, user.suspended_at = True, reason, now
    logger.info("player suspended", extra={"user_id": user.pk, "reason": reason})
    return user


def user_unsuspend(*, user: User) -> User:
    """Lift a suspension: the player's verified results count again."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).update(
            is_suspended=False, suspension_reason="", suspended_at=None
        )
        player_standing_changed(user_id=user.pk)
    user.is_suspended, user.suspension_reason, user.suspended_at = False, "", None
    logger.info("player unsuspended", extra={"user_id": user.pk})
    return user
