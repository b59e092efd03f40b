"""The compiled search core (games/solver/core.c) against the Python searches, its reference:
the same moves, keys, safe moves, scores and deadlocks on random positions of both rule sets,
and the same searches node for node: the same answer, the same positions seen, the same win.

The core must be built (games/solver/core.py, BUILD_COMMAND); these tests fail until it is."""

from __future__ import annotations

import importlib
import itertools
import random
import time
from collections.abc import Iterator

import pytest

from games.engine import DEAL_COUNT, GameCode, Rules
from games.engine.move import FOUNDATION
from games.solver import core, solve
from games.solver.best_first import best_first
from games.solver.blocks import deadlock
from games.solver.board import Board
from games.solver.budget import Budget
from games.solver.depth_first import depth_first
from games.solver.portfolio import DEFAULT_TEAM
from games.solver.position import Position
from games.solver.rating import DEFAULT_WEIGHTS, ColumnScores, Weights
from games.solver.search import Outcome, Search, play_with_safe, unplay_all

portfolio_module = importlib.import_module("games.solver.portfolio")

WEIGHTS = (DEFAULT_WEIGHTS, Weights(face_down=10, breaks=5, covering=0, foundation=3))
MAX_NODES = 2_000
OWN_SLICES = (core.DEPTH_FIRST_SLICES, core.BEST_FIRST_SLICES)  # the core's, longer than Python's
# Proven unwinnable by the team in the census (docs/data/census-classic-10s.jsonl.gz), in a few
# hundred positions: the searches run out of positions on them.
UNWINNABLE = ("YU1-C-TUMLQOP", "YU1-C-QYUUHPI", "YU1-C-OLUQWSU", "YU1-C-VOITRDA", "YU1-C-VARSPYX")
# Relaxed (docs/data/census-relaxed-10s.jsonl.gz): one with a deadlock at the start, and the one
# deal unsettled at 60 s. A search that tests for deadlocks wins the random ones.
RELAXED_HARD = ("YU1-R-FOHOFFV", "YU1-R-PQXXUMK")


@pytest.fixture(autouse=True)
def built_core():
    assert core.loaded(), core.LOAD_ERROR


def set_slices(monkeypatch, depth_first_slices: int, best_first_slices: int) -> None:
    monkeypatch.setattr(core, "DEPTH_FIRST_SLICES", depth_first_slices)
    monkeypatch.setattr(core, "BEST_FIRST_SLICES", best_first_slices)


@pytest.fixture
def python_slices(monkeypatch):
    """The core's searches yield where the Python ones do: one Python slice a call."""
    set_slices(monkeypatch, 1, 1)


def deals(rules: Rules, count: int, seed: str) -> list[Position]:
    rng = random.Random(f"{seed} {rules.value}")
    return [Position.from_code(GameCode(rules, rng.randrange(DEAL_COUNT))) for _ in range(count)]


def random_line(board: Board, rng: random.Random, length: int) -> Iterator[Board]:
    """``board`` along random moves of both tiers (take-backs among them), the safe moves played
    after some of them only: positions with safe moves waiting are searched by nobody, but the
    core must still agree."""
    for _ in range(length):
        yield board
        first, second = board.moves()
        if not first + second:
            return
        card, dest = rng.choice(first + second)
        records = [board.play(card, dest)]
        if rng.random() < 0.7:
            board.play_safe(records)


def late_positions(rules: Rules, count: int, seed: str) -> list[Position]:
    """Positions after random lines of random deals: the searches often run out of positions."""
    rng = random.Random(f"{seed} {rules.value}")
    positions = []
    for start in deals(rules, count, seed):
        board = Board(start)
        for _ in random_line(board, rng, rng.randrange(30, 120)):
            pass  # the line plays on ``board`` itself
        columns = tuple(tuple(column) for column in board.columns)
        positions.append(Position(rules, columns, tuple(board.down), tuple(board.found)))
    return positions


# ----------------------------------------------------------------------------- the board


@pytest.mark.parametrize("rules", list(Rules), ids=lambda rules: rules.value)
def test_the_boards_agree_on_random_positions(rules):
    rng = random.Random(f"core boards {rules.value}")
    seen = {"positions": 0, "second tier": 0, "take-backs": 0, "safe moves": 0, "deadlocks": 0, "moves": 0}
    for start in deals(rules, 30, "core boards"):
        for board in random_line(Board(start), rng, 60):
            theirs = core.CoreBoard(board)
            where = f"{start.code} at {board.key().hex()}"
            first, second = board.moves()
            assert theirs.moves() == (first, second), where
            key = board.key()
            assert theirs.key() == key, where
            blocked = deadlock(board)
            assert theirs.deadlock() == blocked, where
            for column_key, weights in itertools.product(board.column_keys(), WEIGHTS):
                assert (
                    core.column_score(column_key, weights, board.classic)
                    == ColumnScores(board, weights)[column_key]
                ), where
            waiting: list = []  # the safe moves not played yet, after a line that left them
            board.play_safe(waiting)
            assert theirs.play_safe() == waiting, where
            assert theirs.key() == board.key(), where
            unplay_all(board, waiting)
            theirs.unplay_all(waiting)
            for card, dest in first + second:
                records = play_with_safe(board, card, dest)
                assert theirs.play_with_safe(card, dest) == records, f"{where}: {card}>{dest}"
                assert theirs.key() == board.key(), f"{where}: {card}>{dest}"
                unplay_all(board, records)
                theirs.unplay_all(records)
                assert theirs.key() == key and theirs.moves() == (first, second), f"{where}: {card}>{dest}"
                seen["take-backs"] += board.loc[card] == FOUNDATION
            theirs.close()
            seen["positions"] += 1
            seen["second tier"] += bool(second)
            seen["safe moves"] += bool(waiting)
            seen["deadlocks"] += blocked is not None
            seen["moves"] += len(first) + len(second)
    # Every kind of case was met: the comparisons above did compare something.
    assert seen["positions"] >= 1_500, seen
    assert min(seen.values()) > 0, seen


# ----------------------------------------------------------------------------- the searches


def run(search: Search, budget: Budget) -> Outcome | None:
    """As the portfolio steps a search: a slice, then the budget; None when the budget ran out."""
    try:
        while not budget.exhausted():
            next(search)
    except StopIteration as stop:
        return stop.value
    return None


def budget(max_nodes: int = MAX_NODES) -> Budget:
    return Budget(time.perf_counter() + 3600, max_nodes)


SEARCHES = {
    "depth-first": (depth_first, core.depth_first, {}),
    "depth-first with deadlocks": (depth_first, core.depth_first, {"deadlocks": True}),
    "streamlined depth-first": (depth_first, core.depth_first, {"deadlocks": True, "streamlined": True}),
    "depth-first keeping builds": (depth_first, core.depth_first, {"deadlocks": True, "keep_builds": True}),
    "best-first": (best_first, core.best_first, {}),
    "best-first with deadlocks": (best_first, core.best_first, {"deadlocks": True}),
    # As shorten.py searches for shorter lines: lines under a bound, longer ones rated worse.
    "best-first with a bound": (best_first, core.best_first, {"bound": 105, "depth_weight": 2}),
}


@pytest.mark.parametrize("rules", list(Rules), ids=lambda rules: rules.value)
@pytest.mark.parametrize("name", list(SEARCHES))
def test_the_searches_agree_node_for_node(rules, name, python_slices, monkeypatch):
    """Under a node budget, stepped as the portfolio steps them: the same answer, the same
    positions seen (the tables hold the same keys), the same win. In its own longer slices, the
    core's search stops at the same position: a slice ends once the budget is spent."""
    python_search, core_search, options = SEARCHES[name]
    positions = deals(rules, 30, "core searches") + late_positions(rules, 12, "core searches")
    hard = UNWINNABLE if rules is Rules.CLASSIC else RELAXED_HARD
    positions += [Position.from_code(code) for code in hard]
    results = []
    for index, position in enumerate(positions):
        weights = WEIGHTS[index % 2]
        where = f"{name} {weights} from {position.to_dict()}"
        expected_budget, expected_seen = budget(), set()
        expected = run(
            python_search(position, expected_budget, weights, expected_seen, **options), expected_budget
        )
        got_budget, got_seen = budget(), core.SeenTable()
        got = run(core_search(position, got_budget, weights, got_seen, **options), got_budget)
        assert got == expected, where
        assert got_budget.nodes == expected_budget.nodes, where
        assert len(got_seen) == len(expected_seen) and all(key in got_seen for key in expected_seen), where
        results.append(expected.result if expected else "stopped")
        set_slices(monkeypatch, *OWN_SLICES)
        sliced = budget()
        assert run(core_search(position, sliced, weights, None, **options), sliced) == expected, where
        assert sliced.nodes == expected_budget.nodes, where
        set_slices(monkeypatch, 1, 1)
    # A streamlined search that runs out answers "unknown", never "unwinnable": it proves nothing.
    ends = {"unknown"} if options.get("streamlined") or options.get("keep_builds") else {"unwinnable"}
    assert {"won", "stopped"} | ends <= set(results) <= {"won", "stopped"} | ends, results


class TurnClock:
    """The portfolio's clock, made to advance by one at every reading: every turn takes the
    same time, so the searches take turns in a fixed order, whatever the machine does."""

    def __init__(self) -> None:
        self.ticks = itertools.count()

    def perf_counter(self) -> float:
        return float(next(self.ticks))


DEPTH_FIRST_TEAM = tuple(member for member in DEFAULT_TEAM if member.search == "depth-first")


@pytest.mark.parametrize("team", [DEPTH_FIRST_TEAM, DEFAULT_TEAM], ids=["shared table", "default team"])
def test_the_portfolio_agrees_turn_for_turn(team, python_slices, monkeypatch):
    """Depth-first searches sharing one table, with the best-first one or not, in turns."""
    assert all(member.deadlocks for member in DEPTH_FIRST_TEAM) and len(DEPTH_FIRST_TEAM) == 3
    positions = [Position.from_code(code) for code in UNWINNABLE[:3]]
    for rules in Rules:
        positions += deals(rules, 4, "core portfolio") + late_positions(rules, 3, "core portfolio")
    results = []
    for position in positions:
        answers = []
        for engine in ("python", "core"):
            monkeypatch.setenv("YUKON_SOLVER_CORE", engine)
            assert core.available() == (engine == "core")
            monkeypatch.setattr(portfolio_module, "time", TurnClock())
            spent = budget(3 * MAX_NODES)
            outcome = portfolio_module.portfolio(position, spent, team)
            answers.append((outcome, spent.nodes, spent.searched))
        assert answers[1] == answers[0], position.to_dict()
        results.append(answers[0][0].result)
    assert {"won", "unwinnable", "unknown"} <= set(results), results


@pytest.mark.parametrize(
    "code",
    [
        "YU1-C-AAAAAAB",
        "YU1-C-AAAAAAC",
        "YU1-R-AACAHLW",
        "YU1-R-ABVBYXD",
        "YU1-C-TUMLQOP",
        "YU1-C-QYUUHPI",
        "YU1-C-VOITRDA",
    ],
)
def test_solve_gives_the_python_verdict(code, monkeypatch):
    verdicts = []
    for engine in ("python", "core"):
        monkeypatch.setenv("YUKON_SOLVER_CORE", engine)
        assert core.available() == (engine == "core")
        solution = solve(code, time_limit=60)
        verdicts.append(solution.result)
    assert verdicts[0] == verdicts[1] != "unknown"


def test_the_core_refuses_what_it_cannot_search_as_python_does():
    position = Position.from_code("YU1-C-AAAAAAC")
    with pytest.raises(TypeError):  # its tables are its own
        next(core.depth_first(position, budget(), DEFAULT_WEIGHTS, set()))
    with pytest.raises(ValueError):  # its heap entries are 64 bits
        next(core.best_first(position, budget(), Weights(face_down=10**6)))


def test_the_portfolio_uses_the_core_unless_told_not_to(monkeypatch):
    calls = []

    def counted(name):
        search = core.SEARCHES[name]

        def wrapper(*args, **kwargs):
            calls.append(name)
            return search(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(core, "SEARCHES", {name: counted(name) for name in core.SEARCHES})
    monkeypatch.delenv("YUKON_SOLVER_CORE", raising=False)
    assert solve("YU1-C-AAAAAAC").won
    # Each member's search once, and the depth-first searches of the restarts' tries and of the
    # search keeping builds (if they had a turn): the core's too.
    own_tries = ("restarts", "keeping builds")
    members = sorted(member.search for member in DEFAULT_TEAM if member.search not in own_tries)
    tries = calls.count("depth-first") - members.count("depth-first")
    assert sorted(calls) == sorted(members + ["depth-first"] * tries) and tries >= 0
    calls.clear()
    monkeypatch.setenv("YUKON_SOLVER_CORE", "python")
    assert solve("YU1-C-AAAAAAC").won
    assert calls == []
