"""A board's rebuild lock, for either kind of index (sorted_sets, histogram.index).

``<key>:lock`` (SET NX with a token, expiring): one rebuild of a board at a time, whether a read
that found the board missing started it, the periodic repair or the management command;
`lock_take_over` lets the command take a board from a queued rebuild.
"""

from __future__ import annotations

import secrets

import redis

# KEYS: lock. ARGV: token. Deletes the lock only if it is still ours.
_UNLOCK = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RebuildLock:
    """A board's rebuild lock, ``<key>:lock`` (SET NX with a token: one rebuild at a time), for
    an index with a `client` and a `key(board)`."""

    client: redis.Redis

    def key(self, board: str) -> str:
        raise NotImplementedError

    def lock(self, board: str, *, seconds: int = 600) -> str | None:
        """Claim the board's rebuild; the token to release it, or None if someone else holds it."""
        token = secrets.token_hex(8)
        return token if self.client.set(f"{self.key(board)}:lock", token, nx=True, ex=seconds) else None

    def holds(self, board: str, token: str) -> bool:
        held = self.client.get(f"{self.key(board)}:lock")
        return held is not None and held.decode() == token

    def lock_take_over(self, board: str, *, seconds: int = 600) -> str:
        """Claim the board's rebuild even if another holds it (that one then stops at its start)."""
        token = secrets.token_hex(8)
        self.client.set(f"{self.key(board)}:lock", token, ex=seconds)
        return token

    def unlock(self, board: str, token: str) -> None:
        self.client.eval(_UNLOCK, 1, f"{self.key(board)}:lock", token)  # once a rebuild: no SHA kept
