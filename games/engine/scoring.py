"""The two scores: ranked (leaderboards) and points (shown at the table)."""

from __future__ import annotations

RANKED_MIN, RANKED_MAX = 1, 99_999
FOUNDATION_CARD_VALUE = 100
WIN_BONUS = 2000

POINTS_PER_FOUNDATION_CARD = 10
POINTS_PER_FLIP = 5


def ranked_score(*, foundation_cards: int, won: bool, moves: int) -> int:
    """100 × foundation cards + 2000 for a win − moves, kept within 1 … 99,999."""
    raw = FOUNDATION_CARD_VALUE * foundation_cards + (WIN_BONUS if won else 0) - moves
    return max(RANKED_MIN, min(RANKED_MAX, raw))
