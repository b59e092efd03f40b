"""A search asked to pause: it waits in its `pause` hook, the wait counts against no limit, and a
hook that raises gives the search up (games/solver/budget.py, `Budget`)."""

from __future__ import annotations

import time

import pytest

from games.engine import verify
from games.solver import solve
from games.solver.api import UNKNOWN
from games.solver.budget import PAUSE_CHECK_SECONDS

HARD = "YU1-C-DQHSTTC"  # undecided after 10 seconds, by the compiled core too
EASY = "YU1-C-AAAAAAC"


class Waits:
    """A hook that waits `seconds` at each of its first `times` calls, counting its calls.

    It answers the time it really waited, as the workers' hook does (games/solving/yielding.py):
    on a busy machine a sleep overruns, and an overrun answered as search would use up the
    search's own time."""

    def __init__(self, seconds: float, times: int = 1) -> None:
        self.seconds, self.times, self.calls = seconds, times, 0

    def __call__(self) -> float:
        self.calls += 1
        if self.calls > self.times:
            return 0.0
        started = time.perf_counter()
        time.sleep(self.seconds)
        return time.perf_counter() - started


def test_a_search_asks_its_hook_as_it_goes():
    hook = Waits(0.0, times=0)
    solve(HARD, time_limit=1.0, pause=hook)
    # About ten times a second; at least a few on a busy machine.
    assert 3 <= hook.calls <= 1.0 / PAUSE_CHECK_SECONDS + 2


def test_time_waiting_in_the_hook_counts_against_no_limit():
    hook = Waits(0.3, times=3)
    started = time.perf_counter()
    solution = solve(HARD, time_limit=1.0, pause=hook)
    took = time.perf_counter() - started
    assert solution.result == UNKNOWN
    assert hook.calls > 3, "the search stopped before its own second of searching"
    assert took >= 1.0 + 3 * 0.3
    assert solution.seconds < 1.0 + 0.5  # the search's own time, the waits left out


def test_a_search_cut_by_waits_still_finds_its_win():
    hook = Waits(0.2, times=2)
    solution = solve(EASY, time_limit=10, pause=hook, shorten=0.5)
    assert hook.calls > 2
    assert solution.won and verify(EASY, solution.log).won


class GiveUp(Exception):
    pass


def test_a_hook_that_raises_gives_the_search_up():
    def hook() -> float:
        raise GiveUp

    started = time.perf_counter()
    with pytest.raises(GiveUp):
        solve(HARD, time_limit=10, pause=hook)
    assert time.perf_counter() - started < 2


def test_without_a_hook_nothing_waits():
    started = time.perf_counter()
    assert solve(HARD, time_limit=0.3).result == UNKNOWN
    assert time.perf_counter() - started < 0.3 + 0.7
