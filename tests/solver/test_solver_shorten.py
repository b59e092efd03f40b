"""Dropping needless moves from a winning line."""

from __future__ import annotations

import time

from games.engine import Game, Move, verify
from games.engine.move import FOUNDATION
from games.solver import Position, solve
from games.solver.api import DEFAULT_MAX_NODES
from games.solver.budget import Budget
from games.solver.shorten import play_steps, prune, shortcut, to_steps

EASY = "YU1-C-AAAAAAC"


def as_pairs(moves: tuple[Move, ...]) -> list[tuple[int, int]]:
    return [(move.card, move.dest) for move in moves]


def detour(game: Game) -> list[tuple[int, int]] | None:
    """A tableau move and the move that puts the group straight back, both legal."""
    for move in list(game.legal_moves):
        source = next((i for i, column in enumerate(game.columns) if move.card in column), None)
        if move.dest == FOUNDATION or source is None:
            continue
        game.push(move)
        back = Move(move.card, source)
        legal = back in game.legal_moves
        game.undo()
        if legal:
            return [(move.card, move.dest), (back.card, back.dest)]
    return None


def test_moves_back_and_forth_are_dropped():
    position = Position.from_code(EASY)
    line = as_pairs(solve(position, time_limit=10).moves)
    game = position.game(keep_history=True)
    index, extra = 0, detour(game)
    while extra is None and index < len(line):
        game.apply_move(*line[index])
        index += 1
        extra = detour(game)
    assert extra, "no detour anywhere along the line"
    longer = line[:index] + extra + line[index:]
    assert play_steps(position, to_steps(position, longer)) is not None
    shorter = prune(position, longer, Budget(time.perf_counter() + 10, DEFAULT_MAX_NODES))
    assert len(shorter) <= len(line)
    assert verify(EASY, " ".join(str(Move(card, dest)) for card, dest in shorter)).won


def with_detours(position: Position, line: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``line`` with a move and its move back put in wherever there is one."""
    game = position.game(keep_history=True)
    longer = []
    for move in line:
        extra = detour(game)
        if extra:
            longer += extra
        longer.append(move)
        game.apply_move(*move)
    return longer


def test_a_line_wandering_to_and_fro_is_cut_short_at_once():
    position = Position.from_code(EASY)
    line = as_pairs(solve(position, time_limit=10).moves)
    longer = with_detours(position, line)
    assert len(longer) > 2 * len(line)  # a detour before most moves
    assert play_steps(position, to_steps(position, longer)) is not None
    cut = shortcut(position, longer)  # no budget: one look at each position, no replays
    assert len(cut) <= len(line)
    assert verify(EASY, " ".join(str(Move(card, dest)) for card, dest in cut)).won


def test_a_line_that_does_not_win_is_returned_as_it_is():
    position = Position.from_code(EASY)
    line = as_pairs(solve(position, time_limit=10).moves)
    longer = with_detours(position, line)[:-1]
    assert shortcut(position, longer) == longer


def test_a_line_that_does_not_win_does_not_play():
    position = Position.from_code(EASY)
    line = as_pairs(solve(position, time_limit=10).moves)
    assert play_steps(position, to_steps(position, line[:-1])) is None
