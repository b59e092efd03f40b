"""``unwinnable`` is a proof: checked against a plain search that uses only the engine.

Small end games (a dozen cards left, some face down, in random columns) are searched
exhaustively by ``engine_search``, which tries every legal move the engine lists, with no
reduction at all. The solver must agree on every one: a win where the engine finds one,
``unwinnable`` where it finds none.
"""

from __future__ import annotations

import random

import pytest

from games.engine import CARD_NAMES, Game, Rules
from games.solver import UNWINNABLE, WON, Position, solve

LIMIT = 20_000  # positions the plain search may go through for one end game


def end_game(seed: int, rules: Rules) -> Position:
    rng = random.Random(seed)
    foundations = [rng.randint(7, 12) for _ in range(4)]
    left = [suit * 13 + rank for suit in range(4) for rank in range(foundations[suit], 13)]
    rng.shuffle(left)
    used = rng.randint(1, 3)  # few columns make deep piles, and some end games unwinnable
    columns: list[list[int]] = [[] for _ in range(7)]
    for card in left:
        columns[rng.randrange(used)].append(card)
    face_down = [rng.randint(0, max(len(column) - 1, 0)) for column in columns]
    data = {
        "rules": rules.value,
        "columns": [[CARD_NAMES[card] for card in column] for column in columns],
        "face_down": face_down,
        "foundations": foundations,
    }
    return Position.from_layout(data)


def engine_search(position: Position, limit: int = LIMIT) -> bool | None:
    """Whether any line of legal moves wins: every move tried, positions not repeated.

    None when there are more than ``limit`` positions to go through.
    """
    game: Game = position.game(keep_history=True)
    seen = set()
    stack = [iter(list(game.legal_moves))]
    while stack:
        if game.is_won():
            return True
        if len(seen) > limit:
            return None
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                game.undo()
            continue
        game.push(move)
        key = (game.columns, game.face_down)
        if key in seen:
            game.undo()
            continue
        seen.add(key)
        stack.append(iter(list(game.legal_moves)))
    return False


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(Rules), ids=lambda rules: rules.value)
def test_the_solver_agrees_with_an_exhaustive_engine_search(rules):
    answers = {WON: 0, UNWINNABLE: 0}
    for seed in range(60):
        position = end_game(seed, rules)
        winnable = engine_search(position)
        if winnable is None:
            continue  # too big for the plain search
        solution = solve(position, time_limit=30, max_nodes=500_000)
        assert solution.result == (WON if winnable else UNWINNABLE), f"seed {seed}: {position.to_dict()}"
        answers[solution.result] += 1
    # Both answers must be well represented, or the test proves little.
    assert answers[WON] >= 30 and answers[UNWINNABLE] >= 3, answers
