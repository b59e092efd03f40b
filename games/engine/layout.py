"""A position as text a person can read: one line per column, face-down cards as ``##``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CARD_LABELS, CARD_NAMES, SUIT_CHARS, SUIT_SYMBOLS

if TYPE_CHECKING:
    from .game import Game

HIDDEN = "##"
UNKNOWN = "??"  # turned up, but not known yet (a game from a visible deal)
EMPTY = "--"


def format_table(game: Game, *, symbols: bool = True) -> str:
    """The table as lines of text.

    ``symbols=False`` writes cards in log notation (``TD``) for terminals without ``♠♥♦♣``.
    """
    names = CARD_LABELS if symbols else CARD_NAMES
    suits = SUIT_SYMBOLS if symbols else SUIT_CHARS
    width = 3 if symbols else 2  # "10♦" is the widest label
    status = "won" if game.is_won() else f"moves {game.moves_made}"
    title = "hidden deal" if game.code is None else game.code
    lines = [f"{title}  {game.rules.value.capitalize()}  {status}  points {game.points}"]
    tops = []
    for suit, count in enumerate(game.foundations):
        top = names[suit * 13 + count - 1] if count else EMPTY
        tops.append(f"{suits[suit]} {top}")
    lines.append("F  " + "   ".join(tops))
    for index, (column, hidden) in enumerate(zip(game.columns, game.face_down, strict=True), start=1):
        cells = [
            HIDDEN if position < hidden else UNKNOWN if card is None else names[card]
            for position, card in enumerate(column)
        ]
        lines.append(f"{index}  " + " ".join(cell.ljust(width) for cell in cells).rstrip())
    return "\n".join(lines)
