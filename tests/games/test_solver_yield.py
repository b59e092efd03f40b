"""Solver work gives way to intake and verification (games/solving/yielding.py): a search waits while
results wait on verification or the rest of the machine is busy, and a task kept waiting too long
gives its search up and asks again later."""

from __future__ import annotations

import os
import threading
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from games_helpers import CLASSIC_WIN, body

from games.models import SolvedDeal, Submission
from games.solving.par import PAR_QUEUED_KEY
from games.solving.yielding import OthersCpu, SolverYield, SolverYielded, verification_backlog
from games.tasks import deal_par_solve_task, deal_pool_refill_task

pytestmark = pytest.mark.django_db

HARD = "YU1-C-DQHSTTC"  # undecided after 10 seconds, by the compiled core too
TICK = os.sysconf("SC_CLK_TCK")


@pytest.fixture(autouse=True)
def yielding(settings):
    settings.SOLVER_YIELD = True  # the suite's default leaves it off (tests/conftest.py)


@pytest.fixture
def pending(api):
    """A win stored and left pending (its verification not run), received `seconds` ago."""

    def store(seconds: float) -> Submission:
        response = api.post(
            "/api/submissions/", body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"]), format="json"
        )
        assert response.status_code == 202
        submission = Submission.objects.get(pk=response.json()["id"])
        Submission.objects.filter(pk=submission.pk).update(
            received_at=timezone.now() - timedelta(seconds=seconds)
        )
        return submission

    return store


class FakeStat:
    """A /proc/stat whose machine is as busy as told: `cores` busy from now on.

    Read as OthersCpu reads /proc/stat (`read_text`), it answers the busy time at that moment:
    a file kept fresh by a thread of its own went stale on a loaded machine (the thread not
    run for a quarter of a second, the machine read as idle). `write` puts the same in the file
    at `path`, for a reading of the file itself."""

    def __init__(self, path, cores: float = 0.0) -> None:
        self.path, self.cores, self.busy, self.at = path, cores, 1000.0, time.monotonic()
        self.lock = threading.Lock()
        self.write()

    def _now(self, also: float = 0.0) -> str:
        """`also`: CPU seconds of a process the machine ran besides `cores` since the last reading."""
        with self.lock:
            now = time.monotonic()
            self.busy += self.cores * (now - self.at) + also
            self.at = now
            return f"cpu  {int(self.busy * TICK)} 0 0 500000 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n"

    def set_cores(self, cores: float) -> None:
        """`cores` busy from now on (the time before counted at the old rate)."""
        self._now()
        self.cores = cores

    def read_text(self) -> str:
        return self._now()

    def write(self, also: float = 0.0) -> None:
        fresh = self.path.with_suffix(".new")  # written whole, then put in place: never read half-written
        fresh.write_text(self._now(also))
        fresh.replace(self.path)


@pytest.fixture
def machine(tmp_path):
    return FakeStat(tmp_path / "stat")


def test_a_result_waiting_past_the_backlog_delay_is_a_backlog(pending, settings):
    settings.SOLVER_YIELD_BACKLOG_SECONDS = 2.0
    assert not verification_backlog()
    young = pending(0.5)
    assert not verification_backlog(), "a result in the normal flow of verification"
    Submission.objects.filter(pk=young.pk).update(received_at=timezone.now() - timedelta(seconds=3))
    assert verification_backlog()


def test_settled_and_long_stuck_results_are_no_backlog(pending):
    settled = pending(5)
    Submission.objects.filter(pk=settled.pk).update(
        status=Submission.Status.VERIFIED, settled_at=timezone.now()
    )
    assert not verification_backlog()
    pending(3600)  # the sweeper's, not a run falling behind
    assert not verification_backlog()


def test_the_others_cpu_reading_leaves_out_this_process(tmp_path):
    # The machine's busy time counts this process's CPU too, which the reading leaves out. The
    # fake /proc/stat is written here, just before each reading, so that a busy machine running
    # the suite cannot make it stale.
    stat = FakeStat(tmp_path / "stat")
    others = OthersCpu(stat=stat.path, cores=2)

    def busy_for(seconds: float, cores: float) -> float:
        """This process busy for `seconds` while the rest of the machine keeps `cores` busy; then
        the reading."""
        stat.write()
        stat.cores, own = cores, time.process_time()
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            pass
        stat.write(also=time.process_time() - own)
        return others.busy_cores()

    others.busy_cores()
    assert busy_for(0.6, cores=1.5) == pytest.approx(1.5, abs=0.35)
    assert busy_for(0.6, cores=0.0) < 0.3


def test_an_idle_machine_without_a_backlog_lets_the_search_run(machine):
    hook = SolverYield(others=OthersCpu(stat=machine, cores=2), max_seconds=5)
    started = time.monotonic()
    for _ in range(5):
        assert hook() == 0.0
        time.sleep(0.1)
    assert time.monotonic() - started < 1.5


def test_a_busy_machine_holds_the_search_until_it_is_idle(machine, settings):
    settings.SOLVER_YIELD_BUSY_SHARE = 0.4
    # Both of 2: far above 0.4 of them even less this process's own CPU, which the reading
    # subtracts (under 1.2 cores it failed on a loaded machine: the suite's other process).
    machine.set_cores(2.0)
    others = OthersCpu(stat=machine, cores=2)
    others.busy_cores()
    time.sleep(0.3)
    threading.Timer(1.0, lambda: machine.set_cores(0.0)).start()
    hook = SolverYield(others=others, max_seconds=30)

    waited = hook()

    assert 0.7 <= waited < 10
    assert hook.waited == waited


def test_a_task_kept_waiting_too_long_gives_its_search_up(pending, machine):
    pending(10)
    hook = SolverYield(others=OthersCpu(stat=machine, cores=2), max_seconds=0.6)
    started = time.monotonic()
    with pytest.raises(SolverYielded, match="verification backlog"):
        hook()
    assert 0.6 <= time.monotonic() - started < 3


def test_switched_off_it_never_waits(pending, machine, settings):
    settings.SOLVER_YIELD = False
    pending(10)
    assert SolverYield(others=OthersCpu(stat=machine, cores=2), max_seconds=0.5)() == 0.0


def test_a_par_search_given_up_stores_nothing_and_may_be_asked_again(pending, settings):
    settings.SOLVER_YIELD_MAX_SECONDS = 0.5
    settings.SOLVER_PAR_TIME_LIMIT = 5
    pending(10)
    cache.set(PAR_QUEUED_KEY.format(code=HARD), 1)

    started = time.monotonic()
    assert deal_par_solve_task.apply((HARD,)).get() is None

    assert time.monotonic() - started < 3, "the search did not run its 5 s"
    assert not SolvedDeal.objects.filter(code=HARD).exists()
    assert cache.get(PAR_QUEUED_KEY.format(code=HARD)) is None


def test_a_pool_refill_given_up_ends_its_run(pending, settings):
    settings.SOLVER_POOL_REFILL = True
    settings.SOLVER_POOL_TIME_LIMIT = 0.5
    settings.SOLVER_YIELD_MAX_SECONDS = 0.5
    pending(10)

    assert deal_pool_refill_task.apply().get() == {}
    # The refill's own rows are pooled. A row of another search (seen once on a loaded machine,
    # when the refill's log shows it gave up at its first search and stored nothing) is not its.
    assert not SolvedDeal.objects.filter(pooled=True).exists()
