"""Small, deterministic searches that find positions showing a rule, for the vector files.

A search plays seeded random games from the deal of each candidate code and stops at the
first position where a predicate answers the tokens to play there. Everything is seeded by
the code and a playout number, so the vector files come out identical on every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..cards import KING, RANK, RED
from ..codes import GameCode, Rules
from ..game import Game
from ..move import FOUNDATION, MOVES, Move

# A predicate looks at a position and answers the tokens to play there (or None).
Predicate = Callable[[Game], "list[str] | None"]


@dataclass(frozen=True)
class Found:
    code: str
    prefix: list[str]  # the moves of the playout that led to the position
    tail: list[str]  # what the predicate asked to play there

    @property
    def log(self) -> list[str]:
        return self.prefix + self.tail


def where(game: Game, card: int) -> tuple[int, int]:
    """(column index, position from the bottom), or (FOUNDATION, -1)."""
    for index, column in enumerate(game.columns):
        if card in column:
            return index, column.index(card)
    return FOUNDATION, -1


def group_size(game: Game, card: int) -> int:
    column, position = where(game, card)
    return 0 if column == FOUNDATION else len(game.columns[column]) - position


def fits(game: Game, card: int, dest: int) -> bool:
    """Would ``card`` fit onto column ``dest`` (rank, colour, King onto empty), ignoring the rest?"""
    target = game.columns[dest]
    if not target:
        return RANK[card] == KING
    top = target[-1]
    return RANK[top] == RANK[card] + 1 and (game.rules is Rules.RELAXED or RED[top] != RED[card])


def exposes(game: Game, move: Move) -> bool:
    """Does the move turn up a face-down card or empty a column?"""
    column, position = where(game, move.card)
    if column == FOUNDATION:
        return False
    return position == game.face_down[column]


def is_take_back(game: Game, move: Move) -> bool:
    return where(game, move.card)[0] == FOUNDATION


def all_moves() -> Iterable[Move]:
    for row in MOVES:
        yield from row


def refusals(game: Game, code: str) -> Iterable[Move]:
    """Every one of the 52 × 8 moves that the position refuses with ``code``."""
    for move in all_moves():
        if game.check_move(move.card, move.dest) == code:
            yield move


def _choose(game: Game, rng: random.Random, last: Move | None, pile: bool) -> Move | None:
    moves = [
        m for m in game.legal_moves if not is_take_back(game, m) and (last is None or m.card != last.card)
    ]
    if not moves:
        return None
    if pile:  # grow the longest column: long groups for the 20-card rule
        lengths = [len(column) for column in game.columns]
        onto = [m for m in moves if m.dest != FOUNDATION and lengths[m.dest] == max(lengths)]
        if onto and rng.random() < 0.8:
            return rng.choice(onto)
    foundation = [m for m in moves if m.dest == FOUNDATION]
    if foundation and rng.random() < 0.6:
        return rng.choice(foundation)
    flips = [m for m in moves if exposes(game, m)]
    if flips and rng.random() < 0.7:
        return rng.choice(flips)
    return rng.choice(moves)


def find(
    predicate: Predicate,
    *,
    rules: Rules = Rules.CLASSIC,
    numbers: Iterable[int] = range(200),
    playouts: int = 40,
    depth: int = 80,
    pile: bool = False,
) -> Found:
    """The shortest hit among the playouts of the first deal (in ``numbers``) that has one."""
    for number in numbers:
        code = str(GameCode(rules, number))
        best: Found | None = None
        for playout in range(playouts):
            rng = random.Random(f"{code}/{playout}")
            game = Game(code)
            prefix: list[str] = []
            last = None
            for _ in range(depth + 1):
                if best is not None and len(prefix) >= len(best.prefix):
                    break
                tail = predicate(game)
                if tail is not None:
                    best = Found(code, list(prefix), tail)
                    break
                move = _choose(game, rng, last, pile)
                if move is None:
                    break
                game.push(move)
                prefix.append(str(move))
                last = move
            if best is not None and not best.prefix:
                break
        if best is not None:
            return best
    raise LookupError("no position found: widen the search")


def first(moves: Iterable[Move], accept: Callable[[Move], bool] = lambda move: True) -> list[str] | None:
    """The first accepted move as a one-token tail, or None."""
    for move in moves:
        if accept(move):
            return [str(move)]
    return None
