"""Notation, logs and replay verification (docs/rules.md, "Notation and logs", "Verification")."""

from __future__ import annotations

import pytest

from games.engine import (
    FOUNDATION,
    UNDO,
    Game,
    IllegalMoveError,
    InvalidCodeError,
    InvalidMoveError,
    Move,
    format_log,
    parse_log,
    parse_token,
    replay,
    verify,
)

# YU1-C-AAAAAAB, as dealt (## = face down):
#   1  4♣
#   2  ## 2♥ Q♥ 5♥ 3♣ K♣
#   3  ## ## 10♣ 6♦ A♦ 8♣ J♥
#   4  ## ## ## 7♦ 3♠ 9♥ 6♥ J♦
#   5  ## ## ## ## K♠ 2♠ 7♣ A♥ 3♦
#   6  ## ## ## ## ## Q♦ Q♠ 7♠ 3♥ Q♣
#   7  ## ## ## ## ## ## 2♣ 5♦ J♣ A♣ 9♠
CODE = "YU1-C-AAAAAAB"


def test_the_deal_used_here():
    layout = Game(CODE).to_dict()
    assert layout["columns"][0] == ["4C"]
    assert layout["columns"][4][layout["face_down"][4] :] == ["KS", "2S", "7C", "AH", "3D"]


def test_move_notation_round_trips():
    move = Move.parse("TD>5")
    assert (move.card, move.dest) == (35, 4)
    assert str(move) == "TD>5" and repr(move) == "Move.parse('TD>5')"
    assert Move.parse("AS>F").dest == FOUNDATION and Move.parse("AS>F").to_foundation
    cards = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
    for text in (f"{card}>{dest}" for card in cards for dest in "1234567F"):
        assert str(Move.parse(text)) == text


@pytest.mark.parametrize("text", ["9X>2", "td>5", "TD>8", "TD>0", "TD>f", "TD-5", "u", "UU", "", "TD>5 "])
def test_malformed_tokens(text):
    with pytest.raises(InvalidMoveError) as caught:
        Move.parse(text)
    assert caught.value.code == "bad_token" and isinstance(caught.value, ValueError)


def test_bad_token_message():
    assert str(InvalidMoveError("9X>2")) == (
        "`9X>2` is not a move: write a card and a destination like TD>5, or U to undo"
    )


def test_logs_split_on_any_white_space():
    tokens = parse_log(" 3D>1\n\tAH>F  U\r\n")
    assert tokens == [Move.parse("3D>1"), Move.parse("AH>F"), UNDO]
    assert format_log(tokens) == "3D>1 AH>F U"
    assert parse_token("U") == UNDO


def test_parse_log_reports_the_index():
    with pytest.raises(InvalidMoveError) as caught:
        parse_log("3D>1 AH>F 9X>2")
    assert caught.value.index == 2


def test_a_legal_log():
    # 3♦ onto 4♣; A♥ (now the last card of column 5) to its foundation.
    verdict = verify(CODE, "3D>1 AH>F")
    assert verdict.to_dict() == {
        "legal": True,
        "won": False,
        "moves": 2,
        "foundation_cards": 1,
        "score": 98,
        "points": 10,
        "error": None,
    }


def test_an_illegal_log_reports_the_first_refusal_and_the_figures_before_it():
    # A♦ has 8♣ and J♥ on it; the tokens after the refused one are not read.
    verdict = verify(CODE, "3D>1 AH>F AD>F 9X>2")
    assert (verdict.legal, verdict.moves, verdict.points, verdict.foundation_cards) == (False, 2, 10, 1)
    error = verdict.error
    assert (error.index, error.token, error.code) == (2, "AD>F", "not_last_card")
    assert error.reason == "only the last card of a column can go to a foundation"
    assert str(error) == "move 3 `AD>F`: only the last card of a column can go to a foundation"


def test_the_index_counts_undo_tokens():
    verdict = verify(CODE, "3D>1 U U")
    assert (verdict.error.index, verdict.error.code, verdict.moves) == (2, "nothing_to_undo", 1)


def test_a_malformed_token_is_a_verdict_not_an_exception():
    verdict = verify(CODE, ["3D>1", "td>5"])
    assert (verdict.legal, verdict.error.index, verdict.error.code, verdict.moves) == (
        False,
        1,
        "bad_token",
        1,
    )


def test_an_empty_log_is_legal():
    assert verify(CODE, "").to_dict()["error"] is None and verify(CODE, " \n").moves == 0


def test_a_bad_code_raises():
    with pytest.raises(InvalidCodeError):
        verify("YU3-C-AAAAAAB", "")


def test_replay_returns_the_position_reached():
    game, error = replay(CODE, "3D>1 AH>F KS>1")
    assert game.to_dict()["columns"][0] == ["4C", "3D"]
    assert game.foundations == (0, 1, 0, 0)
    assert error.code == "wrong_rank" and error.reason == "K♠ can only go to an empty column"
    game.undo()  # the history is kept: the position can be played on
    assert game.foundations == (0, 0, 0, 0)


def test_push_raises_with_the_code_and_the_message():
    game = Game(CODE)
    with pytest.raises(IllegalMoveError) as caught:
        game.push(Move.parse("9S>1"))
    assert caught.value.code == "wrong_rank" and str(caught.value) == "9♠ needs a red 10"
    assert game.moves_made == 0  # a refused move changes nothing
