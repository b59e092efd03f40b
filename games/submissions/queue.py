"""How verification is sent to Celery, and the sweeper of rows a lost task left pending.

The tasks (games/tasks.py) import the services; services send tasks by their names
(`games.task_queue`), never importing the tasks module back."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from games.models import Submission
from games.task_queue import BROKER_ERRORS, SUBMISSION_VERIFY
from yukon_site.celery import task_named

logger = logging.getLogger(__name__)

Status = Submission.Status

VERIFY_QUEUED_KEY = "games:verify-queued"
VERIFY_QUEUED_SECONDS = 30  # after that, a task still waiting in the queue gets company


def submissions_verify_soon() -> None:
    """Make sure a verification task starts after this moment (intake calls it on commit).

    One is sent unless one is already waiting in the queue (a flag set when it is sent and
    cleared when it starts), since a task settles every pending row it finds. The rows are the
    record: if a task is lost anyway, the sweeper finds its rows still pending.
    """
    if not cache.add(VERIFY_QUEUED_KEY, 1, VERIFY_QUEUED_SECONDS):
        return
    try:
        task_named(SUBMISSION_VERIFY).delay()
    except BROKER_ERRORS as error:
        # Redis (the broker) is down: the row is stored, the sweeper sends it once Redis is back.
        cache.delete(VERIFY_QUEUED_KEY)
        logger.warning(
            "verification not enqueued: the broker is not answering", extra={"error": repr(error)[:300]}
        )
    except Exception:
        cache.delete(VERIFY_QUEUED_KEY)
        raise


def submissions_verify_resume() -> None:
    """At a worker's start: settle what a crashed worker left. A worker killed whole (its main
    process too) leaves its task unacknowledged in Redis until the visibility timeout (an hour),
    and may leave the "queued" flag set, which holds new tasks back: the flag is cleared and a
    run sent. Safe beside any other run: rows are claimed with skip_locked and settled by a
    conditional update."""
    cache.delete(VERIFY_QUEUED_KEY)
    submissions_verify_soon()


def submissions_pending_stale(*, now: datetime | None = None) -> list[int]:
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.SUBMISSION_SWEEP_AFTER_SECONDS)
    return list(
        Submission.objects.filter(status=Status.PENDING, received_at__lt=cutoff)
        .order_by("received_at")
        .values_list("pk", flat=True)[:10_000]
    )


def submissions_sweep(*, now: datetime | None = None) -> int:
    """Send a verification task when submissions are pending longer than
    SUBMISSION_SWEEP_AFTER_SECONDS (their task was lost); returns how many are."""
    ids = submissions_pending_stale(now=now)
    if ids:
        task_named(SUBMISSION_VERIFY).delay()  # whatever the flag says: the task it stands for may be lost
        logger.warning("pending submissions re-enqueued", extra={"count": len(ids)})
    return len(ids)


EAGER_SWEEP_KEY = "games:eager-sweep"


def submissions_sweep_when_due(*, now: datetime | None = None) -> int:
    """Eager mode's sweeper (no beat runs there): a request that reads results (the page asks for
    its verdicts until they come) sends the sweep at most once a sweep interval, so a submission
    whose verification hit an infrastructure error is settled again without a restart. Returns
    how many were pending past SUBMISSION_SWEEP_AFTER_SECONDS; 0 with a broker (beat sweeps)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return 0
    interval = settings.CELERY_BEAT_SCHEDULE["games-submissions-sweep"]["schedule"]
    if not cache.add(EAGER_SWEEP_KEY, 1, interval):
        return 0
    try:
        return submissions_sweep(now=now)
    except Exception:  # the database still failing: the reader gets its answer, a later sweep retries
        logger.exception("eager sweep failed")
        return 0
