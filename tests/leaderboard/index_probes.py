"""What the tests read or break of either kind of index directly, past its interface: the
details kept beside the entries, a player's sort key, the members held, an unreachable Redis;
and a Redis database of a test module's own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlparse

import pytest
import redis

from leaderboard.index.base import EntryDetails
from leaderboard.index.histogram.index import HistogramBoardIndex
from leaderboard.index.sorted_sets import member_for, user_for


def _details_keys(index: HistogramBoardIndex, board: str) -> list[str]:
    return sorted(key.decode() for key in index.client.scan_iter(match=f"{index.prefix}:{{{board}|s*}}:d"))


def _score_sets(index: HistogramBoardIndex, board: str) -> list[str]:
    keys = (key.decode() for key in index.client.scan_iter(match=f"{index.prefix}:{{{board}|s*}}"))
    return sorted(key for key in keys if key.endswith("}"))


def details_in_redis(index, board: str) -> dict[int, tuple]:
    """user id → (submission id, moves, duration, code), as the index keeps them."""
    if isinstance(index, HistogramBoardIndex):
        kept = {}
        for key in _details_keys(index, board):
            kept.update({int(member): text for member, text in index.client.hgetall(key).items()})
    else:
        found = index.client.hgetall(f"{index.key(board)}:d")
        kept = {user_for(member): text for member, text in found.items() if member != b""}
    return {user_id: tuple(EntryDetails.decode(text)) for user_id, text in kept.items()}


def details_forget(index, board: str) -> None:
    """Drop every detail of a board, as an index written before details were kept."""
    if isinstance(index, HistogramBoardIndex):
        index.client.delete(*_details_keys(index, board))
    else:
        index.client.delete(f"{index.key(board)}:d")


def sort_key_in_redis(index, board: str, user_id: int) -> int | None:
    """The player's sort key as the index orders them, None without an entry there."""
    if isinstance(index, HistogramBoardIndex):
        return index.boards.records([(board, user_id)])[0]
    score = index.client.zscore(index.key(board), member_for(user_id))
    return None if score is None else int(score)


def members_in_redis(index, board: str) -> int:
    """Entries the board's keys hold (no sentinel), counted in the keys themselves."""
    if isinstance(index, HistogramBoardIndex):
        return sum(index.client.zcard(key) for key in _score_sets(index, board))
    return index.client.zcard(index.key(board)) - 1


def redis_unreachable(monkeypatch, index) -> None:
    """Every command of the index's client fails to connect, scripts and pipelines too."""

    def refuse(*args, **kwargs):
        raise redis.ConnectionError("Redis is unreachable")

    monkeypatch.setattr(index.client.connection_pool, "get_connection", refuse)


@contextmanager
def own_database(number: int) -> Iterator[redis.Redis]:
    """A client of database `number` on REDIS_URL's server, emptied before and after; skips the
    tests without REDIS_URL."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip(f"needs REDIS_URL (its server; these tests use its database {number})")
    parsed = urlparse(url)
    client = redis.Redis(host=parsed.hostname or "127.0.0.1", port=parsed.port or 6379, db=number)
    client.flushdb()
    try:
        yield client
    finally:
        client.flushdb()
        client.close()
