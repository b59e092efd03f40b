"""Searches sharing a table build one proof (README.md, "Why `unwinnable` is a proof").

Whatever order they take turns in, once all of them have run out, every position in the table
that has no deadlock has every successor (after its safe moves) in the table too: nothing
reached was left unexpanded. The best-first search enters a position as it takes it from its
queue, so a depth-first search may enter a position still queued there; the queue must then
pass it by without losing it.
"""

from __future__ import annotations

import random
import time

import pytest

from games.solver.best_first import best_first
from games.solver.blocks import deadlock
from games.solver.board import Board
from games.solver.budget import Budget
from games.solver.depth_first import depth_first
from games.solver.position import Position
from games.solver.rating import DEFAULT_WEIGHTS, Weights
from games.solver.search import play_with_safe, unplay_all

# Classic deals proven unwinnable after 300 to 1,300 positions (the team, deadlock tests on).
UNWINNABLE = ("YU1-C-VOITRDA", "YU1-C-VARSPYX", "YU1-C-AEYIQWL")


def successors_missing(position: Position, seen: set[bytes]) -> list[bytes]:
    """Keys of positions in ``seen`` with no deadlock and a successor not in ``seen``."""
    board = Board(position)
    missing = []
    for key in seen:
        board.load(key)
        if deadlock(board) is not None:
            continue
        first, second = board.moves()
        for card, dest in first + second:
            records = play_with_safe(board, card, dest)
            if board.key() not in seen:
                missing.append(key)
            unplay_all(board, records)
    return missing


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("code", UNWINNABLE)
def test_a_shared_table_is_closed_under_moves_once_its_searches_have_run_out(code, seed):
    position = Position.from_code(code)
    budget = Budget(time.perf_counter() + 3600, 10_000_000)
    seen: set[bytes] = set()
    searches = [
        depth_first(position, budget, DEFAULT_WEIGHTS, seen, deadlocks=True),
        best_first(position, budget, DEFAULT_WEIGHTS, seen, deadlocks=True),
        depth_first(position, budget, Weights(face_down=10, breaks=5, covering=0), seen, deadlocks=True),
    ]
    turns = random.Random(f"{code} {seed}")
    running = list(searches)
    while running:
        search = turns.choice(running)
        try:
            next(search)
        except StopIteration as stop:
            assert stop.value.result == "unwinnable"
            running.remove(search)
    assert seen and not successors_missing(position, seen)
    # Each search counts the start; beyond that, some positions were counted twice: queued by
    # the best-first search, then entered by another before it took them.
    assert budget.searched > len(seen) + len(searches) - 1


def test_the_best_first_search_passes_by_what_another_search_has_entered():
    """A table already holding every position of a proof: nothing to do but look at the start."""
    position = Position.from_code(UNWINNABLE[0])
    budget = Budget(time.perf_counter() + 3600, 10_000_000)
    seen: set[bytes] = set()
    search = depth_first(position, budget, DEFAULT_WEIGHTS, seen, deadlocks=True)
    with pytest.raises(StopIteration):
        while True:
            next(search)
    held = set(seen)
    alone = Budget(time.perf_counter() + 3600, 10_000_000)
    search = best_first(position, alone, DEFAULT_WEIGHTS, seen, deadlocks=True)
    with pytest.raises(StopIteration) as stop:
        while True:
            next(search)
    assert stop.value.value.result == "unwinnable"
    assert seen == held  # it entered nothing
    assert alone.searched == 1  # nor queued anything: the start's successors were all taken
