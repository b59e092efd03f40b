"""Finishing (docs/rules.md, "Finishing"): the foundation moves that win, on hand-made tables.
The shared vectors (finish.json) check both engines on real games."""

from __future__ import annotations

from engine_tables import table

from games.engine import Game, Move

SPADES_DOWN = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"  # 2♠ last: it can go up first
HEARTS_DOWN = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
DONE = {"S": 1, "H": 1, "D": 13, "C": 13}  # A♠, A♥ and the whole of ♦ and ♣ are up


def listed(game: Game) -> list[str] | None:
    moves = game.finish_moves()
    return None if moves is None else [str(move) for move in moves]


def test_lowest_rank_first_the_leftmost_column_at_equal_ranks():
    game = table(HEARTS_DOWN, SPADES_DOWN, foundations=DONE)
    expected = [f"{rank}{suit}>F" for rank in "23456789TJQK" for suit in "HS"]
    assert listed(game) == expected
    moves_before, points_before = game.moves_made, game.points
    for move in game.finish_moves():
        game.push(move)
    assert game.is_won()
    assert game.moves_made == moves_before + 24  # each one a move, as if tapped
    assert game.points == points_before + 24 * 10
    assert game.finish_moves() is None  # nothing left to finish


def test_a_card_under_a_higher_card_of_its_suit_blocks_the_finish_until_it_is_moved():
    spades, hearts = "KS QS JS TS 9S 8S 7S 6S 5S 4S 2S 3S", "KH QH JH TH 9H 8H 7H 6H 5H 3H 2H"
    game = table(spades, hearts, "4H", foundations=DONE)
    assert listed(game) is None  # 3♠ lies on 2♠
    game.push(Move.parse("3S>3"))  # 3♠ onto 4♥
    assert listed(game)[:4] == ["2S>F", "2H>F", "3H>F", "3S>F"]


def test_two_columns_blocking_each_other_cannot_finish():
    # 3♥ needs 2♥, under 3♠; 3♠ needs 2♠, under 3♥.
    spades, hearts = "KS QS JS TS 9S 8S 7S 6S 5S 4S 2S 3H", "KH QH JH TH 9H 8H 7H 6H 5H 4H 2H 3S"
    game = table(spades, hearts, foundations=DONE)
    assert listed(game) is None


def test_a_face_down_card_means_no_finish_even_where_it_would_fit():
    # The engine knows the face-down K♠, and foundation moves would reach it; the player does not.
    game = table("#KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", HEARTS_DOWN, foundations=DONE)
    assert game.face_down[0] == 1
    assert listed(game) is None
