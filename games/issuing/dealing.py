"""Where deals come from (docs/security.md, "Hidden-card games: the deal").

- A hidden-card deal (ranked, daily, race, challenge) is a uniformly random order of the 52
  cards drawn from the operating system's generator (`secrets`), named by its YU2 code. No seed
  or number space stands behind it: the 31 face-up cards leave the 21 face-down ones every one
  of their 21! ≈ 2^65 arrangements.
- An open deal issued with its code (a ranked game the page plays with its code, the pool of
  winnable deals) is a YU1 deal number, also from `secrets`: its player is given the code.

Tests issue a known deal through `known_deals`, the one seam: the service path stays the same.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from games.engine import DEAL_COUNT, GameCode, Rules
from games.engine.cards import DECK_SIZE

_system = secrets.SystemRandom()
# Codes of deals to issue instead of drawing, in turn, the last one again and again (tests only:
# `known_deals`, or a test's monkeypatch); None: draw.
known_codes: list[GameCode] | None = None


def hidden_deal_draw(*, rules: Rules) -> GameCode:
    """A new hidden-card deal: the YU2 code of a shuffle by `secrets` (Fisher–Yates over
    `SystemRandom.randbelow`, every one of the 52! orders equally likely)."""
    if known_codes is not None:
        return _known_next(rules).whole()
    deck = list(range(DECK_SIZE))
    _system.shuffle(deck)
    return GameCode.of_deck(rules, deck)


def open_deal_draw(*, rules: Rules) -> GameCode:
    """A new open deal, its code given to its player: a YU1 deal number from `secrets`."""
    if known_codes is not None:
        return _known_next(rules)
    return GameCode(rules, secrets.randbelow(DEAL_COUNT))


def open_deals_draw(*, rules: Rules) -> Iterator[GameCode]:
    """`open_deal_draw` again and again (the pool of winnable deals draws until it has enough)."""
    while True:
        yield open_deal_draw(rules=rules)


def _known_next(rules: Rules) -> GameCode:
    code = known_codes.pop(0) if len(known_codes) > 1 else known_codes[0]  # the last one again and again
    return replace(code, rules=rules)


@contextmanager
def known_deals(codes: Sequence[str | GameCode]) -> Iterator[None]:
    """Issue these deals in turn instead of drawing (the last one again and again): for tests,
    which need a deal whose winning log they know. A hidden-card game gets the YU2 code of the
    same deal, as one drawn would; the rule set is the one asked for."""
    global known_codes
    before = known_codes
    known_codes = [code if isinstance(code, GameCode) else GameCode.parse(code) for code in codes]
    try:
        yield
    finally:
        known_codes = before
