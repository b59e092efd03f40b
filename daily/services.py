"""Writes of the daily deals: a day's deal picked (once, then kept), ahead of time too, and a
player's game of it (one a rule set and UTC day)."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from daily.models import DailyDeal
from daily.selectors import daily_deal_cache_clear
from games.engine import GameCode, Rules
from games.issuing.dealing import hidden_deal_draw
from games.issuing.services import game_issue
from games.models import IssuedGame
from games.solving.solved import deal_is_winnable
from yukon_site.api_errors import ApplicationError

logger = logging.getLogger(__name__)

DAILY_DEAL_MAX_ATTEMPTS = 1000


def daily_deal_filter() -> Callable[[str], bool] | None:
    """What may refuse a candidate: the solver's winnable check with DAILY_DEAL_WINNABLE_ONLY, else none."""
    return deal_is_winnable if settings.DAILY_DEAL_WINNABLE_ONLY else None


def daily_deal_pick(*, date: dt.date, rules: str) -> DailyDeal:
    """The daily deal of `date` under `rules`: the stored one, or drawn now (a whole shuffle the
    filter accepts, e.g. one the solver wins) and stored."""
    deal = DailyDeal.objects.filter(date=date, rules=rules).first()
    if deal is not None:
        return deal
    accept = daily_deal_filter()
    letter_rules = Rules(rules)
    for attempt in range(DAILY_DEAL_MAX_ATTEMPTS):  # noqa: B007 (kept below: the candidates refused)
        # A whole shuffle from `secrets`, like every hidden-card deal: never derived from the date.
        code = str(hidden_deal_draw(rules=letter_rules))
        if accept is None or accept(code):
            break
    else:
        raise RuntimeError(
            f"no daily deal for {date} {rules}: the filter refused {DAILY_DEAL_MAX_ATTEMPTS} candidates"
        )
    try:
        with transaction.atomic():
            deal = DailyDeal.objects.create(date=date, rules=rules, code=code, attempt=attempt)
    except IntegrityError:  # picked meanwhile by another request
        return DailyDeal.objects.get(date=date, rules=rules)
    daily_deal_cache_clear()
    logger.info("daily deal picked", extra={"date": date.isoformat(), "rules": rules, "code": code})
    return deal


class DailyGamePlayed(ApplicationError):
    """The player's daily-deal game of this rule set and day is over: one attempt a day."""

    status, code = 409, "daily_played"


def daily_game_issue(*, user, rules: str, now: dt.datetime | None = None) -> tuple[IssuedGame, bool]:
    """The player's hidden-card game of today's daily deal under `rules` (UTC day), and whether
    it was issued now: a new one, or the one issued earlier today while it is unfinished (to
    take it up on any device). One attempt a player, rule set and day: raises DailyGamePlayed
    once that game is finished or expired."""
    now = now or timezone.now()
    today = now.astimezone(dt.UTC).date()
    deal = daily_deal_pick(date=today, rules=rules)

    def held() -> IssuedGame | None:
        game = IssuedGame.objects.filter(user=user, rules=rules, daily_date=today).first()
        if game is not None and game.state != IssuedGame.State.ISSUED:
            raise DailyGamePlayed(f"you have played today's {rules} daily deal ({today}): one game a day")
        return game

    if (game := held()) is not None:
        return game, False
    try:
        with transaction.atomic():
            (game,) = game_issue(
                user=user,
                rules=rules,
                hidden=True,
                now=now,
                daily=(today, GameCode.parse(deal.code)),
            )
    except IntegrityError:  # issued meanwhile by another request of the player
        return held(), False
    return game, True


def daily_deals_pick_ahead(*, today: dt.date, days: int = 2) -> list[DailyDeal]:
    """Pick today's and the coming days' deals in advance (a periodic task calls this)."""
    return [
        daily_deal_pick(date=today + dt.timedelta(days=offset), rules=rules.value)
        for offset in range(days)
        for rules in Rules
    ]
