"""Restarts: short depth-first searches, one after the other, each ordering moves differently.

A depth-first search that takes a wrong turn early spends the rest of its time below it, and
which turn is wrong depends on how it orders moves: on one deal, one set of weights wins in a
thousand positions where four others have not won after 200,000. So this search runs short
depth-first tries from the start, each with other weights and a table of its own, of the
sizes of Luby's sequence (1, 1, 2, 1, 1, 2, 4, 1, …, times UNIT positions: the schedule of
restarts within a constant factor of the best one for any spread of times to a win). Every
other try is streamlined, of one of two kinds in turn: a smaller space, which wins other
deals and proves nothing.
README.md, "Restarts".
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator

from .budget import Budget
from .position import Position
from .rating import Weights
from .search import Outcome, Search

UNIT = 1_000  # positions of the shortest try
WEIGHTS_SEED = 20261206  # the tries' weights are drawn from this seed: the same tries every time
STREAMLINED_SEED = 20261207  # and the streamlined tries' weights from this one
KEEP_BUILDS_SEED = 20261208  # and those of the streamlined tries that keep builds

DepthFirst = Callable[..., Search]


def luby(index: int) -> int:
    """Luby's sequence, from index 1: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …"""
    power = 1
    while power * 2 - 1 < index:
        power *= 2
    while index != power * 2 - 1:  # not at the end of a block of the sequence: look inside it
        index -= power - 1
        power = 1
        while power * 2 - 1 < index:
            power *= 2
    return power


def tries_weights(seed: int = WEIGHTS_SEED) -> Iterator[Weights]:
    """Weights, one a try: each weight drawn within the range of the team's."""
    rng = random.Random(seed)
    while True:
        yield Weights(
            face_down=rng.randint(5, 40),
            breaks=rng.randint(0, 8),
            covering=rng.randint(0, 4),
            foundation=rng.randint(0, 5),
        )


# The tries' kinds, with depth_first's options and the seed of their weights. Plain tries take
# every other turn, the two streamlined kinds share the rest; each kind follows Luby's sequence.
KINDS = {
    "plain": ({}, WEIGHTS_SEED),
    "streamlined": ({"streamlined": True}, STREAMLINED_SEED),
    "keep builds": ({"keep_builds": True}, KEEP_BUILDS_SEED),
}
TURNS = ("plain", "streamlined", "plain", "keep builds")


def tries() -> Iterator[tuple[int, Weights, str]]:
    """Each try's size (in UNITs), weights and kind (KINDS), in TURNS.

    Plain tries search the whole space; streamlined ones (depth_first.py) a smaller one, which
    wins other deals and proves nothing.
    """
    weights = {kind: tries_weights(seed) for kind, (_, seed) in KINDS.items()}
    counts = dict.fromkeys(KINDS, 0)
    for kind in itertools.cycle(TURNS):
        counts[kind] += 1
        yield luby(counts[kind]), next(weights[kind]), kind


def restarts(
    position: Position,
    budget: Budget,
    weights: Weights,
    seen: object = None,
    *,
    depth_first: DepthFirst,
    deadlocks: bool = False,
) -> Search:
    """Depth-first tries from ``position``, each with a table of its own, until one decides.

    A plain try that ends has decided alone, as any depth-first search with a table of its
    own: "won", or "unwinnable" when it has expanded every position it reached. A streamlined
    try decides only "won". A try stopped at its size, or a streamlined one run out, proves
    nothing, and its table is dropped (its positions leave ``budget.nodes``).
    The tries search ``budget.max_nodes`` positions in all, at most: then "unknown".
    ``weights`` and ``seen`` are the portfolio's arguments, unused: each try has its own.
    """
    del weights, seen
    spent = 0
    for units, own, kind in tries():
        size = min(UNIT * units, budget.max_nodes - budget.nodes, budget.max_nodes - spent)
        if size <= 0:
            return Outcome("unknown")
        # The try's own count; the clock and its pauses are the portfolio's, between slices.
        child = Budget(budget.deadline, size)
        search = depth_first(position, child, own, None, deadlocks=deadlocks, **KINDS[kind][0])
        counted = 0
        outcome: Outcome | None = None
        try:
            while child.nodes < size:  # at least one slice a try, and a yield after each
                next(search)
                budget.add_nodes(child.nodes - counted)
                counted = child.nodes
                yield
        except StopIteration as stop:
            budget.add_nodes(child.nodes - counted)
            counted = child.nodes
            outcome = stop.value
        finally:
            search.close()
        if outcome is not None and outcome.result != "unknown":
            return outcome
        budget.drop(counted)  # the try's table
        spent += counted
        if outcome is not None:
            yield  # a try run out may have ended within its first slice: the clock is read between
    raise AssertionError("tries() never ends")
