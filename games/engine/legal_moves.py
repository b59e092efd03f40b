"""The legal moves of a position, listed lazily in the canonical order (docs/rules.md, "Legal
moves, in canonical order"), by looking up which cards fit where instead of trying every move."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .cards import DECK_SIZE, KING, RANK, RED, SUIT, Card
from .move import FOUNDATION, MOVES, Move

if TYPE_CHECKING:
    from .game import Game

MAX_GROUP = 20  # at most this many cards move at once

# The cards that fit onto each card (one rank lower; Classic: of the other colour), and Kings,
# which fit into an empty column: legal-move generation looks these up instead of trying moves.
_FITS_ONTO = {
    classic: tuple(
        tuple(
            card
            for card in range(DECK_SIZE)
            if RANK[card] == RANK[top] - 1 and not (classic and RED[card] == RED[top])
        )
        for top in range(DECK_SIZE)
    )
    for classic in (True, False)
}
_KINGS = tuple(c for c in range(DECK_SIZE) if RANK[c] == KING)


class LegalMoves:
    """The legal moves of a position, generated lazily in the canonical order.

    Supports ``move in legal_moves``, ``len()``, ``count()``, ``any()`` and iteration. Do not
    change the position while iterating (take a ``list`` first).
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._game.check_move(move.card, move.dest) is None

    def __iter__(self) -> Iterator[Move]:
        # The same answers as trying every card with ``check_move``, found by looking up which
        # cards fit where (see tests/engine: both ways must agree on every position).
        game = self._game
        if game.foundation_cards == DECK_SIZE:
            return
        columns, face_down, foundations = game._columns, game._face_down, game._foundations
        fits_onto = _FITS_ONTO[game._classic]
        destinations: dict[Card, list[int]] = {}  # card → the columns it fits onto, 1 → 7
        for dest, column in enumerate(columns):
            for card in fits_onto[column[-1]] if column else _KINGS:
                destinations.setdefault(card, []).append(dest)
        for source, column in enumerate(columns):
            size = len(column)
            for position in range(face_down[source], size):
                card = column[position]
                moves = MOVES[card]
                if size - position <= MAX_GROUP:
                    for dest in destinations.get(card, ()):
                        if dest != source:
                            yield moves[dest]
                if position == size - 1 and foundations[SUIT[card]] == RANK[card] - 1:
                    yield moves[FOUNDATION]
        for suit, count in enumerate(foundations):
            if count:
                card = suit * 13 + count - 1
                for dest in destinations.get(card, ()):
                    yield MOVES[card][dest]

    def count(self) -> int:
        return sum(1 for _ in self)

    __len__ = count

    def any(self) -> bool:
        return next(iter(self), None) is not None

    def __bool__(self) -> bool:
        return self.any()

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"
