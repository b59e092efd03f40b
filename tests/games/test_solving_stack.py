"""The solver queue on the full stack: a real `celery worker -Q solver -c 1` beside the default worker.

Run with DATABASE_URL (PostgreSQL) and REDIS_URL set: `make test PYTEST_ARGS='-m stack'`.
"""

from __future__ import annotations

import time

import pytest
from games_helpers import WINS, body
from rest_framework.test import APIClient
from waiting import wait_for

from games.models import SolvedDeal
from games.tasks import deal_par_solve_task, deal_pool_refill_task

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

CODE = "YU1-C-AAAAAAC"
LOG = next(win["log"] for win in WINS if win["code"] == CODE)


@pytest.fixture
def celery_worker_env() -> dict[str, str]:
    """Small searches, so that the solver worker answers in about a second; searches that never
    wait for a busy machine (these tests are about the queues: test_solver_yield_stack.py is
    about waiting)."""
    return {
        "SOLVER_PAR_TIME_LIMIT": "0.5",
        "SOLVER_POOL_BATCH": "1",
        "SOLVER_POOL_TIME_LIMIT": "0.2",
        "SOLVER_YIELD": "0",
    }


def test_only_the_solver_worker_takes_solver_tasks(celery_worker_process, celery_queue_worker):
    solver_worker = celery_queue_worker("solver")
    deal_par_solve_task.delay(CODE)
    time.sleep(2)
    assert not SolvedDeal.objects.exists(), "the default worker took a solver task"
    assert celery_worker_process.queues_consumed() == ["celery"]

    solver_worker.start()
    row = wait_for(lambda: SolvedDeal.objects.filter(code=CODE).first(), what="the par search")

    assert solver_worker.queues_consumed() == ["solver"]
    assert (row.result, row.shortened, row.time_limit) == ("won", True, 0.5)
    deal_pool_refill_task.delay()
    wait_for(lambda: SolvedDeal.objects.filter(rules="relaxed").exists(), what="the pool refill")
    assert SolvedDeal.objects.filter(rules="classic").count() == 2  # the deal above and one random deal


def test_a_first_win_gets_its_par_from_the_solver_worker(celery_queue_worker, player):
    solver_worker = celery_queue_worker("solver")
    solver_worker.start()
    api = APIClient()
    api.force_login(player)

    assert api.post("/api/submissions/", body(log=LOG, code=CODE), format="json").status_code == 202

    row = wait_for(lambda: SolvedDeal.objects.filter(code=CODE, shortened=True).first(), what="the par")
    assert api.get(f"/api/deals/{CODE}/").json()["par"] == row.par
