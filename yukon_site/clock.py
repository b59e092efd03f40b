"""The APIs' clock: the moment an answer that depends on the day reads (tests set it here, once)."""

from __future__ import annotations

import datetime as dt


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def utc_day(moment: dt.datetime) -> tuple[dt.date, dt.datetime]:
    """The day (UTC) of `moment`, and the moment it ends: the next midnight, UTC. The daily deals'
    day: the API and the leaderboard page both say it."""
    today = moment.astimezone(dt.UTC).date()
    return today, dt.datetime.combine(today + dt.timedelta(days=1), dt.time(tzinfo=dt.UTC))
