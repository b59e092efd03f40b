"""Replay verification: a log is legal up to its first refused token, which is reported."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .codes import GameCode
from .errors import InvalidMoveError
from .game import Game
from .move import MOVES_BY_TEXT, UNDO

# The version of the rules implementation; stored with every verified result.
ENGINE_VERSION = "1"


@dataclass(frozen=True, slots=True)
class VerifyError:
    index: int  # 0-based, counting U tokens
    token: str
    code: str  # one of errors.REFUSAL_CODES
    reason: str  # the sentence a player reads

    def __str__(self) -> str:
        return f"move {self.index + 1} `{self.token}`: {self.reason}"


@dataclass(frozen=True, slots=True)
class Verdict:
    legal: bool
    won: bool
    moves: int
    foundation_cards: int
    score: int
    points: int
    error: VerifyError | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def replay(
    code: GameCode | str, log: str | list[str], *, keep_history: bool = True
) -> tuple[Game, VerifyError | None]:
    """Play ``log`` from the deal of ``code`` while it stays legal (scalachess: playWhileValid).

    Returns the position reached and the first refused token's error, or None. Raises
    ``InvalidCodeError`` for an unreadable code. With ``keep_history=False`` the position
    keeps a history only if the log holds an undo (faster; ``undo`` afterwards is refused).
    """
    tokens = log.split() if isinstance(log, str) else list(log)
    game = Game(code, keep_history=keep_history or UNDO in tokens)
    check, apply = game.check_move, game.apply_move
    for index, text in enumerate(tokens):
        move = MOVES_BY_TEXT.get(text)
        if move is None:
            if text != UNDO:
                return game, VerifyError(index, text, "bad_token", str(InvalidMoveError(text)))
            refusal = "game_over" if game.is_won() else None if game.can_undo else "nothing_to_undo"
            if refusal is None:
                game.undo()
                continue
        else:
            refusal = check(move.card, move.dest)
            if refusal is None:
                apply(move.card, move.dest)
                continue
        return game, VerifyError(index, text, refusal, game.explain(refusal, move))
    return game, None


def verify(code: GameCode | str, log: str | list[str]) -> Verdict:
    """Replay ``log`` on the deal of ``code``.

    Raises ``InvalidCodeError`` for an unreadable code; a bad or illegal token is not an
    exception but the verdict's ``error`` (the figures are those before that token).
    """
    game, error = replay(code, log, keep_history=False)
    return Verdict(
        legal=error is None,
        won=game.is_won(),
        moves=game.moves_made,
        foundation_cards=game.foundation_cards,
        score=game.ranked_score(),
        points=game.points,
        error=error,
    )
