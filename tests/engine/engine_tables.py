"""Hand-made positions for rule tests: write the table, reason about it, assert.

``table("9H 2C", "TS", "", rules="classic", foundations={"S": 3})`` gives a ``Game`` whose
column 1 is 9♥ (bottom) then 2♣, column 2 is 10♠, column 3 is empty, with A♠ 2♠ 3♠ on the
spade foundation. ``#5C`` is a face-down card (face-down cards sit at the bottom). Every card
the table does not name lies face down at the bottom of column 7, under what is written for
it, so the deck always holds its 52 cards; if column 7 is not written, the last of them
(the highest card left, usually K♣) lies face up.
"""

from __future__ import annotations

from games.engine import Game, GameCode, Rules, card_name, parse_card

SUITS = "SHDC"


def table(*columns: str, rules: str = "classic", foundations: dict[str, int] | None = None) -> Game:
    assert len(columns) <= 7
    laid = [column.split() for column in columns] + [[] for _ in range(7 - len(columns))]
    counts = [0, 0, 0, 0]
    for suit, count in (foundations or {}).items():
        counts[SUITS.index(suit)] = count
    on_foundations = {suit * 13 + rank for suit in range(4) for rank in range(counts[suit])}
    named = {parse_card(text.lstrip("#")) for column in laid for text in column}
    rest = [card for card in range(52) if card not in named and card not in on_foundations]

    cards_by_column, face_down = [], []
    for index, column in enumerate(laid):
        hidden = [text for text in column if text.startswith("#")]
        assert column[: len(hidden)] == hidden, f"face-down cards go at the bottom: {column}"
        cards = [parse_card(text.lstrip("#")) for text in column]
        if index == 6:
            cards, hidden = rest + cards, [*rest, *hidden]
            if len(hidden) == len(cards) and cards:
                hidden.pop()
        cards_by_column.append(cards)
        face_down.append(len(hidden))
    # The engine refuses a table with a face-down top card, or a card twice or missing.
    return Game.from_position(GameCode(Rules(rules), 0), cards_by_column, face_down, counts)


def names(game: Game, column: int) -> list[str]:
    """Column ``column`` (1–7) in notation, bottom to top; face-down cards as ``#XX``."""
    cards = game.columns[column - 1]
    down = game.face_down[column - 1]
    return [("#" if i < down else "") + card_name(card) for i, card in enumerate(cards)]
