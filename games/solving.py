"""The solver in the product: solved deals, the pool of winnable deals, par, the daily filter.

Searches run in Celery tasks on the `solver` queue (pool refill, par), except the daily deal's
filter, which solves a candidate where the daily deal is picked. Hints: games/hints.py.
A deal's `SolvedDeal` row keeps the best answer known.

Ranked games never read any of this: `game_issue` draws them with `secrets` over every deal.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.dealing import open_deals_draw
from games.engine import GameCode, Rules
from games.models import SolvedDeal
from games.solver import Solution, solve

logger = logging.getLogger(__name__)

Result = SolvedDeal.Result


# --- Solved deals ---------------------------------------------------------------------------------


def solved_deal_solve(
    *,
    code: GameCode | str,
    time_limit: float,
    max_nodes: int | None = None,
    shorten: bool = False,
    pooled: bool = False,
    now: datetime | None = None,
    pause: Callable[[], float] | None = None,
) -> SolvedDeal:
    """Search one deal and merge the answer into its row; `shorten` searches for its par, `pooled`
    marks a deal drawn for the pool of winnable deals, `pause`: the search's pause hook (the
    solver queue's tasks give a games.solver_yield.SolverYield)."""
    game_code = code if isinstance(code, GameCode) else GameCode.parse(code)
    solution = solve(
        game_code,
        time_limit=time_limit,
        max_nodes=max_nodes or settings.SOLVER_MAX_NODES,
        shorten=shorten,
        pause=pause,
    )
    return solved_deal_store(
        code=game_code, solution=solution, time_limit=time_limit, shortened=shorten, pooled=pooled, now=now
    )


def solved_deal_store(
    *,
    code: GameCode,
    solution: Solution,
    time_limit: float,
    shortened: bool = False,
    pooled: bool = False,
    now: datetime | None = None,
) -> SolvedDeal:
    """Merge one search's answer into the deal's row, creating it when missing (`pooled`: in the
    pool of winnable deals, decided when the row is made).

    `won` (a line the engine replayed) and `unwinnable` (a proof) are final; a later win only
    lowers the par. `unknown` never overwrites an answer.
    """
    now = now or timezone.now()
    with transaction.atomic():
        row = SolvedDeal.objects.select_for_update().filter(code=str(code)).first()
        if row is None:
            row = SolvedDeal(
                rules=code.rules.value,
                code=str(code),
                result=Result.UNKNOWN,
                pooled=pooled,
            )
        _merge(row, solution=solution, time_limit=time_limit, shortened=shortened, now=now)
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError:  # stored meanwhile by another search: merge into that row
            row = SolvedDeal.objects.select_for_update().get(code=str(code))
            _merge(row, solution=solution, time_limit=time_limit, shortened=shortened, now=now)
            row.save()
    return row


def _merge(row: SolvedDeal, *, solution: Solution, time_limit: float, shortened: bool, now: datetime) -> None:
    if solution.won:
        if row.result == Result.UNWINNABLE:
            logger.error("solver answers disagree", extra={"code": row.code, "was": row.result})
        row.result = Result.WON
        if row.par is None or solution.length < row.par:
            row.par, row.solution = solution.length, solution.log
    elif solution.result == Result.UNWINNABLE:
        if row.result == Result.WON:  # the replayed line wins: the proof is wrong
            logger.error("solver answers disagree", extra={"code": row.code, "was": row.result})
        else:
            row.result = Result.UNWINNABLE
    row.time_limit = max(row.time_limit, time_limit)
    row.shortened = row.shortened or shortened
    row.nodes, row.seconds, row.solved_at = solution.nodes, solution.seconds, now


def solved_deal_get(*, code: str) -> SolvedDeal | None:
    return SolvedDeal.objects.filter(code=code).first()


# --- The pool of winnable deals (unranked play) ---------------------------------------------------


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


# --- Par and the daily deal -------------------------------------------------------------------------


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
    from games.tasks import deal_par_solve_task

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
        deal_par_solve_task.apply_async((code,), expires=PAR_TASK_EXPIRES)
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


def deal_is_winnable(code: str) -> bool:
    """The daily deal's filter (LEADERBOARD_DAILY_DEAL_FILTER): True only for a deal the solver won.

    Reads the deal's row; a deal never searched, or left unknown by a shorter search, is
    searched now within SOLVER_DAILY_TIME_LIMIT. Unwinnable and unknown deals are refused.
    """
    limit = settings.SOLVER_DAILY_TIME_LIMIT
    row = solved_deal_get(code=code)
    if row is None or (row.result == Result.UNKNOWN and row.time_limit < limit):
        row = solved_deal_solve(code=code, time_limit=limit)
    return row.result == Result.WON
