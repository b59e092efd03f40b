"""Where a search stops: a clock deadline and a number of positions, with a hook to pause."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

PAUSE_CHECK_SECONDS = 0.1  # how often a search asks its ``pause`` whether to wait


@dataclass
class Budget:
    """Where to stop: a clock deadline (``time.perf_counter``) and a number of positions.

    ``pause``, when given, is called as the search starts and then about every
    PAUSE_CHECK_SECONDS of search: it may block (while more urgent work needs the machine, say)
    and returns the seconds it waited, which move the deadline on, so that time spent waiting
    counts against no limit. It may also raise to give the search up; the exception leaves
    ``solve`` as it is.
    """

    deadline: float
    max_nodes: int  # positions held in the searches' tables at once
    nodes: int = 0  # positions held now, all searches together
    searched: int = 0  # positions searched, tables since dropped included
    pause: Callable[[], float] | None = None
    paused: float = 0.0  # seconds waited in ``pause``, all told
    _next_check: float = 0.0

    def add_node(self) -> None:
        self.nodes += 1
        self.searched += 1

    def add_nodes(self, count: int) -> None:
        """``count`` positions at once: a compiled search reports them after each slice."""
        self.nodes += count
        self.searched += count

    def drop(self, count: int) -> None:
        """A table of ``count`` positions given up: they are held no more (still searched)."""
        self.nodes -= count

    def now(self) -> float:
        """The clock, after waiting in ``pause`` if it is time to ask."""
        now = time.perf_counter()
        if self.pause is not None and now >= self._next_check:
            self.wait(self.pause())
            now = time.perf_counter()
            self._next_check = now + PAUSE_CHECK_SECONDS
        return now

    def wait(self, seconds: float) -> None:
        """Count `seconds` waited: the deadline moves on by as much."""
        if seconds > 0:
            self.deadline += seconds
            self.paused += seconds

    def child(self, max_nodes: int) -> Budget:
        """A budget for one attempt within this one: the same deadline and pause, fewer positions.
        Give it back with ``absorb``."""
        return Budget(self.deadline, max_nodes, pause=self.pause, _next_check=self._next_check)

    def absorb(self, child: Budget) -> None:
        self.searched += child.searched
        self.wait(child.paused)
        self._next_check = child._next_check

    def out_of_time(self) -> bool:
        return self.now() >= self.deadline

    def exhausted(self) -> bool:
        return self.nodes >= self.max_nodes or self.now() >= self.deadline
