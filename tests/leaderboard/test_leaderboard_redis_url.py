"""LEADERBOARD_REDIS_URL: the boards' index may live on a Redis of its own; LEADERBOARD_INDEX and
a cluster's address choose its kind (no Redis needed here)."""

import pytest

from leaderboard.index import wiring as indexing
from leaderboard.index.histogram.index import HistogramBoardIndex
from leaderboard.index.sorted_sets import RedisBoardIndex
from leaderboard.index.wiring import board_index, index_kind, index_reset


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


def test_one_sorted_set_a_board_by_default(urls, settings):
    urls("redis://127.0.0.1:6390/3", None)

    assert settings.LEADERBOARD_INDEX == "sorted_set"
    assert type(board_index()) is RedisBoardIndex and board_index().prefix == "lb"


def test_leaderboard_index_histogram_splits_the_boards_on_a_plain_redis(urls, settings):
    settings.LEADERBOARD_INDEX = "histogram"
    urls(None, "redis://127.0.0.1:6391/4")

    index = board_index()
    assert isinstance(index, HistogramBoardIndex) and index.prefix == "lbh"  # apart from the sorted sets
    assert index_address(index) == ("127.0.0.1", 6391, 4)
    settings.LEADERBOARD_INDEX = "sorted_set"
    assert type(board_index()) is RedisBoardIndex  # the setting is read at each call


def test_a_cluster_address_splits_the_boards_whatever_the_setting_says(urls, settings):
    assert settings.LEADERBOARD_INDEX == "sorted_set"
    assert index_kind("redis+cluster://127.0.0.1:7000") == "histogram"
    assert index_kind("redis://127.0.0.1:7000/0") == "sorted_set"


def test_an_unreachable_cluster_means_sql_for_a_moment(urls, caplog):
    urls(None, "redis+cluster://127.0.0.1:1")  # nothing listens there: the client cannot ask for slots

    assert board_index() is None
    assert indexing._down_until > 0 and "leaderboard index unreachable" in caplog.text
