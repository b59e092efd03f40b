"""The full stack: PostgreSQL, Redis and a real Celery worker process verifying submissions.

Run with DATABASE_URL (PostgreSQL) and REDIS_URL set: `make test PYTEST_ARGS='-m stack'`.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import Counter

import pytest
from django.db import connection, connections
from django.utils import timezone
from games_helpers import CLASSIC_WIN, WINS, body, paced
from rest_framework.test import APIClient

from games.errors import GameAlreadyUsed
from games.log_input import SubmissionInput
from games.models import Submission
from games.submissions.intake import submission_create
from games.submissions.queue import submissions_sweep

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

LOST_LOG = " ".join(CLASSIC_WIN["log"].split()[:30])


@pytest.fixture
def celery_worker_env():
    """One row a task, one task after another: a backlog takes the worker seconds, not a blink,
    so a kill after its first rows surely falls in the middle of the rest (with batches of 50 a
    quiet machine drained 300 rows before the test could see the first settled)."""
    return {"SUBMISSION_VERIFY_BATCH": "1", "SUBMISSION_VERIFY_DRAIN_BATCHES": "1"}


def wait_until_settled(ids, timeout=60.0) -> dict[int, Submission]:
    deadline = time.monotonic() + timeout
    while True:
        rows = {s.pk: s for s in Submission.objects.filter(pk__in=ids)}
        if all(row.status != "pending" for row in rows.values()):
            return rows
        if time.monotonic() > deadline:
            pending = [pk for pk, row in rows.items() if row.status == "pending"]
            raise AssertionError(
                f"{len(pending)} submission(s) still pending after {timeout}s: {pending[:10]}"
            )
        time.sleep(0.1)


def require_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL)")


def test_submissions_are_verified_by_the_worker(celery_worker_process, player, issue_game):
    api = APIClient()
    api.force_login(player)
    game = issue_game(player)
    posted = [
        api.post("/api/submissions/", body(log=CLASSIC_WIN["log"], game=game.pk), format="json"),
        api.post("/api/submissions/", body(log=LOST_LOG, code=CLASSIC_WIN["code"]), format="json"),
        api.post("/api/submissions/", body(log="7S>5", code="YU1-C-AAAAEDW"), format="json"),
    ]
    assert [response.status_code for response in posted] == [202, 202, 202]

    rows = wait_until_settled([response.json()["id"] for response in posted])

    won, lost, illegal = (rows[response.json()["id"]] for response in posted)
    assert (won.status, won.won, won.score, won.ranked) == (
        "verified",
        True,
        7200 - CLASSIC_WIN["moves"],
        True,
    )
    assert len(won.ranks) == 5  # all time, season, week, day and the deal
    assert (lost.status, lost.won, lost.ranks) == ("verified", False, {})
    assert (illegal.status, illegal.reason_code) == ("rejected", "wrong_colour")
    assert api.get(f"/api/submissions/{won.pk}/").json()["status"] == "verified"


def _in_parallel(count, work):
    """Run `work()` in `count` threads released together; returns their results or exceptions."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(index):
        try:
            barrier.wait()
            results[index] = work()
        except Exception as error:  # noqa: BLE001 - collected for the assertion
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def _input(data: dict) -> SubmissionInput:
    return SubmissionInput(
        client_id=uuid.UUID(data["client_id"]),
        game_id=data.get("game"),
        code=data.get("code"),
        log=data["log"],
        move_times_ms=data["move_times_ms"],
        duration_ms=data["duration_ms"],
        finished_at=timezone.now(),
    )


def test_a_burst_of_one_client_id_stores_one_row(redis_client, player):
    require_postgresql()
    data = _input(body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"]))

    results = _in_parallel(8, lambda: submission_create(user=player, data=data))

    assert not [r for r in results if isinstance(r, Exception)], results
    assert len({submission.pk for submission, _ in results}) == 1
    assert sum(created for _, created in results) == 1
    assert Submission.objects.count() == 1


def test_a_burst_on_one_game_accepts_one_result(redis_client, player, issue_game):
    require_postgresql()
    game = issue_game(player)

    results = _in_parallel(
        8, lambda: submission_create(user=player, data=_input(body(log=CLASSIC_WIN["log"], game=game.pk)))
    )

    assert sum(isinstance(result, tuple) for result in results) == 1
    assert all(isinstance(result, GameAlreadyUsed) for result in results if not isinstance(result, tuple))
    assert Submission.objects.filter(game=game).count() == 1


def settled_lines(log: str) -> Counter:
    counts: Counter = Counter()
    for line in log.splitlines():
        if line.startswith("{") and '"submission settled"' in line:
            counts[json.loads(line)["submission_id"]] += 1
    return counts


def kill_in_the_middle_of_a_backlog(worker, players, rows: int = 300) -> list[int]:
    """Submissions queued while the worker is stopped, then the worker killed (SIGKILL, main
    process and child) in the middle of settling them; their ids (some still pending)."""
    ids = []
    # Verification is fast: if a worker drains a whole backlog before the kill lands, queue
    # another and try again, so that the kill really falls in the middle of the work.
    for _attempt in range(5):
        worker.stop()
        backlog = []
        for index in range(rows):
            win = WINS[index % len(WINS)]
            data = body(log=win["log"], code=win["code"])
            data["move_times_ms"] = paced(win["log"])
            submission, created = submission_create(user=players[index % len(players)], data=_input(data))
            assert created
            backlog.append(submission.pk)
        ids += backlog
        worker.start()
        deadline = time.monotonic() + 60
        while not Submission.objects.filter(pk__in=backlog).exclude(status="pending").exists():
            assert time.monotonic() < deadline, worker.log()[-3000:]
            time.sleep(0.005)

        worker.kill()  # SIGKILL in the middle of the backlog

        if Submission.objects.filter(pk__in=ids, status="pending").exists():
            return ids
    raise AssertionError("every worker drained its backlog before it was killed")


def test_a_killed_worker_loses_no_submission_and_counts_none_twice(
    celery_worker_process, make_player, settings
):
    players = [make_player() for _ in range(5)]
    ids = kill_in_the_middle_of_a_backlog(celery_worker_process, players)
    celery_worker_process.start()
    settings.SUBMISSION_SWEEP_AFTER_SECONDS = 0
    # The tasks still queued settle the rows after theirs, which usually covers the batch the
    # kill undid; the sweeper re-enqueues whatever they leave (the lost tasks' own rows).
    submissions_sweep()
    rows = wait_until_settled(ids, timeout=120)

    assert {row.status for row in rows.values()} == {"verified"}
    assert all(row.won and row.ranks for row in rows.values())
    counts = settled_lines(celery_worker_process.log())
    # A kill between a batch's commit and its log lines loses lines, never results.
    assert set(counts) <= set(ids) and len(counts) >= len(ids) - 5
    assert max(counts.values()) == 1, "a submission was settled twice"
    from leaderboard.models import BoardEntry

    boards = Counter(BoardEntry.objects.values_list("board", "user_id"))
    assert max(boards.values()) == 1


def test_parallel_batches_settle_each_submission_once(redis_client, make_player, settings):
    require_postgresql()
    from games.submissions.settle import submissions_verify_pending

    settings.SUBMISSION_VERIFY_BATCH = 7
    players = [make_player() for _ in range(4)]
    ids = []
    for index in range(60):
        win = WINS[index % len(WINS)]
        data = body(log=win["log"], code=win["code"])
        data["move_times_ms"] = paced(win["log"])
        ids.append(submission_create(user=players[index % 4], data=_input(data))[0].pk)

    results = _in_parallel(8, lambda: [s.pk for s in submissions_verify_pending()[0]])

    assert not [r for r in results if isinstance(r, Exception)], results
    settled = Counter(pk for run in results for pk in run)
    assert set(settled) == set(ids) and max(settled.values()) == 1
    rows = Submission.objects.filter(pk__in=ids)
    assert {(row.status, row.won) for row in rows} == {("verified", True)}
    assert all(row.ranks for row in rows)
    from leaderboard.models import BoardEntry

    assert max(Counter(BoardEntry.objects.values_list("board", "user_id")).values()) == 1


def test_a_worker_killed_whole_leaves_nothing_pending_for_long_after_a_restart(
    celery_worker_process, make_player
):
    """The whole worker crashes (main process and child): its task stays unacknowledged in Redis
    for the visibility timeout (an hour), and here no other message is left to carry on (ready
    messages purged: the chain of one-row tasks broken where the kill fell). No sweeper runs.
    The next worker, once ready, settles the backlog: in seconds (docs/operations.md; the time is
    printed), where it waited for the sweeper or the hour before. The limit here is loose, for a
    busy machine: the old behaviour misses it by far."""
    from yukon_site.celery import app

    players = [make_player() for _ in range(3)]
    ids = kill_in_the_middle_of_a_backlog(celery_worker_process, players, rows=100)
    app.control.purge()
    restarted = time.monotonic()
    celery_worker_process.start()

    rows = wait_until_settled(ids, timeout=90)
    print(f"{len(ids)} submissions settled {time.monotonic() - restarted:.1f} s after the restart began")

    assert {row.status for row in rows.values()} == {"verified"}
    counts = settled_lines(celery_worker_process.log())
    assert max(counts.values()) == 1, "a submission was settled twice"
