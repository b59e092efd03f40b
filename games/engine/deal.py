"""The deals, exactly as specified in docs/rules.md: YU1's shuffle of a deal number, YU2's
permutation index, and the columns a deck is dealt into.

The shuffle is unsigned 32-bit arithmetic so that the browser engine reproduces it bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import DECK_SIZE, Card

if TYPE_CHECKING:
    from .codes import GameCode

MASK32 = 0xFFFFFFFF
WHOLE_DEAL_COUNT = math.factorial(DECK_SIZE)  # YU2 indexes 0 … 52! − 1: every order of the deck
COLUMN_SIZES = (1, 6, 7, 8, 9, 10, 11)
FACE_DOWN_AT_DEAL = (0, 1, 2, 3, 4, 5, 6)
WARM_UP_DRAWS = 8


def fmix32(x: int) -> int:
    """MurmurHash3's finaliser: a bijection on 32-bit words."""
    x ^= x >> 16
    x = (x * 0x85EBCA6B) & MASK32
    x ^= x >> 13
    x = (x * 0xC2B2AE35) & MASK32
    x ^= x >> 16
    return x


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & MASK32


class Xoshiro128:
    """xoshiro128** seeded from a 33-bit deal number."""

    def __init__(self, number: int) -> None:
        hi, lo = number >> 32, number & MASK32
        s0 = fmix32(lo ^ 0x9E3779B9)
        s1 = fmix32(hi ^ 0x85EBCA6B)
        s2 = fmix32(s0 ^ s1 ^ 0x6A09E667)
        s3 = fmix32((s0 + s1 + 0xBB67AE85) & MASK32)
        self.state = [s0, s1, s2, s3]
        for _ in range(WARM_UP_DRAWS):
            self.next()

    def next(self) -> int:
        s = self.state
        result = (_rotl((s[1] * 5) & MASK32, 7) * 9) & MASK32
        t = (s[1] << 9) & MASK32
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 11)
        return result

    def below(self, m: int) -> int:
        """A uniform integer in 0 … m−1, by rejection sampling (no modulo bias)."""
        limit = (1 << 32) - ((1 << 32) % m)
        while True:
            x = self.next()
            if x < limit:
                return x % m


# below(m)'s rejection limit 2^32 − (2^32 mod m), for every m a shuffle needs.
_LIMITS = tuple((1 << 32) - ((1 << 32) % m) if m else 0 for m in range(DECK_SIZE + 1))


def shuffled_deck(number: int) -> list[Card]:
    """Fisher–Yates driven by ``Xoshiro128(number).below``, inlined: every verification deals,
    and method calls would cost more than the arithmetic. ``reference_shuffle`` is the plain form."""
    mask = MASK32
    s0 = fmix32((number & mask) ^ 0x9E3779B9)
    s1 = fmix32((number >> 32) ^ 0x85EBCA6B)
    s2 = fmix32(s0 ^ s1 ^ 0x6A09E667)
    s3 = fmix32((s0 + s1 + 0xBB67AE85) & mask)
    deck = list(range(DECK_SIZE))
    limits = _LIMITS
    warm_up = WARM_UP_DRAWS
    i = DECK_SIZE - 1
    while i:
        x = s1 * 5 & mask
        result = ((x << 7 | x >> 25) & mask) * 9 & mask
        t = s1 << 9 & mask
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 11 | s3 >> 21) & mask
        if warm_up:
            warm_up -= 1
        elif result < limits[i + 1]:
            j = result % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
            i -= 1
    return deck


def reference_shuffle(number: int) -> list[Card]:
    """The shuffle exactly as docs/rules.md words it (slower; ``shuffled_deck`` must agree)."""
    rng = Xoshiro128(number)
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_of_index(index: int) -> list[Card]:
    """The deck whose lexicographic rank is ``index`` (0 … 52! − 1): the Lehmer code, read back."""
    digits = [0] * DECK_SIZE
    for i in range(DECK_SIZE - 1, -1, -1):
        index, digits[i] = divmod(index, DECK_SIZE - i)
    remaining = list(range(DECK_SIZE))
    return [remaining.pop(digit) for digit in digits]


def index_of_deck(deck: Sequence[Card]) -> int:
    """The lexicographic rank of a permutation of 0 … 51 (the caller checks that it is one)."""
    remaining = list(range(DECK_SIZE))
    index = 0
    for i, card in enumerate(deck):
        digit = remaining.index(card)
        del remaining[digit]
        index = index * (DECK_SIZE - i) + digit
    return index


def deal_columns(code: GameCode) -> list[list[Card]]:
    """The seven columns of ``code``'s deal, bottom to top; column k's bottom k−1 cards are face down."""
    deck = code.deck()
    columns = []
    start = 0
    for size in COLUMN_SIZES:
        columns.append(deck[start : start + size])
        start += size
    return columns
