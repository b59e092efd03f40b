"""Finishing a game: the foundation moves that win it, when foundation moves alone do
(docs/rules.md, "Finishing"). The table's Finish button plays them one by one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import DECK_SIZE, RANK, SUIT
from .move import FOUNDATION, MOVES, Move

if TYPE_CHECKING:
    from .game import Game


def finish_moves(game: Game) -> list[Move] | None:
    """The foundation moves that put every card left on the foundations: each time, of the
    columns' last cards that fit their foundation, the lowest rank (the leftmost column at equal
    ranks). None when the game is won, when a card lies face down (a player cannot know what it
    is, and a hidden-card game's page does not), or when foundation moves alone cannot win."""
    if game.is_won() or any(game.face_down):
        return None
    columns = [list(column) for column in game.columns]
    if any(card is None for column in columns for card in column):
        return None  # a card turned up and not told yet
    foundations = list(game.foundations)
    moves = []
    while True:
        fitting = [
            (RANK[column[-1]], index)
            for index, column in enumerate(columns)
            if column and foundations[SUIT[column[-1]]] == RANK[column[-1]] - 1
        ]
        if not fitting:
            break
        _, index = min(fitting)
        card = columns[index].pop()
        foundations[SUIT[card]] += 1
        moves.append(MOVES[card][FOUNDATION])
    return moves if game.foundation_cards + len(moves) == DECK_SIZE else None
