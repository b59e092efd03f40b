"""Verification: settled exactly once, the sweeper, `reverify`, voiding, and the leaderboard seam."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from games_helpers import CLASSIC_WIN, body

from accounts.listeners import listeners_replaced as account_listeners_replaced
from accounts.services import user_suspend, user_unsuspend
from games.models import Submission
from games.results import listeners_replaced
from games.submissions.intake import submission_void
from games.submissions.queue import submissions_pending_stale, submissions_sweep
from games.submissions.settle import submission_verify, submissions_verify_pending

pytestmark = pytest.mark.django_db

SEAM_CALLS: list[tuple] = []


def spy_record(*, submissions):
    """Stands in the seam's place to see how games calls it (not a leaderboard)."""
    for submission in submissions:
        SEAM_CALLS.append(("record", submission.pk, submission.status, connection.in_atomic_block))
    return {submission.pk: {"deal:" + submission.code: (1, 3)} for submission in submissions}


def spy_rebuild(*, user_id):
    SEAM_CALLS.append(("rebuild", user_id, connection.in_atomic_block))


@pytest.fixture
def seam_spy():
    SEAM_CALLS.clear()
    # A suspension is told through accounts' own listeners (accounts/listeners.py).
    with (
        listeners_replaced(places=[spy_record], players=[spy_rebuild]),
        account_listeners_replaced(standing=[spy_rebuild]),
    ):
        yield SEAM_CALLS
    SEAM_CALLS.clear()


@pytest.fixture
def stored(api):
    """POST a win without running the enqueued verification: the row stays pending."""

    def store(data=None):
        data = data or body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"])
        response = api.post("/api/submissions/", data, format="json")
        assert response.status_code == 202
        return Submission.objects.get(pk=response.json()["id"])

    return store


def test_a_stored_row_waits_for_its_task(stored):
    submission = stored()

    assert submission.status == "pending"
    assert submission.settled_at is None and submission.won is None


def test_verification_settles_once_and_a_second_run_changes_nothing(stored, seam_spy):
    submission = stored()

    first = submission_verify(submission_id=submission.pk)
    settled_at = first.settled_at
    second = submission_verify(submission_id=submission.pk)

    assert (first.status, first.won) == ("verified", True)
    assert second.settled_at == settled_at
    assert [call[0] for call in seam_spy] == ["record"]


def test_a_won_result_is_handed_to_the_leaderboard_inside_the_settling_transaction(stored, seam_spy):
    submission = stored()

    settled = submission_verify(submission_id=submission.pk)

    assert seam_spy == [("record", submission.pk, "verified", True)]
    assert (settled.ranks, settled.ranks_of) == (
        {f"deal:{CLASSIC_WIN['code']}": 1},
        {f"deal:{CLASSIC_WIN['code']}": 3},
    )
    stored_row = Submission.objects.get(pk=submission.pk)
    assert (stored_row.ranks, stored_row.ranks_of) == (settled.ranks, settled.ranks_of)


LOST_LOG = " ".join(CLASSIC_WIN["log"].split()[:30])


@pytest.mark.parametrize(
    "data",
    [
        body(log=LOST_LOG, code=CLASSIC_WIN["code"]),
        body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"], assisted=True),
    ],
    ids=["lost", "assisted"],
)
def test_lost_or_assisted_results_are_not_handed_over(stored, seam_spy, data):

    settled = submission_verify(submission_id=stored(data).pk)

    assert settled.status == "verified"
    assert seam_spy == []
    assert settled.ranks == {}


def test_a_detached_pending_submission_settles_without_a_player(stored, seam_spy):
    submission = stored()
    Submission.objects.filter(pk=submission.pk).update(user=None)

    settled = submission_verify(submission_id=submission.pk)

    assert settled.status == "verified"
    assert seam_spy == []


def test_the_sweeper_sends_a_task_only_when_rows_are_pending_past_the_delay(stored, settings):
    old, recent = stored(), stored()
    assert submissions_sweep() == 0  # nothing stale: the rows' own task is on its way
    Submission.objects.filter(pk=old.pk).update(received_at=timezone.now() - timedelta(minutes=3))

    assert submissions_pending_stale() == [old.pk]
    assert submissions_sweep() == 1  # eager here: the task ran at once, and took every pending row

    old.refresh_from_db()
    recent.refresh_from_db()
    assert (old.status, recent.status) == ("verified", "verified")
    assert submissions_sweep() == 0


def test_a_task_settles_pending_rows_in_batches_and_says_when_more_remain(stored, seam_spy, settings):
    settings.SUBMISSION_VERIFY_BATCH = 2
    rows = [stored() for _ in range(5)]

    first, more = submissions_verify_pending(batches=2)
    rest, more_after = submissions_verify_pending(batches=2)

    assert ([s.pk for s in first], more) == ([row.pk for row in rows[:4]], True)
    assert ([s.pk for s in rest], more_after) == ([rows[4].pk], False)
    assert submissions_verify_pending() == ([], False)
    assert [call[1] for call in seam_spy] == [row.pk for row in rows]  # each recorded once
    assert {row.status for row in Submission.objects.all()} == {"verified"}


def test_a_backlog_sends_one_helper_task_for_the_other_worker_processes(stored, settings, monkeypatch):
    from games.tasks import submission_verify_task

    settings.SUBMISSION_VERIFY_BATCH = 2
    settings.CELERY_TASK_ALWAYS_EAGER = False  # as in a worker (the helper is not run here)
    sent = []
    monkeypatch.setattr(submission_verify_task, "delay", lambda *args: sent.append(args))
    for _ in range(5):
        stored()

    settled, more = submissions_verify_pending()

    assert (len(settled), more, len(sent)) == (5, False, 1)


def test_a_row_that_breaks_its_batch_is_left_pending_and_the_others_are_settled(
    stored, settings, monkeypatch
):
    from games.submissions import settle

    settings.SUBMISSION_VERIFY_BATCH = 3
    rows = [stored() for _ in range(4)]
    judge = settle.submission_judge

    def judge_or_break(*, submission, **flags):
        if submission.pk == rows[1].pk:
            raise ValueError("a bug met by this row only")
        return judge(submission=submission, **flags)

    monkeypatch.setattr(settle, "submission_judge", judge_or_break)

    settled, more = submissions_verify_pending()

    assert sorted(s.pk for s in settled) == [rows[0].pk, rows[2].pk, rows[3].pk]
    assert not more
    assert Submission.objects.get(pk=rows[1].pk).status == "pending"
    assert Submission.objects.filter(status="verified").count() == 3


def test_intake_sends_one_task_while_one_is_waiting(
    api, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from games.tasks import submission_verify_task

    sent = []
    monkeypatch.setattr(submission_verify_task, "delay", lambda *args: sent.append(args))
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            body_ = body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"])
            assert api.post("/api/submissions/", body_, format="json").status_code == 202
    assert len(sent) == 1  # the task that was sent has not started: it will find all three

    settled, _ = submissions_verify_pending()  # the task starts: rows from now on send another
    with django_capture_on_commit_callbacks(execute=True):
        api.post("/api/submissions/", body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"]), format="json")

    assert len(settled) == 3 and len(sent) == 2


def test_void_and_suspension_rebuild_the_players_entries(stored, player, seam_spy):
    submission = submission_verify(submission_id=stored().pk)
    seam_spy.clear()

    submission_void(submission=submission)
    user_suspend(user=player, reason="bot")
    user_unsuspend(user=player)

    assert Submission.objects.get(pk=submission.pk).voided is True
    assert seam_spy == [("rebuild", player.pk, True)] * 3


def test_reverify_reports_and_applies_a_changed_verdict(stored, player, seam_spy, settings):
    fair = submission_verify(submission_id=stored().pk)
    rejected = submission_verify(
        submission_id=stored(body(log="7S>5", code="YU1-C-AAAAEDW")).pk
    )  # an illegal move: stays rejected
    seam_spy.clear()
    settings.SUBMISSION_MIN_AVERAGE_MOVE_MS = 500  # stricter than the 170 ms a move it was played at
    out = io.StringIO()

    call_command("reverify", "--no-progress", stdout=out)

    fair.refresh_from_db()
    rejected.refresh_from_db()
    assert (fair.status, fair.reason_code, fair.ranks) == ("rejected", "timing_average", {})
    assert rejected.reason_code == "wrong_colour"
    assert out.getvalue().splitlines() == [
        f"submission {fair.pk}: verified won, score {7200 - CLASSIC_WIN['moves']} -> rejected timing_average",
        "re-verified 2 submission(s); 1 verdict(s) changed",
    ]
    assert seam_spy == [("rebuild", player.pk, True)]


def test_reverify_selects_by_date_and_status(stored, seam_spy):
    old = submission_verify(submission_id=stored().pk)
    Submission.objects.filter(pk=old.pk).update(received_at=timezone.now() - timedelta(days=30))
    submission_verify(submission_id=stored().pk)
    since = (timezone.now() - timedelta(days=1)).date().isoformat()
    out = io.StringIO()

    call_command("reverify", "--since", since, "--status", "verified", "--no-progress", stdout=out)
    call_command("reverify", "--status", "rejected", "--no-progress", stdout=out)

    assert out.getvalue().splitlines() == [
        "re-verified 1 submission(s); 0 verdict(s) changed",
        "re-verified 0 submission(s); 0 verdict(s) changed",
    ]


def test_reverify_refuses_an_unknown_status():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="unknown status lost"):
        call_command("reverify", "--status", "lost")
