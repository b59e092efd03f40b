"""The key property of games with unknown face-down cards (Hypothesis): a game from the visible
deal of a code, every reveal answered from that code's deal, cannot be told from the game of the
code after any log (undos and redeals included): the same position (but for the code and the
cards not told yet), legal moves, refusals and their messages, points, moves and score."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_engine_properties import ALL_MOVES, deals

from games.engine import (
    FACE_DOWN_PLACES,
    UNDO,
    UNKNOWN_CARD,
    Game,
    HiddenCardGame,
    IllegalMoveError,
    Move,
    dealt_card,
    visible_deal,
)

choices = st.lists(st.integers(0, 2**16), max_size=120)


def refusal(game: Game, move: Move) -> tuple[str, str] | None:
    try:
        game.push(move)
    except IllegalMoveError as error:
        return error.code, error.message
    game.undo()
    return None


class Both:
    """The game of a code and the game of its visible deal, told cards as they are asked for."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.known = Game(code)
        self.hidden = HiddenCardGame.from_visible(visible_deal(code))
        self.told: set[tuple[int, int]] = set()

    def play(self, token: Move | str) -> None:
        self.known.play(token)
        self.hidden.play(token)

    def answer(self) -> None:
        place = self.hidden.awaiting_reveal
        self.hidden.reveal(place, dealt_card(self.code, place))
        self.told.add(place)

    def check(self, probe_every_move: bool = False) -> None:
        known, hidden = self.known, self.hidden
        unknown = set(FACE_DOWN_PLACES) - self.told
        assert set(hidden.known_deal().unknown_places) == unknown
        expected = known.to_dict()
        expected["code"] = None
        for column, depth in unknown:  # a card not told has never left its place
            expected["columns"][column][depth] = None
        assert hidden.to_dict() == expected
        assert (hidden.can_undo, hidden.is_won(), hidden.ranked_score()) == (
            known.can_undo,
            known.is_won(),
            known.ranked_score(),
        )
        if hidden.awaiting_reveal is not None:
            assert list(hidden.legal_moves) == [] and not hidden.legal_moves
            assert hidden.to_dict()["columns"][hidden.awaiting_reveal.column][-1] is None
            return
        assert list(hidden.legal_moves) == list(known.legal_moves)
        if probe_every_move:
            for move in ALL_MOVES:
                assert hidden.check_move(move.card, move.dest) == known.check_move(move.card, move.dest)
                assert refusal(hidden, move) == refusal(known, move)


@given(deals, choices)
def test_a_game_answered_from_its_deal_plays_as_the_game_of_its_code(code, picks):
    both = Both(code)
    both.check(probe_every_move=True)
    for step, pick in enumerate(picks):
        known, hidden = both.known, both.hidden
        waiting = hidden.awaiting_reveal
        moves = list(known.legal_moves)
        if waiting is not None:
            if pick % 8 == 0:  # a move tried before the reveal
                move = ALL_MOVES[pick % len(ALL_MOVES)]
                assert hidden.check_move(move.card, move.dest) == UNKNOWN_CARD
                with pytest.raises(IllegalMoveError) as caught:
                    hidden.push(move)
                column = waiting.column + 1
                assert (caught.value.code, caught.value.message) == (
                    UNKNOWN_CARD,
                    f"the card turned up in column {column} is not known yet",
                )
            elif pick % 8 == 1:  # undone before the reveal: face down, still unknown
                both.play(UNDO)
            else:
                both.answer()
        elif pick % 23 == 0 and known.can_undo:  # a redeal: every move taken back
            while known.can_undo:
                both.play(UNDO)
                both.check()
        elif pick % 6 == 0 and known.can_undo or not moves:
            if not known.can_undo:
                break
            both.play(UNDO)
        elif pick % 5 == 0:  # any of the 416 moves: the same verdict and message, and it plays the same
            move = ALL_MOVES[pick % len(ALL_MOVES)]
            outcome = refusal(known, move)
            assert refusal(hidden, move) == outcome
            if outcome is None:
                both.play(move)
        else:
            both.play(moves[pick % len(moves)])
        both.check(probe_every_move=step % 25 == 0)
