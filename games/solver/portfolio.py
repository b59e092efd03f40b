"""The team: searches that order moves differently, run in turns until one decides."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .best_first import best_first
from .blocks import deadlock
from .budget import Budget
from .core import compiled_searches
from .depth_first import depth_first
from .keeping_builds import keeping_builds
from .position import Position
from .rating import DEFAULT_WEIGHTS, Weights
from .restarts import restarts
from .search import Outcome, Search, start_board

SEARCHES: dict[str, Callable[[Position, Budget, Weights, set[bytes] | None], Search]] = {
    "best-first": best_first,
    "depth-first": depth_first,
}
SHARED_TABLE = {"depth-first", "best-first"}  # searches that share one table of seen positions


@dataclass(frozen=True)
class Member:
    """One search of a portfolio: which search, rating positions how."""

    # A key of SEARCHES, "restarts" (restarts.py: depth-first tries of their own) or "keeping
    # builds" (keeping_builds.py: one streamlined depth-first search with a table of its own).
    search: str
    weights: Weights = DEFAULT_WEIGHTS
    deadlocks: bool = False  # depth-first: search no further from a position with a deadlock
    share: float = 1.0  # of the clock, against the other members' shares

    def __str__(self) -> str:
        name = self.search + (" with deadlocks" if self.deadlocks else "")
        return name if self.weights == DEFAULT_WEIGHTS else f"{name} {self.weights}"


# Searches that order moves differently win different deals. On 100 random Classic deals at
# 100,000 positions each, these four won 84, 78, 79 and 83, and 89 together; sharing one
# table between the depth-first ones, the team won 91 with 300,000 positions in all. The
# depth-first ones now test for deadlocks: of 160 random Classic deals, the team without them
# left 29 not won in 10 s (5 proven, 24 unknown); with them, 5 of those 29 are won and 9
# proven (one proven before is then unknown). README.md, "Figures".
# Restarts (restarts.py) win other deals, often in thousands of positions where the team
# needs millions: of the 12 deals the team won only after 2–7M positions, 6 alone within 20 s
# (5 in under a second); of the 50 it had not settled in 60 s, 7 within 12 s.
# The best-first search tests for deadlocks too (left alone, it filled its queue with the
# many successors of lost positions, which the rating likes): alone, 20 s a deal, it then won
# 13 of the 16 Classic deals the team had won only after 2–8 s, against 6 without. It shares
# the depth-first searches' table, so that all but the restarts (and the search below) work on
# one proof.
# One streamlined search keeping builds, run to its end with a table of its own, alone won 6 of
# the 32 deals the team then left unsettled in 60 s, in 0.7–14 s; it runs out within seconds on
# most deals, leaving the clock to the others, and has two shares (README.md, "Restarts").
DEFAULT_TEAM = (
    Member("depth-first", deadlocks=True),
    Member("depth-first", Weights(face_down=10, breaks=5, covering=0, foundation=3), deadlocks=True),
    Member("best-first", deadlocks=True),
    Member("depth-first", Weights(face_down=30, breaks=2, covering=2, foundation=1), deadlocks=True),
    Member("restarts", deadlocks=True),
    Member("keeping builds", deadlocks=True, share=2.0),
)


def portfolio(position: Position, budget: Budget, team: tuple[Member, ...] = DEFAULT_TEAM) -> Outcome:
    """Run the searches in turns, each getting its share of the clock, until one decides.

    The depth-first and best-first searches share one table (one for those that test for
    deadlocks, one for those that do not): a position one of them has entered, the others
    leave to it (the best-first search enters a position as it takes it from its queue). Each
    still expands every position it enters (but those with a deadlock), so when all of them
    are done, every position any of them reached has been expanded: that is a proof too. A
    restarts' try has a table of its own and is a proof alone. All tables held count against
    the budget (a restarts' try stopped gives its table up).
    A deadlock (blocks.py) at the start, after the safe moves, is a proof before any search.
    """
    board, _ = start_board(position)
    if not board.is_won() and deadlock(board) is not None:
        return Outcome("unwinnable", by="deadlock")
    # The compiled core's searches when it is built, with tables of its own; else the Python ones.
    searches, new_table = compiled_searches() or (SEARCHES, set)
    searches = {
        **searches,
        "restarts": partial(restarts, depth_first=searches["depth-first"]),
        "keeping builds": partial(keeping_builds, depth_first=searches["depth-first"]),
    }
    # One table for the searches that test for deadlocks, one for those that do not.
    tables = {True: new_table(), False: new_table()}
    groups = {turn: member.deadlocks for turn, member in enumerate(team) if member.search in SHARED_TABLE}
    running = {
        turn: searches[member.search](
            position,
            budget,
            member.weights,
            tables[groups[turn]] if turn in groups else None,
            **({"deadlocks": True} if member.deadlocks else {}),
        )
        for turn, member in enumerate(team)
    }
    used = [0.0] * len(team)
    while running and not budget.exhausted():
        turn = min(running, key=lambda turn: used[turn] / team[turn].share)
        started = time.perf_counter()
        try:
            next(running[turn])
        except StopIteration as stop:
            outcome: Outcome = stop.value
            outcome.by = str(team[turn])
            del running[turn]
            if outcome.result == "unknown":
                continue  # it has searched all it may (restarts.py), and decided nothing
            if outcome.result == "won" or turn not in groups:
                return outcome
            group = groups.pop(turn)
            if group not in groups.values():
                return outcome  # the last of the searches sharing a table: every position expanded
        finally:
            used[turn] += time.perf_counter() - started
    return Outcome("unknown")
