"""Cards as small integers, python-chess style: ``index = suit * 13 + (rank - 1)``.

Suits in foundation order: spades, hearts, diamonds, clubs. Ranks 1 (Ace) to 13 (King).
"""

from __future__ import annotations

Card = int

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
ACE, KING = 1, 13
DECK_SIZE = 52

# Precomputed per-card tables: the hot paths index these instead of doing arithmetic.
RANK = tuple(c % 13 + 1 for c in range(DECK_SIZE))
SUIT = tuple(c // 13 for c in range(DECK_SIZE))
RED = tuple(SUIT[c] in (HEARTS, DIAMONDS) for c in range(DECK_SIZE))
CARD_NAMES = tuple(RANK_CHARS[RANK[c] - 1] + SUIT_CHARS[SUIT[c]] for c in range(DECK_SIZE))
CARD_LABELS = tuple(RANK_LABELS[RANK[c] - 1] + SUIT_SYMBOLS[SUIT[c]] for c in range(DECK_SIZE))
_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}


def make_card(rank: int, suit: int) -> Card:
    return suit * 13 + rank - 1


def card_name(card: Card) -> str:
    """``"TD"``: the notation used in logs and JSON."""
    return CARD_NAMES[card]


def card_label(card: Card) -> str:
    """``"10♦"``: what a player reads."""
    return CARD_LABELS[card]


def parse_card(text: str) -> Card:
    """``parse_card("TD")`` → the card's index; raises ``ValueError`` for anything else."""
    try:
        return _CARD_BY_NAME[text]
    except KeyError:
        raise ValueError(
            f"{text!r} is not a card: expected a rank ({RANK_CHARS}) then a suit ({SUIT_CHARS})"
        ) from None


def rank_label(rank: int) -> str:
    return RANK_LABELS[rank - 1]


def suit_symbol(suit: int) -> str:
    return SUIT_SYMBOLS[suit]
