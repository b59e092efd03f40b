"""Django side of the Redis index: which index and client, writes after commit, rebuilds from SQL.

Redis is optional: without LEADERBOARD_REDIS_URL (unset: REDIS_URL) every read is answered
by SQL. With it, a read that finds Redis unreachable, or the board's key missing, is answered
by SQL too; a missing key also starts one rebuild (a Celery task, claimed by a lock so it runs
once). A write that cannot reach Redis is noted in BoardRepair and a periodic task rebuilds
those boards.

Two kinds of index answer the same calls: one sorted set a board (leaderboard.index.sorted_sets, the
default) and boards split by score (leaderboard.index.histogram.index), which a Redis Cluster needs:
it is used for a ``redis+cluster://`` address, or when LEADERBOARD_INDEX is "histogram".
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable

import redis
from django.conf import settings
from django.db import transaction
from redis.exceptions import RedisClusterException

from leaderboard.boards import board_period
from leaderboard.index.base import BoardIndex, EntryDetails, IndexChange
from leaderboard.index.histogram.index import HistogramBoardIndex
from leaderboard.index.histogram.layout import CLUSTER_SCHEME, histogram_client
from leaderboard.index.sorted_sets import RedisBoardIndex
from leaderboard.models import BoardEntry, BoardRepair
from yukon_site.celery import task_named

logger = logging.getLogger(__name__)

# What a failing Redis raises; a cluster's client may also raise RedisClusterException, which is
# no RedisError (no node reachable, slots not covered).
INDEX_ERRORS = (redis.RedisError, RedisClusterException)
SORTED_SET, HISTOGRAM = "sorted_set", "histogram"

_index: BoardIndex | None = None
_index_for: tuple[str, str] | None = None  # (url, kind) of _index
_down_until = 0.0
DOWN_BACKOFF_SECONDS = 2.0  # after a failure, reads skip Redis this long instead of waiting on it
DEAL_BOARD_TTL = 7 * 24 * 3600  # a deal board's key is rebuilt on a read after a week
PERIOD_BOARD_RETENTION = 2 * 24 * 3600  # a finished week or day stays in Redis this long
BOARD_REBUILD = "leaderboard.board_rebuild"  # its task (leaderboard/tasks.py), sent by name


def index_redis_url() -> str | None:
    """The Redis of the boards' index: LEADERBOARD_REDIS_URL, or REDIS_URL when that is unset."""
    return settings.LEADERBOARD_REDIS_URL or settings.REDIS_URL


def index_kind(url: str) -> str:
    """HISTOGRAM for a cluster's address (``redis+cluster://``) or LEADERBOARD_INDEX = "histogram",
    else SORTED_SET."""
    return (
        HISTOGRAM if url.startswith(CLUSTER_SCHEME) or settings.LEADERBOARD_INDEX == HISTOGRAM else SORTED_SET
    )


def board_index() -> BoardIndex | None:
    """The index when its Redis is configured and did not just fail; else None (use SQL)."""
    global _index, _index_for
    url = index_redis_url()
    if not url or time.monotonic() < _down_until:
        return None
    wanted = (url, index_kind(url))
    if _index is None or _index_for != wanted:
        try:
            _index, _index_for = _index_connect(*wanted), wanted
        except INDEX_ERRORS as error:  # a cluster's client asks a node for the slots at once
            index_failed(error)
            return None
    return _index


def _index_connect(url: str, kind: str) -> BoardIndex:
    prefix = settings.LEADERBOARD_REDIS_PREFIX
    timeouts = {"socket_connect_timeout": 0.5, "socket_timeout": 2}
    if kind == HISTOGRAM:  # its keys apart from the sorted sets': lbh:{classic:all}, …
        return HistogramBoardIndex(histogram_client(url, **timeouts), prefix=f"{prefix}h")
    client = redis.Redis.from_url(url, **timeouts, health_check_interval=30)
    return RedisBoardIndex(client, prefix=prefix)


def index_failed(error: Exception) -> None:
    """Note a Redis failure: the next reads go to SQL for a moment."""
    global _down_until
    _down_until = time.monotonic() + DOWN_BACKOFF_SECONDS
    logger.warning("leaderboard index unreachable: %s", error)


def index_reset() -> None:
    """Forget the client and any failure (tests, and after a fork if needed)."""
    global _index, _index_for, _down_until
    _index, _index_for, _down_until = None, None, 0.0


# --- writes -----------------------------------------------------------------------------------


def index_changes_schedule(changes: list[IndexChange]) -> None:
    """Apply `changes` to Redis once the current transaction commits."""
    if changes and index_redis_url():
        transaction.on_commit(lambda: index_changes_apply(changes))


def index_changes_apply(changes: list[IndexChange]) -> None:
    index = board_index()
    try:
        if index is None:
            raise redis.ConnectionError("skipped: Redis failed a moment ago")
        index.apply(changes)
    except INDEX_ERRORS as error:
        index_failed(error)
        for board in sorted({change.board for change in changes}):
            BoardRepair.objects.update_or_create(board=board)


# --- reads --------------------------------------------------------------------------------------


def index_read(read: Callable[[BoardIndex], object | None], *, board: str) -> object | None:
    """`read(index)`, or None when it must be answered by SQL (no Redis, down, key missing)."""
    index = board_index()
    if index is None:
        return None
    try:
        answer = read(index)
    except INDEX_ERRORS as error:
        index_failed(error)
        return None
    if answer is None:
        index_board_missing(board)
    return answer


def index_board_missing(board: str) -> None:
    """Start one rebuild of a board whose key is missing (the lock makes it one)."""
    index = board_index()
    if index is None:
        return
    try:
        token = index.lock(board)
    except INDEX_ERRORS as error:
        index_failed(error)
        return
    if token is None:
        return  # a rebuild is already on its way
    try:
        task_named(BOARD_REBUILD).delay(board=board, lock_token=token)
    except Exception as error:  # the broker is down: let a later read try again
        logger.warning("could not start the rebuild of %s: %s", board, error)
        index.unlock(board, token)


# --- rebuild --------------------------------------------------------------------------------------


def board_expire_at(board: str, *, now: dt.datetime | None = None) -> int | None:
    """When a board's key should expire (epoch seconds), or None for never."""
    now = now or dt.datetime.now(dt.UTC)
    period = board_period(board)
    if period.kind == "all":
        return None
    if period.kind == "deal":
        return int(now.timestamp()) + DEAL_BOARD_TTL
    keep_until = period.ends_at + dt.timedelta(seconds=PERIOD_BOARD_RETENTION)
    return int(max(keep_until, now + dt.timedelta(days=1)).timestamp())


def board_rows(board: str) -> Iterable[tuple[int, int, EntryDetails]]:
    """Every (sort_key, user_id, details) of a board, in one query (one snapshot)."""
    rows = BoardEntry.objects.filter(board=board).values_list(
        "sort_key", "user_id", "submission_id", "moves", "duration_ms", "code"
    )
    for sort_key, user_id, submission_id, moves, duration_ms, code in rows.iterator(chunk_size=10_000):
        yield sort_key, user_id, EntryDetails(submission_id, moves, duration_ms, code)


def index_board_rebuild(
    *, board: str, lock_token: str | None = None, progress: Callable[[int], None] | None = None
) -> int | None:
    """Rebuild a board's Redis key from PostgreSQL; the entries loaded, or None when another
    rebuild holds the board (or Redis is not configured)."""
    index = board_index()
    if index is None:
        return None
    if lock_token is not None and not index.holds(board, lock_token):
        return None  # taken over meanwhile (rebuild_leaderboards --force)
    token = lock_token or index.lock(board)
    if token is None:
        return None
    try:
        return index.rebuild(
            board, lambda: board_rows(board), expire_at=board_expire_at(board), progress=progress
        )
    finally:
        index.unlock(board, token)
