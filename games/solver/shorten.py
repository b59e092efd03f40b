"""Make a winning line shorter: drop moves it can do without, then search for shorter ones.

A line is kept as steps ``(card, target)``: ``target`` is the card the move lands on,
``TO_FOUNDATION`` or ``TO_EMPTY``. Written that way a line survives the removal of a move
that changed where a column's cards are; it is played again from the start each time.
"""

from __future__ import annotations

from games.engine.cards import KING, RANK, SUIT
from games.engine.game import MAX_GROUP
from games.engine.move import COLUMN_COUNT, FOUNDATION

from .best_first import best_first_shorter
from .board import Board
from .budget import Budget
from .position import Position
from .rating import Weights
from .search import Moves

TO_FOUNDATION, TO_EMPTY = -1, -2

Steps = list[tuple[int, int]]


def to_steps(position: Position, moves: Moves) -> Steps:
    board = Board(position)
    steps = []
    for card, dest in moves:
        if dest == FOUNDATION:
            target = TO_FOUNDATION
        else:
            column = board.columns[dest]
            target = column[-1] if column else TO_EMPTY
        steps.append((card, target))
        board.play(card, dest)
    return steps


def _resolve(board: Board, card: int, target: int) -> int | None:
    """The destination of a step on this board if the move is legal there, else None."""
    loc, found, columns, down = board.loc, board.found, board.columns, board.down
    source = loc[card]
    if target == TO_FOUNDATION:
        if source == FOUNDATION or found[SUIT[card]] != RANK[card] - 1 or columns[source][-1] != card:
            return None
        return FOUNDATION
    if source == FOUNDATION:
        if found[SUIT[card]] != RANK[card]:
            return None
    else:
        column = columns[source]
        position = column.index(card)
        if position < down[source] or len(column) - position > MAX_GROUP:
            return None
    if target == TO_EMPTY:
        if RANK[card] != KING:
            return None
        return next((index for index in range(COLUMN_COUNT) if not columns[index] and index != source), None)
    dest = loc[target]
    if dest == FOUNDATION or dest == source or columns[dest][-1] != target or card not in board.fits[target]:
        return None
    return dest


def play_steps(position: Position, steps: Steps) -> Moves | None:
    """The moves of ``steps`` if every one is legal and they win, else None."""
    board = Board(position)
    moves = []
    for card, target in steps:
        dest = _resolve(board, card, target)
        if dest is None:
            return None
        board.play(card, dest)
        moves.append((card, dest))
    return moves if board.is_won() else None


def _step(board: Board, card: int, dest: int) -> tuple[int, int]:
    """The move as a step: the card it lands on, not the column."""
    if dest == FOUNDATION:
        return card, TO_FOUNDATION
    column = board.columns[dest]
    return card, column[-1] if column else TO_EMPTY


def shortcut(position: Position, moves: Moves) -> Moves:
    """The line with its detours cut: from each position, the one move (or none) that reaches
    the latest position of the line it can, up to the order of the columns.

    A depth-first win wanders: groups moved to and fro, cards up and back, hundreds of moves
    before a win of ninety. Each position is looked at once and each of its moves played once,
    so a line of 700 moves takes a fraction of a second, where ``prune``'s replays would take
    minutes. The line is played as steps (``to_steps``), which do not depend on the order of
    the columns, and the result is checked to win (else ``moves`` is returned unchanged).
    """
    board = Board(position)
    latest = {board.key(): 0}  # a position of the line (its key) -> the last index it is at
    for index, (card, dest) in enumerate(moves, 1):
        board.play(card, dest)
        latest[board.key()] = index
    steps = to_steps(position, moves)
    board = Board(position)
    kept: Steps = []
    index = latest[board.key()]
    while index < len(moves):
        reach, step = index + 1, steps[index]
        first, second = board.moves()
        for card, dest in first + second:
            record = board.play(card, dest)
            further = latest.get(board.key(), -1)
            board.unplay(record)
            if further > reach:
                reach, step = further, _step(board, card, dest)
        dest = _resolve(board, *step)
        if dest is None:  # cannot happen: the step was played on this board, or is the line's own
            return moves
        board.play(step[0], dest)
        kept.append(step)
        index = max(reach, latest.get(board.key(), reach))
    played = play_steps(position, kept)
    return moves if played is None or len(played) >= len(moves) else played


def prune(position: Position, moves: Moves, budget: Budget) -> Moves:
    """Drop single moves, then pairs of moves of the same card, while the line still wins
    (until ``budget``'s deadline)."""
    steps = to_steps(position, moves)
    best = moves
    improved = True
    while improved and not budget.out_of_time():
        improved = False
        index = len(steps) - 1
        while index >= 0 and not budget.out_of_time():
            if steps[index][1] != TO_FOUNDATION:
                trial = steps[:index] + steps[index + 1 :]
                played = play_steps(position, trial)
                if played is not None:
                    steps, best, improved = trial, played, True
            index -= 1
        for first in range(len(steps)):
            if budget.out_of_time():
                break
            card = steps[first][0]
            for second in range(first + 1, len(steps)):
                if steps[second][0] != card:
                    continue
                trial = steps[:first] + steps[first + 1 : second] + steps[second + 1 :]
                played = play_steps(position, trial)
                if played is not None:
                    steps, best, improved = trial, played, True
                    break
            if improved:
                break
    return best


# Best-first searches rated in different ways find different lines: (depth weight, foundation bonus).
VARIANTS = ((1, 1), (2, 5), (4, 5), (1, 5), (2, 1), (4, 1), (8, 5), (3, 3))
FIRST_ATTEMPT_NODES = 20_000
SLACK = 10  # lines up to a tenth longer than the best are searched


def shorten_line(position: Position, moves: Moves, budget: Budget) -> Moves:
    """Search for lines shorter than ``moves`` until ``budget`` runs out; the shortest found.

    Each attempt is a best-first search for a line shorter than the best so far, rated one
    of the ``VARIANTS`` ways, with a node cap that doubles after a round of them all.
    """
    cap = FIRST_ATTEMPT_NODES
    while not budget.out_of_time():
        improved = False
        for depth_weight, bonus in VARIANTS:
            if budget.out_of_time():
                break
            attempt = budget.child(min(cap, budget.max_nodes))
            weights = Weights(foundation=bonus)
            # Lines a little longer than the best are searched too: dropping moves may shorten them.
            bound = len(moves) + len(moves) // SLACK
            outcome = best_first_shorter(position, attempt, weights, bound=bound, depth_weight=depth_weight)
            budget.absorb(attempt)
            if outcome.result == "won":
                line = prune(position, outcome.moves, budget)
                if len(line) < len(moves):
                    moves, improved = line, True
            elif outcome.result == "unwinnable":
                return moves  # the search saw every line up to the bound: none is shorter
        if not improved:
            cap = min(cap * 2, budget.max_nodes)
    return moves
