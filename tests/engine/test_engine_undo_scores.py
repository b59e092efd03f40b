"""Undo, the move counter, points and the ranked score (docs/rules.md, "Moves" and "Scores")."""

from __future__ import annotations

import pytest
from engine_tables import names, table

from games.engine import Game, IllegalMoveError, Move, ranked_score


def play(game: Game, *tokens: str) -> Game:
    for token in tokens:
        game.play(token)
    return game


def test_undo_with_nothing_to_undo():
    with pytest.raises(IllegalMoveError) as caught:
        Game("YU1-C-AAAAAAA").undo()
    assert (caught.value.code, str(caught.value)) == ("nothing_to_undo", "there is nothing to undo")


def test_undo_returns_the_move_taken_back():
    game = play(table("9H", "TS"), "9H>2")
    assert game.undo() == Move.parse("9H>2")


def test_undo_restores_cards_and_points_but_not_the_counter():
    game = play(table("#5C #8D 9H", "TS"), "9H>2")
    assert game.points == 5
    game.undo()
    assert names(game, 1) == ["#5C", "#8D", "9H"]  # 8♦ is face down again
    assert names(game, 2) == ["TS"]
    assert game.points == 0
    assert game.moves_made == 1  # an undo is not a move and does not lower the counter


def test_after_undoing_a_flip_the_card_is_face_down_again():
    game = play(table("#5C #8D 9H", "TS", "9C"), "9H>2")
    assert game.check_move(Move.parse("8D>3").card, 2) is None
    game.undo()
    assert game.check_move(Move.parse("8D>3").card, 2) == "face_down"


def test_undo_a_foundation_move_takes_its_10_points_back():
    game = play(table("#5C AH"), "AH>F")
    assert (game.points, game.foundation_cards) == (15, 1)
    game.undo()
    assert (game.points, game.foundation_cards, game.moves_made) == (0, 0, 1)
    assert names(game, 1) == ["#5C", "AH"]


def test_undo_a_take_back_puts_the_card_on_its_foundation_again():
    game = play(table("4H", foundations={"S": 3}), "3S>1")
    game.undo()
    assert game.foundations == (3, 0, 0, 0)
    assert names(game, 1) == ["4H"]
    assert (game.points, game.moves_made) == (0, 1)


def test_undo_a_group_move_puts_the_whole_group_back():
    game = play(table("QD 7C 6H 3S", "8D"), "7C>2")
    game.undo()
    assert names(game, 1) == ["QD", "7C", "6H", "3S"] and names(game, 2) == ["8D"]


def test_undo_goes_back_to_the_deal():
    game = Game("YU1-R-AAAAAAB")
    start = game.to_dict()
    moves = []
    for _ in range(5):
        move = next(iter(game.legal_moves))
        moves.append(move)
        game.push(move)
    for move in reversed(moves):
        assert game.undo() == move
    assert not game.can_undo
    assert {**game.to_dict(), "moves": 0, "score": start["score"]} == start
    assert game.moves_made == 5


def test_undo_then_the_same_move_counts_twice_and_scores_once():
    game = play(table("#5C #8D 9H", "TS"), "9H>2", "U", "9H>2")
    assert (game.moves_made, game.points) == (2, 5)


def test_points_for_a_win_without_take_backs():
    # 52 cards × 10 and 21 face-down cards × 5
    assert 52 * 10 + 21 * 5 == 625


@pytest.mark.parametrize(
    ("cards", "won", "moves", "score"),
    [
        (0, False, 0, 1),  # never below 1
        (0, False, 150, 1),
        (3, False, 10, 290),
        (52, True, 100, 7100),  # a full win: 7,200 − moves
        (52, True, 7199, 1),
        (52, True, 9000, 1),
    ],
)
def test_ranked_score(cards, won, moves, score):
    assert ranked_score(foundation_cards=cards, won=won, moves=moves) == score


def test_ranked_score_of_a_position():
    game = play(table("#5C AH", "2H"), "AH>F", "2H>F")
    assert game.ranked_score() == 2 * 100 - 2
