"""What games (replays) and the boards must know of the daily deals, told by daily/ (registered
in its DailyConfig.ready()), so that neither imports it (docs/architecture.md).

A daily deal's replays stay hidden until its day is over (its code would deal it to anyone still
playing it), and a deal's figures name the days it was the daily deal once they are over. The
calendar answers two questions: the codes of today's daily deals and of the days picked ahead
(`codes_from`, asked by every board page: kept briefly by daily/), and the days a code is or was
the daily deal (`days_of`). Without one registered, replays and boards refuse to answer rather
than show a daily deal's replays while it is played (and `manage.py check` says so: games.E001).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Protocol

from django.core import checks
from django.core.exceptions import ImproperlyConfigured


class DailyCodes(Protocol):
    def __call__(self, *, today: dt.date) -> frozenset[str]: ...


class DailyDays(Protocol):
    def __call__(self, *, code: str) -> list[dt.date]: ...


@dataclass(frozen=True)
class DailyCalendar:
    codes_from: DailyCodes  # codes of the daily deals of `today` and of the days picked ahead
    days_of: DailyDays  # the days `code` is or was the daily deal, earliest first


NOT_REGISTERED = "no daily calendar registered: the daily app (daily/) must be in INSTALLED_APPS"
_calendar: DailyCalendar | None = None


def daily_calendar_register(calendar: DailyCalendar) -> None:
    global _calendar
    _calendar = calendar


def _registered() -> DailyCalendar:
    if _calendar is None:
        raise ImproperlyConfigured(NOT_REGISTERED)
    return _calendar


@checks.register()
def daily_calendar_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    if _calendar is None:
        return [checks.Error(NOT_REGISTERED, id="games.E001")]
    return []


def hidden_replay_codes(*, today: dt.date) -> frozenset[str]:
    """Codes whose replays stay hidden: daily deals of today and of days already picked ahead."""
    return _registered().codes_from(today=today)


def replay_hidden_until(*, code: str, now: dt.datetime) -> dt.datetime | None:
    """The end of the last daily-deal day of `code` not yet over, or None if its replays are public."""
    today = now.astimezone(dt.UTC).date()
    if code not in hidden_replay_codes(today=today):
        return None
    last = max((day for day in _registered().days_of(code=code) if day >= today), default=None)
    if last is None:
        return None
    return dt.datetime.combine(last + dt.timedelta(days=1), dt.time(tzinfo=dt.UTC))


def daily_days_over(*, code: str, today: dt.date) -> list[dt.date]:
    """The days before `today` on which `code` was the daily deal, earliest first."""
    return [day for day in _registered().days_of(code=code) if day < today]
