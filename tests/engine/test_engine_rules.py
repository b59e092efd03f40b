"""Every move rule and every refusal, on hand-made positions (docs/rules.md, "Moves", "Refusals").

Each expectation here is reasoned from the rules, not taken from the engine.
"""

from __future__ import annotations

import pytest
from engine_tables import names, table

from games.engine import Game, IllegalMoveError, InvalidPositionError, Move, Rules


def refusal(game, token: str) -> str | None:
    move = Move.parse(token)
    return game.check_move(move.card, move.dest)


def refused(game, token: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        game.push(Move.parse(token))
    return caught.value


# --- Building on a column ----------------------------------------------------------------------


def test_classic_builds_down_in_alternating_colours():
    game = table("8S", "9H", "9C", "9S")
    assert refusal(game, "8S>2") is None  # black 8 on red 9
    assert refusal(game, "8S>3") == "wrong_colour"  # black on black
    error = refused(game, "8S>4")
    assert (error.code, str(error)) == ("wrong_colour", "8♠ needs a red 9")


def test_relaxed_ignores_colour_but_not_rank():
    game = table("8S", "9H", "9C", "TS", "8C", rules="relaxed")
    assert refusal(game, "8S>2") is None
    assert refusal(game, "8S>3") is None  # same colour is fine under Relaxed
    error = refused(game, "8S>4")
    assert (error.code, str(error)) == ("wrong_rank", "8♠ needs a 9")
    assert str(refused(game, "8S>5")) == "8♠ needs a 9"


def test_relaxed_message_says_an_8():
    game = table("7D", "TS", rules="relaxed")
    assert str(refused(game, "7D>2")) == "7♦ needs an 8"


def test_classic_wrong_rank_names_the_colour_needed():
    game = table("8S", "TH", "9D")
    error = refused(game, "8S>2")
    assert (error.code, str(error)) == ("wrong_rank", "8♠ needs a red 9")
    assert str(refused(table("8H", "TS"), "8H>2")) == "8♥ needs a black 9"


def test_a_group_moves_whole_whether_in_sequence_or_not():
    game = table("9H 2C 5D KS", "TS")
    game.push(Move.parse("9H>2"))  # only the bottom card, 9♥, must fit onto 10♠
    assert names(game, 1) == []
    assert names(game, 2) == ["TS", "9H", "2C", "5D", "KS"]
    assert game.moves_made == 1


def test_a_group_from_the_middle_of_a_column():
    game = table("QD 7C 6H 3S", "8D")
    game.push(Move.parse("7C>2"))
    assert names(game, 1) == ["QD"]
    assert names(game, 2) == ["8D", "7C", "6H", "3S"]


def test_nothing_fits_onto_an_ace():
    game = table("2H", "AS", "KD")
    assert refusal(game, "2H>2") == "wrong_rank"
    assert refusal(game, "KD>2") == "wrong_rank"
    relaxed = table("2S", "AS", rules="relaxed")
    assert refusal(relaxed, "2S>2") == "wrong_rank"


def test_a_king_goes_only_to_an_empty_column():
    game = table("KH", "QS", "")
    error = refused(game, "KH>2")
    assert (error.code, str(error)) == ("wrong_rank", "K♥ can only go to an empty column")
    assert refusal(game, "KH>3") is None


# --- Empty columns -------------------------------------------------------------------------------


def test_an_empty_column_takes_only_a_king():
    game = table("QH", "KS JD 4C", "")
    error = refused(game, "QH>3")
    assert (error.code, str(error)) == ("empty_needs_king", "an empty column takes only a King")
    game.push(Move.parse("KS>3"))  # a King with cards on it
    assert names(game, 3) == ["KS", "JD", "4C"]
    assert names(game, 2) == []


def test_relaxed_empty_column_also_takes_only_a_king():
    assert refusal(table("QH", "", rules="relaxed"), "QH>2") == "empty_needs_king"


def test_a_king_at_the_bottom_of_a_column_may_move_to_another_empty_column():
    game = table("KH QS", "")
    game.push(Move.parse("KH>2"))
    assert names(game, 1) == [] and names(game, 2) == ["KH", "QS"]
    assert game.moves_made == 1
    game.push(Move.parse("KH>1"))  # and back again: also legal, also counted
    assert game.moves_made == 2 and game.points == 0


# --- At most 20 cards move at once ---------------------------------------------------------------

TWENTY = "8C 2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H 2S 3S 4S 5S 6S 7S 9C"  # 20 cards, 8♣ first


def test_a_group_of_21_is_refused_even_where_it_fits():
    game = table("9H " + TWENTY, "TS", "9D")
    error = refused(game, "9H>2")
    assert (error.code, str(error)) == ("group_too_large", "the group has 21 cards; at most 20 move at once")


def test_a_group_of_20_moves():
    game = table("9H " + TWENTY, "TS", "9D")
    game.push(Move.parse("8C>3"))  # 8♣ and the 19 cards on it
    assert len(game.columns[2]) == 21
    assert names(game, 1) == ["9H"]


def test_group_too_large_comes_before_the_destination_checks():
    game = table("9H " + TWENTY, "", "2C")
    assert refusal(game, "9H>2") == "group_too_large"  # not empty_needs_king
    assert refusal(game, "9H>3") == "group_too_large"  # not wrong_rank


def test_same_column_comes_before_group_too_large():
    assert refusal(table("9H " + TWENTY), "9H>1") == "same_column"


# --- Face-down cards and auto-flip -----------------------------------------------------------------


def test_a_face_down_card_cannot_move():
    game = table("#5C #8D 9H", "TS", "9D")
    assert refusal(game, "8D>2") == "face_down"  # it would fit, but it is face down
    assert refusal(game, "8D>F") == "face_down"
    error = refused(game, "5C>1")
    assert (error.code, str(error)) == ("face_down", "that card is face down")


def test_auto_flip_turns_up_the_new_last_card_and_scores_5():
    game = table("#5C #8D 9H", "TS")
    game.push(Move.parse("9H>2"))
    assert names(game, 1) == ["#5C", "8D"]
    assert game.points == 5 and game.moves_made == 1


def test_auto_flip_after_a_foundation_move_scores_15():
    game = table("#5C AH")
    game.push(Move.parse("AH>F"))
    assert names(game, 1) == ["5C"]
    assert game.points == 15 and game.foundation_cards == 1


def test_emptying_a_column_turns_nothing_up():
    game = table("9H", "TS")
    game.push(Move.parse("9H>2"))
    assert game.points == 0 and names(game, 1) == []


# --- Foundations ---------------------------------------------------------------------------------


def test_foundations_build_up_by_suit_from_the_ace():
    game = table("3S", "2S", "AS")
    error = refused(game, "3S>F")
    assert (error.code, str(error)) == ("foundation_order", "the ♠ foundation needs A♠ next")
    for token in ("AS>F", "2S>F", "3S>F"):
        game.push(Move.parse(token))
    assert game.foundations == (3, 0, 0, 0)
    assert game.points == 30 and game.foundation_cards == 3


def test_foundation_order_names_the_next_card():
    game = table("4H", foundations={"H": 2})
    assert str(refused(game, "4H>F")) == "the ♥ foundation needs 3♥ next"


def test_only_the_last_card_of_a_column_goes_to_a_foundation():
    game = table("AS 5D")
    error = refused(game, "AS>F")
    assert (error.code, str(error)) == (
        "not_last_card",
        "only the last card of a column can go to a foundation",
    )


def test_not_last_card_comes_before_foundation_order():
    assert refusal(table("7S 5D"), "7S>F") == "not_last_card"


def test_a_card_on_its_foundation_cannot_go_there_again():
    game = table(foundations={"S": 1})
    error = refused(game, "AS>F")
    assert (error.code, str(error)) == ("same_column", "A♠ is already on its foundation")


# --- Take-backs ----------------------------------------------------------------------------------


def test_a_take_back_moves_a_foundation_top_onto_a_column():
    game = table("4H", foundations={"S": 3})
    game.push(Move.parse("3S>1"))
    assert names(game, 1) == ["4H", "3S"]
    assert game.foundations == (2, 0, 0, 0)
    assert game.points == 0 and game.moves_made == 1  # costs nothing, counts as a move


def test_putting_a_taken_back_card_on_its_foundation_again_scores_10_again():
    game = table("4H", foundations={"S": 3})
    for token in ("3S>1", "3S>F", "3S>1", "3S>F"):
        game.push(Move.parse(token))
    assert game.points == 20 and game.moves_made == 4 and game.foundation_cards == 3


def test_only_a_foundation_top_can_be_taken_back():
    game = table("3H", "", foundations={"S": 3})
    error = refused(game, "2S>1")
    assert (error.code, str(error)) == (
        "not_foundation_top",
        "only the top card of a foundation can be taken back",
    )
    assert refusal(game, "2S>F") == "not_foundation_top"  # before same_column


def test_a_take_back_follows_the_fitting_rules():
    game = table("4S", "5D", "", "KD", foundations={"S": 3, "H": 13})
    assert refusal(game, "3S>1") == "wrong_colour"  # Classic: black 3 on black 4
    assert refusal(game, "3S>2") == "wrong_rank"
    assert refusal(game, "3S>3") == "empty_needs_king"
    assert refusal(game, "KH>3") is None  # a King may be taken back into an empty column
    assert refusal(game, "KH>4") == "wrong_rank"
    relaxed = table("4S", foundations={"S": 3}, rules="relaxed")
    assert refusal(relaxed, "3S>1") is None


def test_a_take_back_skips_the_foundation_checks():
    # The 3♠ is the top of its foundation: not_last_card and foundation_order do not apply.
    assert refusal(table("4H", foundations={"S": 3}), "3S>1") is None


# --- Same column and the order of the checks -----------------------------------------------------


def test_a_group_onto_its_own_column():
    game = table("QD 7C 6H", "8D")
    error = refused(game, "7C>1")
    assert (error.code, str(error)) == ("same_column", "7♣ is already in column 1")
    assert refusal(game, "6H>1") == "same_column"


def test_face_down_comes_before_same_column_and_the_foundation_checks():
    game = table("#AS 5D")
    assert refusal(game, "AS>1") == "face_down"
    assert refusal(game, "AS>F") == "face_down"


# --- The end of the game -------------------------------------------------------------------------


def won_in_one() -> object:
    game = table("KC", foundations={"S": 13, "H": 13, "D": 13, "C": 12})
    game.push(Move.parse("KC>F"))
    return game


def test_the_game_is_won_with_52_cards_on_the_foundations():
    game = won_in_one()
    assert game.is_won() and game.foundation_cards == 52
    assert list(game.legal_moves) == [] and not game.legal_moves


def test_after_a_win_every_move_and_undo_is_game_over():
    game = won_in_one()
    for token in ("KC>1", "QS>2"):
        error = refused(game, token)
        assert (error.code, str(error)) == ("game_over", "the game is won: no more moves")
    with pytest.raises(IllegalMoveError) as caught:
        game.undo()
    assert caught.value.code == "game_over"


# ---- Game.from_position: a table set up by hand ---------------------------------------


def test_from_position_plays_from_the_table_it_was_given():
    deal = Game("YU1-C-AAAAAAB")
    game = Game.from_position("YU1-R-AAAAAAB", deal.columns, deal.face_down)
    assert game.columns == deal.columns and game.face_down == deal.face_down
    assert game.rules is Rules.RELAXED and game.moves_made == 0 and game.points == 0
    assert list(game.legal_moves) == list(Game("YU1-R-AAAAAAB").legal_moves)


def test_from_position_counts_the_foundations():
    game = table("2S", foundations={"S": 1, "H": 13, "D": 13, "C": 13})
    assert game.foundations == (1, 13, 13, 13) and game.foundation_cards == 40
    game.push(Move.parse("2S>F"))
    assert game.foundation_cards == 41


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda columns, down, found: columns[0].append(columns[1][0]), "appears twice"),
        (lambda columns, down, found: columns[0].pop(), "missing"),
        (lambda columns, down, found: down.__setitem__(0, len(columns[0])), "last card face up"),
        (lambda columns, down, found: found.__setitem__(0, 1), "both on a foundation and in a column"),
        (lambda columns, down, found: columns.pop(), "7 columns"),
        (lambda columns, down, found: found.__setitem__(2, 14), "from 0 to 13"),
    ],
)
def test_from_position_refuses_impossible_tables(change, message):
    deal = Game("YU1-C-AAAAAAB")
    columns, down, found = [list(column) for column in deal.columns], list(deal.face_down), [0, 0, 0, 0]
    change(columns, down, found)
    with pytest.raises(InvalidPositionError, match=message):
        Game.from_position("YU1-C-AAAAAAB", columns, down, found)
