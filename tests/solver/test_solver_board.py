"""The search's own board against the engine: same moves, same positions."""

from __future__ import annotations

import random

import pytest

from games.engine import Game, GameCode, Rules
from games.engine.cards import KING, RANK
from games.engine.move import FOUNDATION, MOVES
from games.solver.board import Board
from games.solver.position import Position

DEALS = [GameCode(rules, number) for rules in Rules for number in (0, 7, 123456, 9_000_000)]


def playout(code: GameCode, seed: int, length: int = 120):
    """Positions along a random game: the engine picks among its legal moves."""
    rng = random.Random(seed)
    game = Game(code)
    for _ in range(length):
        moves = list(game.legal_moves)
        if not moves or game.is_won():
            return
        yield game
        game.push(rng.choice(moves))


def excluded_on_purpose(board: Board, card: int, dest: int) -> bool:
    """Legal moves the generator leaves out, each for a reason that cannot lose a win."""
    if dest == FOUNDATION:
        return False
    source = board.loc[card]
    target = board.columns[dest]
    if not target:
        first_empty = next(i for i, column in enumerate(board.columns) if not column)
        if dest != first_empty:
            return True  # the same position as the move to the first empty column
        if source != FOUNDATION and board.columns[source].index(card) == 0:
            return True  # a whole column moved: the same position, columns swapped
    if source == FOUNDATION:
        board.found[card // 13] -= 1
        safe = board.is_safe(card)
        board.found[card // 13] += 1
        return safe  # the safe move would put it straight back
    return False


@pytest.mark.parametrize("code", DEALS, ids=str)
def test_generated_moves_are_the_engines_legal_moves(code):
    for seed in range(3):
        for game in playout(code, seed):
            board = Board(Position.from_game(game))
            first, second = board.moves()
            generated = {MOVES[card][dest] for card, dest in first + second}
            assert len(generated) == len(first) + len(second), "a move is generated twice"
            legal = set(game.legal_moves)
            assert generated <= legal
            for move in legal - generated:
                assert excluded_on_purpose(board, move.card, move.dest), f"{move} is missing\n{game}"


@pytest.mark.parametrize("code", DEALS[:4], ids=str)
def test_play_and_unplay_follow_the_engine(code):
    for game in playout(code, seed=1):
        board = Board(Position.from_game(game))
        before = (board.columns, board.down, board.found, board.loc, board.key())
        before = tuple(x[:] if isinstance(x, list) else x for x in before)
        for move in list(game.legal_moves):
            record = board.play(move.card, move.dest)
            game.push(move)
            assert board.columns == [list(column) for column in game.columns]
            assert tuple(board.down) == game.face_down
            assert tuple(board.found) == game.foundations
            game.undo()
            board.unplay(record)
            assert (board.columns, board.down, board.found, board.loc, board.key()) == before


def test_the_key_ignores_the_order_of_columns_and_load_restores_it():
    position = Position.from_code("YU1-C-AAAAAAB")
    board = Board(position)
    swapped = Position(position.rules, position.columns[::-1], position.face_down[::-1], position.foundations)
    assert Board(swapped).key() == board.key()
    loaded = Board(position)
    loaded.load(board.key())
    assert loaded.key() == board.key()
    assert loaded.found == board.found
    assert sorted(map(tuple, loaded.columns)) == sorted(map(tuple, board.columns))


def board_with(rules: str, foundations: list[int]) -> Board:
    """Every card not on a foundation face up in column 1."""
    rest = [
        rank + suit for index, suit in enumerate("SHDC") for rank in "A23456789TJQK"[foundations[index] :]
    ]
    columns = [rest] + [[] for _ in range(6)]
    data = {"rules": rules, "columns": columns, "face_down": [0] * 7, "foundations": foundations}
    return Board(Position.from_layout(data))


FIVE_OF_HEARTS = 1 * 13 + 4


def test_classic_safe_cards_need_the_other_colour_one_below_and_their_colour_two_below():
    assert board_with("classic", [4, 4, 3, 4]).is_safe(FIVE_OF_HEARTS)
    # A black four is still out: it might want to go on the five of hearts.
    assert not board_with("classic", [3, 4, 4, 4]).is_safe(FIVE_OF_HEARTS)
    # The three of diamonds could go on a black four taken back onto the five of hearts.
    assert not board_with("classic", [4, 4, 2, 4]).is_safe(FIVE_OF_HEARTS)


def test_relaxed_safe_cards_need_every_other_suit_one_below():
    assert board_with("relaxed", [4, 4, 4, 4]).is_safe(FIVE_OF_HEARTS)
    assert not board_with("relaxed", [4, 4, 3, 4]).is_safe(FIVE_OF_HEARTS)


@pytest.mark.parametrize("rules", ["classic", "relaxed"])
def test_aces_are_always_safe_and_kings_last(rules):
    assert all(board_with(rules, [0, 0, 0, 0]).is_safe(card) for card in range(52) if RANK[card] == 1)
    kings = [card for card in range(52) if RANK[card] == KING]
    assert all(board_with(rules, [12, 12, 12, 12]).is_safe(card) for card in kings)
    assert not board_with(rules, [12, 11, 12, 12]).is_safe(kings[0])  # Q♥ could still go on K♠
