"""Reads about deals: /api/deals/<code>/. A verified result's replay: games/replays/. A player's
own summary (/api/me/) reads across the apps: players/summaries.py."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Max, Q

from games.daily_calendar import daily_days_over
from games.models import Submission
from games.selectors import deal_par, deal_under_wraps, deal_winnable
from leaderboard.boards import deal_board
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
    winnable: bool | None  # the solver's verdict: won, proven unwinnable, or not known


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
    par, winnable = deal_par(code=code), deal_winnable(code=code)
    if under_wraps:
        return DealSummary(code, rules, 0, 0, 0, None, [], None, None)
    plays, wins, players, best = figures["plays"], figures["wins"], board["players"], board["best"]
    return DealSummary(code, rules, plays, wins, players, best, dates, par, winnable)
