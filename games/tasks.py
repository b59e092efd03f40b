"""Celery tasks of the games app: they take ids and call the services.

Only infrastructure errors (database, Redis) are retried, with backoff; a rejected log is a
verdict, not an error. acks_late + reject_on_worker_lost put a task back in the queue when its
worker dies; the sweeper catches anything lost anyway.
"""

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.services import games_expire
from games.verification import submission_verify, submissions_sweep

INFRASTRUCTURE_ERRORS = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError)
RETRY = {
    "autoretry_for": INFRASTRUCTURE_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": settings.TASK_RETRY_COUNTDOWN_MAX,
    "retry_jitter": True,
    "max_retries": 8,
    "acks_late": True,
    "reject_on_worker_lost": True,
    "ignore_result": True,  # the row is the result: nothing to store in Redis
}


@shared_task(name="games.submission_verify", **RETRY)
def submission_verify_task(submission_id: int) -> str | None:
    submission = submission_verify(submission_id=submission_id)
    return submission.status if submission else None


@shared_task(name="games.submissions_sweep", **RETRY)
def submissions_sweep_task() -> int:
    return submissions_sweep()


@shared_task(name="games.games_expire", **RETRY)
def games_expire_task() -> int:
    return games_expire()
