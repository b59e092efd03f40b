"""``unwinnable`` is a proof: checked against the simple checker (games/solver/checker.py).

Small end games (a dozen cards left, some face down, in random columns) and positions built
by hand are searched exhaustively by the checker, which tries every legal move the engine
lists. The solver must agree on every one: a win where the checker finds one, ``unwinnable``
where it finds none; and a deadlock (blocks.py) only where the checker finds no win.
"""

from __future__ import annotations

import random

import pytest

from games.engine import CARD_NAMES, Rules
from games.solver import UNWINNABLE, WON, Position, solve
from games.solver.blocks import deadlock
from games.solver.board import Board
from games.solver.checker import Disagreement, exhaust, recheck_unwinnable

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


@pytest.mark.parametrize("rules", list(Rules), ids=lambda rules: rules.value)
def test_the_solver_agrees_with_an_exhaustive_engine_search(rules):
    answers = {WON: 0, UNWINNABLE: 0}
    for seed in range(60):
        position = end_game(seed, rules)
        winnable = exhaust(position, LIMIT)
        if winnable is None:
            continue  # too big for the checker
        solution = solve(position, time_limit=30, max_nodes=500_000)
        assert solution.result == (WON if winnable else UNWINNABLE), f"seed {seed}: {position.to_dict()}"
        answers[solution.result] += 1
        if winnable:
            assert deadlock(Board(position)) is None, f"seed {seed}: {position.to_dict()}"
    # Both answers must be well represented, or the test proves little.
    assert answers[WON] >= 30 and answers[UNWINNABLE] >= 3, answers


def layout(rules: str, columns: list[str], face_down: list[int], foundations: list[int]) -> Position:
    """A position from columns written as text, bottom card first (at most 7 columns)."""
    cards = [column.split() for column in columns]
    cards += [[] for _ in range(7 - len(cards))]
    face_down = face_down + [0] * (7 - len(face_down))
    return Position.from_layout(
        {"rules": rules, "columns": cards, "face_down": face_down, "foundations": foundations}
    )


# Six columns each: the other spades (3♠ last: it goes up first), the other hearts (6♥ last).
SPADES = ("KS", "QS", "JS", "TS 9S", "8S 7S 6S", "5S 4S 3S")
HEARTS = ("QH", "JH", "TH", "9H", "8H", "7H 6H")
LATE_SPADES, LATE_HEARTS, LATE_CLUBS = (
    "KS QS JS TS 9S 8S 7S",
    "KH QH JH TH 9H 8H 7H 6S 5H",
    "KC QC JC TC 9C 8C 7C 6C",
)
BUILT = {
    # Late game: the 4♣ goes up, turning up the 5♣ and then the 6♥; the 5♥ is free.
    "late game, winnable": (
        layout("classic", [LATE_SPADES, LATE_HEARTS, "6H 5C 4C", LATE_CLUBS], [0, 0, 2, 0], [5, 4, 13, 3]),
        True,
    ),
    # One suit blocked: the A♠ lies face down under the 2♠, the red threes are up for good
    # (no column can be emptied for the Kings above them to come back).
    "spades blocked": (layout("classic", ["AS 2S", *SPADES], [1], [0, 13, 13, 13]), False),
    "spades free": (layout("classic", ["2S AS", *SPADES], [1], [0, 13, 13, 13]), True),
    # A King on a face-down card of its own suit: only an empty column could take it.
    "king buried, no column to empty": (layout("classic", ["5H KH", *HEARTS], [1], [13, 4, 13, 13]), False),
    "king buried, an empty column": (
        layout("classic", ["5H KH", *HEARTS[1:-1], "QH 7H 6H"], [1], [13, 4, 13, 13]),
        True,
    ),
}


@pytest.mark.parametrize("name", list(BUILT))
def test_the_checker_and_the_solver_agree_on_built_positions(name):
    position, winnable = BUILT[name]
    assert exhaust(position) is winnable
    solution = solve(position, time_limit=30, max_nodes=200_000)
    assert solution.result == (WON if winnable else UNWINNABLE)
    assert (deadlock(Board(position)) is None) or not winnable


def test_deadlocks_prove_the_blocked_positions_without_search():
    for name in ("spades blocked", "king buried, no column to empty"):
        position, _ = BUILT[name]
        assert deadlock(Board(position)) is not None, name
        assert solve(position).by == "deadlock"


def test_a_wrong_unwinnable_fails_loudly():
    position, _ = BUILT["spades free"]
    with pytest.raises(Disagreement):
        recheck_unwinnable(position)
    assert recheck_unwinnable(BUILT["spades blocked"][0]) is True
    assert recheck_unwinnable(Position.from_code("YU1-C-AAAAAAB"), limit=50) is False  # too big to tell
