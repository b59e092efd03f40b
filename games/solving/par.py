"""Par: a deal's shortest win found, searched on the `solver` queue after a counted win."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from games.models import SolvedDeal
from games.solving.solved import solved_deal_get, solved_deal_solve
from games.task_queue import DEAL_PAR_SOLVE
from yukon_site.celery import task_named

logger = logging.getLogger(__name__)

Result = SolvedDeal.Result


# A par search is worth having once per deal, but nearly every ranked win is on a deal of its own
# (the server draws from 26^7): requests are limited so that the solver queue cannot grow without
# bound. Once per deal: skipped when its par search is done (or the deal is proven unwinnable)
# or already queued (a cache key, SET NX on Redis); and at most PAR_QUEUE_SHARE of the solver
# worker's hour a clock hour (SOLVER_PAR_TIME_LIMIT each), the rest of the hour left to the pool's
# refills. A request over the budget is dropped (a later win on the deal, or `solve_deals
# --par`, asks again); a queued search not started within PAR_TASK_EXPIRES seconds is discarded.
PAR_QUEUED_KEY = "games:par-queued:{code}"
PAR_QUEUED_SECONDS = 24 * 3600
PAR_BUDGET_KEY = "games:par-budget:{hour}"
PAR_QUEUE_SHARE = 0.5
PAR_TASK_EXPIRES = 3600


def par_requests_per_hour() -> int:
    """How many par searches may be queued in one clock hour."""
    return max(1, int(3600 * PAR_QUEUE_SHARE / max(settings.SOLVER_PAR_TIME_LIMIT, 1.0)))


def deals_par_request(*, codes: Iterable[str]) -> None:
    """After counted wins (one batch): search each deal's par on the solver queue, once per deal and
    within the hourly budget, when the transaction commits. One query for the whole batch."""
    if not settings.SOLVER_PAR_AFTER_WIN:
        return
    codes = sorted(set(codes))
    settled = SolvedDeal.objects.filter(code__in=codes).filter(
        Q(shortened=True) | Q(result=Result.UNWINNABLE)
    )
    done = set(settled.values_list("code", flat=True))
    wanted = [code for code in codes if code not in done]
    if wanted:
        transaction.on_commit(partial(_par_searches_send, wanted), robust=True)


def deal_par_request(*, code: str) -> None:
    """After a counted win: search the deal's par (see `deals_par_request`)."""
    deals_par_request(codes=[code])


def _par_searches_send(codes: list[str]) -> int:
    """Queue the par search of each deal not queued yet, while the hour's budget lasts; how many."""
    budget_key = PAR_BUDGET_KEY.format(hour=int(time.time() // 3600))
    budget = par_requests_per_hour()
    sent = 0
    for index, code in enumerate(codes):
        queued_key = PAR_QUEUED_KEY.format(code=code)
        if not cache.add(queued_key, 1, PAR_QUEUED_SECONDS):
            continue  # queued by an earlier win
        cache.add(budget_key, 0, 2 * 3600)
        if cache.incr(budget_key) > budget:
            cache.delete(queued_key)
            dropped = {"dropped": len(codes) - index, "budget": budget}
            logger.info("par searches over the hour's budget", extra=dropped)
            break
        task_named(DEAL_PAR_SOLVE).apply_async((code,), expires=PAR_TASK_EXPIRES)
        sent += 1
    return sent


def deal_par_solve(
    *, code: str, time_limit: float | None = None, pause: Callable[[], float] | None = None
) -> SolvedDeal:
    """Search the shortest win of a deal (once: a deal already searched so, or unwinnable, is kept)."""
    row = solved_deal_get(code=code)
    if row is not None and (row.shortened or row.result == Result.UNWINNABLE):
        return row
    limit = time_limit if time_limit is not None else settings.SOLVER_PAR_TIME_LIMIT
    return solved_deal_solve(code=code, time_limit=limit, shorten=True, pause=pause)


def deal_par_request_forget(*, code: str) -> None:
    """A par search given up: a later win on the deal may ask for it again."""
    cache.delete(PAR_QUEUED_KEY.format(code=code))
