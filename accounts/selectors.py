"""Reads about players."""

from __future__ import annotations

from accounts.models import User


def display_name_taken(*, name: str, exclude_user_id: int | None = None) -> bool:
    """Whether another player already shows `name` (ignoring case)."""
    players = User.objects.filter(display_name__iexact=name)
    if exclude_user_id is not None:
        players = players.exclude(pk=exclude_user_id)
    return players.exists()
