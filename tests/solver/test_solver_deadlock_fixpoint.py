"""The deadlock test's fixed point (blocks.deadlock, computed as Horn clauses are, with a stop
once every departure and arrival can happen) is the least fixed point of its definition: here
computed the plain way, pass after pass, on positions along random lines of random deals of
both rule sets, deadlocked or not. Same answer, every position."""

from __future__ import annotations

import random

import pytest

from games.engine import Game, GameCode, Rules
from games.solver.blocks import EMPTY, EVENT_COUNT, deadlock, requirements
from games.solver.board import Board
from games.solver.position import Position


def by_definition(board: Board) -> int | None:
    """An event joins once all it needs in any case and all of one of its ways have joined;
    again and again until nothing joins. The first departure or arrival left out, if any."""
    base, ways = requirements(board)
    done = [options is None for options in ways]
    joined = True
    while joined:
        joined = False
        for event in range(EVENT_COUNT):
            if (
                not done[event]
                and all(done[r] for r in base[event])
                and any(all(done[r] for r in option) for option in ways[event])
            ):
                done[event] = joined = True
    return next((event for event in range(EMPTY) if not done[event]), None)


# Relaxed positions are rarely deadlocked (any colour on any colour): there only the answer
# "none" is put to the test by random lines, Classic's lines reach both.
@pytest.mark.parametrize(("rules", "some_deadlocked"), [(Rules.CLASSIC, True), (Rules.RELAXED, False)])
def test_the_fixed_point_is_the_definitions(rules, some_deadlocked):
    rng = random.Random(f"deadlocks {rules.value}")
    positions = deadlocked = 0
    for _ in range(8):
        code = str(GameCode(rules, rng.randrange(26**7)))
        game, tokens = Game(code), []
        for _ in range(rng.randrange(20, 70)):
            moves = list(game.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            game.push(move)
            tokens.append(str(move))
            board = Board(Position.from_log(code, " ".join(tokens)))
            expected = by_definition(board)
            assert deadlock(board) == expected, f"{code} after {' '.join(tokens)}"
            positions += 1
            deadlocked += expected is not None
    assert positions > 150 and deadlocked < positions
    assert deadlocked > 0 or not some_deadlocked
