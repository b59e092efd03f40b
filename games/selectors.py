"""Reads of the games app."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import HintUse, IssuedGame, SolvedDeal, Submission


def submission_get_for_owner(*, user, submission_id: int) -> Submission | None:
    """The player's own submission, or None (also for a detached one: its replay is gone)."""
    return Submission.objects.filter(pk=submission_id, user=user).first()


def submission_list_for_owner(*, user) -> QuerySet[Submission]:
    """The player's history, newest first (the server's receipt time)."""
    return Submission.objects.filter(user=user).order_by("-received_at", "-pk")


def issued_games_unplayed(*, user) -> QuerySet[IssuedGame]:
    return IssuedGame.objects.filter(user=user, state=IssuedGame.State.ISSUED).order_by("issued_at", "pk")


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
