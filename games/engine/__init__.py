"""Yukon Online's rules engine: pure Python, no Django. The contract is docs/rules.md."""

from .cards import CARD_NAMES, RANK, SUIT, Card, card_label, card_name, parse_card
from .codes import DEAL_COUNT, GameCode, Rules, format_code
from .deal import deal_columns
from .errors import (
    REFUSAL_CODES,
    IllegalMoveError,
    InvalidCodeError,
    InvalidMoveError,
    InvalidPositionError,
    Refusal,
)
from .game import MAX_GROUP, Game, LegalMoves
from .move import FOUNDATION, UNDO, Move, format_log, parse_log, parse_token
from .scoring import ranked_score
from .verify import ENGINE_VERSION, Verdict, VerifyError, replay, verify

__all__ = [
    "CARD_NAMES", "DEAL_COUNT", "ENGINE_VERSION", "FOUNDATION", "MAX_GROUP", "RANK", "REFUSAL_CODES",
    "SUIT", "UNDO", "Card", "Game", "GameCode", "IllegalMoveError", "InvalidCodeError", "InvalidMoveError",
    "InvalidPositionError", "LegalMoves", "Move", "Refusal", "Rules", "Verdict", "VerifyError", "card_label",
    "card_name", "deal_columns", "format_code", "format_log", "parse_card", "parse_log", "parse_token",
    "ranked_score", "replay", "verify",
]
