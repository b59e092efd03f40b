"""Reads of the daily deals: the days a deal is or was the daily deal, the codes of today's and
the days picked ahead (kept a few seconds: every board page asks, to hide their replays), and
the daily deals a player has played."""

from __future__ import annotations

import datetime as dt
import time

from daily.models import DailyDeal
from games.models import IssuedGame, Submission

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


def daily_games_played(*, user, date: dt.date) -> dict[str, str | None]:
    """The rule sets whose daily deal of `date` `user` has played (their game finished or expired:
    one a day), each with the page of the player's own verified win of it, else None. Empty
    signed out."""
    if not user.is_authenticated:
        return {}
    games = IssuedGame.objects.filter(user=user, daily_date=date).exclude(state=IssuedGame.State.ISSUED)
    played: dict[str, str | None] = {game.rules: None for game in games}
    wins = Submission.objects.filter(
        game__in=games, user=user, status=Submission.Status.VERIFIED, won=True, voided=False
    ).values_list("game__rules", "pk")
    for rules, pk in wins:
        played[rules] = f"/replay/{pk}"
    return played
