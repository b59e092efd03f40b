"""Reads of the games app."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from games.engine import GameCode
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


def day_end(day: date) -> datetime:
    """The end of a UTC day: the next day's first instant."""
    return datetime.combine(day + timedelta(days=1), time(tzinfo=UTC))


def game_code_public(game: IssuedGame | None, *, now: datetime | None = None) -> bool:
    """May answers name this game's code (a hidden-card game's secret too)? A game issued with
    its code, or none (a result by code): yes. A hidden-card game: once it is finished and not
    sealed by its contest (a race, until the race is over), and a daily deal's only once its
    day is over too, so that no one who has finished it can pass the
    deal to players still playing it (docs/security.md, "Hidden-card games")."""
    if game is None or not game.hidden:
        return True
    if game.state != IssuedGame.State.FINISHED or game.code_sealed:
        return False
    return game.daily_date is None or (now or timezone.now()) >= day_end(game.daily_date)


def code_is_whole(code: str) -> bool:
    """Does `code` name its deal as a whole shuffle (YU2), not a YU1 deal number?"""
    return GameCode.parse(code).is_whole


def submission_deal_seeded(submission: Submission) -> bool:
    """Was this result's hidden-card game dealt from a YU1 deal number, before whole shuffles? Its
    deal could be recovered from its face-up cards, so it ranks on the open-deal boards only."""
    return submission.game_id is not None and submission.game.hidden and not code_is_whole(submission.code)


def deal_under_wraps(*, code: str, now: datetime | None = None) -> bool:
    """Is `code` the deal of a hidden-card game whose code no answer may name yet (in play, a
    race's until it is over, a daily deal's until its day is over)? Answers about a deal
    (its figures, par, hints) then treat it as a deal nobody has played, so that none confirms
    a guessed code (docs/security.md, "No answer confirms a guess")."""
    games = IssuedGame.objects.filter(code=code, hidden=True).only(
        "state", "hidden", "code_sealed", "daily_date"
    )
    return any(not game_code_public(game, now=now) for game in games)


def submission_code_public(submission: Submission, *, now: datetime | None = None) -> bool:
    """May answers name the code of this result's deal (`game_code_public` of its game)?"""
    return submission.game_id is None or game_code_public(submission.game, now=now)


def issued_games_unplayed(
    *, user, rules: str | None = None, now: datetime | None = None
) -> QuerySet[IssuedGame]:
    """The player's issued games that still accept a result (unplayed, unexpired), oldest first:
    the nearest to expiry first, and the least likely to sit in another device's pool. Not their
    daily-deal games nor contest games: those are taken up through the daily deal
    (POST /api/daily/games/) or their race."""
    games = IssuedGame.objects.filter(
        user=user,
        state=IssuedGame.State.ISSUED,
        issued_at__gte=game_expiry_cutoff(now=now),
        daily_date__isnull=True,
        contest="",
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


def deal_winnable(*, code: str) -> bool | None:
    """What the solver settled of a deal: True (it won it), False (proven unwinnable under our
    rules, docs/winnability.md), None (not searched, or not settled)."""
    result = SolvedDeal.objects.filter(code=code).values_list("result", flat=True).first()
    return {SolvedDeal.Result.WON: True, SolvedDeal.Result.UNWINNABLE: False}.get(result)


def hint_used(*, submission: Submission) -> bool:
    """Whether the player was given a hint on the submission's code before it was received."""
    if submission.user_id is None:
        return False
    return HintUse.objects.filter(
        user_id=submission.user_id, code=submission.code, created_at__lt=submission.received_at
    ).exists()
