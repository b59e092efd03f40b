"""A real solver worker (`celery -A yukon_site worker -Q solver -c 1`) gives way: its par search
waits while results wait on verification, and while the rest of the machine is busy, then runs.

Run with DATABASE_URL (PostgreSQL) and REDIS_URL set: `make test PYTEST_ARGS='-m stack'`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from games_helpers import CLASSIC_WIN, body

from games.models import SolvedDeal, Submission
from games.tasks import deal_par_solve_task

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

# Undecided after 10 seconds, by the compiled core too: a par search takes its whole limit.
HARD = "YU1-C-DQHSTTC"
WATCH_SECONDS = 4.0


@pytest.fixture
def celery_worker_env() -> dict[str, str]:
    # A search of 3 s: long enough to be seen running, short enough to end within the test.
    return {"SOLVER_PAR_TIME_LIMIT": "3"}


@pytest.fixture
def solver_worker(celery_worker_process, tmp_path):
    """The solver's worker alone: the default worker is stopped, so a pending result stays so."""
    celery_worker_process.stop()
    worker = type(celery_worker_process)(
        env=celery_worker_process.env, log_path=tmp_path / "solver-worker.log", queues=("solver",)
    )

    def start(**env: str):
        worker.env = {**worker.env, **env}
        worker.start()
        return worker

    yield start
    worker.stop()


def pool_child(worker) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listing = Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()
        if listing:
            return int(listing[0])
        time.sleep(0.2)
    raise AssertionError("the solver worker started no pool process")


def cpu_seconds(pid: int) -> float:
    # /proc/<pid>/stat: utime and stime, the 14th and 15th fields, in clock ticks.
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def searched_while_watched(child: int) -> float:
    """CPU seconds the pool process spends over WATCH_SECONDS."""
    before = cpu_seconds(child)
    time.sleep(WATCH_SECONDS)
    return cpu_seconds(child) - before


def par_row(timeout: float = 60.0) -> SolvedDeal:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if row := SolvedDeal.objects.filter(code=HARD).first():
            return row
        time.sleep(0.2)
    raise AssertionError(f"the par search did not end within {timeout}s")


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="reads the pool's CPU time from Linux's /proc")
def test_the_par_search_waits_while_a_result_waits_on_verification(solver_worker, api):
    response = api.post(
        "/api/submissions/", body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"]), format="json"
    )
    assert response.status_code == 202
    Submission.objects.filter(pk=response.json()["id"]).update(
        received_at=timezone.now() - timedelta(seconds=10)
    )
    # The machine's own load is left out of this test (SOLVER_YIELD_BUSY_SHARE 1: never busy enough).
    worker = solver_worker(SOLVER_YIELD_BUSY_SHARE="1.0")
    child = pool_child(worker)
    deal_par_solve_task.delay(HARD)
    time.sleep(1)  # the task reaches the worker

    assert searched_while_watched(child) < 0.5, "the solver searched while a result waited"
    assert not SolvedDeal.objects.filter(code=HARD).exists()

    Submission.objects.update(status=Submission.Status.VERIFIED, settled_at=timezone.now())
    row = par_row()
    assert row.shortened and row.time_limit == 3
    assert row.seconds >= 2.5, "the search had its whole limit, the wait left out"


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="reads the machine's CPU from Linux's /proc")
def test_the_par_search_waits_while_the_machine_is_busy(solver_worker):
    worker = solver_worker()
    child = pool_child(worker)
    # Two processes keep both cores busy, at the solver's own niceness: only the pause, not the
    # priority, can hold the search back.
    burn = "import os; os.nice(19)\nwhile True: pass"
    burners = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(2)]
    try:
        time.sleep(1)
        deal_par_solve_task.delay(HARD)
        time.sleep(1)
        assert searched_while_watched(child) < 0.5, "the solver searched beside a busy machine"
        assert not SolvedDeal.objects.filter(code=HARD).exists()
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert par_row().shortened
