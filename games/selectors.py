"""Reads of the games app."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from games.models import HintUse, IssuedGame, SolvedDeal, Submission


def submission_get_for_owner(*, user, submission_id: int) -> Submission | None:
    """The player's own submission, or None (also for a detached one: its replay is gone)."""
    return Submission.objects.filter(pk=submission_id, user=user).select_related("game").first()


def submission_list_for_owner(*, user) -> QuerySet[Submission]:
    """The player's history, newest first (the server's receipt time)."""
    return Submission.objects.filter(user=user).select_related("game").order_by("-received_at", "-pk")


def game_expiry_cutoff(*, now: datetime | None = None) -> datetime:
    """Games issued before this moment are expired (GAMES_EXPIRE_AFTER_DAYS), marked so or not yet."""
    return (now or timezone.now()) - timedelta(days=settings.GAMES_EXPIRE_AFTER_DAYS)


def game_expires_at(game: IssuedGame) -> datetime:
    return game.issued_at + timedelta(days=settings.GAMES_EXPIRE_AFTER_DAYS)


def issued_games_unplayed(
    *, user, rules: str | None = None, now: datetime | None = None
) -> QuerySet[IssuedGame]:
    """The player's issued games that still accept a result (unplayed, unexpired), oldest first:
    the nearest to expiry first, and the least likely to sit in another device's pool."""
    games = IssuedGame.objects.filter(
        user=user, state=IssuedGame.State.ISSUED, issued_at__gte=game_expiry_cutoff(now=now)
    )
    if rules is not None:
        games = games.filter(rules=rules)
    return games.order_by("issued_at", "pk")


def deal_par(*, code: str) -> int | None:
    """The moves of the shortest win the solver has found on a deal, or None (none found yet)."""
    return (
        SolvedDeal.objects.filter(code=code, result=SolvedDeal.Result.WON)
        .values_list("par", flat=True)
        .first()
    )


def hint_used(*, submission: Submission) -> bool:
    """Whether the player was given a hint on the submission's code before it was received."""
    if submission.user_id is None:
        return False
    return HintUse.objects.filter(
        user_id=submission.user_id, code=submission.code, created_at__lt=submission.received_at
    ).exists()
