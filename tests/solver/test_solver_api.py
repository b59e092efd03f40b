"""solve, hint and winnable_deals: answers, limits, layouts, games in progress."""

from __future__ import annotations

import json
import time

import pytest

from games.engine import GameCode, Rules, verify
from games.solver import UNKNOWN, UNWINNABLE, WON, LayoutError, Position, hint, solve, winnable_deals
from games.solver.api import Solution

EASY = "YU1-C-AAAAAAC"  # won in a few hundred positions
HARD = "YU1-C-DQHSTTC"  # undecided after 10 seconds, by the compiled core too
UNWINNABLE_DEAL = "YU1-C-AAAAABM"  # deal 38: every line searched in under 20,000 positions


def test_a_won_deal_comes_with_a_line_the_engine_accepts():
    solution = solve(EASY, time_limit=10)
    assert solution.result == WON
    verdict = verify(EASY, solution.log)
    assert verdict.legal and verdict.won
    assert solution.length == len(solution.moves) == verdict.moves
    assert solution.nodes > 0 and 0 < solution.seconds < 10
    assert solution.to_dict() == {
        "result": "won",
        "log": solution.log,
        "moves": solution.length,
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 3),
    }


def test_relaxed_deals_are_solved_under_relaxed_rules():
    solution = solve("YU1-R-AAAAAAB", time_limit=10)
    assert solution.result == WON
    assert verify("YU1-R-AAAAAAB", solution.log).won


def test_an_unwinnable_deal_is_proven_so():
    solution = solve(UNWINNABLE_DEAL, time_limit=60)
    assert solution.result == UNWINNABLE
    assert solution.moves is None and solution.log is None and solution.length is None


def test_the_time_limit_is_kept():
    started = time.perf_counter()
    solution = solve(HARD, time_limit=0.3)
    assert solution.result == UNKNOWN
    assert solution.seconds < 0.3 + 0.5  # a slice of work, on a busy machine
    assert time.perf_counter() - started < 0.3 + 0.7


def test_the_node_limit_is_kept():
    solution = solve(HARD, time_limit=60, max_nodes=3000)
    assert solution.result == UNKNOWN
    assert 3000 <= solution.nodes < 3000 + 1500


def test_shortening_never_lengthens_and_keeps_the_time_limit():
    quick = solve(EASY, time_limit=10)
    shorter = solve(EASY, time_limit=1.5, shorten=True)
    assert shorter.won and shorter.length <= quick.length
    assert verify(EASY, shorter.log).won
    assert shorter.seconds < 1.5 + 0.5


def test_a_layout_is_solved_and_checked_by_the_engine(tmp_path):
    layout = Position.from_code("YU1-C-AAAAAAD").to_dict()
    # Swap two columns: no longer the deal of any code, so the check replays on the layout.
    layout["columns"][2], layout["columns"][5] = layout["columns"][5], layout["columns"][2]
    layout["face_down"][2], layout["face_down"][5] = layout["face_down"][5], layout["face_down"][2]
    position = Position.from_layout(json.loads(json.dumps(layout)), "classic")
    assert not position.is_deal
    solution = solve(position, time_limit=10)
    assert solution.result == WON
    game = position.game()
    for move in solution.moves:
        game.push(move)
    assert game.is_won()


def test_a_small_end_game_with_take_backs_is_won():
    # Spades only: 2♠ lies on A♠ (face down), and K♠ … 3♠ fill column 2. Nothing in the columns
    # can move usefully; the only way is a ladder of cards taken back from the foundations,
    # down to a red 3 that 2♠ can go on.
    layout = {
        "rules": "classic",
        "columns": [["AS", "2S"], "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S".split(), [], [], [], [], []],
        "face_down": [1, 0, 0, 0, 0, 0, 0],
        "foundations": [0, 13, 13, 13],
    }
    position = Position.from_layout(layout)
    solution = solve(position, time_limit=10)
    assert solution.result == WON
    take_backs = [move for move in solution.moves if move.card // 13 != 0 and move.dest != 7]
    assert take_backs


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["columns"][0].append("AS"), "twice"),
        (lambda d: d["columns"][6].pop(), "missing"),
        (lambda d: d.update(face_down=[0, 1, 2, 3, 4, 5, 11]), "face up"),
        (lambda d: d.update(columns=d["columns"][:6]), "7 columns"),
        (lambda d: d.update(rules="spider"), "not a layout"),
        (lambda d: d["columns"][0].append("XX"), "not a layout"),
    ],
)
def test_impossible_layouts_are_refused(change, message):
    data = Position.from_code("YU1-C-AAAAAAD").to_dict()
    change(data)
    with pytest.raises(LayoutError, match=message):
        Position.from_layout(data)


def test_a_hint_is_the_next_move_of_a_win_from_the_position_reached():
    log = solve(EASY, time_limit=10).log.split()
    so_far = " ".join(log[:20])
    move = hint(EASY, so_far, time_limit=10)
    assert move is not None
    rest = solve(Position.from_log(EASY, f"{so_far} {move}"), time_limit=10)
    assert rest.won
    assert verify(EASY, f"{so_far} {move} {rest.log}").won


def test_a_hint_follows_undos():
    first = str(hint(EASY, "", time_limit=10))
    assert hint(EASY, f"{first} U", time_limit=10) is not None


def test_no_hint_for_a_won_game_and_an_illegal_log_is_refused():
    log = solve(EASY, time_limit=10).log
    assert hint(EASY, log) is None
    with pytest.raises(ValueError, match="illegal"):
        hint(EASY, "KS>F")


def test_winnable_deals_yields_only_wins():
    found = list(winnable_deals(2, 3, rules=Rules.RELAXED, time_limit=5))
    assert found and all(isinstance(solution, Solution) and solution.won for _, solution in found)
    assert [code.number for code, _ in found] == sorted(code.number for code, _ in found)
    assert all(code.rules is Rules.RELAXED and 2 <= code.number < 5 for code, _ in found)
    assert all(verify(code, solution.log).won for code, solution in found)


def test_position_from_a_log_counts_the_moves_kept_after_undo():
    position = Position.from_log(GameCode.parse(EASY), "AS>F U AS>F")
    assert [str(move) for move in position.history] == ["AS>F"]
    assert position.foundations == (1, 0, 0, 0)
