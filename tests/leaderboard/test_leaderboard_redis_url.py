"""LEADERBOARD_REDIS_URL: the boards' index may live on a Redis of its own (no Redis needed here)."""

import pytest

from leaderboard.indexing import board_index, index_reset


@pytest.fixture
def urls(settings):
    """Set (REDIS_URL, LEADERBOARD_REDIS_URL); both come back before the leaderboard fixtures'
    clean-up, which connects to REDIS_URL."""
    kept = settings.REDIS_URL, settings.LEADERBOARD_REDIS_URL

    def use(redis_url, leaderboard_url):
        settings.REDIS_URL, settings.LEADERBOARD_REDIS_URL = redis_url, leaderboard_url
        index_reset()

    yield use
    settings.REDIS_URL, settings.LEADERBOARD_REDIS_URL = kept
    index_reset()


def index_address(index) -> tuple[str, int, int]:
    kwargs = index.client.connection_pool.connection_kwargs
    return kwargs["host"], kwargs["port"], kwargs["db"]


def test_the_index_follows_redis_url_when_its_own_url_is_unset(urls):
    urls("redis://127.0.0.1:6390/3", None)

    assert index_address(board_index()) == ("127.0.0.1", 6390, 3)


def test_the_index_uses_leaderboard_redis_url_when_set(urls):
    urls("redis://127.0.0.1:6390/3", "redis://127.0.0.1:6391/4")

    assert index_address(board_index()) == ("127.0.0.1", 6391, 4)


def test_its_own_url_alone_is_enough(urls):
    urls(None, "redis://127.0.0.1:6391/4")

    assert index_address(board_index()) == ("127.0.0.1", 6391, 4)


def test_no_url_at_all_means_sql(urls):
    urls(None, None)

    assert board_index() is None
