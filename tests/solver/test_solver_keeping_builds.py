"""The team's search keeping builds (games/solver/keeping_builds.py), run to its end.

It wins deals that the rest of the team does not win in a minute; when it runs out it proves
nothing, gives its table up and leaves the clock to the others.
"""

from __future__ import annotations

import time

from games.engine import verify
from games.solver import UNWINNABLE, WON, Position, solve
from games.solver.budget import Budget
from games.solver.core import compiled_searches
from games.solver.depth_first import depth_first
from games.solver.keeping_builds import keeping_builds
from games.solver.portfolio import DEFAULT_TEAM, Member, portfolio
from games.solver.rating import DEFAULT_WEIGHTS

ALONE = (Member("keeping builds", deadlocks=True),)
# Proven unwinnable by a depth-first search in a few hundred positions (the 10 s census), with
# no deadlock at the start: the search keeping builds has something to run out of.
SMALL_PROOF = "YU1-C-XVETHYO"


def the_depth_first():
    """The depth-first search the portfolio would give it: the core's when it is built."""
    return (compiled_searches() or ({"depth-first": depth_first},))[0]["depth-first"]


def run_to_the_end(code: str, budget: Budget):
    search = keeping_builds(
        Position.from_code(code), budget, DEFAULT_WEIGHTS, depth_first=the_depth_first(), deadlocks=True
    )
    while True:
        assert not budget.exhausted(), "the search should end within the budget"
        try:
            next(search)
        except StopIteration as stop:
            return stop.value


def test_the_default_team_keeps_builds_in_one_search_of_its_own():
    members = [member for member in DEFAULT_TEAM if member.search == "keeping builds"]
    assert members == [Member("keeping builds", DEFAULT_WEIGHTS, deadlocks=True, share=2.0)]


def test_it_wins_a_deal_the_rest_of_the_team_does_not():
    """YU1-C-XKVYJAC: unsettled by the team without it in 60 s (13.5 million positions, the
    census of 2026-12-07, docs/winnability.md). Alone, it wins it in about 160,000 positions;
    the rest of the team, in a million, does not."""
    code = "YU1-C-XKVYJAC"
    solution = solve(code, time_limit=60, max_nodes=300_000, team=ALONE)
    assert solution.result == WON and solution.by == "keeping builds with deadlocks"
    assert verify(code, solution.log).won
    without = tuple(member for member in DEFAULT_TEAM if member.search != "keeping builds")
    assert solve(code, time_limit=60, max_nodes=1_000_000, team=without).result != WON


def test_run_out_it_proves_nothing_and_gives_its_table_up():
    budget = Budget(time.perf_counter() + 60, 100_000)
    outcome = run_to_the_end(SMALL_PROOF, budget)
    assert outcome.result == "unknown"
    assert budget.searched > 0 and budget.nodes == 0


def test_run_out_it_leaves_the_proof_to_the_others():
    """Alone it answers "unknown"; beside a depth-first search, that search proves the deal
    unwinnable, as it does alone."""
    assert solve(SMALL_PROOF, time_limit=60, max_nodes=100_000, team=ALONE).result == "unknown"
    team = (*ALONE, Member("depth-first", deadlocks=True))
    budget = Budget(time.perf_counter() + 60, 100_000)
    outcome = portfolio(Position.from_code(SMALL_PROOF), budget, team)
    assert outcome.result == UNWINNABLE and outcome.by == "depth-first with deadlocks"
