"""Leaderboard tests: no hot-page memory, fresh process-level state, Redis only when asked.

Tests of the Redis index (`redis_index`) run once on each kind of index: one sorted set a board
(the default) and boards split by score (LEADERBOARD_INDEX=histogram, as a Redis Cluster uses).
"""

import datetime as dt

import pytest

from daily.selectors import daily_deal_cache_clear
from leaderboard.hot_pages import hot_pages_clear
from leaderboard.index.wiring import index_reset


def _drop_index_keys(settings) -> None:
    """The database rolls back after each test; the Redis index must not remember it either."""
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        prefixes = (settings.LEADERBOARD_REDIS_PREFIX, f"{settings.LEADERBOARD_REDIS_PREFIX}h")  # both kinds
        keys = [  # the boards, and the players' names kept beside them (leaderboard.players)
            key
            for prefix in prefixes
            for pattern in (f"{prefix}:*", f"{prefix}-*")
            for key in client.scan_iter(match=pattern, count=1000)
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


@pytest.fixture(params=["sorted_set", "histogram"])
def index_kind(request, settings) -> str:
    """LEADERBOARD_INDEX, once for each kind of index."""
    settings.LEADERBOARD_INDEX = request.param
    index_reset()
    return request.param


@pytest.fixture
def redis_index(redis_client, settings, index_kind):
    """The Redis index of that kind on REDIS_URL's database, emptied (skips without REDIS_URL)."""
    from leaderboard.index.histogram.index import HistogramBoardIndex
    from leaderboard.index.wiring import board_index

    index_reset()
    index = board_index()
    assert isinstance(index, HistogramBoardIndex) == (index_kind == "histogram")
    return index


@pytest.fixture
def celery_worker_env(index_kind) -> dict[str, str]:
    """A real worker (tests/conftest.py) uses the same kind of index as the test."""
    return {"LEADERBOARD_INDEX": index_kind}


@pytest.fixture
def frozen_now(monkeypatch):
    """The APIs' clock (boards, deals, replays, the daily deal, /api/me/), set to a moment
    (default: 2026-11-29 12:00 UTC, NOON)."""
    from yukon_site import clock

    def freeze(moment=dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)):
        monkeypatch.setattr(clock, "now", lambda: moment)

    freeze()
    return freeze
