"""Properties of random legal play (Hypothesis): the deck stays whole, face-down cards stay at
the bottom, undo restores exactly, verify agrees with play, and legal_moves is exactly what
push accepts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.engine import DEAL_COUNT, SUIT, UNDO, Game, GameCode, IllegalMoveError, Move, Rules, verify
from games.engine.move import MOVES
from games.engine.verify import replay

ALL_MOVES = [move for row in MOVES for move in row]

deals = st.builds(
    lambda rules, number: str(GameCode(rules, number)),
    st.sampled_from(list(Rules)),
    st.integers(0, DEAL_COUNT - 1),
)
choices = st.lists(st.integers(0, 2**16), max_size=80)


def position(game: Game) -> dict:
    """Everything an undo must restore (the move counter and so the ranked score excepted)."""
    return {key: value for key, value in game.to_dict().items() if key not in ("moves", "score")}


def choose(game: Game, choice: int) -> Move | str | None:
    """An undo (one time in six, when there is one) or the chosen legal move; None: no move."""
    if choice % 6 == 0 and game.can_undo:
        return UNDO
    moves = list(game.legal_moves)
    return moves[choice % len(moves)] if moves else None


def play(code: str, picks: list[int]) -> tuple[Game, list[str]]:
    """Random legal play from the deal, stopping early where there is no move; and its log."""
    game = Game(code)
    tokens = []
    for pick in picks:
        token = choose(game, pick)
        if token is None:
            break
        game.play(token)
        tokens.append(str(token))
    return game, tokens


def check_invariants(game: Game) -> None:
    in_columns = [card for column in game.columns for card in column]
    on_foundations = [
        suit * 13 + rank for suit, count in enumerate(game.foundations) for rank in range(count)
    ]
    assert sorted(in_columns + on_foundations) == list(range(52))  # 52 distinct cards, each once
    for column, hidden in zip(game.columns, game.face_down, strict=True):
        # face-down cards only at the bottom, and the last card of a column always face up
        assert 0 <= hidden and (hidden < len(column) or hidden == 0 == len(column))
    assert game.foundation_cards == sum(game.foundations)


@given(deals, choices)
def test_random_play_keeps_the_table_sound_and_undo_restores_it(code, picks):
    game = Game(code)
    snapshots = [position(game)]  # the position before each move still on the undo stack
    take_backs: list[bool] = []
    for pick in picks:
        before = position(game)
        counter = game.moves_made
        token = choose(game, pick)
        if token is None:
            break
        is_take_back = token != UNDO and all(token.card not in column for column in game.columns)
        game.play(token)
        check_invariants(game)
        if token == UNDO:
            assert position(game) == snapshots.pop()  # exactly the position before that move
            take_backs.pop()
            assert game.moves_made == counter  # undo is not a move
        else:
            snapshots.append(before)
            take_backs.append(is_take_back)
            assert game.moves_made == counter + 1
        if not any(take_backs):
            flipped = 21 - sum(game.face_down)
            assert game.points == 10 * game.foundation_cards + 5 * flipped
    while game.can_undo:
        game.undo()
    assert position(game) == position(Game(code))


@given(deals, choices)
def test_verify_of_the_recorded_log_equals_play(code, picks):
    game, tokens = play(code, picks)
    verdict = verify(code, " ".join(tokens))
    assert verdict.legal and verdict.error is None
    figures = (verdict.moves, verdict.points, verdict.foundation_cards, verdict.score, verdict.won)
    assert figures == (
        game.moves_made,
        game.points,
        game.foundation_cards,
        game.ranked_score(),
        game.is_won(),
    )
    assert replay(code, tokens)[0].to_dict() == game.to_dict()


def canonical_key(game: Game, move: Move) -> tuple:
    """docs/rules.md: column sources 1 → 7, cards bottom up, destinations 1 → 7 then F; then
    take-backs ♠ ♥ ♦ ♣, each to columns 1 → 7."""
    for index, column in enumerate(game.columns):
        if move.card in column:
            return (0, index, column.index(move.card), move.dest)
    return (1, SUIT[move.card], move.dest)


@given(deals, st.lists(st.integers(0, 2**16), max_size=40))
def test_legal_moves_are_exactly_the_moves_push_accepts(code, picks):
    game, tokens = play(code, picks)
    listed = list(game.legal_moves)
    legal = game.legal_moves
    accepted = []
    trial, _ = replay(code, tokens)
    for move in ALL_MOVES:  # all 52 × 8
        try:
            trial.push(move)
        except IllegalMoveError:
            assert move not in legal
            continue
        trial.undo()
        assert move in legal
        accepted.append(move)
    assert sorted(listed, key=lambda m: (m.card, m.dest)) == accepted  # the same set, no duplicates
    assert listed == sorted(listed, key=lambda m: canonical_key(game, m))
    assert len(legal) == len(accepted) and bool(legal) == bool(accepted)
