"""Restarts (games/solver/restarts.py): short depth-first tries, each with weights of its own.

A try that ends decides alone (a win, or a proof: it expanded every position it reached); a
try stopped at its size decides nothing and gives its table back to the budget.
"""

from __future__ import annotations

import random
import time
from itertools import islice
from types import SimpleNamespace

import pytest

from games.engine import DEAL_COUNT, GameCode, Rules, verify
from games.engine.move import FOUNDATION, MOVES
from games.solver import UNWINNABLE, WON, Position, solve
from games.solver import portfolio as portfolio_module
from games.solver import restarts as restarts_module
from games.solver.board import Board
from games.solver.budget import Budget
from games.solver.checker import exhaust
from games.solver.core import compiled_searches
from games.solver.depth_first import depth_first
from games.solver.portfolio import DEFAULT_TEAM, Member
from games.solver.restarts import KINDS, TURNS, WEIGHTS_SEED, luby, restarts, tries, tries_weights

OTHER_SPADES = ["KS", "QS", "JS", "TS 9S", "8S 7S 6S", "5S 4S 3S"]
OTHER_HEARTS = ["QH", "JH", "TH", "9H", "8H", "7H 6H"]


def layout(columns: list[str], face_down: int, foundations: list[int]) -> Position:
    """A Classic position: columns as text, bottom card first; face-down cards in the first."""
    return Position.from_layout(
        {
            "rules": "classic",
            "columns": [column.split() for column in columns] + [[]] * (7 - len(columns)),
            "face_down": [face_down] + [0] * 6,
            "foundations": foundations,
        }
    )


# Unwinnable: the A♠ lies face down under the 2♠ (and no column can be emptied for the Kings
# above the red threes to come back); the King of hearts lies on a face-down heart, and no
# column can be emptied for it. Winnable: the same with the A♠ on top, or a column to empty.
POSITIONS = {
    "spades blocked": (layout(["AS 2S", *OTHER_SPADES], 1, [0, 13, 13, 13]), False),
    "spades free": (layout(["2S AS", *OTHER_SPADES], 1, [0, 13, 13, 13]), True),
    "king buried": (layout(["5H KH", *OTHER_HEARTS], 1, [13, 4, 13, 13]), False),
    "king buried, a column to empty": (
        layout(["5H KH", *OTHER_HEARTS[1:-1], "QH 7H 6H"], 1, [13, 4, 13, 13]),
        True,
    ),
}


def the_depth_first():
    """The depth-first search the portfolio would give restarts: the core's when it is built."""
    searches = compiled_searches()
    return searches[0]["depth-first"] if searches else depth_first


def run_to_the_end(position: Position, budget: Budget):
    search = restarts(position, budget, DEFAULT_TEAM[0].weights, depth_first=the_depth_first())
    slices = 0
    try:
        while True:
            next(search)
            slices += 1
            assert budget.nodes <= budget.searched
            assert slices < 100_000, "restarts never decided"
    except StopIteration as stop:
        return stop.value


def test_luby_sequence():
    assert [luby(index) for index in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def try_weights(tries: int) -> list:
    return list(islice(tries_weights(), tries))


def test_the_tries_weights_are_fixed_and_all_different():
    assert try_weights(5)[:3] == try_weights(3)
    assert len(set(try_weights(40))) == 40
    assert not set(try_weights(40)) & {member.weights for member in DEFAULT_TEAM}


def test_each_kind_of_try_takes_its_turns_with_sizes_and_weights_of_its_own():
    """Plain tries every other turn, the streamlined kinds in between; each kind follows Luby's
    sequence with weights of its own: the plain tries are those of tries_weights alone."""
    first = list(islice(tries(), 8 * len(TURNS)))
    assert [kind for _, _, kind in first] == list(TURNS) * 8
    assert TURNS[::2] == ("plain",) * (len(TURNS) // 2) and set(TURNS) == set(KINDS)
    for kind, (_, seed) in KINDS.items():
        own = [(units, weights) for units, weights, of in first if of == kind]
        weights = tries_weights(seed)
        assert own == [(luby(index), next(weights)) for index in range(1, len(own) + 1)], kind
    assert KINDS["plain"][1] == WEIGHTS_SEED
    assert len({weights for _, weights, _ in first}) == len(first)


STREAMLINED_KINDS = [options for options, _ in KINDS.values() if options]


@pytest.mark.parametrize("options", STREAMLINED_KINDS, ids=str)
@pytest.mark.parametrize("name", list(POSITIONS))
def test_a_streamlined_search_that_runs_out_proves_nothing(name, options):
    """No take-backs, no second tier, every foundation move at once (and, keeping builds, no
    card taken off a card it fits but to go up): a smaller search, which may miss every win.
    Run out, it answers "unknown", on lost and won positions alike."""
    position, winnable = POSITIONS[name]
    budget = Budget(time.perf_counter() + 60, 100_000)
    weights = DEFAULT_TEAM[0].weights
    search = the_depth_first()(position, budget, weights, None, deadlocks=True, **options)
    with pytest.raises(StopIteration) as stop:
        while True:
            next(search)
    assert stop.value.value.result in ((WON, "unknown") if winnable else ("unknown",))


def test_streamlined_tries_win_a_deal_the_plain_ones_do_not(monkeypatch):
    """YU1-C-GERGANV: unsettled by the default team in 60 s before streamlined tries (the
    census of 2026-12-07, docs/winnability.md). A streamlined try wins it in thousands of
    positions; plain tries alone, in ten times as many, do not."""
    code, positions = "YU1-C-GERGANV", 200_000
    alone = (Member("restarts", deadlocks=True),)
    solution = solve(code, time_limit=60, max_nodes=positions // 10, team=alone)
    assert solution.result == WON and solution.by == "restarts with deadlocks"
    monkeypatch.setattr(restarts_module, "tries", lambda: (entry for entry in tries() if entry[2] == "plain"))
    assert solve(code, time_limit=60, max_nodes=positions, team=alone).result != WON


def test_tries_that_run_out_at_once_still_give_the_clock_a_turn(monkeypatch):
    """Streamlined tries on a lost position run out within their first slice; the restarts
    yield after each, so that the portfolio reads the clock, rather than going through tries
    until every position the budget holds is spent."""
    monkeypatch.setattr(restarts_module, "tries", lambda: (entry for entry in tries() if entry[2] != "plain"))
    budget = Budget(time.perf_counter() + 60, 1_000_000)
    search = restarts(
        POSITIONS["spades blocked"][0], budget, DEFAULT_TEAM[0].weights, depth_first=the_depth_first()
    )
    next(search)
    assert 0 < budget.searched < 100
    search.close()


def test_a_search_keeping_builds_takes_a_card_off_a_card_it_fits_only_to_go_up():
    """Every win of a search keeping builds, replayed: no move takes a card lying on a card it
    fits anywhere but to its foundation."""
    won, rng = 0, random.Random(20261207)
    for _ in range(12):
        position = Position.from_code(GameCode(Rules.CLASSIC, rng.randrange(DEAL_COUNT)))
        budget = Budget(time.perf_counter() + 60, 50_000)
        weights = DEFAULT_TEAM[0].weights
        search = the_depth_first()(position, budget, weights, deadlocks=True, keep_builds=True)
        outcome = None
        try:
            while not budget.exhausted():
                next(search)
        except StopIteration as stop:
            outcome = stop.value
        if outcome is None or outcome.result != WON:
            continue
        won += 1
        board = Board(position)
        for card, dest in outcome.moves:
            if dest != FOUNDATION and board.loc[card] != FOUNDATION:
                assert not board.lies_on_a_fit(card), (position.to_dict(), card, dest)
            board.play(card, dest)
        assert board.is_won()
    assert won >= 6


def test_tries_keeping_builds_win_a_deal_the_other_kinds_do_not(monkeypatch):
    """YU1-C-OMNOHDG: unsettled by the default team in 60 s before tries keeping builds (the
    third census of 2026-12-07, docs/winnability.md). With them, the restarts win it within
    500,000 positions; the other kinds alone, in five times as many, do not."""
    code, positions = "YU1-C-OMNOHDG", 500_000
    alone = (Member("restarts", deadlocks=True),)
    solution = solve(code, time_limit=60, max_nodes=positions, team=alone)
    assert solution.result == WON and solution.by == "restarts with deadlocks"

    def others():
        return (entry for entry in tries() if entry[2] != "keep builds")

    monkeypatch.setattr(restarts_module, "tries", others)
    assert solve(code, time_limit=60, max_nodes=5 * positions, team=alone).result != WON


@pytest.mark.parametrize("name", list(POSITIONS))
def test_a_try_that_ends_decides_as_the_checker_does(name):
    position, winnable = POSITIONS[name]
    assert exhaust(position) is winnable
    outcome = run_to_the_end(position, Budget(time.perf_counter() + 60, 100_000))
    assert outcome.result == (WON if winnable else UNWINNABLE)


def test_tries_stopped_at_their_size_decide_nothing(monkeypatch):
    """Tries of 50, 50, 100, 50, 50, 100, 200 … positions: on this deal the first are stopped
    before they decide, and only a try that ends answers (a win the engine replays); the
    stopped ones' positions leave the budget's count."""
    monkeypatch.setattr(restarts_module, "UNIT", 50)
    budget = Budget(time.perf_counter() + 60, 1_000_000)
    outcome = run_to_the_end(Position.from_code("YU1-C-AAAAAAB"), budget)
    assert outcome.result == WON
    assert budget.searched > 10 * budget.nodes
    assert verify("YU1-C-AAAAAAB", " ".join(str(MOVES[card][dest]) for card, dest in outcome.moves)).won
    # Searched in all, at most what the budget holds: then it gives up.
    small = Budget(time.perf_counter() + 60, 300)
    assert run_to_the_end(Position.from_code("YU1-C-AAAAAAB"), small).result == "unknown"


def test_restarts_win_a_deal_the_team_did_not_win_in_60_seconds():
    """YU1-C-LDTIULQ: unsettled by the team without restarts in 60 s (the census of 2026-12-06
    before restarts, docs/winnability.md); its first try wins it in a few dozen positions."""
    code = "YU1-C-LDTIULQ"
    without = tuple(member for member in DEFAULT_TEAM if member.search != "restarts")
    assert solve(code, max_nodes=20_000, team=without).result != WON
    solution = solve(code, max_nodes=20_000, team=(Member("restarts", deadlocks=True),))
    assert solution.result == WON and solution.by == "restarts with deadlocks"
    assert solution.nodes < 1_000


def test_the_default_team_restarts():
    members = [member for member in DEFAULT_TEAM if member.search == "restarts"]
    assert len(members) == 1 and members[0].deadlocks
    assert solve("YU1-C-LDTIULQ", max_nodes=200_000).result == WON


def test_members_take_turns_by_their_shares(monkeypatch):
    """A member with half a share gets half as many turns, each turn taking the same time."""
    turns = {"full": 0, "half": 0}

    def counting(name):
        def search(position, budget, weights, seen=None, **options):
            while True:
                turns[name] += 1
                budget.add_node()
                yield

        return search

    clock = iter(range(10**9))
    monkeypatch.setattr(portfolio_module, "time", SimpleNamespace(perf_counter=lambda: float(next(clock))))
    monkeypatch.setattr(portfolio_module, "compiled_searches", lambda: None)
    searches = {"depth-first": depth_first, "full": counting("full"), "half": counting("half")}
    monkeypatch.setattr(portfolio_module, "SEARCHES", searches)
    team = (Member("full"), Member("half", share=0.5))
    position = POSITIONS["spades free"][0]
    outcome = portfolio_module.portfolio(position, Budget(time.perf_counter() + 60, 3_000), team)
    assert outcome.result == "unknown"
    assert turns == {"full": 2_000, "half": 1_000}
