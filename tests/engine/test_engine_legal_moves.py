"""Legal moves in canonical order (docs/rules.md, "Legal moves, in canonical order")."""

from __future__ import annotations

from engine_tables import table

from games.engine import Game, Move

# Foundations: A♠ 2♠ | A♥–4♥ | A♦ 2♦ | A♣. The cards not written lie face down under 3♦.
LAYOUT = ("9H 8S", "TS", "#4D 9D", "", "KC QH", "6C", "3D")
FOUNDATIONS = {"S": 2, "H": 4, "D": 2, "C": 1}


def listed(game: Game) -> list[str]:
    return [str(move) for move in game.legal_moves]


def test_canonical_order_classic():
    game = table(*LAYOUT, foundations=FOUNDATIONS)
    assert listed(game) == [
        "9H>2",  # column 1, bottom card first: 9♥ (and 8♠ on it) onto 10♠
        "8S>3",  # then the card above it: 8♠ onto 9♦
        "9D>2",  # column 2's 10♠ has nowhere to go; column 3: 9♦ onto 10♠
        "KC>4",  # column 5: a King at the bottom of its column, to the empty column 4
        "3D>F",  # Q♥, 6♣ have nowhere to go; column 7: 3♦ onto its foundation
        "2S>7",  # take-backs last, ♠ first: 2♠ onto the red 3♦
    ]


def test_relaxed_lists_more_moves_from_the_same_table():
    game = table(*LAYOUT, foundations=FOUNDATIONS, rules="relaxed")
    assert listed(game) == ["9H>2", "8S>3", "9D>2", "KC>4", "3D>F", "2S>7", "2D>7"]  # 2♦ on 3♦


def test_destinations_go_columns_1_to_7_then_the_foundation():
    game = table("AD", "2S", "2C", "", "", "", "KS", rules="classic")
    assert listed(game) == ["AD>2", "AD>3", "AD>F", "KS>4", "KS>5", "KS>6"]


def test_no_legal_move_is_not_a_loss():
    game = table("2H", "4C", "6D", "8S", "TH", "QC", "KS")  # Q♣ on K♠: same colour
    assert listed(game) == [] and not game.legal_moves and not game.is_won()


def test_the_legal_moves_object():
    game = table(*LAYOUT, foundations=FOUNDATIONS)
    moves = game.legal_moves
    assert Move.parse("9H>2") in moves and Move.parse("9H>3") not in moves
    assert "9H>2" not in moves  # only Move objects are members
    assert len(moves) == moves.count() == 6
    assert moves.any() and bool(moves)
    assert repr(moves) == "<LegalMoves (9H>2, 8S>3, 9D>2, KC>4, 3D>F, 2S>7)>"
