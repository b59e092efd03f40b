"""Building and repairing a board split by score (leaderboard.index.histogram.board), with no RENAME.

There is no RENAME across slots: `build` empties the board's keys (but the score sets' versions,
which keep growing across builds), marks the head "building", and loads a snapshot shard by
shard: a record is set only where none exists (HSETNX), so a write made meanwhile wins over the
older snapshot and a removal's tombstone keeps the entry out; the players being loaded are
marked so that a move waits for them. Then every score set's count is stamped into the head
with a new version, and the head turns "ready" (only if it is still the one being built).
`repair` finishes moves cut short and sets the head from every score set's count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from leaderboard.index.base import IndexBuildLost, batches
from leaderboard.index.histogram.layout import (
    BUILDING,
    BoardLayout,
    WriteBusy,
    member_for,
    others_expire_at,
    sort_key,
    text,
)

LOAD_BATCH = 200_000


class BoardBuild(BoardLayout):
    """The rebuild side of leaderboard.histogram.HistogramBoard (which gives it `state`,
    `_move` and `_sync_counts`)."""

    def build(
        self,
        board: str,
        rows: Iterable[tuple[int, int, int] | tuple[int, int, int, str]],
        *,
        expire_at: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Load a board from (user_id, score, seconds[, details]) rows, read after this call
        started (a snapshot). Writes made meanwhile are kept: a player written during the build
        keeps that write. One build of a board at a time (the caller's lock). Its keys expire at
        `expire_at` (epoch seconds; None: never). Returns the entries loaded; raises
        IndexBuildLost if the board vanished meanwhile (Redis flushed)."""
        self._clear(board)
        head = self.head_key(board)
        self.client.hset(head, mapping={"state": BUILDING, **({"x": expire_at} if expire_at else {})})
        others_at = others_expire_at(expire_at)
        loaded, scores, shards = 0, set(), set()
        for batch in batches(rows, LOAD_BATCH):
            if self.state(board) != BUILDING:
                raise IndexBuildLost(f"the head of {board} vanished during the build")
            by_shard = defaultdict(list)
            for row in batch:
                by_shard[row[0] // self.shard_size].append(row)
            calls = []
            for shard_rows in by_shard.values():
                shard = self.shard_key(board, shard_rows[0][0])
                args = []
                for user_id, score, seconds, *_details in shard_rows:
                    args += [user_id, sort_key(score, seconds)]
                calls.append(([shard, f"{shard}:loading"], args))
            by_score, details_by_score = defaultdict(dict), defaultdict(dict)
            for shard_rows, taken in zip(by_shard.values(), self._run_many(self._load, calls), strict=True):
                for index in taken:
                    user_id, score, seconds, *details = shard_rows[int(index) - 1]
                    by_score[score][member_for(user_id)] = seconds
                    if details and details[0]:
                        details_by_score[score][member_for(user_id)] = details[0]
            pipe = self._pipeline()
            for score, members in by_score.items():
                pipe.zadd(self.score_key(board, score), members)
            for score, kept in details_by_score.items():
                pipe.hset(f"{self.score_key(board, score)}:d", mapping=kept)
            for shard_rows in by_shard.values():
                shard = self.shard_key(board, shard_rows[0][0])
                pipe.delete(f"{shard}:loading")
                shards.add(shard)
            pipe.execute()
            loaded += sum(len(members) for members in by_score.values())
            scores.update(by_score)
            if progress:
                progress(loaded)
        self._stamp(board, scores, expire=others_at)
        if others_at:
            self._each(lambda pipe, shard: pipe.expireat(shard, others_at), sorted(shards))
        if not self._ready(keys=[head], args=[expire_at or ""]):
            raise IndexBuildLost(f"the head of {board} vanished during the build")
        return loaded

    def repair(self, board: str) -> int:
        """Finish moves cut short (records still naming pending scores, lease expired) and set
        the head from every score set's count. Returns the players settled."""
        settled = 0
        for key in list(self._scan(f"{{{board}|p*}}")):
            for user_id, record in self.client.hscan_iter(key, count=1000):
                words = text(record).split()
                if len(words) > 1:
                    try:
                        mode = "del" if words[0] == "d" else "set"
                        settled += self._move(board, int(user_id), mode, "" if mode == "del" else words[0])
                    except WriteBusy:
                        pass  # a move in progress finishes itself
        scores = {key.rsplit("|s", 1)[1].rstrip("}") for key in self._scan(f"{{{board}|s*}}")}
        for field, count in self.client.hscan_iter(self.head_key(board), match="c*", count=1000):
            if int(count):  # counted by the head, though its set may be gone
                scores.add(text(field)[1:])
        self._stamp(board, scores, expire=others_expire_at(self.client.hget(self.head_key(board), "x")))
        return settled

    def _stamp(self, board: str, scores: Iterable, *, expire: str = "") -> None:
        """Give the head each score's count as it is now (a new version: older syncs lose)."""
        scores = [str(score) for score in scores]
        calls = []
        for score in scores:
            key = self.score_key(board, score)
            calls.append(([key, f"{key}:v", f"{key}:d"], ["stamp", "", 0, "", expire]))
        answers = self._run_many(self._score_set, calls)
        counts = [
            (score, int(count), int(version)) for score, (count, version) in zip(scores, answers, strict=True)
        ]
        for start in range(0, len(counts), 500):
            self._sync_counts(board, counts[start : start + 500])

    def _clear(self, board: str) -> None:
        """Every key of the board but the score sets' versions (they keep growing across builds)."""
        keys = [key for key in self._scan(f"{{{board}|*") if not key.endswith(":v")]
        self._each(lambda pipe, key: pipe.delete(key), [*keys, self.head_key(board)])

    def drop(self, board: str) -> None:
        """Forget the board entirely."""
        self._clear(board)
        self._each(lambda pipe, key: pipe.delete(key), list(self._scan(f"{{{board}|s*}}:v")))
