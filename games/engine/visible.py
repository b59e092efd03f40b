"""Visible deals: a deal as a player sees it, each face-down card known or not (None).

A face-down card of the deal is named by its place: ``Place(column, depth)``, the column index
0–6 (as in ``Move.dest``) and the depth from the bottom of the column, as dealt. Face-down
cards never move (only face-up cards do), so a place names one card for the whole game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import CARD_NAMES, DECK_SIZE, Card, parse_card
from .codes import GameCode, Rules
from .deal import COLUMN_SIZES, FACE_DOWN_AT_DEAL, deal_columns
from .errors import InvalidPositionError, InvalidRevealError
from .move import COLUMN_COUNT


class Place(NamedTuple):
    """A face-down place of the deal; JSON ``{"column": 2, "depth": 1}``."""

    column: int  # 0–6, as in Move.dest
    depth: int  # from the bottom of the column, 0 first

    def to_dict(self) -> dict[str, int]:
        return {"column": self.column, "depth": self.depth}


# The 21 face-down places of a Yukon deal, column by column, bottom up.
FACE_DOWN_PLACES = tuple(
    Place(column, depth) for column, count in enumerate(FACE_DOWN_AT_DEAL) for depth in range(count)
)


def face_down_place(place: object) -> Place:
    """``place`` (a pair, or its JSON form ``{"column": …, "depth": …}``) as a ``Place``; raises
    ``InvalidRevealError`` (``not_face_down_place``) when it is not a face-down place of the deal."""
    try:
        column, depth = (place["column"], place["depth"]) if isinstance(place, Mapping) else place
    except (KeyError, TypeError, ValueError):
        column = depth = None
    if type(column) is not int or type(depth) is not int:
        raise InvalidRevealError(
            "not_face_down_place", "a face-down place is a column index (0–6) and a depth from the bottom"
        )
    if not (0 <= column < COLUMN_COUNT and 0 <= depth < FACE_DOWN_AT_DEAL[column]):
        raise InvalidRevealError(
            "not_face_down_place", f"no card was dealt face down at column index {column}, depth {depth}"
        )
    return Place(column, depth)


@dataclass(frozen=True)
class VisibleDeal:
    """The rule set and the seven columns as dealt, bottom to top; None for a face-down card not
    known. Every face-up card (the top five of columns 2–7, and column 1) must be known.

    Raises ``InvalidPositionError`` for anything no Yukon deal could show.
    """

    rules: Rules
    columns: tuple[tuple[Card | None, ...], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise InvalidPositionError(f"unknown rules {self.rules!r}: expected a Rules")
        if isinstance(self.columns, str | bytes) or not isinstance(self.columns, Sequence):
            raise InvalidPositionError("a deal is seven columns of cards")
        columns = tuple(_column(column) for column in self.columns)
        object.__setattr__(self, "columns", columns)
        if tuple(len(column) for column in columns) != COLUMN_SIZES:
            raise InvalidPositionError(f"a deal has 7 columns of {', '.join(map(str, COLUMN_SIZES))} cards")
        seen = set()
        for index, (column, hidden) in enumerate(zip(columns, FACE_DOWN_AT_DEAL, strict=True)):
            for depth, card in enumerate(column):
                if card is None:
                    if depth >= hidden:
                        raise InvalidPositionError(
                            f"the card at column index {index}, depth {depth} is face up: it must be known"
                        )
                    continue
                if type(card) is not int or not 0 <= card < DECK_SIZE:
                    raise InvalidPositionError(f"{card!r} is not a card")
                if card in seen:
                    raise InvalidPositionError(f"{CARD_NAMES[card]} appears twice")
                seen.add(card)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VisibleDeal:
        """The ``to_dict()`` form: ``{"rules": "classic", "columns": [["4C"], [null, …], …]}``
        (cards by name, null for unknown); a ``face_down`` entry, if any, must be the deal's."""
        if not isinstance(data, Mapping):
            raise InvalidPositionError("a visible deal is an object with rules and columns")
        rules = next((rules for rules in Rules if rules.value == data.get("rules")), None)
        if rules is None:
            raise InvalidPositionError(f"unknown rules {data.get('rules')!r}: expected classic or relaxed")
        if "face_down" in data and data["face_down"] != list(FACE_DOWN_AT_DEAL):
            raise InvalidPositionError("a Yukon deal has 0, 1, 2, 3, 4, 5, 6 face-down cards")
        columns = data.get("columns")
        if not isinstance(columns, list) or not all(isinstance(column, list) for column in columns):
            raise InvalidPositionError("columns are seven lists of card names (null for unknown)")
        try:
            cards = [[None if name is None else parse_card(name) for name in column] for column in columns]
        except (TypeError, ValueError):
            raise InvalidPositionError(
                "cards are names like TD, or null for a face-down card not known"
            ) from None
        return cls(rules, tuple(tuple(column) for column in cards))

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.value,
            "columns": [
                [None if card is None else CARD_NAMES[card] for card in column] for column in self.columns
            ],
            "face_down": list(FACE_DOWN_AT_DEAL),
        }

    @property
    def unknown_places(self) -> tuple[Place, ...]:
        """The face-down places whose card is not known, column by column, bottom up."""
        return tuple(place for place in FACE_DOWN_PLACES if self.columns[place.column][place.depth] is None)


def _column(column: object) -> tuple[Card | None, ...]:
    if isinstance(column, str | bytes) or not isinstance(column, Sequence):
        raise InvalidPositionError("a column is a sequence of cards (None for unknown)")
    return tuple(column)


def visible_deal(code: GameCode | str) -> VisibleDeal:
    """What a player sees of the deal of ``code``: the 31 face-up cards; the 21 face-down ones
    unknown. Raises ``InvalidCodeError`` for an unreadable code."""
    code = code if isinstance(code, GameCode) else GameCode.parse(code)
    columns = deal_columns(code)
    return VisibleDeal(
        code.rules,
        tuple(
            (None,) * hidden + tuple(column[hidden:])
            for column, hidden in zip(columns, FACE_DOWN_AT_DEAL, strict=True)
        ),
    )


def dealt_card(code: GameCode | str, place: object) -> Card:
    """The card dealt face down at ``place`` in the deal of ``code``: the answer to a reveal.

    Raises ``InvalidRevealError`` when ``place`` is not a face-down place of the deal.
    """
    code = code if isinstance(code, GameCode) else GameCode.parse(code)
    column, depth = face_down_place(place)
    return deal_columns(code)[column][depth]
