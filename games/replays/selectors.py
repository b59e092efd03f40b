"""A verified result to watch (/api/replays/<id>/): a win, or a race's game once the race is over;
hidden while its deal must stay unnamed (games/daily_calendar.py)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q

from games.daily_calendar import replay_hidden_until
from games.models import Submission


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


def replay_exists(*, submission_id: int, viewer_id: int | None, now: dt.datetime) -> bool:
    """Is there a result to watch at this id, now or once it may be watched (a daily deal's day
    over, a race over)? As public as the replay API's answer: 404 against 200 or 403."""
    try:
        return replay_get(submission_id=submission_id, viewer_id=viewer_id, now=now) is not None
    except ReplayHidden:
        return True
