"""Game codes: ``YU1-C-AAAAAAB`` = format version, rule letter, deal number in base 26."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .errors import InvalidCodeError

CODE_VERSION = "YU1"
DEAL_LETTERS = 7
DEAL_COUNT = 26**DEAL_LETTERS  # deal numbers 0 … 26^7 − 1 (33 bits)


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
    rules: Rules
    number: int

    def __post_init__(self) -> None:
        if not 0 <= self.number < DEAL_COUNT:
            raise InvalidCodeError(f"deal number {self.number} is out of range 0 … {DEAL_COUNT - 1}")

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
        raw = stripped.upper()
        parts = raw.split("-")
        if len(parts) != 3:
            raise InvalidCodeError(
                f"{text.strip()!r} is not a game code: expected three parts like YU1-C-AAAAAAB"
            )
        version, letter, deal = parts
        if version != CODE_VERSION:
            raise InvalidCodeError(f"unknown code version {version!r}: expected {CODE_VERSION}")
        if letter not in ("C", "R"):
            raise InvalidCodeError(f"unknown rule letter {letter!r}: expected C (Classic) or R (Relaxed)")
        if not _DEAL_PART.fullmatch(deal):
            raise InvalidCodeError(
                f"deal part {deal!r} must be exactly {DEAL_LETTERS} letters A–Z, like AAAAAAB"
            )
        number = 0
        for ch in deal:
            number = number * 26 + (ord(ch) - 65)
        return cls(Rules.from_letter(letter), number)

    def __str__(self) -> str:
        letters = []
        n = self.number
        for _ in range(DEAL_LETTERS):
            n, digit = divmod(n, 26)
            letters.append(chr(65 + digit))
        return f"{CODE_VERSION}-{self.rules.letter}-{''.join(reversed(letters))}"

    def __repr__(self) -> str:
        return f"GameCode.parse({str(self)!r})"


def format_code(rules: Rules, number: int) -> str:
    return str(GameCode(rules, number))
