"""Boards split by score (leaderboard.index.histogram.board) on one Redis: ranks, pages, moves, rebuilds.

The property test plays random writes, raises and removals with many ties against a plain
sorted set keyed like today's index (sort key, complemented member) and compares every answer.
They use Redis database 13 of REDIS_URL's server (emptied before and after), no other test's.
"""

import time

import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st
from index_probes import own_database

from leaderboard.index.histogram import board as histogram
from leaderboard.index.histogram.board import HistogramBoard, Row, percentile
from leaderboard.index.sorted_sets import member_for as reference_member
from leaderboard.index.sorted_sets import user_for as reference_user

pytestmark = pytest.mark.stack

DATABASE = 13
BOARD = "classic:week:2026-W49"
REFERENCE = "reference"
T0 = 1_764_600_000  # 2025-12-01, epoch seconds


@pytest.fixture(scope="module")
def client():
    with own_database(DATABASE) as client:
        yield client


@pytest.fixture
def board(client):
    client.flushdb()
    boards = HistogramBoard(client, shard_size=4)
    boards.build(BOARD, [])
    return boards


def test_an_empty_board_is_built_and_empty(board):
    assert board.state(BOARD) == "ready"
    assert board.count(BOARD) == 0
    assert board.top(BOARD) == []
    assert board.rank(BOARD, user_id=1) is None
    assert board.around(BOARD, user_id=1) is None


def test_order_is_score_then_earlier_second_then_lower_id(board):
    board.write(BOARD, user_id=30, score=7100, seconds=T0 + 5)
    board.write(BOARD, user_id=20, score=7100, seconds=T0 + 5)
    board.write(BOARD, user_id=10, score=7100, seconds=T0 + 9)
    board.write(BOARD, user_id=40, score=7101, seconds=T0 + 99)
    board.write(BOARD, user_id=50, score=12, seconds=T0)

    assert [row.user_id for row in board.top(BOARD)] == [40, 20, 30, 10, 50]
    assert [board.rank(BOARD, user_id=user) for user in (40, 20, 30, 10, 50)] == [1, 2, 3, 4, 5]
    assert board.top(BOARD, offset=1, limit=2) == [
        Row(2, 20, 7100, T0 + 5),
        Row(3, 30, 7100, T0 + 5),
    ]
    assert board.count(BOARD) == 5


def test_a_better_entry_replaces_the_old_one_and_nothing_else_does(board):
    assert board.write(BOARD, user_id=1, score=7000, seconds=T0)
    assert not board.write(BOARD, user_id=1, score=6999, seconds=T0 - 100)  # lower
    assert not board.write(BOARD, user_id=1, score=7000, seconds=T0 + 1)  # same score, later
    assert board.write(BOARD, user_id=1, score=7000, seconds=T0 - 1)  # same score, earlier
    assert board.write(BOARD, user_id=1, score=7050, seconds=T0 + 50)

    assert board.entry(BOARD, user_id=1) == (7050, T0 + 50)
    assert board.count(BOARD) == 1
    assert board.client.exists(board.score_key(BOARD, 7000)) == 0  # left the old score set
    assert board.write(BOARD, user_id=1, score=10, seconds=T0, only_better=False)  # a rebuild of the player
    assert board.entry(BOARD, user_id=1) == (10, T0)


def test_removal_and_the_whole_score_range(board):
    board.write(BOARD, user_id=1, score=0, seconds=0)
    board.write(BOARD, user_id=2, score=99_999, seconds=T0)
    board.write(BOARD, user_id=3, score=1, seconds=T0)

    assert [row.score for row in board.top(BOARD)] == [99_999, 1, 0]
    assert board.remove(BOARD, user_id=2)
    assert not board.remove(BOARD, user_id=2)
    assert board.rank(BOARD, user_id=1) == 2
    assert board.count(BOARD) == 2
    with pytest.raises(ValueError):
        board.write(BOARD, user_id=4, score=100_000, seconds=T0)


def test_around_me_spans_score_sets(board):
    for user in range(1, 31):
        board.write(BOARD, user_id=user, score=7000 + user % 3, seconds=T0 + user % 5)
    ranked = board.top(BOARD, limit=100)

    assert len(ranked) == 30
    for row in ranked:
        around = board.around(BOARD, user_id=row.user_id, span=4)
        assert around == ranked[max(0, row.rank - 5) : row.rank + 4]


def test_percentile():
    assert percentile(rank=1, count=200) == 0.5
    assert percentile(rank=200, count=200) == 100.0
    with pytest.raises(ValueError):
        percentile(rank=0, count=10)


def test_writes_to_a_board_not_built_are_skipped(client):
    client.flushdb()
    board = HistogramBoard(client, shard_size=4)
    assert not board.write("classic:all", user_id=1, score=7000, seconds=T0)
    assert board.state("classic:all") is None
    assert client.dbsize() == 0


def test_a_rebuild_keeps_writes_made_during_it_and_removals(board):
    board.write(BOARD, user_id=1, score=5000, seconds=T0)

    def snapshot():
        # Read after the build started, as a query would: meanwhile a player rose and one left.
        board.write(BOARD, user_id=2, score=7100, seconds=T0 + 9)
        board.remove(BOARD, user_id=3)
        yield from [(1, 6000, T0), (2, 7000, T0), (3, 6500, T0), (4, 6000, T0 + 1)]

    assert board.build(BOARD, snapshot()) == 2  # 2 and 3 were written meanwhile: kept as written
    assert [(row.user_id, row.score) for row in board.top(BOARD)] == [(2, 7100), (1, 6000), (4, 6000)]
    assert board.count(BOARD) == 3
    assert board.state(BOARD) == "ready"


def test_a_move_cut_short_is_finished_by_the_next_write_or_repair(board, monkeypatch):
    board.write(BOARD, user_id=1, score=6000, seconds=T0)
    board.write(BOARD, user_id=2, score=6500, seconds=T0)
    monkeypatch.setattr(histogram, "LEASE_MS", 1)
    real = board._score_op

    def crash_on_enter(board_name, score, op, *args, **kwargs):
        if op == "enter":
            raise redis.ConnectionError("connection lost")
        return real(board_name, score, op, *args, **kwargs)

    monkeypatch.setattr(board, "_score_op", crash_on_enter)
    with pytest.raises(redis.ConnectionError):
        board.write(BOARD, user_id=1, score=7000, seconds=T0)
    with pytest.raises(redis.ConnectionError):
        board.write(BOARD, user_id=2, score=7000, seconds=T0)
    monkeypatch.setattr(board, "_score_op", real)
    monkeypatch.setattr(histogram, "LEASE_MS", 10_000)
    time.sleep(0.01)  # the crashed moves' leases (1 ms) are over

    assert board.rank(BOARD, user_id=1) is None  # in no score set: never in two
    assert board.write(BOARD, user_id=1, score=6900, seconds=T0)  # lower, but finishes the move
    assert board.repair(BOARD) == 1  # player 2
    assert board.top(BOARD) == [Row(1, 1, 7000, T0), Row(2, 2, 7000, T0)]
    assert board.count(BOARD) == 2


# --- the property test: the same answers as one sorted set keyed like today's index --------------

users = st.integers(min_value=1, max_value=40)
scores = st.sampled_from([0, 1, 2200, 6999, 7000, 7000, 7001, 7150, 99_999])
seconds = st.integers(min_value=T0, max_value=T0 + 3)  # few seconds: many exact ties
operations = st.lists(
    st.one_of(
        st.tuples(st.just("raise"), users, scores, seconds),
        st.tuples(st.just("set"), users, scores, seconds),
        st.tuples(st.just("remove"), users, st.just(0), st.just(0)),
    ),
    max_size=60,
)


def reference_apply(client, op: str, user: int, score: int, second: int) -> None:
    member = reference_member(user)
    if op == "remove":
        client.zrem(REFERENCE, member)
    else:
        key = histogram.sort_key(score, second)
        client.zadd(REFERENCE, {member: key}, gt=op == "raise")


@given(operations=operations, span=st.integers(min_value=0, max_value=5))
def test_ranks_pages_and_around_me_equal_a_sorted_set(client, operations, span):
    client.flushdb()
    board = HistogramBoard(client, shard_size=3)
    board.build(BOARD, [])
    for op, user, score, second in operations:
        reference_apply(client, op, user, score, second)
        if op == "remove":
            board.remove(BOARD, user_id=user)
        else:
            board.write(BOARD, user_id=user, score=score, seconds=second, only_better=op == "raise")

    expected = []
    for index, (member, key) in enumerate(client.zrevrange(REFERENCE, 0, -1, withscores=True)):
        score, rest = divmod(int(key), histogram.SCORE_FACTOR)
        expected.append(Row(index + 1, reference_user(member), score, histogram.MAX_EPOCH_SECONDS - rest))
    assert board.count(BOARD) == len(expected)
    assert board.top(BOARD, limit=100) == expected
    assert board.top(BOARD, offset=3, limit=7) == expected[3:10]
    for user in range(1, 41):
        found = client.zrevrank(REFERENCE, reference_member(user))
        assert board.rank(BOARD, user_id=user) == (None if found is None else found + 1)
        around = board.around(BOARD, user_id=user, span=span)
        if found is None:
            assert around is None
        else:
            assert around == expected[max(0, found - span) : found + span + 1]


def test_repair_sets_the_head_from_the_score_sets(board):
    for user in range(1, 6):
        board.write(BOARD, user_id=user, score=7000 + user % 2, seconds=T0)
    # The head misses changes it was never told of: a score set lost, a member added behind it.
    board.client.delete(board.score_key(BOARD, 7000))  # players 2 and 4
    board.client.zadd(board.score_key(BOARD, 7001), {histogram.member_for(9): T0 + 1})
    assert board.count(BOARD) == 5

    assert board.repair(BOARD) == 0
    assert board.count(BOARD) == 4
    assert board.top(BOARD) == [
        Row(1, 1, 7001, T0),
        Row(2, 3, 7001, T0),
        Row(3, 5, 7001, T0),
        Row(4, 9, 7001, T0 + 1),
    ]


def test_pipelined_scripts_unknown_to_redis_are_loaded_and_run_once(board):
    """Score sets are read by pipelined EVALSHA alone; a script Redis does not know (restarted,
    flushed) is loaded on its NOSCRIPT answer and the batch sent again."""
    import uuid

    from leaderboard.index.histogram import scripts as histogram_scripts

    for user in range(1, 9):
        board.write(
            BOARD, user_id=user, score=7000 + user % 3, seconds=T0, details=f"{user} 90 1000 YU1-C-AAAAAAA"
        )
    expected = board.top(BOARD, limit=8)
    board._range = board.client.register_script(
        histogram_scripts.RANGE + f"-- {uuid.uuid4()}"
    )  # never loaded
    assert not board.client.script_exists(board._range.sha)[0]

    assert board.top(BOARD, limit=8) == expected  # three score sets: one pipeline
    assert [row.details.split()[0] for row in expected] == [str(row.user_id) for row in expected]
    assert board.client.script_exists(board._range.sha)[0]
