"""Where a search starts: a deal, a layout read from JSON, or a game in progress.

A ``Position`` is immutable and complete: every card's place is known, face-down or not.
It can rebuild an engine ``Game`` so that every answer is checked by the engine itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import CARD_NAMES, Game, GameCode, InvalidPositionError, Rules, parse_card
from games.engine.deal import FACE_DOWN_AT_DEAL, deal_columns
from games.engine.game import check_position
from games.engine.move import Move
from games.engine.verify import replay

SUIT_COUNT = 4


class LayoutError(InvalidPositionError):
    """A layout that is not a possible Yukon position."""


@dataclass(frozen=True)
class Position:
    rules: Rules
    columns: tuple[tuple[int, ...], ...]  # bottom to top, face-down cards included
    face_down: tuple[int, ...]  # how many cards at the bottom of each column are face down
    foundations: tuple[int, ...] = (0, 0, 0, 0)  # cards on each foundation, ♠ ♥ ♦ ♣
    code: GameCode | None = None  # the deal this position comes from, when known
    history: tuple[Move, ...] = ()  # moves already played from the deal (a game in progress)

    def __post_init__(self) -> None:
        _check_position(self)

    # ----------------------------------------------------------------- constructors

    @classmethod
    def from_code(cls, code: GameCode | str) -> Position:
        if isinstance(code, str):
            code = GameCode.parse(code)
        columns = tuple(tuple(column) for column in deal_columns(code))
        return cls(code.rules, columns, FACE_DOWN_AT_DEAL, code=code)

    @classmethod
    def from_game(cls, game: Game, history: Sequence[Move] = ()) -> Position:
        return cls(game.rules, game.columns, game.face_down, game.foundations, game.code, tuple(history))

    @classmethod
    def from_log(cls, code: GameCode | str, log: str) -> Position:
        """The position after ``log`` (undo tokens allowed); an illegal log raises ``ValueError``."""
        game, error = replay(code, log)
        if error is not None:
            raise ValueError(f"the log is illegal: {error}")
        return cls.from_game(game, _effective_moves(log))

    @classmethod
    def from_layout(cls, data: Mapping[str, Any], rules: Rules | str | None = None) -> Position:
        """Read the engine's ``deal --json`` shape; ``foundations`` is optional.

        ``rules`` overrides the layout's own ``rules`` field.
        """
        try:
            if rules is None:
                rules = data["rules"]
            rules = rules if isinstance(rules, Rules) else Rules(str(rules).lower())
            columns = tuple(tuple(parse_card(name) for name in column) for column in data["columns"])
            face_down = tuple(int(count) for count in data["face_down"])
            foundations = tuple(int(count) for count in data.get("foundations", (0, 0, 0, 0)))
        except (KeyError, TypeError, ValueError) as error:
            raise LayoutError(f"not a layout: {error}") from None
        code = None
        if data.get("code"):
            code = GameCode.parse(str(data["code"]))
            code = GameCode(rules, code.number, code.version)
        return cls(rules, columns, face_down, foundations, code)

    # ----------------------------------------------------------------- reading

    @property
    def classic(self) -> bool:
        return self.rules is Rules.CLASSIC

    @property
    def is_deal(self) -> bool:
        """True when this is exactly the deal of ``code``: the engine can replay from it."""
        if self.code is None:
            return False
        if self.history:
            return True
        dealt = tuple(tuple(column) for column in deal_columns(self.code))
        return self.columns == dealt and self.face_down == FACE_DOWN_AT_DEAL and not any(self.foundations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": None if self.code is None else str(self.code),
            "rules": self.rules.value,
            "columns": [[CARD_NAMES[card] for card in column] for column in self.columns],
            "face_down": list(self.face_down),
            "foundations": list(self.foundations),
        }

    def game(self, *, keep_history: bool = False) -> Game:
        """An engine ``Game`` standing at this position (its move counter starts at 0)."""
        code = self.code if self.code is not None else GameCode(self.rules, 0)
        return Game.from_position(
            code, self.columns, self.face_down, self.foundations, keep_history=keep_history
        )


def _effective_moves(log: str) -> tuple[Move, ...]:
    """The moves of a log once its undo tokens have taken back what they undo."""
    moves: list[Move] = []
    for token in log.split():
        if token == "U":
            moves.pop()
        else:
            moves.append(Move.parse(token))
    return tuple(moves)


def _check_position(position: Position) -> None:
    if not isinstance(position.rules, Rules):
        raise LayoutError("rules must be classic or relaxed")
    try:
        check_position(position.columns, position.face_down, position.foundations)
    except InvalidPositionError as error:
        raise LayoutError(str(error)) from None
