"""The boards' index split by score (leaderboard.index.histogram.board), for Redis Cluster: the interface of
leaderboard.index.RedisBoardIndex, so that leaderboard.index.wiring serves either.

Its keys are a board's head, score sets (with their details) and player records
(leaderboard/index/histogram/layout.py), under a prefix of their own (``lbh`` beside the sorted sets'
``lb``), so the two kinds of index never read each other's keys on one Redis. Every script and
every multi-key command stays within one hash slot.

"Built" means the head says ``ready``. A missing head, or a board being built, answers None
(not built: SQL answers); a build empties the board's keys and loads them again, since there is
no RENAME across slots, so the board is read from SQL meanwhile. Writes reach a board being
built and are kept by the build, as the sorted sets' rebuild keeps them; writes to a board not
built are skipped. A board's size is the head's total.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import redis
from redis.cluster import RedisCluster

from leaderboard.index.base import EntryDetails, IndexChange, IndexItem, IndexSlice
from leaderboard.index.histogram.board import READY, HistogramBoard, Row
from leaderboard.index.histogram.layout import key_parts, record_key, sort_key, text
from leaderboard.index.locks import RebuildLock


class HistogramBoardIndex(RebuildLock):
    def __init__(self, client: redis.Redis | RedisCluster, *, prefix: str = "lbh") -> None:
        self.client = client
        self.prefix = prefix
        self.boards = HistogramBoard(client, prefix=prefix)

    # --- keys -------------------------------------------------------------------------------

    def key(self, board: str) -> str:
        """The board's head (its lock is beside it)."""
        return self.boards.head_key(board)

    def built_boards(self) -> list[str]:
        """Boards with a head in Redis (every node of a cluster)."""
        boards = set()
        for key in self.client.scan_iter(match=f"{self.prefix}:{{*}}", count=1000):
            tagged = text(key)[len(self.prefix) + 2 : -1]
            if "|" not in tagged:  # a score set's or a shard's tag names its board and more
                boards.add(tagged)
        return sorted(boards)

    def exists(self, board: str) -> bool:
        return self.boards.state(board) is not None

    # --- writes -----------------------------------------------------------------------------

    def apply(self, changes: Iterable[IndexChange]) -> None:
        for change in changes:
            if change.mode == "del":
                self.boards.remove(change.board, user_id=change.user_id)
                continue
            score, seconds = key_parts(change.sort_key)
            self.boards.write(
                change.board,
                user_id=change.user_id,
                score=score,
                seconds=seconds,
                only_better=change.mode == "gt",
                details=change.details.encode() if change.details else "",
            )

    # --- reads: None when the board is not built ---------------------------------------------

    def page(
        self, board: str, *, mode: str = "first", sort_key: int = 0, user_id: int = 0, limit: int = 50
    ) -> IndexSlice | None:
        """The first page, or `limit` items right after / before the entry (sort_key, user_id)."""
        offset = 0
        if mode != "first":
            [(ahead, here, _state)] = self.boards.ahead([(board, sort_key, user_id)])
            if mode == "after":
                offset = ahead + here
            else:
                offset = ahead - limit
                if offset < 0:
                    limit, offset = limit + offset, 0
        state, count, rows = self.boards.window(board, offset=offset, limit=limit)
        if state != READY:
            return None
        if limit <= 0 or offset >= count:
            return IndexSlice(count, offset, [])
        return IndexSlice(count, offset, [_item(row) for row in rows])

    def around(self, board: str, *, user_id: int, span: int = 10) -> tuple[int | None, IndexSlice] | None:
        """(0-based rank or None when absent, the slice around it), or None for a board not built."""
        place, rows = self.boards.neighbourhood(board, user_id=user_id, span=span)
        if place.state != READY:
            return None
        if place.rank is None:
            return None, IndexSlice(place.count, 0, [])
        return place.rank - 1, IndexSlice(
            place.count, rows[0].rank - 1 if rows else 0, [_item(row) for row in rows]
        )

    def rank(self, board: str, *, user_id: int) -> int | None:
        """0-based rank, −1 when the player has no entry, or None for a board not built."""
        found = self.place(board, user_id=user_id)
        return None if found is None else found[0]

    def place(self, board: str, *, user_id: int) -> tuple[int, int] | None:
        """(0-based rank or −1 without an entry, entries on the board: the head's total), or None
        for a board not built."""
        place = self.boards.place(board, user_id=user_id)
        if place.state != READY:
            return None
        return (-1 if place.rank is None else place.rank - 1), place.count

    def sizes(
        self, boards: Iterable[str], *, written: dict[str, list[int]] | None = None
    ) -> dict[str, int | None]:
        """Entries on each board (the head's total), None for a board not built: one round trip.
        `written` (board → user ids) are entries the caller's open transaction wrote, which
        reach Redis only after its commit: those without a record yet count as if they were there."""
        written = written or {}
        boards = list(boards)
        pipe = self.client.pipeline(transaction=False)
        for board in boards:
            pipe.hmget(self.boards.head_key(board), ["state", "n"])
            for user_id in written.get(board, []):
                pipe.hget(self.boards.shard_key(board, user_id), str(user_id))
        answers = iter(pipe.execute())
        sizes: dict[str, int | None] = {}
        for board in boards:
            state, total = next(answers)
            coming = sum(1 for _ in written.get(board, []) if record_key(next(answers)) is None)
            sizes[board] = int(total or 0) + coming if state is not None and text(state) == READY else None
        return sizes

    def entries_ahead(
        self, queries: dict[str, list[IndexItem]], *, written: dict[str, list[IndexItem]] | None = None
    ) -> dict[str, list[int] | None]:
        """For each board, how many entries are ahead of each queried (sort_key, user_id): two
        round trips for all boards (the players' records; then the counts ahead).

        `written` are entries the caller's open transaction wrote, which reach Redis only after
        its commit: they count as if they were there, in place of what their records say. None
        for a board not built."""
        written = written or {}
        pairs = sorted(
            {(board, item.user_id) for board, items in queries.items() for item in items}
            | {
                (board, item.user_id)
                for board, items in written.items()
                if board in queries
                for item in items
            }
        )
        kept = dict(zip(pairs, self.boards.records(pairs), strict=True))
        asked = [(board, item.sort_key, item.user_id) for board, items in queries.items() for item in items]
        counted = iter(self.boards.ahead(asked))
        found: dict[str, list[int] | None] = {}
        for board, items in queries.items():
            answers = [next(counted) for _ in items]
            if any(state != READY for _ahead, _here, state in answers):
                found[board] = None
                continue
            found[board] = [
                ahead
                - _ahead_of(kept[(board, item.user_id)], item.user_id, item)
                + sum(
                    _ahead_of(other.sort_key, other.user_id, item)
                    - _ahead_of(kept[(board, other.user_id)], other.user_id, item)
                    for other in written.get(board, [])
                    if other.user_id != item.user_id
                )
                for item, (ahead, _here, _state) in zip(items, answers, strict=True)
            ]
        return found

    # --- rebuild ----------------------------------------------------------------------------

    def rebuild(
        self,
        board: str,
        rows: Callable[[], Iterable[tuple[int, int, EntryDetails]]],
        *,
        expire_at: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Build the board from `rows()` — (sort_key, user_id, details), read after the board is
        marked "building" — keeping the writes made meanwhile. Returns the entries loaded."""

        def loaded_rows() -> Iterator[tuple[int, int, int, str]]:
            for key, user_id, details in rows():
                score, seconds = key_parts(key)
                yield user_id, score, seconds, details.encode()

        return self.boards.build(board, loaded_rows(), expire_at=expire_at, progress=progress)

    def drop(self, board: str) -> None:
        self.boards.drop(board)
        self.client.delete(f"{self.key(board)}:lock")


def _ahead_of(key: int | None, user_id: int, item: IndexItem) -> int:
    """1 if the entry (key, user_id) sorts ahead of `item` (higher key, then the lower user id),
    else 0 (and for no entry)."""
    if key is None:
        return 0
    return int(key > item.sort_key or (key == item.sort_key and user_id < item.user_id))


def _item(row: Row) -> IndexItem:
    details = EntryDetails.decode(row.details) if row.details else None
    return IndexItem(row.user_id, sort_key(row.score, row.seconds), details)
