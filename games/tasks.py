"""Celery tasks of the games app: they take ids and call the services.

Only infrastructure errors (database, Redis) are retried, with backoff; a rejected log is a
verdict, not an error. acks_late + reject_on_worker_lost put a task back in the queue when its
worker's child process dies; a worker killed whole is covered at the next worker's start
(`verification_resume`), and the sweeper catches anything lost anyway.
"""

from celery import shared_task
from celery.signals import task_postrun, task_prerun, task_revoked, worker_ready
from django.conf import settings
from django.db import close_old_connections

from games import task_queue
from games.issuing.services import games_expire
from games.models import RulesChoice
from games.solving.census import census_deal_settle
from games.solving.hints import hint_search, hint_search_done
from games.solving.par import deal_par_request_forget, deal_par_solve
from games.solving.pool import deal_pool_refill
from games.solving.yielding import SolverYield, SolverYielded
from games.submissions.queue import submissions_sweep, submissions_verify_resume
from games.submissions.settle import submissions_verify_pending
from games.task_queue import RETRY


@task_prerun.connect
@task_postrun.connect
def database_connections_tidy(**kwargs) -> None:
    """Around every task, as around every request: a broken or expired connection is closed
    (CONN_MAX_AGE, CONN_HEALTH_CHECKS), a sound one kept (CELERY_DB_REUSE_MAX stops Celery
    from closing it each time)."""
    task = kwargs.get("task")
    if task is not None and not getattr(task.request, "is_eager", False):  # eager: the caller's connection
        close_old_connections()


@worker_ready.connect
def verification_resume(**kwargs) -> None:
    """A worker ready to work settles at once what a crashed one left pending (docs/operations.md,
    "Celery"), instead of waiting for the visibility timeout or the sweeper."""
    submissions_verify_resume()


@shared_task(name=task_queue.SUBMISSION_VERIFY, **RETRY)
def submission_verify_task(submission_id: int | None = None) -> int:
    """Settle the pending submissions, batch after batch; how many. (`submission_id`: from
    messages of earlier versions, which sent one task per submission; every task takes them all.)"""
    settled, more = submissions_verify_pending()
    if more:
        submission_verify_task.delay()
    return len(settled)


@shared_task(name="games.submissions_sweep", **RETRY)
def submissions_sweep_task() -> int:
    return submissions_sweep()


@shared_task(name="games.games_expire", **RETRY)
def games_expire_task() -> int:
    return games_expire()


# Solver tasks: on the `solver` queue (CELERY_TASK_ROUTES), one at a time, with hard limits. A
# worker lost on one (e.g. out of memory) acknowledges it rather than redelivering it forever.
SOLVER = {
    **RETRY,
    "reject_on_worker_lost": False,
    "soft_time_limit": settings.SOLVER_TASK_SOFT_TIME_LIMIT,
    "time_limit": settings.SOLVER_TASK_TIME_LIMIT,
}


# Their searches wait while intake and verification need the machine (games/solving/yielding.py).
@shared_task(name="games.deal_pool_refill", **SOLVER)
def deal_pool_refill_task() -> dict[str, int]:
    """One bounded run per rule set toward SOLVER_POOL_SIZE winnable deals; off with SOLVER_POOL_REFILL=0."""
    if not settings.SOLVER_POOL_REFILL:
        return {}
    seconds = settings.SOLVER_POOL_RUN_SECONDS / len(RulesChoice.values)  # shared by the rule sets
    pause = SolverYield()
    sizes = {}
    try:
        for rules in RulesChoice.values:
            refill = deal_pool_refill(
                rules=rules,
                count=settings.SOLVER_POOL_BATCH,
                target=settings.SOLVER_POOL_SIZE,
                run_seconds=seconds,
                pause=pause,
            )
            sizes[refill.rules] = refill.pool_size
    except SolverYielded:
        pass  # the machine stayed busy: the next run goes on (the deal cut short was not stored)
    return sizes


@shared_task(name=task_queue.DEAL_PAR_SOLVE, **SOLVER)
def deal_par_solve_task(code: str) -> int | None:
    try:
        return deal_par_solve(code=code, pause=SolverYield()).par
    except SolverYielded:
        deal_par_request_forget(code=code)
        return None


# Hints: on the `hints` queue, a worker of its own (docs/operations.md, "Hints"). Never retried
# nor redelivered: a player waits for the answer, and a search not started within
# SOLVER_HINT_QUEUE_SECONDS is dropped (`expires`), its ticket then answering solver_busy.
@shared_task(
    name=task_queue.HINT_SEARCH,
    acks_late=False,
    ignore_result=True,
    soft_time_limit=settings.SOLVER_HINT_TIME_LIMIT + 30,
    time_limit=settings.SOLVER_HINT_TIME_LIMIT + 60,
)
def hint_search_task(code: str, log: str) -> str | None:
    try:
        return hint_search(code=code, log=log)
    finally:
        hint_search_done(code=code, log=log)


@task_revoked.connect
def hint_search_dropped(request=None, **kwargs) -> None:
    """A hint search dropped unstarted (expired): its position is no longer being searched, so its
    tickets answer at once instead of when the mark would run out."""
    if request is not None and getattr(request, "task", None) == hint_search_task.name:
        code, log = request.args
        hint_search_done(code=code, log=log)


# A census (games/solving/census.py): on the `census` queue, for workers started for it
# (`celery -A yukon_site worker -Q census`). Safe to run twice: a deal settled is skipped.
@shared_task(
    name=task_queue.CENSUS_DEAL_SETTLE,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    soft_time_limit=settings.SOLVER_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.SOLVER_TASK_TIME_LIMIT,
)
def census_deal_settle_task(census: str, code: str, seconds: float, max_nodes: int) -> str | None:
    verdict = census_deal_settle(census=census, code=code, seconds=seconds, max_nodes=max_nodes)
    return None if verdict is None else verdict.result
