"""Yukon Online's solver: pure Python, no Django.

``solve(code)`` searches a deal with full knowledge of the face-down cards, under our exact
rules, and answers ``won`` (with a line the engine has replayed), ``unwinnable`` (every line
searched) or ``unknown`` (a limit reached). ``hint(code, log)`` gives the next move of a
winning line from a game in progress. See README.md in this package for how it works.
"""

from .api import (
    DEFAULT_MAX_NODES,
    DEFAULT_TIME_LIMIT,
    UNKNOWN,
    UNWINNABLE,
    WON,
    Solution,
    SolverBug,
    hint,
    solve,
    winnable_deals,
)
from .position import LayoutError, Position

__all__ = [
    "DEFAULT_MAX_NODES",
    "DEFAULT_TIME_LIMIT",
    "UNKNOWN",
    "UNWINNABLE",
    "WON",
    "LayoutError",
    "Position",
    "Solution",
    "SolverBug",
    "hint",
    "solve",
    "winnable_deals",
]
