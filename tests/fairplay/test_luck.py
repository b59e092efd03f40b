"""Luck (fairplay/verdicts.py, docs/fairplay.md "Luck"): how unlikely it was, on what could be
seen, that a game's choices kept its deal winnable. Its promise is a bound that holds whoever the
player is: for a player who saw only the visible cards, each position's factor averages at most 1,
so odds of 1 in 10^x come up with a chance of at most 10^−x. The attack on that promise is an
honest player who wins often; the tests below play one, many times, on exchangeable samples."""

from __future__ import annotations

import math
import random

import pytest
from factories import WINNING_CODES, winning_log

from fairplay.choices import Ranking
from fairplay.scoring import game_score
from fairplay.verdicts import LUCK_BET, Budget, GameVerdicts, MoveVerdict, game_verdicts
from games.engine import Move
from games.solver import UNWINNABLE, WON

CODE = WINNING_CODES["classic"][2]
LINE = winning_log(CODE).split()
AT = 21  # tests/fairplay/test_verdicts.py: 7♣ wins where 7♠ looked better
MOVE = Move.parse("7C>5")
SMALL = Budget(samples=4, nodes=300, solve_seconds=5.0, positions=1, full_nodes=20_000, full_seconds=5.0)


def searched(full: str, odds: float) -> MoveVerdict:
    return MoveVerdict("searched", full=full, odds=odds)


def test_each_kept_win_against_the_odds_multiplies_the_ratio_and_the_lost_move_divides_it():
    moves = [
        MoveVerdict("forced", full=WON),
        searched(WON, 1.0),  # every arrangement kept the win: nothing learnt
        searched(WON, 0.5),
        MoveVerdict("undo"),
        searched(WON, 0.25),
        searched(UNWINNABLE, 0.5),  # the move that lost the deal
        searched(UNWINNABLE, 0.2),  # after it nothing was winnable: not counted
    ]
    verdicts = GameVerdicts(moves, WON, first_lost_move=5, blunders=1)
    factors = [1.0, 1 - LUCK_BET + LUCK_BET / 0.5, 1 - LUCK_BET + LUCK_BET / 0.25, 1 - LUCK_BET]
    assert verdicts.luck() == round(math.log10(math.prod(factors)), 3)
    assert GameVerdicts([MoveVerdict("forced", full=WON)], WON).luck() is None


def test_the_odds_lean_towards_the_player():
    seven_club, seven_spade = Move.parse("7C>5"), Move.parse("7S>5")
    ranking = Ranking((seven_club, seven_spade), (0.0, 1.0), 0.0, may_win=(0, 4), open=4)
    assert ranking.odds_of(seven_club) == 1 / 5  # never 0: the true arrangement is one more
    assert ranking.odds_of(seven_spade) == 1.0
    # An arrangement where no move may win is not one where the position was winnable.
    assert Ranking((seven_club,), (None,), 0.0, may_win=(0,), open=0).odds_of(seven_club) == 1.0


@pytest.mark.parametrize("chance", [0.05, 0.3, 0.7, 0.95])
@pytest.mark.parametrize("samples", [2, 3, 6])
def test_an_honest_player_gains_nothing_on_average(chance: float, samples: int):
    """Arrangements drawn alike, the true one among them: a move that wins a share `chance` of
    them. However often such a player wins, their factor averages at most 1 (the bound's promise);
    a program that knew which arrangement was true would multiply its odds every time."""
    rng = random.Random(f"{chance}:{samples}")
    total, rounds = 0.0, 40_000
    for _ in range(rounds):
        wins = sum(rng.random() < chance for _ in range(samples))
        kept = rng.random() < chance
        odds = Ranking((MOVE,), (None,), 0.0, (wins,), samples).odds_of(MOVE)
        total += 1 - LUCK_BET + LUCK_BET * kept / odds
    mean = total / rounds
    noise = 3 * math.sqrt(LUCK_BET**2 / (chance * rounds))
    assert mean <= 1.0 + noise, f"an honest player averages {mean:.3f}"


def test_the_move_only_a_knowing_player_takes_is_luck_and_the_one_that_looked_best_is_not():
    knowing = game_verdicts(CODE, LINE[: AT + 1], SMALL)
    assert knowing.moves[AT].odds < 1
    assert knowing.features()["luck"] > 0

    cautious = game_verdicts(CODE, [*LINE[:AT], "7S>5"], SMALL)  # looked best, and lost the deal
    assert cautious.moves[AT].full == UNWINNABLE
    assert cautious.features()["luck"] == round(math.log10(1 - LUCK_BET), 3)


def test_luck_is_scored_in_words():
    score = game_score({"luck": 3.0})
    assert score.total == 60.0
    assert score.parts[0].why == "kept the deal winnable against odds of 1 in 1,000 on what could be seen"
    assert game_score({"luck": -1.0}).total == 0 and game_score({"luck": None}).total == 0
