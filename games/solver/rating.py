"""How the searches rate a position: lower is better, summed over its columns."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import DECK_SIZE, KING, RANK
from games.engine.move import COLUMN_COUNT

from .board import Board, Record


@dataclass(frozen=True)
class Weights:
    """How the searches rate a position: lower is better."""

    face_down: int = 20  # each face-down card
    breaks: int = 3  # each face-up card not lying on a card it fits (a King on the table does)
    covering: int = 1  # each face-up card in a column that still has face-down cards
    foundation: int = 1  # each card on a foundation (a bonus)
    second_tier: int = 10  # best-first: the delay before a position's second-tier moves


DEFAULT_WEIGHTS = Weights()


class ColumnScores(dict):
    """The memoised score of one column key: columns repeat across many positions."""

    LIMIT = 400_000

    def __init__(self, board: Board, weights: Weights) -> None:
        super().__init__()
        self.natural = board.natural
        self.weights = weights

    def __missing__(self, key: bytes) -> int:
        hidden, count = key[0], len(key) - 1
        if count == 0:
            return 0
        natural, weights = self.natural, self.weights
        breaks = 0
        for index in range(hidden + 1, count + 1):
            if index == 1:
                breaks += RANK[key[1]] != KING
            elif index == hidden + 1 or not natural[key[index - 1] * DECK_SIZE + key[index]]:
                breaks += 1
        score = weights.face_down * hidden + weights.breaks * breaks
        if hidden:
            score += weights.covering * (count - hidden)
        if len(self) < self.LIMIT:
            self[key] = score
        return score


def rescore(
    board: Board, scores: ColumnScores, keys: list[bytes], records: list[Record]
) -> tuple[int, list[bytes]]:
    """The change of score after ``records``, and the new column keys (``keys`` is before)."""
    new_keys = keys[:]
    change = 0
    for record in records:
        for index in (record[1], record[2]):
            if index < COLUMN_COUNT and new_keys[index] is keys[index]:
                new_keys[index] = key = board.column_key(index)
                change += scores[key] - scores[keys[index]]
    return change, new_keys
