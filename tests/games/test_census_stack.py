"""A census on the full stack: `manage.py census` sends the deals to the `census` queue, two real
`celery worker -Q census` processes share them, and each deal is written once, even when the
census is sent twice (docs/operations.md, "A census of the solver").

Run with DATABASE_URL (PostgreSQL) and REDIS_URL set: `make test PYTEST_ARGS='-m stack'`.
"""

from __future__ import annotations

import time

import pytest
from django.core.management import call_command

from games.models import CensusVerdict

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

DEALS = "0-7"  # eight Classic deals; a node limit, not the clock, bounds each search


@pytest.fixture
def census_workers(celery_worker_process, tmp_path):
    """Two `celery -A yukon_site worker -Q census -c 1`, as an operator starts them anywhere."""
    workers = [
        type(celery_worker_process)(
            env=celery_worker_process.env, log_path=tmp_path / f"census-{index}.log", queues=("census",)
        )
        for index in range(2)
    ]
    yield workers
    for worker in workers:
        worker.stop()


def settled_within(count: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while CensusVerdict.objects.filter(census="stack").count() < count:
        assert time.monotonic() < deadline, f"{CensusVerdict.objects.count()} of {count} settled"
        time.sleep(0.2)


def test_two_workers_share_a_census_and_write_each_deal_once(census_workers, tmp_path):
    for worker in census_workers:
        worker.start()
    send = ["census", "--name", "stack", "--deals", DEALS, "--seconds", "60", "--max-nodes", "20000"]

    call_command(*send)
    call_command(*send)  # sent again while the first is under way: nothing twice
    settled_within(8)
    time.sleep(1)  # any duplicate still in the queue has had its chance to write
    call_command("census", "--name", "stack", "--export", str(tmp_path / "out.jsonl"))

    codes = list(CensusVerdict.objects.filter(census="stack").values_list("code", flat=True))
    assert sorted(codes) == [f"YU1-C-AAAAAA{letter}" for letter in "ABCDEFGH"]
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 8
    worked = [worker.log().count("census_deal_settle") for worker in census_workers]
    assert all(worked), f"both workers took deals: {worked}"
