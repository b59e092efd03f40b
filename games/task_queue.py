"""How the games services hand work to Celery: by each task's name, so that no service imports
the tasks module. The tasks (games/tasks.py) are thin entry points that import the services;
`GamesConfig.ready()` imports them, so the names are registered in every process."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as KombuOperationalError

# The tasks' names, which beat and the routes in settings use too.
SUBMISSION_VERIFY = "games.submission_verify"
DEAL_PAR_SOLVE = "games.deal_par_solve"
HINT_SEARCH = "games.hint_search"
CENSUS_DEAL_SETTLE = "games.census_deal_settle"

# Errors of the infrastructure (database, Redis): a task retries them; anything else is a bug
# of one row, which must not hold back the others.
INFRASTRUCTURE_ERRORS = (OperationalError, InterfaceError, redis.ConnectionError, redis.TimeoutError)
# What sending a task raises while the broker does not answer (kombu wraps connection errors).
BROKER_ERRORS = (KombuOperationalError, redis.ConnectionError, redis.TimeoutError, ConnectionError)

# The options of a task that settles rows: only infrastructure errors are retried, with backoff.
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
