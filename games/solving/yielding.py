"""Solver work gives way to intake and verification.

The solver queue's searches (the pool of winnable deals, par) are background work: a niceness of
19 alone does not give intake its core back on a small machine (docs/operations.md, "The solver
worker yields the CPU"). So each search is handed a ``SolverYield`` as its pause hook: it waits while

- results wait on verification: a submission pending for more than SOLVER_YIELD_BACKLOG_SECONDS
  (a backlog; younger rows are the normal flow of a verification run);
- or the rest of this machine keeps more than SOLVER_YIELD_BUSY_SHARE of its cores busy
  (intake, verification, PostgreSQL, anything else: read from Linux's /proc/stat, less this
  process's own CPU time).

A task that has waited SOLVER_YIELD_MAX_SECONDS in all gives its search up (``SolverYielded``):
the pool's next run, or the deal's next win, asks again. Hints are not paused (a player is
waiting; they have a process of their own, games/solving/hints.py), nor searches in a web request.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from games.models import Submission

logger = logging.getLogger(__name__)

PROC_STAT = Path("/proc/stat")
SAMPLE_SECONDS = 0.25  # the CPU reading's window: /proc/stat counts in ticks of 10 ms
STALE_PENDING = dt.timedelta(minutes=10)  # older pending rows are the sweeper's, not a backlog


class SolverYielded(Exception):
    """A search given up after waiting SOLVER_YIELD_MAX_SECONDS for the machine."""


def verification_backlog(*, now: dt.datetime | None = None) -> bool:
    """True when a result has waited for its verdict longer than SOLVER_YIELD_BACKLOG_SECONDS."""
    now = now or timezone.now()
    waiting = now - dt.timedelta(seconds=settings.SOLVER_YIELD_BACKLOG_SECONDS)
    return Submission.objects.filter(
        status=Submission.Status.PENDING, received_at__lte=waiting, received_at__gte=now - STALE_PENDING
    ).exists()


def _machine_busy_seconds(stat: Path) -> float | None:
    """CPU seconds the whole machine has been busy since boot (every core), or None off Linux."""
    try:
        fields = [int(value) for value in stat.read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


@dataclass
class OthersCpu:
    """How many cores the rest of the machine keeps busy: the machine's busy time less this
    process's own, over the last SAMPLE_SECONDS at least."""

    stat: Path = PROC_STAT
    cores: int = field(default_factory=lambda: len(os.sched_getaffinity(0)))
    _sample: tuple[float, float, float] | None = None  # wall clock, machine busy, own CPU
    _last: float = 0.0

    def busy_cores(self) -> float | None:
        """The latest reading (None off Linux); taken anew once a window has passed."""
        now = time.monotonic()
        if self._sample is not None and now - self._sample[0] < SAMPLE_SECONDS:
            return self._last
        machine = _machine_busy_seconds(self.stat)
        if machine is None:
            return None
        sample = (now, machine, time.process_time())
        if self._sample is not None:
            wall, busy, own = (a - b for a, b in zip(sample, self._sample, strict=True))
            self._last = max(0.0, (busy - own) / wall)
        self._sample = sample
        return self._last


@dataclass
class SolverYield:
    """The pause hook of one solver task's searches (games.solver's ``Budget.pause``)."""

    max_seconds: float = field(default_factory=lambda: settings.SOLVER_YIELD_MAX_SECONDS)
    others: OthersCpu = field(default_factory=OthersCpu)
    waited: float = 0.0  # all told, for this task

    def busy(self) -> str | None:
        """Why the solver should wait now, or None."""
        try:
            if verification_backlog():
                return "verification backlog"
        except DatabaseError:
            pass  # the database's outage is the task's to meet; the CPU still says
        busy = self.others.busy_cores()
        if busy is not None and busy > settings.SOLVER_YIELD_BUSY_SHARE * self.others.cores:
            return f"the machine is busy ({busy:.1f} of {self.others.cores} cores)"
        return None

    def __call__(self) -> float:
        """Wait while the machine is needed elsewhere; the seconds waited."""
        if not settings.SOLVER_YIELD:
            return 0.0
        started = time.monotonic()
        reason = self.busy()
        if reason is None:
            return 0.0
        while reason is not None:
            waited = time.monotonic() - started
            if self.waited + waited >= self.max_seconds:
                self.waited += waited
                logger.info(
                    "solver search given up", extra={"reason": reason, "waited": round(self.waited, 1)}
                )
                raise SolverYielded(reason)
            time.sleep(SAMPLE_SECONDS)
            reason = self.busy()
        waited = time.monotonic() - started
        self.waited += waited
        return waited
