"""Games whose face-down cards may be unknown (docs/rules.md, "Positions with unknown face-down
cards"): built from a visible deal, and told each face-down card by ``reveal``.

When a move turns up a card that is not known, the game waits: ``awaiting_reveal`` names the
place and every move is refused (``unknown_card``) until ``reveal`` names the card; undo stays
allowed. A card once revealed stays known, face up or face down again after an undo. Answered
from the real deal, such a game plays exactly as ``Game(code)`` does. ``Game`` keeps the rules:
this subclass only adds what it does not know, so games from a code pay nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .cards import CARD_LABELS, DECK_SIZE, Card, parse_card
from .errors import UNKNOWN_CARD, ConflictingRevealError, InvalidRevealError
from .game import UNKNOWN_PLACE, Game
from .legal_moves import LegalMoves
from .move import Move
from .visible import Place, VisibleDeal, face_down_place


class HiddenCardGame(Game):
    """A game whose face-down cards may be unknown (docs/rules.md, "Positions with unknown
    face-down cards"), built from a visible deal (``HiddenCardGame.from_visible``). It has no
    code: ``code`` is None."""

    __slots__ = ("_deal",)

    def __init__(
        self,
        deal: VisibleDeal | Mapping[str, Any],
        revealed: Mapping[tuple[int, int], Card | str] | None = None,
    ) -> None:
        if not isinstance(deal, VisibleDeal):
            deal = VisibleDeal.from_dict(deal)
        self.code = None
        self._lay_out(deal.rules, [list(column) for column in deal.columns])
        for index, column in enumerate(deal.columns):
            for card in column:
                if card is not None:
                    self._location[card] = index
        self._keep_history = True
        # The columns as dealt, as far as they are known; face-down places stay where they were dealt.
        self._deal: list[list[Card | None]] = [list(column) for column in deal.columns]
        for place, card in (revealed or {}).items():
            self.reveal(place, card)

    @classmethod
    def from_visible(
        cls,
        deal: VisibleDeal | Mapping[str, Any],
        revealed: Mapping[tuple[int, int], Card | str] | None = None,
    ) -> HiddenCardGame:
        """``deal`` is a ``VisibleDeal`` or its ``to_dict()`` form; ``revealed`` maps face-down
        places ``(column, depth)`` to cards."""
        return cls(deal, revealed)

    @property
    def legal_moves(self) -> LegalMoves:
        return HiddenCardLegalMoves(self)

    @property
    def awaiting_reveal(self) -> Place | None:
        """The place of the card a move has just turned up, while that card is not known."""
        for index, column in enumerate(self._columns):
            if column and column[-1] is None:
                return Place(index, len(column) - 1)
        return None

    def reveal(self, place: tuple[int, int], card: Card | str) -> None:
        """Say which card lies at a face-down place of the deal (a card index, or its name).

        Saying it again is a no-op. Raises ``InvalidRevealError`` (``not_face_down_place``,
        ``bad_card``) or ``ConflictingRevealError`` (``reveal_conflict``: the place is known to
        hold another card; ``card_elsewhere``: the card is known to lie elsewhere).
        """
        column, depth = face_down_place(place)
        card = _revealed_card(card)
        known = self._deal[column][depth]
        if known == card:
            return
        if known is not None:
            raise ConflictingRevealError(
                "reveal_conflict",
                f"column index {column}, depth {depth} is already known to hold {CARD_LABELS[known]}",
            )
        if self._location[card] != UNKNOWN_PLACE:
            raise ConflictingRevealError(
                "card_elsewhere", f"{CARD_LABELS[card]} is already elsewhere on the table"
            )
        # Not known, so never turned up with a name: still at its place, face down or just turned up.
        self._deal[column][depth] = card
        self._columns[column][depth] = card
        self._location[card] = column

    def known_deal(self) -> VisibleDeal:
        """The deal as far as this game knows it: what it was built from, and every reveal since."""
        return VisibleDeal(self.rules, tuple(tuple(column) for column in self._deal))

    def check_move(self, card: Card, dest: int) -> str | None:
        if self.awaiting_reveal is not None:
            return UNKNOWN_CARD
        if self._location[card] == UNKNOWN_PLACE:
            return "face_down"  # a card not known anywhere lies face down at a place not known
        return super().check_move(card, dest)

    def explain(self, refusal: str, move: Move | None = None) -> str:
        if refusal == UNKNOWN_CARD:
            place = self.awaiting_reveal
            column = "?" if place is None else place.column + 1
            return f"the card turned up in column {column} is not known yet"
        return super().explain(refusal, move)

    def __repr__(self) -> str:
        unknown = self._location.count(UNKNOWN_PLACE)
        return (
            f"<HiddenCardGame {self.rules.value} moves={self.moves_made} "
            f"foundations={self.foundation_cards} unknown={unknown}>"
        )


class HiddenCardLegalMoves(LegalMoves):
    """None while a reveal is awaited (the card turned up may not be looked up), else as always."""

    __slots__ = ()

    def __iter__(self) -> Iterator[Move]:
        if self._game.awaiting_reveal is not None:
            return iter(())
        return super().__iter__()


def _revealed_card(card: Any) -> Card:
    if type(card) is int and 0 <= card < DECK_SIZE:
        return card
    try:
        return parse_card(card)
    except (TypeError, ValueError):
        raise InvalidRevealError(
            "bad_card", f"`{card}` is not a card: expected a rank (A23456789TJQK) then a suit (SHDC)"
        ) from None
