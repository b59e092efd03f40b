"""Leaderboard tests: no hot-page memory, fresh process-level state, Redis only when asked."""

import datetime as dt

import pytest

from leaderboard.hot_pages import hot_pages_clear
from leaderboard.indexing import index_reset
from leaderboard.selectors import daily_deal_cache_clear


def _drop_index_keys(settings) -> None:
    """The database rolls back after each test; the Redis index must not remember it either."""
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        prefix = settings.LEADERBOARD_REDIS_PREFIX
        keys = [  # the boards, and the players' names kept beside them (leaderboard.players)
            *client.scan_iter(match=f"{prefix}:*", count=1000),
            *client.scan_iter(match=f"{prefix}-*", count=1000),
        ]
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture(autouse=True)
def _fresh_leaderboard_state(settings):
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 0
    hot_pages_clear()
    daily_deal_cache_clear()
    index_reset()
    _drop_index_keys(settings)
    yield
    hot_pages_clear()
    daily_deal_cache_clear()
    index_reset()
    _drop_index_keys(settings)


@pytest.fixture
def sql_only(settings):
    """Answer every read from SQL, whatever REDIS_URL says."""
    settings.REDIS_URL = None
    index_reset()


@pytest.fixture
def redis_index(redis_client, settings):
    """The Redis index on REDIS_URL's database, emptied (skips without REDIS_URL)."""
    from leaderboard.indexing import board_index

    index_reset()
    index = board_index()
    assert index is not None
    return index


@pytest.fixture
def frozen_now(monkeypatch):
    """The API's clock, set to a moment (default: 2026-11-29 12:00 UTC, the tests' NOON)."""
    import leaderboard.apis

    def freeze(moment=dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)):
        monkeypatch.setattr(leaderboard.apis, "_now", lambda: moment)

    freeze()
    return freeze
