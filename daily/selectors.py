"""Reads of the daily deals: the days a deal is or was the daily deal, and the codes of today's
and the days picked ahead (kept a few seconds: every board page asks, to hide their replays)."""

from __future__ import annotations

import datetime as dt
import time

from daily.models import DailyDeal

_hidden_codes: tuple[float, dt.date, frozenset[str]] | None = None
HIDDEN_CODES_SECONDS = 10.0


def daily_deal_cache_clear() -> None:
    global _hidden_codes
    _hidden_codes = None


def daily_codes_from(*, today: dt.date) -> frozenset[str]:
    """Codes of the daily deals of `today` and of the days already picked ahead."""
    global _hidden_codes
    now = time.monotonic()
    if _hidden_codes is None or _hidden_codes[0] < now or _hidden_codes[1] != today:
        codes = frozenset(DailyDeal.objects.filter(date__gte=today).values_list("code", flat=True))
        _hidden_codes = (now + HIDDEN_CODES_SECONDS, today, codes)
    return _hidden_codes[2]


def daily_days_of(*, code: str) -> list[dt.date]:
    """The days `code` is or was the daily deal (of any rule set), earliest first."""
    return list(DailyDeal.objects.filter(code=code).order_by("date").values_list("date", flat=True))


def daily_deals_for(*, date: dt.date) -> list[DailyDeal]:
    return list(DailyDeal.objects.filter(date=date).order_by("rules"))
