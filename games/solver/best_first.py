"""Greedy best-first search: always expand the open position rated best."""

from __future__ import annotations

import heapq
from array import array

from games.engine.cards import DECK_SIZE
from games.engine.move import COLUMN_COUNT

from .blocks import deadlock
from .board import SEPARATOR, Board
from .budget import Budget
from .position import Position
from .rating import ColumnScores, Weights, rescore
from .search import EXPANSIONS_PER_SLICE, Moves, Outcome, Search, play_with_safe, start_board, unplay_all

F_CODE, EMPTY_CODE = 255, 254  # destinations in stored steps; otherwise the card moved onto


def best_first(
    position: Position,
    budget: Budget,
    weights: Weights,
    seen: set[bytes] | None = None,
    *,
    bound: int | None = None,
    depth_weight: int = 0,
    deadlocks: bool = False,
) -> Search:
    """Always expand the best-rated open position.

    A node keeps its key, its parent, its depth (moves from the start) and the moves that
    led to it, written with the card each move landed on instead of a column number (key
    order is not table order). With ``bound``, only lines shorter than ``bound`` moves are
    searched, and ``depth_weight`` makes longer lines rate worse: "unwinnable" then means
    that no shorter line exists. With ``deadlocks``, a position with a deadlock (blocks.py) is
    not expanded: no line from it wins. Tested when it is first taken from the queue, the test
    keeps the lost positions' successors out of the queue, where the rating would favour many.
    With a ``seen`` shared with other searches, a position is entered there as it is taken from
    the queue, and passed by if another search has entered it first.
    """
    board, root_moves = start_board(position)
    if board.is_won():
        return Outcome("won", root_moves)
    scores = ColumnScores(board, weights)
    bonus, delay = weights.foundation, weights.second_tier
    limit = 1 << 30 if bound is None else bound
    keys: list[bytes] = [board.key()]
    parents: list[int] = [-1]
    steps: list[bytes] = [b""]
    depths = array("I", [len(root_moves)])
    # Positions are claimed in ``seen`` as they are taken from the queue, not as they are
    # generated: a search sharing the table may enter one still queued here (its line is not
    # cut), and the queue then passes it by. ``generated`` keeps each in the queue once.
    generated = {keys[0]}
    if seen is None:
        seen = generated
    seen.add(keys[0])
    budget.add_node()
    # A heap entry is one int: priority, then node number (older first), then tier bit.
    offset, id_bits = 1 << 24, 34
    heap = [offset << id_bits]
    expansions = 0
    while heap:
        expansions += 1
        if expansions % EXPANSIONS_PER_SLICE == 0:
            yield
        entry = heapq.heappop(heap)
        node, second = (entry >> 1) & ((1 << (id_bits - 1)) - 1), entry & 1
        if node and not second and seen is not generated:
            if keys[node] in seen:
                continue  # another search sharing the table has entered it: it is theirs
            seen.add(keys[node])
        board.load(keys[node])
        if deadlocks and not second and deadlock(board) is not None:
            continue
        column_keys = keys[node].split(SEPARATOR)
        base = sum(map(scores.__getitem__, column_keys))
        depth = depths[node]
        first_moves, second_moves = board.moves()
        if second_moves and not second:
            priority = base - bonus * sum(board.found) + depth_weight * depth + delay + offset
            heapq.heappush(heap, (priority << id_bits) | (node << 1) | 1)
        for card, dest in second_moves if second else first_moves:
            step = [card, _dest_code(board, dest)]
            records = play_with_safe(board, card, dest)
            for record in records[1:]:
                step += (record[0], F_CODE)
            found = sum(board.found)
            child_depth = depth + len(records)
            if child_depth + DECK_SIZE - found >= limit:  # every card left needs a move
                unplay_all(board, records)
                continue
            change, child_keys = rescore(board, scores, column_keys, records)
            key = SEPARATOR.join(sorted(child_keys))
            if key not in generated and key not in seen:
                generated.add(key)
                child = len(keys)
                keys.append(key)
                parents.append(node)
                steps.append(bytes(step))
                depths.append(child_depth)
                budget.add_node()
                if found == DECK_SIZE:
                    return Outcome(
                        "won", root_moves + _replay_steps(position, root_moves, steps, parents, child)
                    )
                priority = base + change - bonus * found + depth_weight * child_depth + offset
                heapq.heappush(heap, (priority << id_bits) | (child << 1))
            unplay_all(board, records)
    return Outcome("unwinnable")


def _dest_code(board: Board, dest: int) -> int:
    if dest >= COLUMN_COUNT:
        return F_CODE
    target = board.columns[dest]
    return target[-1] if target else EMPTY_CODE


def _replay_steps(
    position: Position, root_moves: Moves, steps: list[bytes], parents: list[int], node: int
) -> Moves:
    """Turn the stored steps from the root to ``node`` into moves on the real table."""
    chain = []
    while parents[node] >= 0:
        chain.append(steps[node])
        node = parents[node]
    board = Board(position)
    for card, dest in root_moves:
        board.play(card, dest)
    moves = []
    for step in reversed(chain):
        for index in range(0, len(step), 2):
            card, code = step[index], step[index + 1]
            if code == F_CODE:
                dest = COLUMN_COUNT
            elif code == EMPTY_CODE:
                dest = next(i for i, column in enumerate(board.columns) if not column)
            else:
                dest = board.loc[code]
            board.play(card, dest)
            moves.append((card, dest))
    return moves


def best_first_shorter(
    position: Position, budget: Budget, weights: Weights, *, bound: int, depth_weight: int
) -> Outcome:
    """Best-first for a line shorter than ``bound``, run alone until it ends or ``budget`` does."""
    search = best_first(position, budget, weights, None, bound=bound, depth_weight=depth_weight)
    try:
        while not budget.exhausted():
            next(search)
    except StopIteration as stop:
        return stop.value
    return Outcome("unknown")
