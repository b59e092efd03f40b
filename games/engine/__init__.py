"""Yukon Online's rules engine: pure Python, no Django. The contract is docs/rules.md."""

from .cards import CARD_NAMES, RANK, SUIT, Card, card_label, card_name, parse_card
from .codes import CODE_MAX_LENGTH, CODE_VERSIONS, DEAL_COUNT, GameCode, Rules, format_code
from .deal import WHOLE_DEAL_COUNT, deal_columns
from .errors import (
    REFUSAL_CODES,
    REVEAL_REFUSAL_CODES,
    UNKNOWN_CARD,
    ConflictingRevealError,
    IllegalMoveError,
    InvalidCodeError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRevealError,
    Refusal,
    RevealError,
)
from .game import MAX_GROUP, Game, LegalMoves
from .hidden import HiddenCardGame
from .move import FOUNDATION, UNDO, Move, format_log, parse_log, parse_token
from .scoring import ranked_score
from .verify import ENGINE_VERSION, Verdict, VerifyError, replay, verify
from .visible import FACE_DOWN_PLACES, Place, VisibleDeal, dealt_card, visible_deal

__all__ = [
    "CARD_NAMES",
    "CODE_MAX_LENGTH",
    "CODE_VERSIONS",
    "DEAL_COUNT",
    "ENGINE_VERSION",
    "FACE_DOWN_PLACES",
    "FOUNDATION",
    "MAX_GROUP",
    "RANK",
    "REFUSAL_CODES",
    "REVEAL_REFUSAL_CODES",
    "SUIT",
    "UNDO",
    "UNKNOWN_CARD",
    "WHOLE_DEAL_COUNT",
    "Card",
    "ConflictingRevealError",
    "Game",
    "GameCode",
    "HiddenCardGame",
    "IllegalMoveError",
    "InvalidCodeError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRevealError",
    "LegalMoves",
    "Move",
    "Place",
    "Refusal",
    "RevealError",
    "Rules",
    "Verdict",
    "VerifyError",
    "VisibleDeal",
    "card_label",
    "card_name",
    "deal_columns",
    "dealt_card",
    "format_code",
    "format_log",
    "parse_card",
    "parse_log",
    "parse_token",
    "ranked_score",
    "replay",
    "verify",
    "visible_deal",
]
