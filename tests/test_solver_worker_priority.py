"""The solver's worker yields the CPU: a worker of the solver's queues alone (solver, hints)
lowers its priority before its pool starts (yukon_site/celery.py); any other worker keeps its own."""

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from yukon_site import celery as celery_module


def worker_of(*queues: str):
    consume_from = {name: SimpleNamespace(name=name) for name in queues}
    amqp = SimpleNamespace(queues=SimpleNamespace(consume_from=consume_from))
    return SimpleNamespace(app=SimpleNamespace(amqp=amqp))


@pytest.fixture
def priorities(monkeypatch):
    set_to = []
    monkeypatch.setattr(celery_module.os, "getpriority", lambda which, who: 0)
    monkeypatch.setattr(celery_module.os, "setpriority", lambda which, who, value: set_to.append(value))
    return set_to


@pytest.mark.parametrize("queues", [("solver",), ("hints",), ("solver", "hints"), ("fairplay",)])
def test_the_solver_queues_worker_runs_at_the_lowest_priority(priorities, settings, queues):
    assert settings.SOLVER_WORKER_NICENESS == 19
    celery_module.solver_worker_yields("solver@host", worker_of(*queues))
    assert priorities == [19]


@pytest.mark.parametrize(
    "queues", [("celery",), ("celery", "solver"), ("celery", "hints"), ("celery", "fairplay")]
)
def test_a_worker_that_verifies_keeps_its_priority(priorities, queues):
    celery_module.solver_worker_yields("worker@host", worker_of(*queues))
    assert priorities == []


def test_niceness_zero_leaves_the_solver_worker_as_it_is(priorities, settings):
    settings.SOLVER_WORKER_NICENESS = 0
    celery_module.solver_worker_yields("solver@host", worker_of("solver"))
    assert priorities == []


def niceness_of(pid: int) -> int:
    # /proc/<pid>/stat: the 19th field is the niceness (after the command, in parentheses).
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads niceness from Linux's /proc")
def test_a_real_solver_worker_and_its_pool_run_at_the_lowest_priority():
    """`celery worker -Q solver` as make stack and docker compose start it (a prefork pool of
    one), on the in-memory broker: the main process and its pool's child run at niceness 19."""
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "DATABASE_URL")}
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "yukon_site",
        "worker",
        "-Q",
        "solver",
        "-c",
        "1",
        "--hostname",
        "solver@test",
        "--without-heartbeat",
        "--without-mingle",
        "--without-gossip",
    ]
    worker = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        children = []
        while not children:
            assert worker.poll() is None, "the worker exited"
            assert time.monotonic() < deadline, "the worker started no pool process within 60 s"
            time.sleep(0.3)
            listing = Path(f"/proc/{worker.pid}/task/{worker.pid}/children")
            children = [int(pid) for pid in listing.read_text().split()]
        assert niceness_of(worker.pid) == 19
        assert [niceness_of(child) for child in children] == [19]
    finally:
        worker.terminate()
        worker.wait(timeout=30)
