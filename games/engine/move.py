"""Moves and logs: ``Move.parse("TD>5")``, ``str(move) == "TD>5"``, ``U`` for an undo."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import CARD_NAMES, DECK_SIZE, Card
from .errors import InvalidMoveError

COLUMN_COUNT: Final = 7
FOUNDATION: Final = 7  # the destination index of ``F``; columns are 0 … 6
UNDO: Final = "U"


@dataclass(frozen=True, slots=True)
class Move:
    """A card and where it goes: a column index 0 … 6, or ``FOUNDATION``."""

    card: Card
    dest: int

    @classmethod
    def parse(cls, text: str) -> Move:
        try:
            return MOVES_BY_TEXT[text]
        except (KeyError, TypeError):
            raise InvalidMoveError(str(text)) from None

    @property
    def to_foundation(self) -> bool:
        return self.dest == FOUNDATION

    def __str__(self) -> str:
        return f"{CARD_NAMES[self.card]}>{'F' if self.dest == FOUNDATION else self.dest + 1}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


# Every possible move exists once; parsing is a dictionary look-up and returns shared objects.
MOVES: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(card, dest) for dest in range(COLUMN_COUNT + 1)) for card in range(DECK_SIZE)
)
MOVES_BY_TEXT: dict[str, Move] = {str(m): m for row in MOVES for m in row}

Token = Move | str  # a Move, or UNDO


def parse_token(text: str) -> Token:
    if text == UNDO:
        return UNDO
    return Move.parse(text)


def parse_log(log: str) -> list[Token]:
    """Split a log on white space and parse each token; a bad one raises with its index."""
    tokens: list[Token] = []
    for index, text in enumerate(log.split()):
        token = MOVES_BY_TEXT.get(text)
        if token is None:
            if text != UNDO:
                raise InvalidMoveError(text, index)
            token = UNDO
        tokens.append(token)
    return tokens


def format_log(tokens: list[Token]) -> str:
    return " ".join(str(t) for t in tokens)
