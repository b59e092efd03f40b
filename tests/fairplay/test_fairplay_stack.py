"""Fair play's queue on the full stack: a real `celery worker -Q fairplay -c 1` beside the default
worker analyses a settled ranked win; the default worker never takes an analysis.

Run with DATABASE_URL (PostgreSQL) and REDIS_URL set: `make test PYTEST_ARGS='-m stack'`.
"""

from __future__ import annotations

import time

import pytest
from django.utils import timezone
from factories import player_make, win
from waiting import wait_for

from fairplay.models import GameAnalysis

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def test_only_fair_plays_worker_analyses_a_settled_ranked_win(celery_worker_process, celery_queue_worker):
    fairplay_worker = celery_queue_worker("fairplay")
    result = win(player_make("ann"), at=timezone.now())  # settled here or by the default worker
    analysis = wait_for(lambda: GameAnalysis.objects.filter(submission=result).first(), what="the request")
    time.sleep(2)
    analysis.refresh_from_db()
    assert analysis.state == GameAnalysis.State.QUEUED, "the default worker took an analysis"
    assert celery_worker_process.queues_consumed() == ["celery"]

    fairplay_worker.start()
    done = GameAnalysis.objects.filter(pk=analysis.pk, state=GameAnalysis.State.DONE)
    analysis = wait_for(done.first, what="the analysis")
    assert fairplay_worker.queues_consumed() == ["fairplay"]
    assert analysis.features["reveals"] == 21
