"""Solved deals: a deal's `SolvedDeal` row keeps the best answer the solver has given, and the
daily deal's filter reads it. Ranked games never read any of this: they are drawn with `secrets`
over every deal."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import GameCode
from games.models import SolvedDeal
from games.solver import Solution, solve

logger = logging.getLogger(__name__)

Result = SolvedDeal.Result


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
    solver queue's tasks give a games.solving.yielding.SolverYield)."""
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


def deal_is_winnable(code: str) -> bool:
    """The daily deal's filter (DAILY_DEAL_WINNABLE_ONLY, daily/): True only for a deal the solver won.

    Reads the deal's row; a deal never searched, or left unknown by a shorter search, is
    searched now within SOLVER_DAILY_TIME_LIMIT. Unwinnable and unknown deals are refused.
    """
    limit = settings.SOLVER_DAILY_TIME_LIMIT
    row = solved_deal_get(code=code)
    if row is None or (row.result == Result.UNKNOWN and row.time_limit < limit):
        row = solved_deal_solve(code=code, time_limit=limit)
    return row.result == Result.WON
