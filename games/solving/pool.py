"""The pool of winnable deals (unranked play, "Winnable deals only"), refilled by a task on the
`solver` queue, or in the request where no beat runs (eager mode)."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings

from games.engine import GameCode, Rules
from games.issuing.dealing import open_deals_draw
from games.models import SolvedDeal
from games.solving.solved import solved_deal_solve

logger = logging.getLogger(__name__)

Result = SolvedDeal.Result


@dataclass(frozen=True)
class PoolRefill:
    rules: str
    solved: int  # deals searched in this run
    won: int  # of which won: added to the pool
    pool_size: int  # winnable deals of the rule set after the run


def _pool(*, rules: str):
    return SolvedDeal.objects.filter(rules=rules, pooled=True, result=Result.WON)


def deal_pool_size(*, rules: str) -> int:
    return _pool(rules=rules).count()


def deal_pool_refill(
    *,
    rules: str,
    count: int,
    target: int | None = None,
    time_limit: float | None = None,
    run_seconds: float | None = None,
    numbers: Iterable[int] | None = None,
    progress: Callable[[SolvedDeal], None] | None = None,
    pause: Callable[[], float] | None = None,
) -> PoolRefill:
    """Search up to `count` deals never searched before, drawn at random, while the pool of
    `rules` holds fewer than `target` winnable deals (None: no target).

    No deal is started after `run_seconds`, so a run lasts about that plus one deal's
    `time_limit` at most (plus what `pause`, the searches' hook, waits). `numbers` replaces the
    random deal numbers (tests).
    """
    time_limit = time_limit if time_limit is not None else settings.SOLVER_POOL_TIME_LIMIT
    deadline = time.monotonic() + (run_seconds if run_seconds is not None else float("inf"))
    drawn = (code.number for code in open_deals_draw(rules=Rules(rules)))
    numbers = iter(numbers) if numbers is not None else drawn
    size = deal_pool_size(rules=rules)
    solved = won = 0
    for _ in range(count):
        if (target is not None and size >= target) or time.monotonic() >= deadline:
            break
        number = next(numbers, None)
        if number is None:
            break
        code = GameCode(Rules(rules), number)
        if SolvedDeal.objects.filter(code=str(code)).exists():
            continue
        row = solved_deal_solve(code=code, time_limit=time_limit, pooled=True, pause=pause)
        solved += 1
        if row.result == Result.WON:
            won += 1
            size += 1
        if progress is not None:
            progress(row)
    logger.info("deal pool refilled", extra={"rules": rules, "solved": solved, "won": won, "pool_size": size})
    return PoolRefill(rules=rules, solved=solved, won=won, pool_size=size)


def deal_pool_grow_in_request(*, rules: str, count: int) -> PoolRefill | None:
    """Where no beat refills the pool (eager mode, `make run`): search up to `count` new deals
    within SOLVER_POOL_REQUEST_SECONDS, so that "Winnable deals only" has deals from the first
    request and the pool grows as it is used. None when switched off or the pool is full."""
    seconds = settings.SOLVER_POOL_REQUEST_SECONDS
    if seconds <= 0 or deal_pool_size(rules=rules) >= settings.SOLVER_POOL_SIZE:
        return None
    half = seconds / 2
    return deal_pool_refill(
        rules=rules, count=count, target=settings.SOLVER_POOL_SIZE, time_limit=half, run_seconds=half
    )


_sampler = random.SystemRandom()


def winnable_codes_sample(*, rules: str, count: int) -> list[str]:
    """Up to `count` different codes of the pool of `rules`, drawn at random.

    Only deals drawn for the pool: a daily deal's candidates (today's, tomorrow's) are never
    handed out, nor deals searched for their par.
    """
    ids = list(_pool(rules=rules).values_list("pk", flat=True))
    chosen = _sampler.sample(ids, min(count, len(ids)))
    codes = dict(SolvedDeal.objects.filter(pk__in=chosen).values_list("pk", "code"))
    return [codes[pk] for pk in chosen]
