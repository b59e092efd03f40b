"""What the boards must know of the daily deals, told by daily/ (registered in its
DailyConfig.ready()), so that the boards never import it (docs/architecture.md).

A daily deal's replays stay hidden until its day is over (its code would deal it to anyone still
playing it), and a deal's figures name the days it was the daily deal once they are over. The
calendar answers two questions: the codes of today's daily deals and of the days picked ahead
(`codes_from`, asked by every board page: kept briefly by daily/), and the days a code is or was
the daily deal (`days_of`). Without one registered, no deal is a daily deal.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Protocol


class DailyCodes(Protocol):
    def __call__(self, *, today: dt.date) -> frozenset[str]: ...


class DailyDays(Protocol):
    def __call__(self, *, code: str) -> list[dt.date]: ...


def _no_codes(*, today: dt.date) -> frozenset[str]:
    return frozenset()


def _no_days(*, code: str) -> list[dt.date]:
    return []


@dataclass(frozen=True)
class DailyCalendar:
    codes_from: DailyCodes  # codes of the daily deals of `today` and of the days picked ahead
    days_of: DailyDays  # the days `code` is or was the daily deal, earliest first


_calendar = DailyCalendar(codes_from=_no_codes, days_of=_no_days)


def daily_calendar_register(calendar: DailyCalendar) -> None:
    global _calendar
    _calendar = calendar


def hidden_replay_codes(*, today: dt.date) -> frozenset[str]:
    """Codes whose replays stay hidden: daily deals of today and of days already picked ahead."""
    return _calendar.codes_from(today=today)


def replay_hidden_until(*, code: str, now: dt.datetime) -> dt.datetime | None:
    """The end of the last daily-deal day of `code` not yet over, or None if its replays are public."""
    today = now.astimezone(dt.UTC).date()
    if code not in hidden_replay_codes(today=today):
        return None
    last = max((day for day in _calendar.days_of(code=code) if day >= today), default=None)
    if last is None:
        return None
    return dt.datetime.combine(last + dt.timedelta(days=1), dt.time(tzinfo=dt.UTC))


def daily_days_over(*, code: str, today: dt.date) -> list[dt.date]:
    """The days before `today` on which `code` was the daily deal, earliest first."""
    return [day for day in _calendar.days_of(code=code) if day < today]
