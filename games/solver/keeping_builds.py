"""One streamlined depth-first search that keeps builds, run to its end: wins, never proofs.

A depth-first search keeping builds (depth_first.py: streamlined, and a card lying on a card it
fits leaves it only for its foundation) searches a space a fraction of the size of the whole.
The restarts (restarts.py) sample it in short tries with weights of their own; run to its end
with the team's first weights, it wins deals that neither they nor the searches of the whole
space win in a minute (README.md, "Restarts": "One search keeping builds, to its end"). When
it runs out it proves nothing: it answers "unknown" and gives its table up, and the portfolio
goes on with the others.
"""

from __future__ import annotations

from collections.abc import Callable

from .budget import Budget
from .position import Position
from .rating import Weights
from .search import Outcome, Search


def keeping_builds(
    position: Position,
    budget: Budget,
    weights: Weights,
    seen: object = None,
    *,
    depth_first: Callable[..., Search],
    deadlocks: bool = False,
) -> Search:
    """``depth_first(..., keep_builds=True)`` with a table of its own, given up if it runs out.

    ``seen`` is the portfolio's argument, unused: the table is the search's own.
    """
    del seen
    search = depth_first(position, budget, weights, None, deadlocks=deadlocks, keep_builds=True)
    held = 0  # positions in its table: what the budget gained in its turns (one search at a time)
    try:
        while True:
            before = budget.nodes
            try:
                next(search)
            except StopIteration as stop:
                outcome: Outcome = stop.value
                held += budget.nodes - before
                break
            held += budget.nodes - before
            yield
    finally:
        search.close()
    if outcome.result == "unknown":
        budget.drop(held)  # its table
    return outcome
