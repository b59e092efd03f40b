"""Celery tasks of the daily deals: they call a service, and are safe to run twice."""

from __future__ import annotations

import datetime as dt

from celery import shared_task

from daily.services import daily_deals_pick_ahead


# The name from before the daily deal had an app of its own: beat's schedule (settings) and any
# task still queued use it.
@shared_task(name="leaderboard.daily_deals_pick")
def daily_deals_pick() -> list[str]:
    """Pick today's and tomorrow's daily deals ahead of time."""
    return [deal.code for deal in daily_deals_pick_ahead(today=dt.datetime.now(dt.UTC).date())]
