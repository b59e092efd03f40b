"""What every search shares: how it runs, what it answers, and how it plays a move.

A search is a generator: it yields every so often so that ``portfolio`` can share the clock
between searches and stop them, and returns an ``Outcome`` when it is done. Two kinds
(best_first.py, depth_first.py) find different wins: best-first keeps every open position and
goes wherever looks best, depth-first commits to a line and backs out of it only when the
line is exhausted.

Both are complete: every legal move is generated ("second tier" moves only after the
rest), and the only positions never visited are those already held (up to the order of
the columns) or replaced by a safe foundation move (see ``Board``). So when either runs
out of positions without a win, the deal is proven unwinnable. (A streamlined depth-first
search, which leaves moves out on purpose, is not: it answers "unknown" when it runs out.)
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

from .board import Board, Record
from .position import Position

EXPANSIONS_PER_SLICE = 32  # positions a search expands between yields

Moves = list[tuple[int, int]]  # (card, dest) in engine numbering
Search = Generator[None, None, "Outcome"]


@dataclass
class Outcome:
    result: str  # "won", "unwinnable" or "unknown"
    moves: Moves = field(default_factory=list)
    by: str = ""  # the search that decided


def start_board(position: Position, *, streamlined: bool = False) -> tuple[Board, Moves]:
    """The board after the safe moves available at the start, and those moves.

    ``streamlined``: an eager board (``Board.eager``), after every foundation move available.
    """
    board = Board(position)
    board.eager = streamlined
    records: list[Record] = []
    board.play_safe(records)
    return board, [(record[0], record[2]) for record in records]


def play_with_safe(board: Board, card: int, dest: int) -> list[Record]:
    """Play a move and the safe foundation moves it opens; the records undo them all."""
    records = [board.play(card, dest)]
    board.play_safe(records)
    return records


def unplay_all(board: Board, records: list[Record]) -> None:
    for record in reversed(records):
        board.unplay(record)
