"""The index split by score (histogram.index) answers every call of the sorted sets'
index (leaderboard.index.sorted_sets) the same, on the same writes: pages from any cursor, around-me, ranks,
places, sizes and the entries ahead with a transaction's own writes counted, ties included.

Both indexes share Redis database 14 of REDIS_URL's server (emptied before and after), no other
test's; their keys never meet (prefixes lb and lbh).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from index_probes import own_database

from leaderboard.index.base import EntryDetails, IndexChange, IndexItem
from leaderboard.index.histogram import build as histogram_build
from leaderboard.index.histogram.index import HistogramBoardIndex
from leaderboard.index.sorted_sets import RedisBoardIndex

pytestmark = pytest.mark.stack

DATABASE = 14
BOARD = "classic:week:2026-W49"
T0 = 1_764_600_000
FACTOR, MAX_SECONDS = 10**10, 9_999_999_999


@pytest.fixture(scope="module")
def client():
    with own_database(DATABASE) as client:
        yield client


def key_of(score: int, seconds: int) -> int:
    return score * FACTOR + (MAX_SECONDS - seconds)


def indexes(client) -> tuple[RedisBoardIndex, HistogramBoardIndex]:
    client.flushdb()
    both = RedisBoardIndex(client), HistogramBoardIndex(client)
    for index in both:
        assert index.rebuild(BOARD, lambda: []) == 0
    return both


users = st.integers(min_value=1, max_value=25)
keys = st.builds(
    key_of, st.sampled_from([0, 2200, 6999, 7000, 7000, 7001, 99_999]), st.integers(T0, T0 + 2)
)  # few scores and seconds: many exact ties
changes = st.lists(
    st.tuples(st.sampled_from(["gt", "gt", "set", "del"]), users, keys, st.integers(1, 10**6)), max_size=40
)


def change(mode: str, user: int, key: int, submission: int) -> IndexChange:
    details = EntryDetails(submission, 90 + user, 1000 * user, "YU1-C-AAAAAAA") if mode != "del" else None
    return IndexChange(BOARD, user, mode, key if mode != "del" else 0, details)


@settings(max_examples=60, deadline=None)
@given(
    applied=changes,
    cursors=st.lists(st.tuples(keys, users), max_size=4),
    span=st.integers(min_value=0, max_value=4),
    pending=st.lists(st.tuples(users, keys), max_size=5, unique_by=lambda item: item[0]),
)
def test_both_indexes_answer_every_call_the_same(client, applied, cursors, span, pending):
    sorted_sets, split = indexes(client)
    for index in (sorted_sets, split):
        index.apply([change(*item) for item in applied])

    def same(read) -> None:
        assert read(sorted_sets) == read(split)

    same(lambda index: index.page(BOARD, limit=100))
    same(lambda index: index.page(BOARD, limit=3))
    for key, user in cursors:
        for mode in ("after", "before"):
            same(lambda index: index.page(BOARD, mode=mode, sort_key=key, user_id=user, limit=3))  # noqa: B023
    for user in range(1, 26):
        same(lambda index: index.around(BOARD, user_id=user, span=span))  # noqa: B023
        same(lambda index: index.rank(BOARD, user_id=user))  # noqa: B023
        same(lambda index: index.place(BOARD, user_id=user))  # noqa: B023
    # A transaction that wrote `pending` (not in Redis yet) asks for their places and the size.
    written = {BOARD: [IndexItem(user, key) for user, key in pending]}
    queries = {BOARD: [*written[BOARD], *(IndexItem(user, key) for key, user in cursors)]}
    if queries[BOARD]:
        same(lambda index: index.entries_ahead(queries, written=written))
    same(lambda index: index.sizes([BOARD], written={BOARD: [user for user, _ in pending]}))


def test_a_board_not_built_answers_none_everywhere_and_takes_no_write(client):
    client.flushdb()
    for index in (RedisBoardIndex(client), HistogramBoardIndex(client)):
        index.apply([change("gt", 1, key_of(7000, T0), 5)])
        assert not index.exists(BOARD) and index.built_boards() == []
        assert index.page(BOARD) is None
        assert index.around(BOARD, user_id=1) is None
        assert index.rank(BOARD, user_id=1) is None and index.place(BOARD, user_id=1) is None
        assert index.sizes([BOARD]) == {BOARD: None}
        assert index.entries_ahead({BOARD: [IndexItem(1, key_of(7000, T0))]}) == {BOARD: None}
    assert client.dbsize() == 0


def test_while_a_board_is_built_it_reads_as_not_built_and_keeps_the_writes(client, monkeypatch):
    client.flushdb()
    split = HistogramBoardIndex(client)
    monkeypatch.setattr(histogram_build, "LOAD_BATCH", 2)
    details = EntryDetails(7, 80, 90_000, "YU1-C-AAAAAAB")
    seen = []

    def rows():
        seen.append((split.exists(BOARD), split.page(BOARD), split.rank(BOARD, user_id=1)))
        split.apply([change("gt", 2, key_of(7100, T0), 20), change("del", 3, 0, 0)])  # meanwhile
        yield from [(key_of(6000, T0 + user), user, details) for user in (1, 2, 3, 4)]

    assert split.rebuild(BOARD, rows, expire_at=T0 * 2) == 2  # 2 and 3 were written meanwhile
    assert seen == [(True, None, None)]  # being built: read from SQL, and no second rebuild
    page = split.page(BOARD)
    assert [(item.user_id, item.sort_key // FACTOR) for item in page.items] == [
        (2, 7100),
        (1, 6000),
        (4, 6000),
    ]
    assert page.items[1].details == details and page.items[0].details.submission_id == 20
    assert split.built_boards() == [BOARD]
    ttls = {key.decode(): client.ttl(key) for key in client.scan_iter(match="lbh:*")}
    head = split.key(BOARD)
    assert all(ttl > 0 for ttl in ttls.values()), ttls  # every key of a board that expires
    assert all(ttl > ttls[head] for key, ttl in ttls.items() if key != head)  # the head goes first


def test_a_board_flushed_during_its_build_is_not_left_half_built(client):
    client.flushdb()
    split = HistogramBoardIndex(client)

    def rows():
        yield (key_of(6000, T0), 1, EntryDetails(1, 80, 90_000, "YU1-C-AAAAAAB"))
        client.flushdb()

    from leaderboard.index.base import IndexBuildLost

    with pytest.raises(IndexBuildLost):
        split.rebuild(BOARD, rows)
    assert not split.exists(BOARD)
