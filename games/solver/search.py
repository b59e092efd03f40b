"""The searches: greedy best-first and depth-first, run side by side.

Each search is a generator: it yields every so often so that ``portfolio`` can share the
clock between them and stop them, and returns an ``Outcome`` when it is done. The two find
different wins: best-first keeps every open position and goes wherever looks best,
depth-first commits to a line and backs out of it only when the line is exhausted.

Both are complete: every legal move is generated ("second tier" moves only after the
rest), and the only positions never visited are those already held (up to the order of
the columns) or replaced by a safe foundation move (see ``Board``). So when either runs
out of positions without a win, the deal is proven unwinnable.
"""

from __future__ import annotations

import heapq
import time
from array import array
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field

from games.engine.cards import DECK_SIZE, KING, RANK
from games.engine.move import COLUMN_COUNT

from .blocks import deadlock
from .board import SEPARATOR, Board, Record
from .position import Position

F_CODE, EMPTY_CODE = 255, 254  # destinations in stored steps; otherwise the card moved onto
EXPANSIONS_PER_SLICE = 32

Moves = list[tuple[int, int]]  # (card, dest) in engine numbering
Search = Generator[None, None, "Outcome"]


PAUSE_CHECK_SECONDS = 0.1  # how often a search asks its ``pause`` whether to wait


@dataclass
class Budget:
    """Where to stop: a clock deadline (``time.perf_counter``) and a number of positions.

    ``pause``, when given, is called as the search starts and then about every
    PAUSE_CHECK_SECONDS of search: it may block (while more urgent work needs the machine, say)
    and returns the seconds it waited, which move the deadline on, so that time spent waiting
    counts against no limit. It may also raise to give the search up; the exception leaves
    ``solve`` as it is.
    """

    deadline: float
    max_nodes: int  # positions held in the searches' tables at once
    nodes: int = 0  # positions held now, all searches together
    searched: int = 0  # positions searched, tables since dropped included
    pause: Callable[[], float] | None = None
    paused: float = 0.0  # seconds waited in ``pause``, all told
    _next_check: float = 0.0

    def add_node(self) -> None:
        self.nodes += 1
        self.searched += 1

    def now(self) -> float:
        """The clock, after waiting in ``pause`` if it is time to ask."""
        now = time.perf_counter()
        if self.pause is not None and now >= self._next_check:
            self.wait(self.pause())
            now = time.perf_counter()
            self._next_check = now + PAUSE_CHECK_SECONDS
        return now

    def wait(self, seconds: float) -> None:
        """Count `seconds` waited: the deadline moves on by as much."""
        if seconds > 0:
            self.deadline += seconds
            self.paused += seconds

    def child(self, max_nodes: int) -> Budget:
        """A budget for one attempt within this one: the same deadline and pause, fewer positions.
        Give it back with ``absorb``."""
        return Budget(self.deadline, max_nodes, pause=self.pause, _next_check=self._next_check)

    def absorb(self, child: Budget) -> None:
        self.searched += child.searched
        self.wait(child.paused)
        self._next_check = child._next_check

    def out_of_time(self) -> bool:
        return self.now() >= self.deadline

    def exhausted(self) -> bool:
        return self.nodes >= self.max_nodes or self.now() >= self.deadline


@dataclass
class Outcome:
    result: str  # "won", "unwinnable" or "unknown"
    moves: Moves = field(default_factory=list)
    by: str = ""  # the search that decided


@dataclass(frozen=True)
class Weights:
    """How the searches rate a position: lower is better."""

    face_down: int = 20  # each face-down card
    breaks: int = 3  # each face-up card not lying on a card it fits (a King on the table does)
    covering: int = 1  # each face-up card in a column that still has face-down cards
    foundation: int = 1  # each card on a foundation (a bonus)
    second_tier: int = 10  # best-first: the delay before a position's second-tier moves


DEFAULT_WEIGHTS = Weights()


class ColumnScores(dict):
    """The memoised score of one column key: columns repeat across many positions."""

    LIMIT = 400_000

    def __init__(self, board: Board, weights: Weights) -> None:
        super().__init__()
        self.natural = board.natural
        self.weights = weights

    def __missing__(self, key: bytes) -> int:
        hidden, count = key[0], len(key) - 1
        if count == 0:
            return 0
        natural, weights = self.natural, self.weights
        breaks = 0
        for index in range(hidden + 1, count + 1):
            if index == 1:
                breaks += RANK[key[1]] != KING
            elif index == hidden + 1 or not natural[key[index - 1] * DECK_SIZE + key[index]]:
                breaks += 1
        score = weights.face_down * hidden + weights.breaks * breaks
        if hidden:
            score += weights.covering * (count - hidden)
        if len(self) < self.LIMIT:
            self[key] = score
        return score


def _start(position: Position) -> tuple[Board, Moves]:
    """The board after the safe moves available at the start, and those moves."""
    board = Board(position)
    records: list[Record] = []
    board.play_safe(records)
    return board, [(record[0], record[2]) for record in records]


def _play_with_safe(board: Board, card: int, dest: int) -> list[Record]:
    records = [board.play(card, dest)]
    board.play_safe(records)
    return records


def _unplay_all(board: Board, records: list[Record]) -> None:
    for record in reversed(records):
        board.unplay(record)


def _rescore(
    board: Board, scores: ColumnScores, keys: list[bytes], records: list[Record]
) -> tuple[int, list[bytes]]:
    """The change of score after ``records``, and the new column keys (``keys`` is before)."""
    new_keys = keys[:]
    change = 0
    for record in records:
        for index in (record[1], record[2]):
            if index < COLUMN_COUNT and new_keys[index] is keys[index]:
                new_keys[index] = key = board.column_key(index)
                change += scores[key] - scores[keys[index]]
    return change, new_keys


# ----------------------------------------------------------------- best-first


def best_first(
    position: Position,
    budget: Budget,
    weights: Weights,
    seen: set[bytes] | None = None,
    *,
    bound: int | None = None,
    depth_weight: int = 0,
) -> Search:
    """Always expand the best-rated open position.

    A node keeps its key, its parent, its depth (moves from the start) and the moves that
    led to it, written with the card each move landed on instead of a column number (key
    order is not table order). With ``bound``, only lines shorter than ``bound`` moves are
    searched, and ``depth_weight`` makes longer lines rate worse: "unwinnable" then means
    that no shorter line exists.
    """
    board, root_moves = _start(position)
    if board.is_won():
        return Outcome("won", root_moves)
    scores = ColumnScores(board, weights)
    bonus, delay = weights.foundation, weights.second_tier
    limit = 1 << 30 if bound is None else bound
    keys: list[bytes] = [board.key()]
    parents: list[int] = [-1]
    steps: list[bytes] = [b""]
    depths = array("I", [len(root_moves)])
    if seen is None:
        seen = set()
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
        board.load(keys[node])
        column_keys = keys[node].split(SEPARATOR)
        base = sum(map(scores.__getitem__, column_keys))
        depth = depths[node]
        first_moves, second_moves = board.moves()
        if second_moves and not second:
            priority = base - bonus * sum(board.found) + depth_weight * depth + delay + offset
            heapq.heappush(heap, (priority << id_bits) | (node << 1) | 1)
        for card, dest in second_moves if second else first_moves:
            step = [card, _dest_code(board, dest)]
            records = _play_with_safe(board, card, dest)
            for record in records[1:]:
                step += (record[0], F_CODE)
            found = sum(board.found)
            child_depth = depth + len(records)
            if child_depth + DECK_SIZE - found >= limit:  # every card left needs a move
                _unplay_all(board, records)
                continue
            change, child_keys = _rescore(board, scores, column_keys, records)
            key = SEPARATOR.join(sorted(child_keys))
            if key not in seen:
                seen.add(key)
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
            _unplay_all(board, records)
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


# ----------------------------------------------------------------- depth-first


def depth_first(
    position: Position,
    budget: Budget,
    weights: Weights,
    seen: set[bytes] | None = None,
    *,
    deadlocks: bool = False,
) -> Search:
    """Depth-first with a table of visited positions; the best-rated moves first.

    With ``deadlocks``, a position entered is searched no further when it has a deadlock
    (blocks.py): no line from it wins. Each test costs a dozen positions' time, and cuts off
    the lost subtrees that otherwise hold most positions of a hard deal.
    """
    board, root_moves = _start(position)
    if board.is_won():
        return Outcome("won", root_moves)
    scores = ColumnScores(board, weights)
    if seen is None:
        seen = set()
    seen.add(board.key())
    budget.add_node()
    path: list[list[Record]] = []
    stack = [_ordered(board, scores, seen)]
    steps = 0
    while stack:
        steps += 1
        if steps % (EXPANSIONS_PER_SLICE * 4) == 0:
            yield
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if path:
                _unplay_all(board, path.pop())
            continue
        card, dest, key = move
        records = _play_with_safe(board, card, dest)
        if key is None:
            key = board.key()
        if key in seen:
            _unplay_all(board, records)
            continue
        seen.add(key)
        budget.add_node()
        path.append(records)
        if board.is_won():
            return Outcome("won", root_moves + [(r[0], r[2]) for level in path for r in level])
        if deadlocks and deadlock(board) is not None:
            _unplay_all(board, path.pop())
            continue
        stack.append(_ordered(board, scores, seen))
    return Outcome("unwinnable")


def _ordered(board: Board, scores: ColumnScores, seen: set[bytes]) -> Iterator[tuple[int, int, bytes | None]]:
    """First-tier moves from the best-rated result to the worst, then the second tier.

    Moves to positions already seen are dropped; the others carry the key they lead to.
    """
    first, second = board.moves()
    keys = board.column_keys()
    bonus = scores.weights.foundation
    rated = []
    for card, dest in first:
        records = _play_with_safe(board, card, dest)
        key = board.key()
        if key not in seen:
            change, _ = _rescore(board, scores, keys, records)
            gained = sum((r[2] == COLUMN_COUNT) - (r[1] == COLUMN_COUNT) for r in records)
            rated.append((change - bonus * gained, card, dest, key))
        _unplay_all(board, records)
    rated.sort()
    return iter(
        [(card, dest, key) for _, card, dest, key in rated] + [(card, dest, None) for card, dest in second]
    )


# ----------------------------------------------------------------- running them together

SEARCHES: dict[str, Callable[[Position, Budget, Weights, set[bytes] | None], Search]] = {
    "best-first": best_first,
    "depth-first": depth_first,
}
SHARED_TABLE = {"depth-first"}  # searches that share one table of seen positions


@dataclass(frozen=True)
class Member:
    """One search of a portfolio: which search, rating positions how."""

    search: str  # a key of SEARCHES
    weights: Weights = DEFAULT_WEIGHTS
    deadlocks: bool = False  # depth-first: search no further from a position with a deadlock

    def __str__(self) -> str:
        name = self.search + (" with deadlocks" if self.deadlocks else "")
        return name if self.weights == DEFAULT_WEIGHTS else f"{name} {self.weights}"


# Searches that order moves differently win different deals. On 100 random Classic deals at
# 100,000 positions each, these four won 84, 78, 79 and 83, and 89 together; sharing one
# table between the depth-first ones, the team won 91 with 300,000 positions in all. The
# depth-first ones now test for deadlocks: of 160 random Classic deals, the team without them
# left 29 not won in 10 s (5 proven, 24 unknown); with them, 5 of those 29 are won and 9
# proven (one proven before is then unknown). README.md, "Figures".
DEFAULT_TEAM = (
    Member("depth-first", deadlocks=True),
    Member("depth-first", Weights(face_down=10, breaks=5, covering=0, foundation=3), deadlocks=True),
    Member("best-first"),
    Member("depth-first", Weights(face_down=30, breaks=2, covering=2, foundation=1), deadlocks=True),
)


def portfolio(position: Position, budget: Budget, team: tuple[Member, ...] = DEFAULT_TEAM) -> Outcome:
    """Run the searches in turns, each getting an equal share of the clock, until one decides.

    Depth-first searches share one table: a position one of them has entered, the others
    leave to it. Each still expands every position it enters, so when all of them are done,
    every position any of them reached has been expanded: that is a proof too. A best-first
    search has a table of its own and is a proof alone. All tables count against the budget.
    A deadlock (blocks.py) at the start, after the safe moves, is a proof before any search.
    """
    board, _ = _start(position)
    if not board.is_won() and deadlock(board) is not None:
        return Outcome("unwinnable", by="deadlock")
    # One table for the depth-first searches that test for deadlocks, one for those that do not.
    tables: dict[bool, set[bytes]] = {True: set(), False: set()}
    groups = {turn: member.deadlocks for turn, member in enumerate(team) if member.search in SHARED_TABLE}
    running = {
        turn: SEARCHES[member.search](
            position,
            budget,
            member.weights,
            tables[groups[turn]] if turn in groups else None,
            **({"deadlocks": True} if member.deadlocks else {}),
        )
        for turn, member in enumerate(team)
    }
    used = [0.0] * len(team)
    while running and not budget.exhausted():
        turn = min(running, key=used.__getitem__)
        started = time.perf_counter()
        try:
            next(running[turn])
        except StopIteration as stop:
            outcome: Outcome = stop.value
            outcome.by = str(team[turn])
            del running[turn]
            if outcome.result == "won" or turn not in groups:
                return outcome
            group = groups.pop(turn)
            if group not in groups.values():
                return outcome  # the last of the searches sharing a table: every position expanded
        finally:
            used[turn] += time.perf_counter() - started
    return Outcome("unknown")


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
