"""What other code calls: ``solve``, ``hint`` and ``winnable_deals``.

Every ``won`` answer has been replayed by the engine (``games.engine.verify`` for a deal)
before it is returned: a line the engine refuses is a solver bug and raises ``SolverBug``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import GameCode, Move, Rules, verify
from games.engine.move import MOVES

from .budget import Budget
from .portfolio import DEFAULT_TEAM, Member, portfolio
from .position import Position
from .shorten import prune, shortcut, shorten_line

WON, UNWINNABLE, UNKNOWN = "won", "unwinnable", "unknown"
DEFAULT_TIME_LIMIT = 10.0  # seconds
# Positions held at once: about 100 bytes each in the compiled core (1 GB at most), 150–300 in
# Python, which searches about 5,000 a second and so holds far fewer within any time limit.
DEFAULT_MAX_NODES = 10_000_000
PRUNE_SHARE = 0.1  # of the time limit, at most, for dropping needless moves from a win


class SolverBug(RuntimeError):
    """The solver produced a winning line that the engine does not accept."""


@dataclass(frozen=True)
class Solution:
    result: str  # WON, UNWINNABLE or UNKNOWN
    moves: tuple[Move, ...] | None  # the winning line, when won
    nodes: int  # positions searched
    seconds: float
    by: str = ""  # what decided: a search of the portfolio, or "deadlock" (blocks.py)

    @property
    def won(self) -> bool:
        return self.result == WON

    @property
    def log(self) -> str | None:
        return None if self.moves is None else " ".join(str(move) for move in self.moves)

    @property
    def length(self) -> int | None:
        return None if self.moves is None else len(self.moves)

    def to_dict(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "log": self.log,
            "moves": self.length,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def solve(
    game: Position | GameCode | str,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    shorten: bool | float = False,
    team: tuple[Member, ...] = DEFAULT_TEAM,
    pause: Callable[[], float] | None = None,
) -> Solution:
    """Search for a win from a deal (a code) or any position.

    ``won``: ``moves`` wins from the position (after its ``history``, for a game in
    progress). ``unwinnable``: every line was searched. ``unknown``: a limit was reached.
    ``shorten=True`` gives the time left after a win to looking for a shorter one; a number
    gives it that many seconds at most (within the time limit). ``pause``: see ``Budget``; the
    time it waits counts against no limit, nor in ``seconds``.
    """
    started = time.perf_counter()
    position = game if isinstance(game, Position) else Position.from_code(game)
    budget = Budget(started + time_limit, max_nodes, pause=pause)
    outcome = portfolio(position, budget, team)
    moves = None
    if outcome.result == WON:
        pruning = budget.child(max_nodes)
        pruning.deadline = min(budget.deadline, time.perf_counter() + PRUNE_SHARE * time_limit)
        moves = prune(position, shortcut(position, outcome.moves), pruning)
        budget.absorb(pruning)
        if shorten:
            if shorten is not True:
                budget.deadline = min(budget.deadline, time.perf_counter() + shorten)
            moves = shorten_line(position, moves, budget)
        _check_win(position, moves)
    return Solution(
        outcome.result,
        None if moves is None else tuple(MOVES[card][dest] for card, dest in moves),
        budget.searched,
        time.perf_counter() - started - budget.paused,
        outcome.by,
    )


def _check_win(position: Position, moves: list[tuple[int, int]]) -> None:
    log = " ".join(str(MOVES[card][dest]) for card, dest in moves)
    if position.is_deal:
        assert position.code is not None
        history = " ".join(str(move) for move in position.history)
        verdict = verify(position.code, f"{history} {log}")
        if not (verdict.legal and verdict.won):
            raise SolverBug(f"the engine refuses the line for {position.code}: {verdict.error or 'not won'}")
        return
    game = position.game()
    for index, (card, dest) in enumerate(moves):
        refusal = game.check_move(card, dest)
        if refusal is not None:
            raise SolverBug(f"the engine refuses move {index + 1} {MOVES[card][dest]}: {refusal}")
        game.apply_move(card, dest)
    if not game.is_won():
        raise SolverBug("the line does not win")


def hint(
    code: GameCode | str,
    log: str = "",
    *,
    time_limit: float = 2.0,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Move | None:
    """The next move of a winning line from the position after ``log``, or None.

    None means no win was found from here within the limits (or the game is already won).
    An illegal ``log`` raises ``ValueError``.
    """
    position = Position.from_log(code, log)
    if sum(position.foundations) == 52:
        return None
    solution = solve(position, time_limit=time_limit, max_nodes=max_nodes)
    return solution.moves[0] if solution.moves else None


def winnable_deals(
    start: int,
    count: int | None = None,
    *,
    rules: Rules = Rules.CLASSIC,
    time_limit: float = DEFAULT_TIME_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Iterator[tuple[GameCode, Solution]]:
    """The deals from number ``start`` on (``count`` of them, or all) that the solver wins."""
    number = start
    while count is None or number < start + count:
        code = GameCode(rules, number)
        solution = solve(code, time_limit=time_limit, max_nodes=max_nodes)
        if solution.won:
            yield code, solution
        number += 1
