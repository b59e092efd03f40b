"""The solver's verdict on each move (fairplay/verdicts.py): full knowledge, what the player could
see, and the hidden edge; on known lines of known deals, with small budgets."""

from __future__ import annotations

import pytest
from factories import WINNING_CODES, then_legal_moves, winning_log

from fairplay import verdicts as verdicts_module
from fairplay.choices import Table, is_safe
from fairplay.verdicts import Budget, game_verdicts
from games.engine import Game, Move, Rules
from games.solver import UNKNOWN, Position, Solution, solve

# A deal and a position of its winning line where the choice matters: two black Sevens fit on
# the red Eight of column 5. On what the player can see, 7♠ looks better (it wins most arrangements
# of the unseen cards); on the true deal it loses and 7♣, which the line plays, wins. Only a
# player who knows the face-down cards takes 7♣ there: the full-knowledge cheater's signature.
CODE = WINNING_CODES["classic"][2]
LINE = winning_log(CODE).split()
AT = 21
KNOWING, LOOKS_BEST = "7C>5", "7S>5"
# The last contested position is searched first: here, the choice.
SMALL = Budget(samples=4, nodes=300, solve_seconds=5.0, positions=1, full_nodes=20_000, full_seconds=5.0)


def test_the_known_case_is_what_it_says():
    assert LINE[AT] == KNOWING
    assert solve(Position.from_log(CODE, " ".join([*LINE[:AT], LOOKS_BEST]))).result == "unwinnable"
    assert solve(Position.from_log(CODE, " ".join(LINE[: AT + 1]))).result == "won"


def test_knowing_the_face_down_cards_shows_as_a_hidden_edge_a_cautious_player_has_not():
    # The game up to the choice, given up there (still winnable).
    knowing = game_verdicts(CODE, LINE[: AT + 1], SMALL)
    at = knowing.moves[AT]
    assert (at.kind, at.full, at.edge) == ("searched", "won", True)
    assert at.rank > 1 and at.score < at.best
    assert knowing.features()["hidden_edges"] == 1 and knowing.features()["hidden_edge"] > 0
    assert knowing.features()["blunders"] == 0

    # The cautious player takes what looks best: top choice, no edge, and a blunder no one could see.
    cautious = game_verdicts(CODE, [*LINE[:AT], LOOKS_BEST], SMALL)
    at = cautious.moves[AT]
    assert (at.rank, at.edge, at.full) == (1, False, "unwinnable")
    features = cautious.features()
    assert (features["hidden_edges"], features["hidden_edge"]) == (0, 0.0)
    assert (features["top_choice_share"], knowing.features()["top_choice_share"]) == (1.0, 0.0)


def lost_game(extra: int) -> list[str]:
    """The winning line up to the choice, the losing Seven, then `extra` more legal moves."""
    return then_legal_moves(CODE, [*LINE[:AT], LOOKS_BEST], extra)


def test_a_lost_game_is_lost_at_the_move_that_blundered_and_a_keeping_move_is_named():
    tokens = lost_game(extra=4)
    cheap = Budget(samples=2, nodes=200, positions=0, full_nodes=20_000, full_seconds=5.0)
    found = game_verdicts(CODE, tokens, cheap)
    features = found.features()
    assert (features["first_lost_move"], features["blunders"], features["deal_winnable"]) == (AT, 1, "won")
    assert [verdict.full for verdict in found.moves[AT - 1 : AT + 2]] == ["won", "unwinnable", "unwinnable"]
    keeping = features["keeping_move"]
    assert keeping and keeping != LOOKS_BEST
    assert solve(Position.from_log(CODE, " ".join([*LINE[:AT], keeping]))).result == "won"


def test_a_won_game_needs_no_search_to_be_winnable_all_along():
    found = game_verdicts(CODE, LINE, Budget(positions=0))
    assert {verdict.full for verdict in found.moves} == {"won"}
    assert (found.features()["blunders"], found.features()["first_lost_move"]) == (0, None)


def test_unknown_is_never_evidence(monkeypatch):
    """A solver that never decides: every verdict is unknown, and nothing is claimed."""

    def undecided(position, **limits) -> Solution:
        return Solution(UNKNOWN, None, 0, 0.0)

    monkeypatch.setattr(verdicts_module, "solve", undecided)
    monkeypatch.setattr("fairplay.choices.solve", undecided)
    found = game_verdicts(CODE, lost_game(extra=2), Budget(samples=2, positions=3))
    features = found.features()
    assert features["deal_winnable"] == "unknown"
    assert (features["blunders"], features["first_lost_move"], features["keeping_move"]) == (None, None, None)
    assert features["searched"] == 3 and features["unknown_positions"] == 3
    assert (features["top_choice_share"], features["hidden_edge"]) == (None, None)
    assert features["hidden_edges"] == 0
    assert all(verdict.edge is None and verdict.rank is None for verdict in found.moves)


def test_no_time_left_claims_nothing_either():
    found = game_verdicts(CODE, lost_game(extra=2), Budget(seconds=0.0, positions=3))
    features = found.features()
    assert (features["deal_winnable"], features["blunders"], features["hidden_edges"]) == ("unknown", None, 0)
    assert features["searched"] == 0 and features["contested"] > 0


def test_the_same_game_and_seed_give_the_same_verdicts():
    tokens = LINE[: AT + 1]
    first, again = game_verdicts(CODE, tokens, SMALL), game_verdicts(CODE, tokens, SMALL)
    assert [v.to_dict() for v in first.moves] == [v.to_dict() for v in again.moves]
    assert {**first.features(), "verdicts_cpu_ms": 0} == {**again.features(), "verdicts_cpu_ms": 0}


def test_a_position_with_one_choice_or_a_safe_foundation_move_is_not_searched():
    found = game_verdicts(CODE, LINE, Budget(positions=0))
    kinds = {verdict.kind for verdict in found.moves}
    assert kinds <= {"forced", "safe", "skipped"} and "safe" in kinds
    # An Ace is always safe to play up; a Two of spades only once both red Aces are up (Classic).
    assert is_safe(Move.parse("AS>F"), (0, 0, 0, 0), Rules.CLASSIC)
    assert not is_safe(Move.parse("2S>F"), (1, 0, 1, 0), Rules.CLASSIC)
    assert is_safe(Move.parse("2S>F"), (1, 1, 1, 0), Rules.CLASSIC)


def test_the_samples_keep_what_was_seen_and_shuffle_only_the_unseen():
    game = Game(CODE)
    for token in LINE[:AT]:
        game.play(token)
    table = Table.of(game)
    seen = frozenset(card for column in game.columns for card in column[:2])  # some face-down ones too
    places = table.unseen_places(seen)
    assert places and all(table.columns[column][depth] not in seen for column, depth in places)
    cards = [table.columns[column][depth] for column, depth in places]
    shuffled = table.arranged(places, list(reversed(cards)))
    for column, down in enumerate(table.face_down):
        assert shuffled.columns[column][down:] == table.columns[column][down:]  # face up: as it is
    assert sorted(sum(shuffled.columns, ())) == sorted(sum(table.columns, ()))


@pytest.mark.parametrize("name", ["default", "lab"])
def test_the_shipped_budgets(name):
    budget = verdicts_module.BUDGETS[name]
    assert budget.seconds <= 10 and budget.samples >= 2 and budget.positions >= 1
