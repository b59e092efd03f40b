"""Reads about deals and single results: /api/deals/<code>/, replays. A player's own summary
(/api/me/) reads across the apps: players/summaries.py."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Max, Q

from games.models import Submission
from games.selectors import deal_par, deal_under_wraps
from leaderboard.boards import deal_board
from leaderboard.daily_calendar import daily_days_over, replay_hidden_until
from leaderboard.models import BoardEntry


def _counted(queryset):
    return queryset.filter(status=Submission.Status.VERIFIED, voided=False)


@dataclass(frozen=True)
class DealSummary:
    code: str
    rules: str
    plays: int  # finished (verified) games on the deal
    wins: int
    players: int  # entries on its board
    best_score: int | None
    daily_dates: list[dt.date]  # days over on which it was the daily deal
    par: int | None  # moves of the shortest win the solver found


def deal_summary(*, code: str, rules: str, now: dt.datetime) -> DealSummary:
    """The figures of a deal, its par too; the days it was the daily deal are those already over.
    A deal under wraps (`deal_under_wraps`) answers as a deal nobody has played, after the same
    reads as any other: neither the answer nor its time confirms a guessed code."""
    under_wraps = deal_under_wraps(code=code, now=now)
    figures = _counted(Submission.objects.filter(code=code)).aggregate(
        plays=Count("id"), wins=Count("id", filter=Q(won=True))
    )
    board = BoardEntry.objects.filter(board=deal_board(code)).aggregate(
        players=Count("id"), best=Max("score")
    )
    today = now.astimezone(dt.UTC).date()
    dates = daily_days_over(code=code, today=today)
    par = deal_par(code=code)
    if under_wraps:
        return DealSummary(code, rules, 0, 0, 0, None, [], None)
    plays, wins, players, best = figures["plays"], figures["wins"], board["players"], board["best"]
    return DealSummary(code, rules, plays, wins, players, best, dates, par)


class ReplayHidden(Exception):
    """A replay that may not be watched yet: a daily-deal win until its day is over (`until`),
    a race's game until the race is over (`until` None)."""

    def __init__(self, until: dt.datetime | None) -> None:
        super().__init__(f"hidden until {until.isoformat()}" if until else "hidden until its race is over")
        self.until = until


def replay_get(*, submission_id: int, viewer_id: int | None, now: dt.datetime) -> Submission | None:
    """A verified win to watch, or a race's verified game, won or not (docs/races.md); None when
    there is no such result, or it is voided, or its player deleted or suspended.

    Raises ReplayHidden for a daily-deal win whose day is not over (its player may watch it), and
    for a race's game while its deal is sealed (the race not over: no one may watch it)."""
    submission = (
        Submission.objects.select_related("user", "game")
        .filter(pk=submission_id, status=Submission.Status.VERIFIED, voided=False, user__isnull=False)
        .filter(Q(won=True) | Q(game__contest__gt=""))
        .first()
    )
    if submission is None or getattr(submission.user, "is_suspended", False) or not submission.user.is_active:
        return None
    if submission.game_id is not None and submission.game.code_sealed:
        raise ReplayHidden(None)
    if submission.user_id != viewer_id:
        until = replay_hidden_until(code=submission.code, now=now)
        if until is not None:
            raise ReplayHidden(until)
    return submission
