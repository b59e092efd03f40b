"""Depth-first search: follow the best-rated move, back out when a line is exhausted."""

from __future__ import annotations

from collections.abc import Iterator

from games.engine.move import FOUNDATION

from .blocks import deadlock, worth_a_deadlock_test
from .board import Board, Record
from .budget import Budget
from .position import Position
from .rating import ColumnScores, Weights, rescore
from .search import EXPANSIONS_PER_SLICE, Outcome, Search, play_with_safe, start_board, unplay_all


def depth_first(
    position: Position,
    budget: Budget,
    weights: Weights,
    seen: set[bytes] | None = None,
    *,
    deadlocks: bool = False,
    streamlined: bool = False,
    keep_builds: bool = False,
) -> Search:
    """Depth-first with a table of visited positions; the best-rated moves first.

    With ``deadlocks``, a position entered is searched no further when it has a deadlock
    (blocks.py): no line from it wins. Each test costs a dozen positions' time, and cuts off
    the lost subtrees that otherwise hold most positions of a hard deal.

    ``streamlined``: a smaller search that may miss every win, and so answers "unknown" when
    it runs out: first-tier moves only, no take-backs, and every foundation move played at
    once (``Board.eager``). ``keep_builds``, streamlined too: a card lying on a card it fits
    leaves it only for its foundation. README.md, "Restarts".
    """
    streamlined = streamlined or keep_builds
    board, root_moves = start_board(position, streamlined=streamlined)
    if board.is_won():
        return Outcome("won", root_moves)
    scores = ColumnScores(board, weights)
    if seen is None:
        seen = set()
    seen.add(board.key())
    budget.add_node()
    path: list[list[Record]] = []
    stack = [_ordered(board, scores, seen, streamlined, keep_builds)]
    steps = 0
    while stack:
        steps += 1
        if steps % (EXPANSIONS_PER_SLICE * 4) == 0:
            yield
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if path:
                unplay_all(board, path.pop())
            continue
        card, dest, key = move
        records = play_with_safe(board, card, dest)
        if key is None:
            key = board.key()
        if key in seen:
            unplay_all(board, records)
            continue
        seen.add(key)
        budget.add_node()
        path.append(records)
        if board.is_won():
            return Outcome("won", root_moves + [(r[0], r[2]) for level in path for r in level])
        if deadlocks and worth_a_deadlock_test(records[0]) and deadlock(board) is not None:
            unplay_all(board, path.pop())
            continue
        stack.append(_ordered(board, scores, seen, streamlined, keep_builds))
    return Outcome("unknown" if streamlined else "unwinnable")


def _ordered(
    board: Board, scores: ColumnScores, seen: set[bytes], streamlined: bool = False, keep_builds: bool = False
) -> Iterator[tuple[int, int, bytes | None]]:
    """First-tier moves from the best-rated result to the worst, then the second tier.

    Moves to positions already seen are dropped; the others carry the key they lead to.
    Streamlined: the first tier only, without take-backs; keeping builds, without moves that
    take a card off a card it fits, but to its foundation.
    """
    first, second = board.moves()
    if streamlined:
        first = [(card, dest) for card, dest in first if board.loc[card] != FOUNDATION]
        second = []
    if keep_builds:
        first = [(card, dest) for card, dest in first if dest == FOUNDATION or not board.lies_on_a_fit(card)]
    keys = board.column_keys()
    bonus = scores.weights.foundation
    rated = []
    for card, dest in first:
        records = play_with_safe(board, card, dest)
        key = board.key()
        if key not in seen:
            change, _ = rescore(board, scores, keys, records)
            gained = sum((r[2] == FOUNDATION) - (r[1] == FOUNDATION) for r in records)
            rated.append((change - bonus * gained, card, dest, key))
        unplay_all(board, records)
    rated.sort()
    return iter(
        [(card, dest, key) for _, card, dest, key in rated] + [(card, dest, None) for card, dest in second]
    )
