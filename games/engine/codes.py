"""Game codes (docs/rules.md, "Game codes"): format version, rule letter, deal.

``YU1-C-AAAAAAB``: a deal number in base 26, dealt by the public shuffle (open deals).
``YU2-C-000…0`` (46 characters): the deck's permutation index in base 32, any deal at all.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import DECK_SIZE, Card
from .deal import WHOLE_DEAL_COUNT, deck_of_index, index_of_deck, shuffled_deck
from .errors import InvalidCodeError

CODE_VERSION = "YU1"  # the version format_code writes
CODE_VERSIONS = {"YU1": 1, "YU2": 2}
DEAL_LETTERS = 7
DEAL_COUNT = 26**DEAL_LETTERS  # deal numbers 0 … 26^7 − 1 (33 bits)
WHOLE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
WHOLE_DIGITS = 46  # 32^45 < 52! ≤ 32^46
CODE_MAX_LENGTH = len("YU2-C-") + WHOLE_DIGITS  # 52: the longest canonical code

# Crockford's digits as Python's int(…, 32) reads them, once the characters are checked.
_TO_BASE32 = str.maketrans(WHOLE_ALPHABET, "0123456789abcdefghijklmnopqrstuv")
_WHOLE_CHARACTERS = frozenset(WHOLE_ALPHABET)


class Rules(enum.Enum):
    CLASSIC = "classic"
    RELAXED = "relaxed"

    @property
    def letter(self) -> str:
        return "C" if self is Rules.CLASSIC else "R"

    @classmethod
    def from_letter(cls, letter: str) -> Rules:
        return {"C": cls.CLASSIC, "R": cls.RELAXED}[letter]


_DEAL_PART = re.compile(rf"[A-Z]{{{DEAL_LETTERS}}}")


@dataclass(frozen=True)
class GameCode:
    """``number`` is the deal number (version 1) or the deck's permutation index (version 2)."""

    rules: Rules
    number: int
    version: int = 1

    def __post_init__(self) -> None:
        if self.version not in CODE_VERSIONS.values():
            raise InvalidCodeError(f"unknown code version {self.version!r}: expected 1 (YU1) or 2 (YU2)")
        if self.version == 1 and not 0 <= self.number < DEAL_COUNT:
            raise InvalidCodeError(f"deal number {self.number} is out of range 0 … {DEAL_COUNT - 1}")
        if self.version == 2 and not 0 <= self.number < WHOLE_DEAL_COUNT:
            raise InvalidCodeError(f"deal index {self.number} is out of range 0 … 52! − 1")

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Parse a code; lower case and surrounding white space are accepted."""
        if not isinstance(text, str):
            raise InvalidCodeError("a game code is text like YU1-C-AAAAAAB")
        stripped = text.strip()
        if not stripped.isascii():
            # str.upper() would read "ı" as I and "ſ" as S: only ASCII letters may be lower case.
            raise InvalidCodeError(
                f"{stripped!r} is not a game code: use only letters A–Z, digits and '-', like YU1-C-AAAAAAB"
            )
        parts = stripped.upper().split("-")
        if len(parts) != 3:
            raise InvalidCodeError(
                f"{stripped!r} is not a game code: expected three parts like YU1-C-AAAAAAB"
            )
        version, letter, deal = parts
        if version not in CODE_VERSIONS:
            raise InvalidCodeError(f"unknown code version {version!r}: expected YU1 or YU2")
        if letter not in ("C", "R"):
            raise InvalidCodeError(f"unknown rule letter {letter!r}: expected C (Classic) or R (Relaxed)")
        rules = Rules.from_letter(letter)
        if version == "YU2":
            return cls(rules, _whole_index(deal), 2)
        if not _DEAL_PART.fullmatch(deal):
            raise InvalidCodeError(
                f"deal part {deal!r} must be exactly {DEAL_LETTERS} letters A–Z, like AAAAAAB"
            )
        number = 0
        for ch in deal:
            number = number * 26 + (ord(ch) - 65)
        return cls(rules, number)

    @classmethod
    def of_deck(cls, rules: Rules, deck: Sequence[Card]) -> GameCode:
        """The YU2 code of ``deck``, the 52 card indices in deal order."""
        cards = list(deck)
        whole = all(isinstance(card, int) for card in cards) and set(cards) == set(range(DECK_SIZE))
        if len(cards) != DECK_SIZE or not whole:
            raise InvalidCodeError("a deck is the 52 cards 0 … 51, each once, in deal order")
        return cls(rules, index_of_deck(cards), 2)

    def deck(self) -> list[Card]:
        """The 52 card indices in deal order (docs/rules.md, "The deal")."""
        return shuffled_deck(self.number) if self.version == 1 else deck_of_index(self.number)

    @property
    def is_whole(self) -> bool:
        """Does the code name its deck itself (YU2), not a YU1 deal number of the public shuffle?"""
        return self.version == 2

    def whole(self) -> GameCode:
        """The YU2 code of the same deal: itself when it is one."""
        return self if self.version == 2 else GameCode.of_deck(self.rules, self.deck())

    def __str__(self) -> str:
        if self.version == 2:
            n = self.number
            digits = "".join(WHOLE_ALPHABET[n >> shift & 31] for shift in range(5 * WHOLE_DIGITS - 5, -5, -5))
            return f"YU2-{self.rules.letter}-{digits}"
        letters = []
        n = self.number
        for _ in range(DEAL_LETTERS):
            n, digit = divmod(n, 26)
            letters.append(chr(65 + digit))
        return f"{CODE_VERSION}-{self.rules.letter}-{''.join(reversed(letters))}"

    def __repr__(self) -> str:
        return f"GameCode.parse({str(self)!r})"


def _whole_index(deal: str) -> int:
    """A YU2 deal part (upper case already) read as the permutation index it names."""
    if len(deal) != WHOLE_DIGITS:
        raise InvalidCodeError(
            f"the deal part of a YU2 code must be exactly {WHOLE_DIGITS} characters, not {len(deal)}"
        )
    wrong = next((ch for ch in deal if ch not in _WHOLE_CHARACTERS), None)
    if wrong is not None:
        raise InvalidCodeError(
            f"{wrong!r} is not a YU2 deal character: "
            "use the digits 0–9 and the letters A–Z except I, L, O and U"
        )
    index = int(deal.translate(_TO_BASE32), 32)
    if index >= WHOLE_DEAL_COUNT:
        raise InvalidCodeError(f"deal part {deal!r} names no deal: its index is not below 52!")
    return index


def format_code(rules: Rules, number: int) -> str:
    """The YU1 code of a deal number."""
    return str(GameCode(rules, number))
