"""Eager mode (`make run`: no broker, no beat): a submission whose verification hit an
infrastructure error is settled again when the page asks for its verdict, without a restart."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import OperationalError
from django.utils import timezone
from games_helpers import CLASSIC_WIN, body

import games.submissions.settle
from games.models import Submission
from games.submissions.queue import EAGER_SWEEP_KEY, submissions_sweep_when_due

pytestmark = pytest.mark.django_db

STALE = timedelta(minutes=3)  # past SUBMISSION_SWEEP_AFTER_SECONDS (2 minutes)


@pytest.fixture
def database_fails(monkeypatch):
    """While True, every verification run fails as a locked database would."""
    failing = {"on": True}
    settle = games.submissions.settle._settle

    def flaky(*args, **kwargs):
        if failing["on"]:
            raise OperationalError("database is locked")
        return settle(*args, **kwargs)

    monkeypatch.setattr(games.submissions.settle, "_settle", flaky)
    return failing


@pytest.fixture
def stuck(player, issue_game, submit, database_fails):
    """A ranked win stored, its verification failed (robust on_commit: the request still answered 202)."""
    game = issue_game(player)
    response = submit(body(log=CLASSIC_WIN["log"], game=game.pk))
    assert response.status_code == 202
    submission = Submission.objects.get(pk=response.json()["id"])
    assert submission.status == "pending"
    return submission


def age(submission: Submission) -> None:
    Submission.objects.filter(pk=submission.pk).update(received_at=timezone.now() - STALE)


def test_the_page_asking_for_a_stuck_verdict_settles_it(api, stuck, database_fails):
    age(stuck)
    database_fails["on"] = False

    response = api.get(f"/api/submissions/{stuck.pk}/")

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["won"]) == ("verified", True)


def test_a_recent_pending_row_is_left_to_its_own_task(api, stuck, database_fails):
    database_fails["on"] = False

    response = api.get(f"/api/submissions/{stuck.pk}/")

    assert response.status_code == 200 and response.json()["status"] == "pending"


def test_the_sweep_runs_once_an_interval_and_a_failing_one_leaves_the_answer_alone(
    api, stuck, database_fails
):
    age(stuck)

    failed = api.get(f"/api/submissions/{stuck.pk}/")  # the database still fails: swept, not settled
    database_fails["on"] = False
    within_interval = api.get("/api/submissions/")

    assert failed.status_code == 200 and failed.json()["status"] == "pending"
    assert within_interval.status_code == 200 and within_interval.json()["results"][0]["status"] == "pending"
    assert submissions_sweep_when_due() == 0  # not due yet

    cache.delete(EAGER_SWEEP_KEY)  # the interval (SUBMISSION_SWEEP_INTERVAL_SECONDS) has passed
    assert api.get("/api/submissions/").json()["results"][0]["status"] == "verified"


def test_with_a_broker_beat_sweeps_and_reads_do_not(stuck, database_fails, settings):
    age(stuck)
    database_fails["on"] = False
    settings.CELERY_TASK_ALWAYS_EAGER = False

    assert submissions_sweep_when_due() == 0

    stuck.refresh_from_db()
    assert stuck.status == "pending"
