"""Narrow exceptions (all ``ValueError``s) and the closed list of refusal codes."""

from __future__ import annotations

# The closed list of refusal codes, in the order they are checked (docs/rules.md).
REFUSAL_CODES = (
    "bad_token",
    "game_over",
    "nothing_to_undo",
    "face_down",
    "not_foundation_top",
    "same_column",
    "not_last_card",
    "foundation_order",
    "group_too_large",
    "empty_needs_king",
    "wrong_rank",
    "wrong_colour",
)

# A game from a visible deal (docs/rules.md, "Positions with unknown face-down cards") refuses
# every move with this code while a card it turned up is not known. Never in a log's verdict.
UNKNOWN_CARD = "unknown_card"

# Why a reveal is refused, in the order they are checked.
REVEAL_REFUSAL_CODES = ("not_face_down_place", "bad_card", "reveal_conflict", "card_elsewhere")


class InvalidCodeError(ValueError):
    """A game code that cannot be read."""


class InvalidPositionError(ValueError):
    """A table that is not a possible Yukon position (cards missing or twice, a face-down top)."""


class Refusal(ValueError):
    """Base for a refused token: carries a stable ``code`` and a message a player understands."""

    def __init__(self, code: str, message: str) -> None:
        assert code in REFUSAL_CODES or code == UNKNOWN_CARD, code
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidMoveError(Refusal):
    """A token that is not a move at all (``bad_token``)."""

    def __init__(self, token: str, index: int | None = None) -> None:
        super().__init__(
            "bad_token",
            f"`{token}` is not a move: write a card and a destination like TD>5, or U to undo",
        )
        self.token = token
        self.index = index


class IllegalMoveError(Refusal):
    """A well-formed move that the rules refuse in this position."""


class RevealError(ValueError):
    """A reveal a game from a visible deal refuses: a stable ``code`` from REVEAL_REFUSAL_CODES."""

    def __init__(self, code: str, message: str) -> None:
        assert code in REVEAL_REFUSAL_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidRevealError(RevealError):
    """A reveal that names no face-down place of the deal (``not_face_down_place``) or no card
    (``bad_card``)."""


class ConflictingRevealError(RevealError):
    """A reveal that contradicts what the game knows: the place holds another card
    (``reveal_conflict``), or the card lies elsewhere (``card_elsewhere``)."""
