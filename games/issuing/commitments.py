"""The commitment to a hidden-card game's deal (docs/security.md, "Hidden-card games"): a secret
from the operating system's generator, and the hash that is published at issue."""

from __future__ import annotations

import hashlib
import secrets


def deal_secret() -> str:
    """A per-game secret: 32 random bytes (the operating system's CSPRNG), as 64 hex digits."""
    return secrets.token_hex(32)


def deal_commitment(*, code: str, secret: str) -> str:
    """SHA-256 of the text `<code>:<secret>` (UTF-8), as 64 lowercase hex digits: published at
    issue; the code and the secret are published once the game is finished, so anyone can check
    that the deal was fixed before the first card was played."""
    return hashlib.sha256(f"{code}:{secret}".encode()).hexdigest()
