"""What a game's log and times tell of how it was played (fairplay/features.py), on known wins."""

from __future__ import annotations

import pytest
from factories import WINNING_CODES, winning_log

from fairplay.features import game_features
from games.engine import Game

CODE = WINNING_CODES["classic"][0]
FACE_DOWN = 21  # a Classic deal's face-down cards: a win turns each of them up


def turning_up(tokens: list[str]) -> list[bool]:
    """Per token: did it turn a card up (worked out here move by move, apart from the code)?"""
    game, found = Game(CODE), []
    for token in tokens:
        before = game.face_down
        game.play(token)
        found.append(any(now < then for now, then in zip(game.face_down, before, strict=True)))
    return found


def steady(tokens: list[str], pause: int = 300) -> list[int]:
    return [pause * (index + 1) for index in range(len(tokens))]


def test_a_plain_win_turns_each_face_down_card_up_once_and_peeks_at_none():
    tokens = winning_log(CODE).split()
    features = game_features(CODE, tokens, steady(tokens))
    assert (features.moves, features.undos, features.reveals, features.peeks) == (
        len(tokens),
        0,
        FACE_DOWN,
        0,
    )
    # A metronome: every pause the same, no longer after a card turned up.
    assert features.rhythm_spread == 0.0
    assert features.reveal_reaction == 1.0


def test_a_move_taken_back_after_it_turned_a_card_up_is_a_peek():
    tokens = winning_log(CODE).split()
    first = turning_up(tokens).index(True)
    peeked = [*tokens[: first + 1], "U", tokens[first], *tokens[first + 1 :]]
    features = game_features(CODE, peeked, steady(peeked))
    assert (features.undos, features.peeks, features.reveals) == (1, 1, FACE_DOWN + 1)
    assert features.moves == len(tokens) + 1
    # An undo of a move that turned nothing up is no peek.
    quiet = turning_up(tokens).index(False)
    undone = [*tokens[: quiet + 1], "U", tokens[quiet], *tokens[quiet + 1 :]]
    assert game_features(CODE, undone, steady(undone)).peeks == 0


def test_the_pause_after_a_card_turns_up_against_the_others():
    tokens = winning_log(CODE).split()
    up = turning_up(tokens)
    times, clock = [], 0
    for index in range(len(tokens)):
        clock += 1500 if index and up[index - 1] else 300  # a person reads the card just turned up
        times.append(clock)
    features = game_features(CODE, tokens, times)
    assert (features.pause_after_reveal_ms, features.pause_after_other_ms) == (1500, 300)
    assert features.reveal_reaction == 5.0
    assert features.rhythm_spread > 0.5
    assert features.to_dict()["reveal_reaction"] == 5.0


def test_times_that_do_not_match_the_log_are_refused():
    tokens = winning_log(CODE).split()
    with pytest.raises(ValueError, match="times"):
        game_features(CODE, tokens, steady(tokens)[:-1])
